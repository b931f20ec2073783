//! Seed 002 §3.3 conversions through the request path.

use crate::common;

use crosslane_core::Step;

fn run(
    op: &str,
    values: &str,
    ty: &str,
    params: &[(&str, &str)],
) -> Result<Step, crosslane_core::InputError> {
    common::maca(op, values, ty, "", params).run()
}

fn bits(step: &Step, lane: usize) -> u64 {
    step.results[lane].value.expect("value").bits
}

/// §3.3.2 example: four calls fill out[0] byte by byte with a, b, c, d, whatever it held.
#[test]
fn cvt_pk_f32tou8_example_packs_four_bytes() {
    let mut word = 0xdead_beef_u64;
    for (index, x) in ["1.0", "2.4", "3.5", "300"].iter().enumerate() {
        let s = run(
            "__builtin_mxc_cvt_pk_f32tou8",
            x,
            "f32",
            &[("src1", &index.to_string()), ("src2", &word.to_string())],
        )
        .unwrap();
        word = bits(&s, 0);
    }
    // 1.0 → 1, 2.4 → 2, 3.5 → 4 (ties to even), 300 → 255 (saturated).
    assert_eq!(word, 0xff04_0201);
}

/// Negative and NaN sources give 0; only src1 bits [1:0] choose the byte.
#[test]
fn cvt_pk_f32tou8_edges() {
    let s = run(
        "__builtin_mxc_cvt_pk_f32tou8",
        "-3",
        "f32",
        &[("src1", "5"), ("src2", "0xffffffff")],
    )
    .unwrap();
    assert_eq!(bits(&s, 0), 0xffff_00ff);
    let n = run(
        "cvt_pk_f32tou8",
        "nan",
        "f32",
        &[("src1", "0"), ("src2", "0x11111111")],
    )
    .unwrap();
    assert_eq!(bits(&n, 0), 0x1111_1100);
}

/// §3.3.3 example: out[0..4] = b0..b3_cast_to_f32(in[0]).
#[test]
fn byte_casts_example() {
    let input = "0x04c80201";
    let expect = [1.0f32, 2.0, 200.0, 4.0];
    for (n, want) in expect.iter().enumerate() {
        let op = format!("__builtin_mxc_b{n}_cast_to_f32");
        let s = run(&op, input, "i32", &[]).unwrap();
        assert_eq!(f32::from_bits(bits(&s, 7) as u32), *want, "{op}");
    }
}

/// §3.3.1: tf32 keeps 10 mantissa bits (nearest even) and needs xcore1500+.
#[test]
fn cvt_f32totf32_rounds_and_is_arch_limited() {
    let s = run("__builtin_mxc_cvt_f32totf32", "0x3f801000", "f32", &[]).unwrap();
    assert_eq!(bits(&s, 0), 0x3f80_0000, "tie rounds to even");
    let s = run("__builtin_mxc_cvt_f32totf32", "0x3f803000", "f32", &[]).unwrap();
    assert_eq!(bits(&s, 0), 0x3f80_4000, "tie rounds to even (up)");
    let s = run("__builtin_mxc_cvt_f32totf32", "0x3f801001", "f32", &[]).unwrap();
    assert_eq!(bits(&s, 0), 0x3f80_2000, "above the tie rounds up");
    let e = run(
        "__builtin_mxc_cvt_f32totf32",
        "1",
        "f32",
        &[("arch", "xcore1000")],
    )
    .unwrap_err();
    assert_eq!(e.field, "arch");
    assert!(
        e.message.contains("xcore1500") && e.message.contains("3.3.1"),
        "{}",
        e.message
    );
}
