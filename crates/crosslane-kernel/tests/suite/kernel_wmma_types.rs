//! `nvcuda::wmma` beyond `half`: `precision::tf32` (m16n16k8, with `__float_to_tf32`) and
//! `double` (m8n8k4) fragments (CUDA C++ Programming Guide, "Warp Matrix Functions",
//! "Element Types and Matrix Sizes"), PTX `cvt.rna.tf32.f32` in inline asm (PTX ISA, cvt),
//! and a fragment's `x` in the trace as each lane's elements.
//!
//! Expected values are computed here with exact `f64` arithmetic on inputs whose tf32
//! roundings were worked out in Python (`struct` bit arithmetic: add 0x1000 to the f32 bits'
//! magnitude and clear the low 13 bits), and a few cells are written out from Python.

use crate::support::{floats, has, ints, launch, run_finished};
use crosslane_core::op::Dialect;
use crosslane_core::result::Level;
use crosslane_kernel::KVal;

/// `v · (1 + 2⁻¹¹)` for `v = (3i + k) mod 7 − 3`: a float that is not a tf32 value (for
/// v ≠ 0), `rows` × `cols` row-major.
fn a_tf32_input(rows: usize, cols: usize) -> Vec<f64> {
    (0..rows * cols)
        .map(|e| {
            let v = ((3 * (e / cols) + e % cols) % 7) as f64 - 3.0;
            v * (1.0 + 2f64.powi(-11))
        })
        .collect()
}

/// `__float_to_tf32` of [`a_tf32_input`]'s values, from Python: ±(1 + 2⁻¹¹) is a tie between
/// 1 and 1 + 2⁻¹⁰ and rounds away to ±1.0009765625; ±2.0009765625 (a tie) to ±2.001953125;
/// ±3.00146484375 (0.75 ulp above 3) to ±3.001953125.
fn tf32_of(x: f64) -> f64 {
    let m = x.abs();
    let r: f64 = if m == 0.0 {
        0.0
    } else if m < 1.5 {
        1.0009765625
    } else if m < 2.5 {
        2.001953125
    } else {
        3.001953125
    };
    r.copysign(x)
}

/// `B[k][j] = (k + 2j) mod 5 − 2`: small integers, tf32 values already.
fn b_small(rows: usize, cols: usize) -> Vec<f64> {
    (0..rows * cols)
        .map(|e| ((e / cols + 2 * (e % cols)) % 5) as f64 - 2.0)
        .collect()
}

fn list(v: &[f64]) -> String {
    v.iter().map(f64::to_string).collect::<Vec<_>>().join(",")
}

const TF32: &str = r#"#include <mma.h>
using namespace nvcuda;
__global__ void gemm(const float* a, const float* b, float* d) {
  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  wmma::load_matrix_sync(fa, a, 8);
  wmma::load_matrix_sync(fb, b, 16);
  for (int i = 0; i < fa.num_elements; i++) fa.x[i] = wmma::__float_to_tf32(fa.x[i]);
  for (int i = 0; i < fb.num_elements; i++) fb.x[i] = wmma::__float_to_tf32(fb.x[i]);
  wmma::mma_sync(acc, fa, fb, acc);
  float first = acc.x[0];
  wmma::store_matrix_sync(d, acc, 16, wmma::mem_row_major);
}
"#;

fn tf32_config() -> crosslane_kernel::LaunchConfig {
    let (a, b) = (a_tf32_input(16, 8), b_small(8, 16));
    launch(
        Dialect::Cuda,
        32,
        &[
            ("a", 128, &list(&a)),
            ("b", 128, &list(&b)),
            ("d", 256, "zero"),
        ],
    )
}

#[test]
fn tf32_gemm_rounds_inputs_ties_away_and_sums_exactly() {
    let t = run_finished(TF32, tf32_config());
    let (a, b) = (a_tf32_input(16, 8), b_small(8, 16));
    let mut want = vec![0.0; 256];
    for i in 0..16 {
        for j in 0..16 {
            want[i * 16 + j] = (0..8).map(|k| tf32_of(a[i * 8 + k]) * b[k * 16 + j]).sum();
        }
    }
    // Python (exact fractions of the tf32 values): row 0 begins 3.001953125, -8.0068359375,
    // 1.00390625, -5.0048828125, 9.005859375; D[5][9] = -4.0029296875. Rounding ties to even
    // instead would give D[0][1] = -8.001953125.
    assert_eq!(
        &want[..5],
        &[
            3.001953125,
            -8.0068359375,
            1.00390625,
            -5.0048828125,
            9.005859375
        ]
    );
    assert_eq!(want[5 * 16 + 9], -4.0029296875);
    let got = floats(&t, "d");
    assert_eq!(got, want.iter().map(|&x| Some(x)).collect::<Vec<_>>());
}

#[test]
fn tf32_inputs_not_converted_leave_d_undefined_with_the_rule() {
    // The Guide: "the input matrices must be manually converted to tf32 precision".
    let src = TF32
        .replace(
            "  for (int i = 0; i < fa.num_elements; i++) fa.x[i] = wmma::__float_to_tf32(fa.x[i]);\n",
            "",
        )
        .replace(
            "  for (int i = 0; i < fb.num_elements; i++) fb.x[i] = wmma::__float_to_tf32(fb.x[i]);\n",
            "",
        );
    let t = crosslane_kernel::run_kernel(&src, tf32_config()).expect("runs");
    // Every row of A holds a non-zero v·(1 + 2⁻¹¹), so every D element reads one.
    assert!(floats(&t, "d").iter().all(Option::is_none));
    // The rule reaches the user as a warning (a fragment element stored undefined keeps no
    // reason in its cell).
    assert!(has(&t, Level::Warning, "manually converted to tf32"));
    // At the user's `mma_sync` call (line 10 once the two conversion loops are gone), not at
    // the `#include` line the header's text stands on.
    let lines: Vec<u32> = t
        .all_diagnostics()
        .filter(|d| d.message.contains("manually converted to tf32"))
        .map(|d| d.line)
        .collect();
    assert!(
        !lines.is_empty() && lines.iter().all(|&l| l == 10),
        "{lines:?}"
    );
    assert!(matches!(t.value_of("first", 0, 0), Some(Err(_))));
}

#[test]
fn double_m8n8k4_with_c_from_memory() {
    let src = r#"#include <mma.h>
using namespace nvcuda;
__global__ void dgemm(const double* a, const double* b, double* c) {
  wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 8, 8, 4, double> fc;
  wmma::load_matrix_sync(fa, a, 4);
  wmma::load_matrix_sync(fb, b, 4);
  wmma::load_matrix_sync(fc, c, 8, wmma::mem_row_major);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 8, wmma::mem_row_major);
}
"#;
    // A[i][k] = (i + 2k) mod 3 − 0.5; B[k][j] = (k + j) mod 4 − 2 given column-major
    // (b[j*4 + k]); C[i][j] = i − j.
    let a: Vec<f64> = (0..32)
        .map(|e| ((e / 4 + 2 * (e % 4)) % 3) as f64 - 0.5)
        .collect();
    let bm = |k: usize, j: usize| ((k + j) % 4) as f64 - 2.0;
    let b_cols: Vec<f64> = (0..32).map(|e| bm(e % 4, e / 4)).collect();
    let c: Vec<f64> = (0..64).map(|e| (e / 8) as f64 - (e % 8) as f64).collect();
    let t = run_finished(
        src,
        launch(
            Dialect::Cuda,
            32,
            &[
                ("a", 32, &list(&a)),
                ("b", 32, &list(&b_cols)),
                ("c", 64, &list(&c)),
            ],
        ),
    );
    let want: Vec<f64> = (0..64)
        .map(|e| {
            let (i, j) = (e / 8, e % 8);
            (0..4).map(|k| a[i * 4 + k] * bm(k, j)).sum::<f64>() + c[e]
        })
        .collect();
    // Python: D[0] = [-1, 1, -1, -7, -5, -3, -5, -11]; D[7] = [7, 6, 1, 4, 3, 2, -3, 0].
    assert_eq!(
        &want[..8],
        &[-1.0, 1.0, -1.0, -7.0, -5.0, -3.0, -5.0, -11.0]
    );
    assert_eq!(&want[56..], &[7.0, 6.0, 1.0, 4.0, 3.0, 2.0, -3.0, 0.0]);
    assert_eq!(
        floats(&t, "c"),
        want.iter().map(|&x| Some(x)).collect::<Vec<_>>()
    );
}

#[test]
fn ptx_cvt_rna_tf32_and_float_to_tf32_agree() {
    let src = r#"#include <mma.h>
__global__ void k(const float* x, unsigned int* t, float* y) {
  unsigned int r;
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x[threadIdx.x]));
  t[threadIdx.x] = r;
  y[threadIdx.x] = nvcuda::wmma::__float_to_tf32(x[threadIdx.x]);
}
"#;
    let t = run_finished(
        src,
        launch(
            Dialect::Cuda,
            4,
            &[
                ("x", 4, "1.00048828125,-1.00048828125,0.1,3"),
                ("t", 4, "zero"),
                ("y", 4, "zero"),
            ],
        ),
    );
    // Python: 1 + 2⁻¹¹ = 0x3f801000 ties away to 0x3f802000; 0.1f = 0x3dcccccd → 0x3dccc000
    // (0.0999755859375); 3.0 is a tf32 value.
    assert_eq!(
        ints(&t, "t"),
        [
            Some(0x3f80_2000),
            Some(0xbf80_2000),
            Some(0x3dcc_c000),
            Some(0x4040_0000)
        ]
    );
    assert_eq!(
        floats(&t, "y"),
        [
            Some(1.0009765625),
            Some(-1.0009765625),
            Some(0.0999755859375),
            Some(3.0)
        ]
    );
}

#[test]
fn a_fragments_x_shows_as_the_lanes_elements() {
    let t = run_finished(TF32, tf32_config());
    // crosslane's mapping: lane 1 of the 16×16 accumulator holds D[0][8..16], which repeat
    // D[0][3..8] with period 5 (B's columns repeat every 5): from Python,
    // -5.0048828125, 9.005859375, 3.001953125, -8.0068359375, 1.00390625, -5.0048828125,
    // 9.005859375, 3.001953125.
    let want = [
        -5.0048828125,
        9.005859375,
        3.001953125,
        -8.0068359375,
        1.00390625,
        -5.0048828125,
        9.005859375,
        3.001953125,
    ];
    let Some(Ok(KVal::Vector { items, .. })) = t.value_of("acc.x", 0, 1) else {
        panic!(
            "acc.x is not shown as elements: {:?}",
            t.value_of("acc.x", 0, 1)
        );
    };
    let got: Vec<f64> = items.iter().filter_map(KVal::as_f64).collect();
    assert_eq!(got, want);
    // The step of the declaration shows the elements as not yet written, and a later step
    // shows them changed (the JSON's "changes" carry numbers, not a pointer).
    let json = serde_json::to_string(&t).expect("json");
    assert!(!json.contains("\"name\":\"acc.x\",\"values\":[{\"text\":\"&buffer"));
    let changed = t
        .steps
        .iter()
        .flat_map(|s| t.changes(s))
        .filter(|c| c.name == "acc.x")
        .count();
    assert!(changed >= 2, "acc.x changed in {changed} steps");
    // The header's own statements run at the `#include` line (1); their steps show at the
    // user's call: `mma_sync` (line 12) takes many steps, none is at line 1.
    assert!(t.steps.iter().all(|s| s.line != 1));
    assert!(t.steps.iter().filter(|s| s.line == 12).count() > 100);
}
