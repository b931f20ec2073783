//! Seed 002 §3.6 warp MMA: the result matrix and the lane layout (AMD MFMA layouts).

use crate::common;

use crosslane_core::dialect::maca::mma::{compute, pack, spec_of, unpack};
use crosslane_core::dialect::maca::mma_layout::{layout_of, Matrix};
use crosslane_core::Step;
use proptest::prelude::*;

fn run(op: &str, params: &[(&str, &str)]) -> Result<Step, crosslane_core::InputError> {
    common::maca(op, "", "", "", params).run()
}

fn num(step: &Step, lane: usize) -> f64 {
    let v = step.results[lane].value.expect("value");
    v.as_f64().expect("scalar")
}

/// §3.6.2 `d = mma_16x16x4f32(a, b, c)`: A[i][k] = 4i + k, B = 1, C = 0 → D[i][j] = 16i + 6.
/// Lane 19 register 1 holds D[5][3] (AMD v_mfma_f32_16x16x4f32: lane 16·⌊i/4⌋ + j, reg i mod 4).
#[test]
fn mma_16x16x4f32_example() {
    let s = run(
        "__builtin_mxc_mma_16x16x4f32",
        &[("a", "index"), ("b", "1"), ("c", "0"), ("reg", "1")],
    )
    .unwrap();
    assert_eq!(num(&s, 19), 86.0);
    assert_eq!(s.results[19].why.as_deref(), Some("D[5][3]"));
    let s = run(
        "__builtin_mxc_mma_16x16x4f32",
        &[("a", "index"), ("c", "0.5"), ("reg", "0")],
    )
    .unwrap();
    assert_eq!(num(&s, 0), 6.5, "D[0][0] = 0+1+2+3 + 0.5");
}

/// §3.6.1 / §3.6.5: f16 and bf16 inputs with C = index: D = rowsum(A) + C.
#[test]
fn mma_half_shapes() {
    for op in [
        "__builtin_mxc_mma_16x16x16f16",
        "__builtin_mxc_mma_16x16x16bf16",
    ] {
        let s = run(
            op,
            &[("a", "0.5"), ("b", "2"), ("c", "index"), ("reg", "3")],
        )
        .unwrap();
        // lane 17, reg 3 → D[7][1]; D = 16·0.5·2 + (7·16 + 1) = 16 + 113.
        assert_eq!(num(&s, 17), 129.0, "{op}");
    }
}

/// §3.6.6 f64: the 64-bit output layout differs (lane 16·(i mod 4) + j, register ⌊i/4⌋).
#[test]
fn mma_16x16x4f64_layout_and_fma() {
    let s = run(
        "__builtin_mxc_mma_16x16x4f64",
        &[("a", "index"), ("b", "1"), ("c", "0"), ("reg", "1")],
    )
    .unwrap();
    assert_eq!(s.results[35].why.as_deref(), Some("D[6][3]"));
    assert_eq!(num(&s, 35), 6.0 * 16.0 + 6.0);
}

/// §3.6.3 / §3.6.4: int8 shapes and their architecture limits.
#[test]
fn mma_int8_shapes_and_arch() {
    let s = run(
        "__builtin_mxc_mma_16x16x16i8",
        &[("a", "-128"), ("b", "127"), ("c", "7")],
    )
    .unwrap();
    assert_eq!(num(&s, 0), (-128.0 * 127.0) * 16.0 + 7.0);
    let e = run("__builtin_mxc_mma_16x16x16i8", &[("arch", "xcore1500")]).unwrap_err();
    assert_eq!(e.field, "arch");
    assert!(
        e.message.contains("< xcore1500") && e.message.contains("3.6.3"),
        "{}",
        e.message
    );
    let s = run("__builtin_mxc_mma_16x16x32i8", &[("a", "2"), ("b", "3")]).unwrap();
    assert_eq!(num(&s, 63), 2.0 * 3.0 * 32.0);
    let e = run("__builtin_mxc_mma_16x16x32i8", &[("arch", "xcore1080")]).unwrap_err();
    assert!(
        e.message.contains(">= xcore1500") && e.message.contains("3.6.4"),
        "{}",
        e.message
    );
    let e = run("__builtin_mxc_mma_16x16x32i8", &[("a", "128")]).unwrap_err();
    assert!(e.field.starts_with("a["), "{}", e.field);
    assert!(e.message.contains("-128..=127"), "{}", e.message);
}

/// §3.6.7 tf32: the low 13 mantissa bits of each input are ignored.
#[test]
fn mma_tf32_truncates_inputs() {
    let x = 1.0 + 2f64.powi(-11);
    let s = run(
        "__builtin_mxc_mma_16x16x8tf32",
        &[("a", &x.to_string()), ("b", "1"), ("c", "0")],
    )
    .unwrap();
    assert_eq!(num(&s, 0), 8.0);
    let s = run(
        "__builtin_mxc_mma_16x16x4f32",
        &[("a", &x.to_string()), ("b", "1"), ("c", "0")],
    )
    .unwrap();
    assert_eq!(num(&s, 0), 4.0 * x);
}

/// A matrix of the wrong size names the field and the expected count.
#[test]
fn mma_matrix_size_error() {
    let e = run("__builtin_mxc_mma_16x16x4f32", &[("a", "1,2,3")]).unwrap_err();
    assert_eq!(e.field, "a");
    assert!(e.message.contains("16×4 = 64"), "{}", e.message);
}

proptest! {
    /// Packing into lanes, computing from registers and unpacking equals the plain product.
    #[test]
    fn registers_compute_the_matrix_product(
        a in proptest::collection::vec(-8i32..8, 16 * 4),
        b in proptest::collection::vec(-8i32..8, 4 * 16),
        c in proptest::collection::vec(-100i32..100, 256),
    ) {
        let spec = spec_of("__builtin_mxc_mma_16x16x4f32").unwrap();
        let layout = layout_of(spec.name).unwrap();
        let f = |v: &Vec<i32>| v.iter().map(|&x| x as f64).collect::<Vec<f64>>();
        let (a, b, c) = (f(&a), f(&b), f(&c));
        let d = compute(spec, layout, &pack(layout, Matrix::A, &a), &pack(layout, Matrix::B, &b), &pack(layout, Matrix::C, &c));
        let d = unpack(layout, Matrix::D, &d);
        for i in 0..16 {
            for j in 0..16 {
                let want: f64 = (0..4).map(|k| a[i * 4 + k] * b[k * 16 + j]).sum::<f64>() + c[i * 16 + j];
                prop_assert_eq!(d[i * 16 + j], want);
            }
        }
    }
}
