//! Arrays of several dimensions (local and `__shared__`), brace initializers of arrays,
//! reference parameters bound to array cells and temporaries, a struct default of a template
//! parameter, and a struct defined in a function. The kernels are written for these tests in
//! the shapes real warp code uses (a softmax's `elements[WARP_BATCH][WARP_ITERATIONS]`, a
//! transpose's `tile[32][33]`, a sort's `swap(s[i], s[j])`); every expected value is derived by
//! hand beside it. The launch is the default one: 32 threads, each buffer filled with its
//! index (`x[i] = i`).

// The loops index several buffers by the lane, as the kernels do.
#![allow(clippy::needless_range_loop)]

use crate::cells::cell_ints as ints;
use crate::support::{floats, run_default as run};
use crosslane_kernel::{run_kernel, KernelTrace, LaunchConfig, Outcome};

fn said(t: &KernelTrace, needle: &str) -> bool {
    t.all_diagnostics().any(|d| d.message.contains(needle))
}

#[test]
fn a_two_dimensional_local_array_with_template_bounds_holds_each_cell() {
    let src = r#"
template <int WARP_BATCH, int WARP_ITERATIONS>
__device__ float batch_sums(const float* x, int lane) {
  float elements[WARP_BATCH][WARP_ITERATIONS];
  float sum[WARP_BATCH] { 0.0f };
  for (int b = 0; b < WARP_BATCH; b++)
    for (int i = 0; i < WARP_ITERATIONS; i++)
      elements[b][i] = x[lane] * (b + 1) + i;
  for (int b = 0; b < WARP_BATCH; b++)
    for (int i = 0; i < WARP_ITERATIONS; i++)
      sum[b] += elements[b][i];
  return sum[0] + 10.0f * sum[1];
}
__global__ void k(const float* x, float* out) {
  int lane = threadIdx.x;
  out[lane] = batch_sums<2, 3>(x, lane);
}
"#;
    let t = run(src);
    let out = floats(&t, "out");
    for lane in 0..32 {
        // elements[b][i] = lane·(b+1) + i, i = 0..2: sum[0] = 3·lane + 3, sum[1] = 6·lane + 3;
        // sum[0] + 10·sum[1] = 63·lane + 33.
        let l = lane as f64;
        assert_eq!(out[lane], Some(63.0 * l + 33.0), "lane {lane}");
    }
}

#[test]
fn a_padded_shared_tile_is_row_major_and_a_row_passes_as_a_pointer() {
    let src = r#"
__device__ float row_sum(const float* r, int n) {
  float s = 0.0f;
  for (int i = 0; i < n; i++) s += r[i];
  return s;
}
__global__ void k(float* out, float* rows) {
  int lane = threadIdx.x;
  __shared__ float tile[32][33];
  for (int j = 0; j < 32; j++) tile[lane][j] = lane * 100 + j;
  __syncthreads();
  out[lane] = tile[(lane + 1) % 32][lane];
  rows[lane] = row_sum(tile[lane], 4);
}
"#;
    let t = run(src);
    let out = floats(&t, "out");
    let rows = floats(&t, "rows");
    for lane in 0..32 {
        // Lane r wrote row r: tile[r][j] = 100·r + j. The transposed read tile[(l+1)%32][l]
        // is 100·((l+1) mod 32) + l.
        let r = ((lane + 1) % 32) as f64;
        assert_eq!(out[lane], Some(100.0 * r + lane as f64), "lane {lane}");
        // row_sum(tile[l], 4) = Σ_{j<4} (100·l + j) = 400·l + 6.
        assert_eq!(rows[lane], Some(400.0 * lane as f64 + 6.0), "lane {lane}");
    }
    // The row is contiguous with padding 33: tile[1] starts at cell 33, so the shared buffer
    // holds 32·33 = 1056 cells.
    let tile = t
        .memory
        .buffers
        .iter()
        .find(|b| b.name == "tile")
        .expect("the shared tile");
    assert_eq!(tile.cells.len(), 32 * 33);
}

#[test]
fn an_index_past_its_row_is_out_of_bounds_even_inside_the_buffer() {
    let src = r#"
__global__ void k(int* out) {
  int lane = threadIdx.x;
  int e[2][3];
  for (int r = 0; r < 2; r++)
    for (int c = 0; c < 3; c++) e[r][c] = 10 * r + c;
  e[0][3] = 99;
  out[lane] = e[lane % 2][lane % 4];
}
"#;
    let t = run(src);
    let out = ints(t.buffer("out").unwrap());
    for lane in 0..32usize {
        // e[r][c] = 10·r + c for c < 3; c = lane % 4 = 3 is past the row of 3: undefined (not
        // e[r+1][0], the cell the flat index would reach), and the write e[0][3] = 99 is
        // dropped (e[1][0] keeps 10).
        let (r, c) = (lane % 2, lane % 4);
        let want = if c < 3 {
            Some((10 * r + c) as i128)
        } else {
            None
        };
        assert_eq!(out[lane], want, "lane {lane}");
    }
    assert!(said(&t, "writes `e"), "the dropped write is reported");
    assert!(said(&t, "out-of-bounds access is undefined"));
}

#[test]
fn brace_initializers_fill_rows_in_order_and_zero_the_rest() {
    let src = r#"
__global__ void k(int* out, float* f) {
  int lane = threadIdx.x;
  int a[2][3] = {{1, 2, 3}, {4, 5, 6}};
  int b[][2] = {1, 2, 3};
  int c[2][2] = {{7}, {8, 9}};
  float s[4] { 1.5f };
  out[lane] = a[lane % 2][lane % 3] + 10 * b[1][0] + 100 * b[1][1] + 1000 * c[0][1] + 10000 * c[1][1];
  f[lane] = s[lane % 4];
}
"#;
    let t = run(src);
    let out = ints(t.buffer("out").unwrap());
    let f = floats(&t, "f");
    for lane in 0..32usize {
        // a = {{1,2,3},{4,5,6}}: a[r][c] = 3r + c + 1. b[][2] = {1,2,3} by brace elision is
        // {{1,2},{3,0}} (2 rows; b[1][1] zero); c = {{7,0},{8,9}}.
        let a = 3 * (lane % 2) + (lane % 3) + 1;
        let (b10, b11, c01, c11) = (3, 0, 0, 9);
        let want = a + 10 * b10 + 100 * b11 + 1000 * c01 + 10000 * c11;
        assert_eq!(out[lane], Some(want as i128), "lane {lane}");
        // s { 1.5f }: s[0] = 1.5, the rest 0.
        let s = if lane % 4 == 0 { 1.5 } else { 0.0 };
        assert_eq!(f[lane], Some(s), "lane {lane}");
    }
}

#[test]
fn a_scalar_takes_a_braced_value_or_zero_from_empty_braces() {
    let src = "__global__ void k(int* d) {\n  int x = {1};\n  int y {2};\n  float z {};\n  d[threadIdx.x] = x + 10 * y + 100 * (int)z;\n}";
    let t = run(src);
    let d = ints(t.buffer("d").unwrap());
    // x = 1, y = 2, z value-initialized to 0: 1 + 20 + 0.
    assert!(d.iter().all(|v| *v == Some(21)), "{d:?}");
    let two = "__global__ void k(int* d) {\n  int x {1, 2};\n  d[0] = x;\n}";
    let e = run_kernel(two, LaunchConfig::default()).unwrap_err();
    assert_eq!(e.line, 2);
    assert!(e.message.contains("one initializer"), "{e}");
}

#[test]
fn a_wrong_array_initializer_is_refused_at_its_line() {
    let too_many = "__global__ void k(int* o) {\n  int a[2] = {1, 2, 3};\n  o[0] = a[0];\n}";
    let e = run_kernel(too_many, LaunchConfig::default()).unwrap_err();
    assert_eq!(e.line, 2);
    assert!(e.message.contains("more initializers"), "{e}");
    let shared = "__global__ void k(int* o) {\n  __shared__ int s[2] = {1, 2};\n  o[0] = s[0];\n}";
    let e = run_kernel(shared, LaunchConfig::default()).unwrap_err();
    assert_eq!(e.line, 2);
    assert!(e.message.contains("cannot have an initializer"), "{e}");
    // A list whose cells, written out, pass the token budget is refused naming the flag,
    // before anything is allocated for them (also in a template's instance).
    let huge = "template <int N> __device__ int f() {\n  int a[N][N] = {1};\n  return a[0][0];\n}\n__global__ void k(int* o) { o[0] = f<1000000>(); }";
    let e = run_kernel(huge, LaunchConfig::default()).unwrap_err();
    assert!(e.message.contains("--max-tokens"), "{e}");
    let bound = "__global__ void k(int* o, int n) {\n  int a[2][n];\n  o[0] = 1;\n}";
    let e = run_kernel(bound, LaunchConfig::default()).unwrap_err();
    assert_eq!(e.line, 2);
    assert!(e.message.contains("positive constant"), "{e}");
}

#[test]
fn reference_parameters_bind_cells_members_and_const_temporaries() {
    let src = r#"
template <typename T>
__device__ void sw(T& a, T& b) { T t = a; a = b; b = t; }
__device__ void inc(int& x) { x += 1; }
__device__ float add1(const float& v) { return v + 1.0f; }
struct P { int x; int y; };
__global__ void k(int* d, float* out, int* o2) {
  int lane = threadIdx.x;
  int s[2] = {lane, 100 + lane};
  sw(s[0], s[1]);
  __shared__ int sh[32];
  sh[lane] = lane;
  __syncthreads();
  if (lane < 16) sw(sh[lane], sh[31 - lane]);
  __syncthreads();
  inc(d[lane]);
  P p; p.x = 5; p.y = 7;
  inc(p.x);
  out[lane] = add1(2.0f * lane) + add1(3.0f);
  o2[lane] = s[0] * 1000 + s[1] + 100000 * sh[lane] + 10000000 * p.x;
}
"#;
    let t = run(src);
    let d = ints(t.buffer("d").unwrap());
    let out = floats(&t, "out");
    let o2 = ints(t.buffer("o2").unwrap());
    for lane in 0..32i128 {
        // inc(d[l]) on the global buffer: l + 1.
        assert_eq!(d[lane as usize], Some(lane + 1));
        // add1(2l) + add1(3) = (2l + 1) + 4.
        assert_eq!(out[lane as usize], Some((2 * lane + 5) as f64));
        // s swapped: s[0] = 100 + l, s[1] = l. Lanes 0..15 swap sh[l] with sh[31 - l], so every
        // sh[l] = 31 - l. p.x = 5 + 1 = 6.
        let want = (100 + lane) * 1000 + lane + 100_000 * (31 - lane) + 10_000_000 * 6;
        assert_eq!(o2[lane as usize], Some(want), "lane {lane}");
    }
}

#[test]
fn a_reference_to_non_const_given_a_temporary_is_refused_and_a_vector_component_binds() {
    let src = "__device__ void inc(int& x) { x += 1; }\n__global__ void k(int* d) {\n  int i = threadIdx.x;\n  inc(i + 1);\n  d[i] = i;\n}";
    let e = run_kernel(src, LaunchConfig::default()).unwrap_err();
    assert_eq!(e.line, 4);
    assert!(e.message.contains("[dcl.init.ref]"), "{e}");
    let component = "__device__ void inc(float& x) { x += 1.0f; }\n__global__ void k(float* d) {\n  float4 v = make_float4(1.0f, 2.0f, 3.0f, 4.0f);\n  inc(v.x);\n  d[0] = v.x;\n}";
    // A vector component is an lvalue: the reference binds it ([dcl.init.ref]/5.1), so
    // `inc(v.x)` runs and d[0] = 2.
    let t = run_kernel(component, LaunchConfig::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(crate::support::floats(&t, "d")[0], Some(2.0));
}

#[test]
fn a_struct_default_template_argument_is_used_when_the_others_are_deduced() {
    let src = r#"
struct Block1D { static __device__ int Tid() { return threadIdx.x; } };
template <typename T, typename B = Block1D>
__device__ T twice_plus_tid(T v) { return v * 2 + B::Tid(); }
template <typename T, int N = 3>
__device__ T times(T v) { return v * N; }
__global__ void k(int* d) {
  int i = threadIdx.x;
  d[i] = twice_plus_tid(i) + times(i) * 100;
}
"#;
    let t = run(src);
    let d = ints(t.buffer("d").unwrap());
    for i in 0..32i128 {
        // 2i + Block1D::Tid() = 3i, plus 100·(3i).
        assert_eq!(d[i as usize], Some(303 * i), "thread {i}");
    }
}

#[test]
fn a_struct_defined_in_a_function_with_or_without_a_name() {
    let src = r#"
__global__ void k(int* d) {
  struct { int x; int y; } grid;
  struct Cell { int v; };
  Cell c;
  grid.x = threadIdx.x; grid.y = 3; c.v = 1000;
  d[threadIdx.x] = grid.x * grid.y + c.v;
}
"#;
    let t = run(src);
    let d = ints(t.buffer("d").unwrap());
    for i in 0..32i128 {
        assert_eq!(d[i as usize], Some(3 * i + 1000), "thread {i}");
    }
}

#[test]
fn a_pointer_of_the_same_name_in_a_later_scope_is_not_the_array() {
    // The block's `a` is a 2×2 array; the lambda's parameter `a`, in a scope as deep, is a
    // pointer: `a[1]` is its cell 1, not a row. out[l] = out[l + 1] as launched (l + 1); lane
    // 31 reads out[32], past the buffer: undefined.
    let src = r#"
__global__ void k(float* out) {
  int lane = threadIdx.x;
  { float a[2][2]; a[1][1] = 1.0f; }
  auto f = [](float* a) { return a[1]; };
  out[lane] = f(&out[lane]);
}
"#;
    let t = run(src);
    let out = floats(&t, "out");
    for lane in 0..31 {
        assert_eq!(out[lane], Some((lane + 1) as f64), "lane {lane}");
    }
    assert_eq!(out[31], None);
}

#[test]
fn a_block_reduce_with_a_defaulted_block_and_a_pairwise_swap_of_shared_cells() {
    // The shapes of a block reduction (`B = Block1D` defaulted while `T` and `ReduceOp` are
    // deduced, `const ReduceOp&` given a temporary functor, `const T&` given a literal) and of a
    // bitonic sort step (`swap(dst_row[col], dst_row[col + 1])` on dynamic shared memory).
    let src = r#"
struct Block1D {
  static __device__ int Tid() { return threadIdx.x; }
  static __device__ int Warps() { return blockDim.x / 32; }
};
template <typename T> struct SumOp {
  __device__ T combine(T a, T b) const { return a + b; }
};
template <typename T, class ReduceOp, typename B = Block1D>
__device__ T BlockReduce(T val, const ReduceOp& op, const T& identity, T* shared) {
  const int tid = B::Tid();
  const int lid = tid % 32;
  const int wid = tid / 32;
  for (int o = 16; o > 0; o >>= 1) val = op.combine(val, __shfl_down_sync(0xffffffff, val, o));
  __syncthreads();
  if (lid == 0) shared[wid] = val;
  __syncthreads();
  val = (tid < B::Warps()) ? shared[lid] : identity;
  if (wid == 0) {
    for (int o = 16; o > 0; o >>= 1) val = op.combine(val, __shfl_down_sync(0xffffffff, val, o));
  }
  return val;
}
template <typename T>
__device__ void swap_cells(T& a, T& b) { T t = a; a = b; b = t; }
__global__ void k(const float* x, float* out, int* idx) {
  __shared__ float sh[32];
  extern __shared__ int dst_row[];
  int col = threadIdx.x;
  float r = BlockReduce(x[col], SumOp<float>(), 0.0f, sh);
  if (col == 0) out[0] = r;
  dst_row[col] = 63 - col;
  __syncthreads();
  if (col % 2 == 0 && dst_row[col] > dst_row[col + 1]) swap_cells(dst_row[col], dst_row[col + 1]);
  __syncthreads();
  idx[col] = dst_row[col];
}
"#;
    let config = LaunchConfig {
        block_dim: Some([64, 1, 1]),
        ..LaunchConfig::default()
    };
    let t = run_kernel(src, config).expect("kernel parses and launches");
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    // x[i] = i over 64 threads: 0 + 1 + … + 63 = 63·64/2 = 2016.
    assert_eq!(floats(&t, "out")[0], Some(2016.0));
    let idx = ints(t.buffer("idx").unwrap());
    for c in 0..64i128 {
        // dst_row[c] = 63 - c descends, so every even c swaps with c + 1:
        // idx[c] = 62 - c (even c), 64 - c (odd c).
        let want = if c % 2 == 0 { 62 - c } else { 64 - c };
        assert_eq!(idx[c as usize], Some(want), "col {c}");
    }
}

#[test]
fn the_padded_tile_transpose_of_a_32_by_8_block_transposes_the_matrix() {
    // The transpose shape: a 32×33 tile (one column of padding against bank conflicts), a
    // 32×8 block copying 4 rows per thread in and out.
    let src = r#"
#define TILE_DIM 32
#define BLOCK_ROWS 8
__global__ void transpose_padded(float* odata, const float* idata) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  int width = gridDim.x * TILE_DIM;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    odata[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j];
}
"#;
    let mut config = LaunchConfig {
        block_dim: Some([32, 8, 1]),
        ..LaunchConfig::default()
    };
    config.buffer_len.insert("odata".into(), 1024);
    config.buffer_len.insert("idata".into(), 1024);
    let t = run_kernel(src, config).expect("kernel parses and launches");
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    let out = floats(&t, "odata");
    for r in 0..32usize {
        for c in 0..32usize {
            // idata[i] = i is the matrix M[r][c] = 32r + c; its transpose holds 32c + r.
            assert_eq!(
                out[r * 32 + c],
                Some((32 * c + r) as f64),
                "odata[{r}][{c}]"
            );
        }
    }
}

#[test]
fn a_parameter_written_as_rows_indexes_the_callers_array() {
    let src = r#"
template <int N>
__device__ float diag_sum(float t[][N], int n) {
  float s = 0.0f;
  for (int i = 0; i < n; i++) s += t[i][i];
  return s;
}
__device__ int corner(const int m[2][3]) { return m[1][2]; }
__global__ void k(float* out, int* o2) {
  int lane = threadIdx.x;
  __shared__ float tile[4][5];
  if (lane < 20) tile[lane / 5][lane % 5] = lane;
  __syncthreads();
  int m[2][3] = {{1, 2, 3}, {4, 5, 6 + lane}};
  out[lane] = diag_sum<5>(tile, 4);
  o2[lane] = corner(m);
}
"#;
    let t = run(src);
    let out = floats(&t, "out");
    let o2 = ints(t.buffer("o2").unwrap());
    for lane in 0..32usize {
        // tile[r][c] = 5r + c: the diagonal t[i][i] = 6i, i = 0..3, sums to 36.
        assert_eq!(out[lane], Some(36.0), "lane {lane}");
        // m[1][2] = 6 + lane.
        assert_eq!(o2[lane], Some(6 + lane as i128), "lane {lane}");
    }
}

#[test]
fn a_reference_to_const_given_another_type_binds_a_converted_temporary() {
    // [dcl.init.ref]/5.2.2.2: `const float& d` given a `half` cell, an `int` cell or a `half`
    // local is a temporary float holding the converted value — never the argument's bytes.
    let t = run("#include <cuda_fp16.h>\n\
         __device__ float twice(const float& d) { return 2.0f * d; }\n\
         __global__ void k(const half* h, const int* ip, float* o) {\n\
           int i = threadIdx.x;\n\
           half hl = h[i];\n\
           o[i] = twice(h[i]) + twice(ip[i]) + twice(hl);\n\
         }\n");
    // h and ip hold the index (cell i = i), so each of the three terms is 2i: o[i] = 6i.
    let want: Vec<Option<f64>> = (0..32).map(|i| Some(6.0 * f64::from(i))).collect();
    assert_eq!(floats(&t, "o"), want);
}
