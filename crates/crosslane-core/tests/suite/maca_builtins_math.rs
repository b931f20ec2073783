//! Seed 002 §3.5 and §3.7 arithmetic builtins through the request path.

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

fn text(step: &Step, lane: usize) -> String {
    step.results[lane].value.expect("value").to_string()
}

/// §3.5.1 example `d[0] = pk_fma_f32(a[0], b[0], c[0])`, one element per lane view.
#[test]
fn pk_fma_f32_example() {
    let s = run(
        "__builtin_mxc_pk_fma_f32",
        "lane",
        "f32",
        &[("b", "2"), ("c", "0.5")],
    )
    .unwrap();
    assert_eq!(text(&s, 3), "6.5");
    // Fused: (1 + 2^-12)^2 - 1 keeps the 2^-24 term.
    let x = "1.000244140625";
    let s = run(
        "__builtin_mxc_pk_fma_f32",
        x,
        "f32",
        &[("b", x), ("c", "-1")],
    )
    .unwrap();
    let d = f32::from_bits(s.results[0].value.unwrap().bits as u32);
    assert_eq!(d, 2f32.powi(-11) + 2f32.powi(-24));
}

/// §3.5.2 / §3.5.3: both halves of the pair; xcore1500+ only.
#[test]
fn pk_fma_half_pairs() {
    let s = run(
        "__builtin_mxc_pk_fma_f16",
        "1.5:-2",
        "f16x2",
        &[("b", "2:3"), ("c", "0.25:1")],
    )
    .unwrap();
    assert_eq!(text(&s, 0), "3.25:-5");
    let s = run(
        "__builtin_mxc_pk_fma_bf16",
        "1.5:-2",
        "bf16x2",
        &[("b", "2:3"), ("c", "0.25:1")],
    )
    .unwrap();
    assert_eq!(text(&s, 0), "3.25:-5");
    let e = run(
        "__builtin_mxc_pk_fma_f16",
        "1:1",
        "f16x2",
        &[("arch", "xcore1080")],
    )
    .unwrap_err();
    assert!(e.message.contains("3.5.3"), "{}", e.message);
}

/// §3.5.4 example `d[0] = fma_bf16(a[0], b[0], c[0])`: bf16 has 8 significant bits.
#[test]
fn fma_bf16_example() {
    let s = run(
        "__builtin_mxc_fma_bf16",
        "3",
        "bf16",
        &[("b", "3"), ("c", "0.5")],
    )
    .unwrap();
    assert_eq!(text(&s, 0), "9.5");
    // 257 is not a bf16: 255 + 2 = 257 rounds (ties to even) to 256.
    let s = run(
        "__builtin_mxc_fma_bf16",
        "255",
        "bf16",
        &[("b", "1"), ("c", "2")],
    )
    .unwrap();
    assert_eq!(text(&s, 0), "256");
}

/// §3.7.1 examples: 32-bit factors, 64-bit addend, no overflow at 32 bits.
#[test]
fn mad_wide_examples() {
    let s = run(
        "__builtin_mxc_mad_wide_i32",
        "-2147483648",
        "i32",
        &[("b", "2"), ("c", "5")],
    )
    .unwrap();
    assert_eq!(text(&s, 0), "-4294967291");
    let s = run(
        "__builtin_mxc_mad_wide_u32",
        "4294967295",
        "u32",
        &[("b", "4294967295"), ("c", "1")],
    )
    .unwrap();
    assert_eq!(text(&s, 0), "18446744065119617026");
    let s = run(
        "__builtin_mxc_mad_wide_u32",
        "lane",
        "u32",
        &[("b", "65536"), ("c", "lane")],
    )
    .unwrap();
    assert_eq!(text(&s, 3), "196611");
}

/// §3.7.2 / §3.7.3 examples: output[idx] = pk_mul/pk_add(input[idx], output[idx]).
#[test]
fn pk_mul_add_examples() {
    let s = run("__builtin_mxc_pk_mul_f32", "lane", "f32", &[("b", "0.5")]).unwrap();
    assert_eq!(text(&s, 5), "2.5");
    let s = run("__builtin_mxc_pk_add_f32", "lane", "f32", &[("b", "0.5")]).unwrap();
    assert_eq!(text(&s, 5), "5.5");
}

/// §3.7.7–3.7.12: radians; rcp, sqrt, rsq; log2 clamped to [0, 1].
#[test]
fn unary_builtins() {
    assert_eq!(
        text(&run("__builtin_mxc_cosf", "0", "f32", &[]).unwrap(), 0),
        "1"
    );
    assert_eq!(
        text(&run("__builtin_mxc_sinh", "0", "f16", &[]).unwrap(), 0),
        "0"
    );
    assert_eq!(
        text(&run("__builtin_mxc_rcpf", "4", "f32", &[]).unwrap(), 0),
        "0.25"
    );
    assert_eq!(
        text(&run("__builtin_mxc_rcph", "0", "f16", &[]).unwrap(), 0),
        "inf"
    );
    assert_eq!(
        text(&run("__builtin_mxc_sqrtf", "9", "f32", &[]).unwrap(), 0),
        "3"
    );
    assert_eq!(
        text(&run("__builtin_mxc_sqrth", "-1", "f16", &[]).unwrap(), 0),
        "NaN"
    );
    assert_eq!(
        text(&run("__builtin_mxc_rsqf", "0.25", "f32", &[]).unwrap(), 0),
        "2"
    );
    assert_eq!(
        text(&run("__builtin_mxc_rsqh", "0", "f16", &[]).unwrap(), 0),
        "inf"
    );
    let log = run("__builtin_mxc_log_clampf", "lane", "f32", &[]).unwrap();
    assert_eq!(text(&log, 0), "0");
    assert_eq!(text(&log, 1), "0");
    assert_eq!(text(&log, 2), "1");
    assert_eq!(text(&log, 9), "1");
    assert_eq!(
        f32::from_bits(log.results[1].value.unwrap().bits as u32),
        0.0
    );
}
