//! Host arrays cell by cell (`parser::host_cells`): stores through a pointer (`*(h + 1) = v`,
//! `*p = v`, `p[1] += v`; C++17 [expr.add]/4, [expr.sub]/1), `memset` of part of an array
//! byte by byte (C11 7.24.6.1; the host's little-endian bytes), `memcpy` / `memmove` /
//! `std::copy` within and between host arrays (C11 7.24.2.1-2, [alg.copy]), partial
//! `std::fill`, and a swap then an assignment: each write lands in its cells, the others keep
//! theirs, a cell nothing wrote stays undefined. Every expected value is derived by hand in the
//! comment beside it; the kernel copies `a` into `b` cell by cell.

use crate::support::{floats, has, ints, run_default};
use crosslane_core::Level;

/// A program whose `main` declares `decl`, runs `body`, copies `h` (`n` cells of `ty`) into
/// the device and launches the copy kernel over `n` threads.
fn program(ty: &str, n: usize, decl: &str, body: &str) -> String {
    format!(
        "#include <cstring>
#include <algorithm>
#include <utility>
__global__ void k(const {ty} *a, {ty} *b) {{ b[threadIdx.x] = a[threadIdx.x]; }}
int main() {{
  {decl}
  {body}
  {ty} *d_a, *d_b;
  cudaMalloc(&d_a, {n} * sizeof({ty})); cudaMalloc(&d_b, {n} * sizeof({ty}));
  cudaMemcpy(d_a, h, {n} * sizeof({ty}), cudaMemcpyHostToDevice);
  k<<<1, {n}>>>(d_a, d_b);
}}
"
    )
}

fn some(v: &[i128]) -> Vec<Option<i128>> {
    v.iter().map(|&x| Some(x)).collect()
}

fn fsome(v: &[f64]) -> Vec<Option<f64>> {
    v.iter().map(|&x| Some(x)).collect()
}

/// Runs the program and checks that no warning was given (every cell copied is defined).
fn clean(src: &str) -> crosslane_kernel::KernelTrace {
    let t = run_default(src);
    assert!(!has(&t, Level::Warning, ""), "{:?}", t.merged_diagnostics);
    t
}

#[test]
fn stores_through_a_pointer_land_in_the_host_array() {
    // h = 1 1 1 1; *(h + 1) = 3 writes h[1]; p = h + 2, *p = 4 writes h[2]: 1 3 4 1.
    let src = program(
        "int",
        4,
        "int h[4] = {1, 1, 1, 1};",
        "int* p = h + 2; *(h + 1) = 3; *p = 4;",
    );
    assert_eq!(ints(&clean(&src), "b"), some(&[1, 3, 4, 1]));
    // The tester's float form: a fill loop of 1, `*(h + 1) = 3`, `p = &h[2]`, `*p = 4`.
    let src = program(
        "float",
        4,
        "float h[4];",
        "for (int i = 0; i < 4; i++) h[i] = 1.0f;\n  *(h + 1) = 3.0f; float *p = &h[2]; *p = 4.0f;",
    );
    assert_eq!(floats(&clean(&src), "b"), fsome(&[1.0, 3.0, 4.0, 1.0]));
    // `p[1] += 5` through p = &h[2] is h[3] = 1 + 5 = 6; `++*p` makes h[2] 4 + 1 = 5.
    let src = program(
        "int",
        4,
        "int h[4] = {1, 1, 1, 1};",
        "int *p = &h[2]; *p = 4; p[1] += 5; ++*p;",
    );
    assert_eq!(ints(&clean(&src), "b"), some(&[1, 1, 5, 6]));
}

#[test]
fn a_store_through_a_pointer_inside_a_loop_writes_each_cell() {
    // for i < 4: *(h + i) = i * i: 0 1 4 9; then h[3] -= 2: 7.
    let src = program(
        "int",
        4,
        "int h[4];",
        "for (int i = 0; i < 4; i++) *(h + i) = i * i;\n  h[3] -= 2;",
    );
    assert_eq!(ints(&clean(&src), "b"), some(&[0, 1, 4, 7]));
}

#[test]
fn memset_of_part_of_an_array_sets_only_its_bytes() {
    // A fill of 1.0f, then 8 bytes = the first 2 floats to all-zero bytes (+0.0): 0 0 1 1.
    let src = program(
        "float",
        4,
        "float h[4];",
        "for (int i = 0; i < 4; i++) h[i] = 1.0f;\n  memset(h, 0, 2 * sizeof(float));",
    );
    assert_eq!(floats(&clean(&src), "b"), fsome(&[0.0, 0.0, 1.0, 1.0]));
    // Ints of 7 (bytes 07 00 00 00, little-endian). memset(h, 0, 8): h[0], h[1] = 0.
    // memset(h + 2, 1, 4): h[2] bytes 01 01 01 01 = 0x01010101 = 16843009.
    // memset(h + 3, 0xff, 2): h[3] bytes ff ff 00 00 = 0x0000ffff = 65535. h[4], h[5] = 7.
    let src = program(
        "int",
        6,
        "int h[6];",
        "for (int i = 0; i < 6; i++) h[i] = 7;\n  memset(h, 0, 8); memset(h + 2, 1, 4); memset(h + 3, 0xff, 2);",
    );
    assert_eq!(
        ints(&clean(&src), "b"),
        some(&[0, 0, 16_843_009, 65_535, 7, 7])
    );
}

#[test]
fn memset_of_a_char_array_leaves_the_cells_nothing_wrote_undefined() {
    // char h[8]: memset(h, 'a', 3): h[0..3] = 97; h[5] = 2; the loop i = 0, 4 adds 1 to h[1]
    // (98) and h[5] (3). h[3], h[4], h[6], h[7] were never written: undefined
    // ([dcl.init]/12), and the run says so.
    let src = program(
        "char",
        8,
        "char h[8];",
        "memset(h, 'a', 3); h[5] = 2;\n  for (int i = 0; i < 8; i += 4) h[i + 1] += 1;",
    );
    let t = run_default(&src);
    assert_eq!(
        ints(&t, "b"),
        vec![
            Some(97),
            Some(98),
            Some(97),
            None,
            None,
            Some(3),
            None,
            None
        ]
    );
    assert!(has(&t, Level::Warning, "never written"));
}

#[test]
fn memcpy_memmove_and_std_copy_within_and_between_host_arrays() {
    // The tester's form: fill 1.0f, h[0] = 5, memcpy(h + 2, h, 4 bytes): 5 1 5 1.
    let src = program(
        "float",
        4,
        "float h[4];",
        "for (int i = 0; i < 4; i++) h[i] = 1.0f;\n  h[0] = 5.0f; memcpy(h + 2, h, sizeof(float));",
    );
    assert_eq!(floats(&clean(&src), "b"), fsome(&[5.0, 1.0, 5.0, 1.0]));
    // h = 1 2 3 4 ? ? ? ?; memcpy(h + 4, h, 8): h[4], h[5] = 1 2; memmove(h + 1, h, 12)
    // (overlapping, as through a temporary): h[1..4] = old h[0..3] = 1 2 3, so
    // 1 1 2 3 1 2 ? ?; std::copy(g + 1, g + 3, h + 6): h[6], h[7] = 20 30.
    let src = program(
        "int",
        8,
        "int h[8]; int g[4] = {10, 20, 30, 40};",
        "for (int i = 0; i < 4; i++) h[i] = i + 1;
  memcpy(h + 4, h, 2 * sizeof(int));
  memmove(h + 1, h, 3 * sizeof(int));
  std::copy(g + 1, g + 3, h + 6);",
    );
    assert_eq!(ints(&clean(&src), "b"), some(&[1, 1, 2, 3, 1, 2, 20, 30]));
}

#[test]
fn an_overlapping_memcpy_is_said_not_guessed() {
    // memcpy(h + 1, h, 8) copies bytes 0..8 over bytes 4..12: the ranges overlap, which C11
    // 7.24.2.1/2 leaves undefined: `h` is not read, said at the launch, no number made up.
    let src = program(
        "int",
        4,
        "int h[4];",
        "for (int i = 0; i < 4; i++) h[i] = i;\n  memcpy(h + 1, h, 2 * sizeof(int));",
    );
    let t = run_default(&src);
    assert_eq!(ints(&t, "b"), vec![None; 4]);
    assert!(has(&t, Level::Warning, "cannot be read here"));
}

#[test]
fn later_writes_keep_the_cells_earlier_ones_wrote() {
    // Two strided loops: h[0], h[2] = 2; h[1], h[3] = 3; then h[1] = -7: 2 -7 2 3.
    let src = program(
        "float",
        4,
        "float h[4];",
        "for (int i = 0; i < 4; i += 2) h[i] = 2.0f;
  for (int i = 1; i < 4; i += 2) h[i] = 3.0f;
  h[1] = -7.0f;",
    );
    assert_eq!(floats(&clean(&src), "b"), fsome(&[2.0, -7.0, 2.0, 3.0]));
    // A fill of 1, then std::fill(h, h + 2, 5): 5 5 1 1.
    let src = program(
        "float",
        4,
        "float h[4];",
        "for (int i = 0; i < 4; i++) h[i] = 1.0f;\n  std::fill(h, h + 2, 5.0f);",
    );
    assert_eq!(floats(&clean(&src), "b"), fsome(&[5.0, 5.0, 1.0, 1.0]));
    // A fill of 1, std::swap(h[0], h[3]) (both 1), then h[3] = 2: 1 1 1 2.
    let src = program(
        "float",
        4,
        "float h[4];",
        "for (int i = 0; i < 4; i++) h[i] = 1.0f;\n  std::swap(h[0], h[3]); h[3] = 2.0f;",
    );
    assert_eq!(floats(&clean(&src), "b"), fsome(&[1.0, 1.0, 1.0, 2.0]));
    // A swap of two different cells: h = 0 1 2 3, swap(h[0], h[2]): 2 1 0 3.
    let src = program(
        "int",
        4,
        "int h[4] = {0, 1, 2, 3};",
        "std::swap(h[0], h[2]);",
    );
    assert_eq!(ints(&clean(&src), "b"), some(&[2, 1, 0, 3]));
    // A loop over the first half, after a whole fill: 9 9 4 4 keeps cells 2 and 3.
    let src = program(
        "int",
        4,
        "int h[4];",
        "for (int i = 0; i < 4; i++) h[i] = 4;\n  for (int i = 0; i < 2; i++) h[i] = 9;",
    );
    assert_eq!(ints(&clean(&src), "b"), some(&[9, 9, 4, 4]));
}

#[test]
fn a_partial_fill_of_a_fresh_array_leaves_the_rest_undefined() {
    // int h[4] never written, then std::fill_n(h + 1, 2, 6): ? 6 6 ?; the run names the
    // cells nothing wrote ([dcl.init]/12).
    let src = program("int", 4, "int h[4];", "std::fill_n(h + 1, 2, 6);");
    let t = run_default(&src);
    assert_eq!(ints(&t, "b"), vec![None, Some(6), Some(6), None]);
    assert!(has(&t, Level::Warning, "never written"));
}

#[test]
fn a_pointer_into_a_host_array_given_to_a_call_makes_the_array_unknown() {
    // `opaque(p)` with p = h + 1 may write h[1..] (a function not read here): h's cells are
    // not known after it, said at the launch, no stale 1 2 3 4.
    let src = program(
        "int",
        4,
        "int h[4] = {1, 2, 3, 4};",
        "int *p = h + 1; opaque(p);",
    )
    .replace("int main()", "void opaque(int *p);\nint main()");
    let t = run_default(&src);
    assert_eq!(ints(&t, "b"), vec![None; 4]);
    assert!(has(&t, Level::Warning, "cannot be read here"));
    // `*p++ = 7` in a loop is not evaluated here: h is unknown after it, never the old cells.
    let src = program(
        "int",
        4,
        "int h[4] = {1, 2, 3, 4};",
        "int *p = h; for (int i = 0; i < 3; i++) *p++ = 7;",
    );
    let t = run_default(&src);
    assert_eq!(ints(&t, "b"), vec![None; 4]);
    assert!(has(&t, Level::Warning, "cannot be read here"));
}

#[test]
fn memset_and_memcpy_of_bool_and_double_cells_by_their_bytes() {
    // bool h[4]: memset(h, 0, 4) all false; memset(h + 2, 1, 1): h[2]'s byte 0x01 is true.
    let src = "#include <cstring>
__global__ void k(const bool *a, int *b) { b[threadIdx.x] = a[threadIdx.x]; }
int main() {
  bool h[4];
  memset(h, 0, sizeof(h));
  memset(h + 2, 1, 1);
  bool *d_a; int *d_b;
  cudaMalloc(&d_a, 4 * sizeof(bool)); cudaMalloc(&d_b, 4 * sizeof(int));
  cudaMemcpy(d_a, h, 4 * sizeof(bool), cudaMemcpyHostToDevice);
  k<<<1, 4>>>(d_a, d_b);
}
";
    assert_eq!(ints(&clean(src), "b"), some(&[0, 0, 1, 0]));
    // double h = 0 0.5 1 1.5; memset(h + 1, 0, 8): h[1] = +0.0. memcpy(h + 3, h + 2, 4)
    // copies the low 4 bytes of 1.0 (0x3ff0000000000000: all zero) over those of 1.5
    // (0x3ff8000000000000: also zero): h[3] stays 1.5 (Python: struct.pack('<d', …)).
    let src = program(
        "double",
        4,
        "double h[4];",
        "for (int i = 0; i < 4; i++) h[i] = 0.5 * i;\n  memset(h + 1, 0, sizeof(double));\n  memcpy(h + 3, h + 2, 4);",
    );
    assert_eq!(floats(&clean(&src), "b"), fsome(&[0.0, 0.0, 1.0, 1.5]));
    // An int array's bytes into a float array: int bits[1] = {0x40490fdb} copied by memcpy
    // into float h[1] is the float with those bits, 3.1415927410125732 (Python:
    // struct.unpack('<f', struct.pack('<i', 0x40490fdb))).
    let src = "#include <cstring>
__global__ void k(const float *a, float *b) { b[threadIdx.x] = a[threadIdx.x]; }
int main() {
  int bits[1] = {0x40490fdb};
  float h[1];
  memcpy(h, bits, 4);
  float *d_a, *d_b;
  cudaMalloc(&d_a, sizeof(float)); cudaMalloc(&d_b, sizeof(float));
  cudaMemcpy(d_a, h, sizeof(float), cudaMemcpyHostToDevice);
  k<<<1, 1>>>(d_a, d_b);
}
";
    assert_eq!(floats(&clean(src), "b"), fsome(&[3.141_592_741_012_573_2]));
}

#[test]
fn a_store_through_a_pointer_under_an_unknown_condition_makes_the_array_unknown() {
    // `if (x > 5) *p = 9;` with x = rand(): host code does not know whether h[2] is 3 or 9,
    // so h is said unread at the launch instead of 1 2 3 4 or 1 2 9 4.
    let src = program(
        "int",
        4,
        "int h[4] = {1, 2, 3, 4};",
        "int *p = h + 2; int x = rand(); if (x > 5) *p = 9;",
    );
    let t = run_default(&src);
    assert_eq!(ints(&t, "b"), vec![None; 4]);
    assert!(has(&t, Level::Warning, "cannot be read here"));
}
