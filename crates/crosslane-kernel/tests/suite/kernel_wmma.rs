//! `nvcuda::wmma` (`#include <mma.h>`, CUDA C++ Programming Guide, "Warp Matrix Functions"):
//! fragments loaded, multiplied and stored by one warp. Inputs are small integers, exact in
//! `half`, and every product and sum of them is exact in `float`, so `D = A·B + C` has one
//! right answer whatever order the device sums in; the expected matrices are the integer
//! products computed here with `i64` loops (an independent reference), and a few cells are
//! written out from Python in the comments.

use crate::support::{floats, has, launch, refused, run_finished};
use crosslane_core::op::Dialect;
use crosslane_core::result::Level;

/// `A[i][k] = (3i + k) mod 7 − 3` (values −3..3), `rows` × `cols`.
fn mat_a(rows: usize, cols: usize) -> Vec<i64> {
    (0..rows * cols)
        .map(|e| ((3 * (e / cols) + e % cols) % 7) as i64 - 3)
        .collect()
}

/// `B[k][j] = (k + 2j) mod 5 − 2` (values −2..2), `rows` × `cols`.
fn mat_b(rows: usize, cols: usize) -> Vec<i64> {
    (0..rows * cols)
        .map(|e| ((e / cols + 2 * (e % cols)) % 5) as i64 - 2)
        .collect()
}

/// The integer product of row-major `a` (m × k) and `b` (k × n), row-major m × n.
fn product(a: &[i64], b: &[i64], m: usize, n: usize, k: usize) -> Vec<i64> {
    let mut d = vec![0; m * n];
    for i in 0..m {
        for j in 0..n {
            d[i * n + j] = (0..k).map(|kk| a[i * k + kk] * b[kk * n + j]).sum();
        }
    }
    d
}

/// `v` as a `--buffer` comma list.
fn list(v: &[i64]) -> String {
    v.iter().map(i64::to_string).collect::<Vec<_>>().join(",")
}

/// `v` as the cells a run should leave (all defined).
fn some(v: &[i64]) -> Vec<Option<f64>> {
    v.iter().map(|&x| Some(x as f64)).collect()
}

/// The transpose of row-major `v` (`rows` × `cols`): its column-major storage.
fn col_major(v: &[i64], rows: usize, cols: usize) -> Vec<i64> {
    (0..rows * cols)
        .map(|e| v[(e % rows) * cols + e / rows])
        .collect()
}

const GEMM: &str = r#"#include <mma.h>
using namespace nvcuda;
__global__ void gemm(const half* a, const half* b, float* d) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(acc, fa, fb, acc);
  wmma::store_matrix_sync(d, acc, 16, wmma::mem_row_major);
}
"#;

#[test]
fn gemm_16x16x16_of_small_integers_in_half_is_exact() {
    let (a, b) = (mat_a(16, 16), mat_b(16, 16));
    let t = run_finished(
        GEMM,
        launch(
            Dialect::Cuda,
            32,
            &[
                ("a", 256, &list(&a)),
                ("b", 256, &list(&b)),
                ("d", 256, "zero"),
            ],
        ),
    );
    let d = product(&a, &b, 16, 16, 16);
    // Python: A=[[(3*i+k)%7-3 for k in range(16)] for i in range(16)];
    // B=[[(k+2*j)%5-2 for j in range(16)] for k in range(16)];
    // [sum(A[0][k]*B[k][j] for k in range(16)) for j in range(16)]
    // = [-1, -1, -11, 9, 4, -1, -1, -11, 9, 4, -1, -1, -11, 9, 4, -1]; D[5][9] = -2.
    assert_eq!(
        &d[..16],
        &[-1, -1, -11, 9, 4, -1, -1, -11, 9, 4, -1, -1, -11, 9, 4, -1]
    );
    assert_eq!(d[5 * 16 + 9], -2);
    assert_eq!(floats(&t, "d"), some(&d));
}

#[test]
fn qualified_names_col_major_b_and_alpha_beta_scaling() {
    // B given column-major (b[j*16 + k] = B[k][j]), C loaded from memory, and
    // D = alpha·(A·B) + beta·C applied element by element: defined whatever the mapping.
    let src = r#"#include <mma.h>
__global__ void gemm(const half* a, const half* b, float* c, float alpha, float beta) {
  nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16, half, nvcuda::wmma::row_major> fa;
  nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, 16, 16, 16, half, nvcuda::wmma::col_major> fb;
  nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 16, float> acc;
  nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 16, float> fc;
  nvcuda::wmma::fill_fragment(acc, 0.0f);
  nvcuda::wmma::load_matrix_sync(fa, a, 16);
  nvcuda::wmma::load_matrix_sync(fb, b, 16);
  nvcuda::wmma::load_matrix_sync(fc, c, 16, nvcuda::wmma::mem_row_major);
  nvcuda::wmma::mma_sync(acc, fa, fb, acc);
  for (int i = 0; i < fc.num_elements; i++) fc.x[i] = alpha * acc.x[i] + beta * fc.x[i];
  nvcuda::wmma::store_matrix_sync(c, fc, 16, nvcuda::wmma::mem_row_major);
}
"#;
    let (a, b) = (mat_a(16, 16), mat_b(16, 16));
    let c: Vec<i64> = (0..256)
        .map(|e| (e / 16) as i64 - (e % 16) as i64)
        .collect();
    let mut config = launch(
        Dialect::Cuda,
        32,
        &[
            ("a", 256, &list(&a)),
            ("b", 256, &list(&col_major(&b, 16, 16))),
            ("c", 256, &list(&c)),
        ],
    );
    config.args.insert("alpha".into(), "2".into());
    config.args.insert("beta".into(), "-1".into());
    let t = run_finished(src, config);
    let d = product(&a, &b, 16, 16, 16);
    let want: Vec<i64> = d.iter().zip(&c).map(|(p, c)| 2 * p - c).collect();
    // D[0][0] = 2·(−1) − (0 − 0) = −2; D[0][2] = 2·(−11) − (0 − 2) = −20.
    assert_eq!((want[0], want[2]), (-2, -20));
    assert_eq!(floats(&t, "c"), some(&want));
}

#[test]
fn store_with_ldm_24_leaves_the_padding_and_col_major_stores_transposed() {
    let src = r#"#include <mma.h>
using namespace nvcuda;
__global__ void gemm(const half* a, const half* b, float* d, float* dt) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::col_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 1.0f);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(acc, fa, fb, acc);
  wmma::store_matrix_sync(d, acc, 24, wmma::mem_row_major);
  wmma::store_matrix_sync(dt, acc, 16, wmma::mem_col_major);
}
"#;
    let (a, b) = (mat_a(16, 16), mat_b(16, 16));
    let t = run_finished(
        src,
        launch(
            Dialect::Cuda,
            32,
            &[
                ("a", 256, &list(&col_major(&a, 16, 16))),
                ("b", 256, &list(&b)),
                ("d", 16 * 24, "-7"),
                ("dt", 256, "zero"),
            ],
        ),
    );
    // C = 1 everywhere (fill_fragment), so D = A·B + 1.
    let d: Vec<i64> = product(&a, &b, 16, 16, 16).iter().map(|x| x + 1).collect();
    let mut want = vec![-7; 16 * 24];
    for i in 0..16 {
        want[i * 24..i * 24 + 16].copy_from_slice(&d[i * 16..i * 16 + 16]);
    }
    assert_eq!(floats(&t, "d"), some(&want));
    assert_eq!(floats(&t, "dt"), some(&col_major(&d, 16, 16)));
}

/// The `m`×`n`×`k` GEMM kernel with a `half` accumulator stored to a `half` buffer.
fn shape_kernel(m: usize, n: usize, k: usize, acc: &str) -> String {
    format!(
        r#"#include <mma.h>
using namespace nvcuda;
__global__ void gemm(const half* a, const half* b, {acc}* d) {{
  wmma::fragment<wmma::matrix_a, {m}, {n}, {k}, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, {m}, {n}, {k}, half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, {m}, {n}, {k}, {acc}> c;
  wmma::load_matrix_sync(fa, a, {k});
  wmma::load_matrix_sync(fb, b, {n});
  wmma::fill_fragment(c, 0.0f);
  wmma::mma_sync(c, fa, fb, c);
  wmma::store_matrix_sync(d, c, {n}, wmma::mem_row_major);
}}
"#
    )
}

#[test]
fn m32n8k16_and_m8n32k16_and_half_accumulators() {
    for (m, n, k, acc) in [
        (32, 8, 16, "float"),
        (8, 32, 16, "float"),
        (16, 16, 16, "half"),
    ] {
        let (a, b) = (mat_a(m, k), mat_b(k, n));
        let t = run_finished(
            &shape_kernel(m, n, k, acc),
            launch(
                Dialect::Cuda,
                32,
                &[
                    ("a", m * k, &list(&a)),
                    ("b", k * n, &list(&b)),
                    ("d", m * n, "zero"),
                ],
            ),
        );
        // |D| ≤ 16·3·2 = 96: exact in half too.
        assert_eq!(
            floats(&t, "d"),
            some(&product(&a, &b, m, n, k)),
            "m{m}n{n}k{k} {acc}"
        );
    }
}

#[test]
fn a_diverged_warp_leaves_mma_sync_undefined_with_the_all_threads_rule() {
    let src = GEMM.replace(
        "  wmma::mma_sync(acc, fa, fb, acc);",
        "  if (threadIdx.x < 16) wmma::mma_sync(acc, fa, fb, acc);",
    );
    let t = crosslane_kernel::run_kernel(
        &src,
        launch(
            Dialect::Cuda,
            32,
            &[("a", 256, "1"), ("b", 256, "1"), ("d", 256, "zero")],
        ),
    )
    .expect("runs");
    assert!(has(
        &t,
        Level::Warning,
        "must be called by all threads in the warp"
    ));
    // Lanes 0-15 hold rows 0-7 in crosslane's mapping; whatever the mapping, no D element
    // a partial call computed is defined.
    assert!(floats(&t, "d")[..128].iter().all(Option::is_none));
}

#[test]
fn a_shape_the_header_lacks_is_refused_with_the_supported_list() {
    let src = GEMM.replace(
        "wmma::matrix_a, 16, 16, 16, half",
        "wmma::matrix_a, 8, 8, 4, half",
    );
    let m = refused(&src, launch(Dialect::Cuda, 32, &[]));
    assert!(m.contains("4:"), "{m}");
    assert!(m.contains("m16n16k16, m32n8k16, m8n32k16"), "{m}");
}

#[test]
fn mma_sync_inline_ptx_names_the_wmma_header() {
    let src = r#"__global__ void k(float* d) {
  float x = 0.0f;
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0}, {%1}, {%2}, {%3};" : "+f"(x) : "r"(0), "r"(0), "f"(x));
  d[threadIdx.x] = x;
}
"#;
    let m = refused(src, launch(Dialect::Cuda, 32, &[]));
    assert!(m.contains("#include <mma.h>"), "{m}");
}

#[test]
fn uses_of_x_that_show_the_element_mapping_are_warned() {
    // The Guide: "the map of matrix elements into each thread's fragment is unspecified";
    // element-wise operations applied alike to every element (lines 7 and 8) are defined,
    // a store of x[i] at a lane-dependent place (9), one element (10) and a lane-dependent
    // value (11) are not.
    let src = r#"#include <mma.h>
using namespace nvcuda;
__global__ void k(float* out, float alpha) {
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c, e;
  wmma::fill_fragment(c, 1.0f);
  wmma::fill_fragment(e, 2.0f);
  for (int i = 0; i < c.num_elements; i++) c.x[i] = alpha * c.x[i] + e.x[i];
  for (int i = 0; i < c.num_elements; i++) { if (c.x[i] < 0.0f) c.x[i] = 0.0f; }
  for (int i = 0; i < c.num_elements; i++) out[threadIdx.x * 8 + i] = c.x[i];
  c.x[0] = 5.0f;
  for (int i = 0; i < c.num_elements; i++) c.x[i] = threadIdx.x;
}
"#;
    let mut config = launch(Dialect::Cuda, 32, &[("out", 256, "zero")]);
    config.args.insert("alpha".into(), "2".into());
    let t = run_finished(src, config);
    let mut lines: Vec<u32> = t
        .all_diagnostics()
        .filter(|d| d.level == Level::Warning && d.message.contains("is unspecified"))
        .map(|d| d.line)
        .collect();
    lines.sort_unstable();
    lines.dedup();
    assert_eq!(lines, [9, 10, 11]);
    // Lines 7-8 run as written: 2·1 + 2 = 4 in every element (then the store at line 9).
    assert!(floats(&t, "out").iter().all(|c| *c == Some(4.0)));
}
