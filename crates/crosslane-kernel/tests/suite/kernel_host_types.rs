//! Host code's arithmetic in C++ types and the device memory a launch argument names: an
//! `unsigned` fill wraps modulo 2^32, a `float` fill is rounded to `float` at each operation, a
//! struct buffer is sized by the struct's layout, one device pointer passed twice is one
//! buffer, `d + 16` views `d` from element 16 on, and a host helper function returning a
//! value is evaluated. Each expected value is derived by hand or by the Python beside it.

use crate::support::{floats, ints, said};
use crosslane_core::Level;
use crosslane_kernel::{run_kernel, KernelTrace, LaunchConfig};

fn run(src: &str) -> KernelTrace {
    run_kernel(src, LaunchConfig::default()).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn unsigned_host_fill_wraps_modulo_two_to_the_32() {
    // 4294967295u and 3000000000u are `unsigned int` ([lex.icon]/2); `i` (int) converts to
    // unsigned ([expr]/11.5.3), and unsigned arithmetic is modulo 2^32
    // ([basic.fundamental]/4). Python:
    //   M = 2**32
    //   [((4294967295 + i) % M % 1000 + ((i * 3000000000 % M) >> 28) * 10000) % M
    //    for i in range(8)]
    //   == [295, 110000, 60001, 10002, 120003, 70004, 30005, 140006]
    let src = "\
__global__ void k(unsigned *out) { out[threadIdx.x] += 0u; }
int main() {
  unsigned h[8];
  for (int i = 0; i < 8; i++) h[i] = (4294967295u + i) % 1000u + ((i * 3000000000u) >> 28) * 10000u;
  unsigned *d;
  cudaMalloc(&d, 8 * sizeof(unsigned));
  cudaMemcpy(d, h, 8 * sizeof(unsigned), cudaMemcpyHostToDevice);
  k<<<1, 8>>>(d);
  return 0;
}
";
    let t = run(src);
    let want = [295, 110000, 60001, 10002, 120003, 70004, 30005, 140006];
    assert_eq!(ints(&t, "out"), want.map(Some).to_vec());
}

#[test]
fn host_variables_keep_their_declared_integer_types() {
    // `unsigned u = 0; u -= 1;` is 2^32 - 1 ([conv.integral]/2); `size_t s = 1; s <<= 40;` is
    // 2^40 (size_t is 64 bits, LP64); `long long big = 3000000000LL * 3;` is 9000000000;
    // `unsigned char c = 300;` is 300 mod 256 = 44.
    let src = "\
__global__ void k(long long *out, unsigned u, unsigned long long s, long long big, int c) {
  out[0] = u; out[1] = (long long)s; out[2] = big; out[3] = c;
}
int main() {
  unsigned u = 0; u -= 1;
  size_t s = 1; s <<= 40;
  long long big = 3000000000LL * 3;
  unsigned char c = 300;
  long long *d; cudaMalloc(&d, 4 * sizeof(long long));
  k<<<1, 1>>>(d, u, s, big, c);
  return 0;
}
";
    let t = run(src);
    assert_eq!(
        ints(&t, "out"),
        vec![
            Some(4_294_967_295),
            Some(1 << 40),
            Some(9_000_000_000),
            Some(44)
        ]
    );
}

#[test]
fn float_host_fill_rounds_each_float_operation() {
    // `1.0f / 12 + 0.1f * 11` has only float operands ([expr]/11 keeps float; FLT_EVAL_METHOD
    // 0 on x86-64): each operation rounded to float. Python:
    //   import struct; f = lambda x: struct.unpack('f', struct.pack('f', x))[0]
    //   f(f(f(1.0) / 12) + f(f(0.1) * 11)) == 1.183333396911621
    // (evaluated in double and rounded once it would be 1.1833332777023315). The double
    // expression `1.0 / 12 + 0.1 * 11` stays double: 1.1833333333333333.
    let src = "\
__global__ void k(float *out, double *o2) { out[threadIdx.x] += 0.0f; o2[threadIdx.x] += 0.0; }
int main() {
  float h[4]; double g[4];
  for (int i = 0; i < 4; i++) { h[i] = 1.0f / 12 + 0.1f * 11; g[i] = 1.0 / 12 + 0.1 * 11; }
  float *d; double *e;
  cudaMalloc(&d, 4 * sizeof(float)); cudaMalloc(&e, 4 * sizeof(double));
  cudaMemcpy(d, h, 4 * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(e, g, 4 * sizeof(double), cudaMemcpyHostToDevice);
  k<<<1, 4>>>(d, e);
  return 0;
}
";
    let t = run(src);
    assert_eq!(floats(&t, "out"), vec![Some(1.183_333_396_911_621); 4]);
    assert_eq!(floats(&t, "o2"), vec![Some(1.183_333_333_333_333_3); 4]);
}

#[test]
fn struct_buffer_is_sized_by_the_structs_layout() {
    // sizeof(P) for `struct P { float x; int id; }` is 8 (two 4-byte members, alignment 4):
    // cudaMalloc(&d, 40 * 8) holds 40 structs; 8 threads stride over all 40.
    // sizeof(Q) for `struct Q { double v; int id; }` is 16 (psABI: 8 + 4, rounded up to the
    // alignment 8), so 6 * 16 bytes are 6 cells (not 96 / 12 = 8).
    let src = "\
struct P { float x; int id; };
struct Q { double v; int id; };
__global__ void k(P *p, Q *q, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) { p[i].x = i * 0.5f; p[i].id = i; }
  if (threadIdx.x < 6) { q[threadIdx.x].v = 1.5; q[threadIdx.x].id = 7; }
}
int main() {
  int n = 40;
  P *d; Q *e;
  cudaMalloc(&d, n * sizeof(P));
  cudaMalloc(&e, 6 * sizeof(Q));
  k<<<1, 8>>>(d, e, n);
  return 0;
}
";
    let t = run(src);
    let x: Vec<Option<f64>> = (0..40).map(|i| Some(f64::from(i) * 0.5)).collect();
    let id: Vec<Option<i128>> = (0..40).map(Some).collect();
    assert_eq!(floats(&t, "p.x"), x);
    assert_eq!(ints(&t, "p.id"), id);
    assert_eq!(ints(&t, "q.id"), vec![Some(7); 6]);
    assert!(
        !said(&t, Level::Warning)
            .iter()
            .any(|w| w.contains("outside")),
        "{:?}",
        said(&t, Level::Warning)
    );
}

#[test]
fn float4_buffer_is_sized_by_sizeof_float4() {
    // cudaMalloc(&d, 10 * sizeof(float4)) holds 10 float4 (16 bytes each): 4 threads stride
    // over all 10, d[i] = (i, 0, 0, 0) for i in 0..10.
    let src = "\
__global__ void k(float4 *v, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) v[i] = make_float4(i, 0, 0, 0);
}
int main() {
  int n = 10;
  float4 *d;
  cudaMalloc(&d, n * sizeof(float4));
  k<<<1, 4>>>(d, n);
  return 0;
}
";
    let t = run(src);
    let got: Vec<Vec<Option<f64>>> = t
        .buffer("v")
        .unwrap()
        .iter()
        .map(|c| match c {
            Some(crosslane_kernel::KVal::Vector { items, .. }) => {
                items.iter().map(crosslane_kernel::KVal::as_f64).collect()
            }
            other => panic!("not a float4 cell: {other:?}"),
        })
        .collect();
    let want: Vec<Vec<Option<f64>>> = (0..10)
        .map(|i| vec![Some(f64::from(i)), Some(0.0), Some(0.0), Some(0.0)])
        .collect();
    assert_eq!(got, want);
}

#[test]
fn one_device_pointer_given_twice_is_one_buffer() {
    // a and b are the same memory: a[i] = 10 i; after the barrier b[i] = a[(i + 1) % 32] +
    // b[i] = 10 ((i + 1) % 32) + 10 i (all reads of the warp before its writes).
    let src = "\
__global__ void k(int *a, int *b) {
  int i = threadIdx.x;
  a[i] = i * 10;
  __syncthreads();
  b[i] = a[(i + 1) % 32] + b[i];
}
int main() {
  int h[32];
  for (int i = 0; i < 32; i++) h[i] = i;
  int *d;
  cudaMalloc(&d, 32 * sizeof(int));
  cudaMemcpy(d, h, 32 * sizeof(int), cudaMemcpyHostToDevice);
  k<<<1, 32>>>(d, d);
  return 0;
}
";
    let t = run(src);
    let want: Vec<Option<i128>> = (0..32)
        .map(|i| Some(10 * ((i + 1) % 32) + 10 * i))
        .collect();
    assert_eq!(ints(&t, "a"), want);
    assert!(t.buffer("b").is_none(), "b is a view of a, not a buffer");
}

#[test]
fn offset_argument_views_the_same_buffer() {
    // k(d, d + 16): q[i] is p[i + 16]. Thread i < 16 writes p[i] = i; then q[i] = p[i] + 1000
    // for i < 16 writes p[16 + i] = i + 1000. p: 0..15, then 1000..1015.
    let src = "\
__global__ void k(int *p, int *q) {
  int i = threadIdx.x;
  p[i] = i;
  __syncthreads();
  q[i] = p[i] + 1000;
}
int main() {
  int *d;
  cudaMalloc(&d, 32 * sizeof(int));
  k<<<1, 16>>>(d, d + 16);
  return 0;
}
";
    let t = run(src);
    let want: Vec<Option<i128>> = (0..32)
        .map(|i| Some(if i < 16 { i } else { i - 16 + 1000 }))
        .collect();
    assert_eq!(ints(&t, "p"), want);
}

#[test]
fn offset_argument_keeps_the_host_fill() {
    // h is 64 cells of -1 copied into d (256 bytes = 64 ints); d + 16 is the 48 cells from 16
    // on ([expr.add]/4), all -1; the kernel adds 100 to the first 32: 99 x 32, then -1 x 16.
    let src = "\
__global__ void k(int *out, int n) { int i = threadIdx.x; if (i < n) out[i] += 100; }
int main() {
  int h[64];
  for (int i = 0; i < 64; i++) h[i] = -1;
  int *d;
  cudaMalloc(&d, 256);
  cudaMemcpy(d, h, 256, cudaMemcpyHostToDevice);
  k<<<1, 32>>>(d + 16, 32);
  return 0;
}
";
    let t = run(src);
    let want: Vec<Option<i128>> = (0..48)
        .map(|i| Some(if i < 32 { 99 } else { -1 }))
        .collect();
    assert_eq!(ints(&t, "out"), want);
}

#[test]
fn host_helper_function_is_evaluated_for_the_grid() {
    // blocksFor(100, 32) = (100 + 31) / 32 = 4 blocks of 32: out[i] = i for all 100 cells.
    let src = "\
__global__ void k(int *out, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) out[i] = i; }
static int blocksFor(int n, int b) { return (n + b - 1) / b; }
int main() {
  int n = 100, bs = 32;
  int *d;
  cudaMalloc(&d, n * sizeof(int));
  k<<<blocksFor(n, bs), bs>>>(d, n);
  return 0;
}
";
    let t = run(src);
    assert_eq!(t.launch.grid_dim, [4, 1, 1]);
    let want: Vec<Option<i128>> = (0..100).map(Some).collect();
    assert_eq!(ints(&t, "out"), want);
}

#[test]
fn host_loops_with_an_accumulator_vectors_and_a_partial_second_pass_are_fills() {
    // hv[i] = make_float4(i, 2i, 0.5, 1): components in order. acc += i; ha[i] = acc: the
    // running sums 0 1 3 6 10 15 21 28 (Python: itertools.accumulate(range(8))). ht: 0..7,
    // then the first four overwritten with 100 + i: 100 101 102 103 4 5 6 7.
    let src = "\
__global__ void k(float4 *v, int *acc, int *two) { int i = threadIdx.x; acc[i] += 0; two[i] += 0; v[i].w += 0.0f; }
int main() {
  float4 hv[8];
  int ha[8], ht[8];
  int acc = 0;
  for (int i = 0; i < 8; i++) hv[i] = make_float4(i, 2 * i, 0.5f, 1);
  for (int i = 0; i < 8; i++) { acc += i; ha[i] = acc; }
  for (int i = 0; i < 8; i++) ht[i] = i;
  for (int i = 0; i < 4; i++) ht[i] = 100 + i;
  float4 *dv; int *da, *dt;
  cudaMalloc(&dv, 8 * sizeof(float4));
  cudaMalloc(&da, 8 * sizeof(int));
  cudaMalloc(&dt, 8 * sizeof(int));
  cudaMemcpy(dv, hv, sizeof(hv), cudaMemcpyHostToDevice);
  cudaMemcpy(da, ha, sizeof(ha), cudaMemcpyHostToDevice);
  cudaMemcpy(dt, ht, sizeof(ht), cudaMemcpyHostToDevice);
  k<<<1, 8>>>(dv, da, dt);
  return 0;
}
";
    let t = run(src);
    assert_eq!(
        ints(&t, "acc"),
        [0, 1, 3, 6, 10, 15, 21, 28].map(Some).to_vec()
    );
    assert_eq!(
        ints(&t, "two"),
        [100, 101, 102, 103, 4, 5, 6, 7].map(Some).to_vec()
    );
    let got: Vec<Vec<Option<f64>>> = t
        .buffer("v")
        .unwrap()
        .iter()
        .map(|c| match c {
            Some(crosslane_kernel::KVal::Vector { items, .. }) => {
                items.iter().map(crosslane_kernel::KVal::as_f64).collect()
            }
            other => panic!("not a float4 cell: {other:?}"),
        })
        .collect();
    let want: Vec<Vec<Option<f64>>> = (0..8)
        .map(|i| {
            vec![
                Some(f64::from(i)),
                Some(f64::from(2 * i)),
                Some(0.5),
                Some(1.0),
            ]
        })
        .collect();
    assert_eq!(got, want);
    assert!(
        said(&t, Level::Warning).is_empty(),
        "{:?}",
        said(&t, Level::Warning)
    );
}

#[test]
fn partial_copy_after_a_memset_keeps_the_memset_cells() {
    // cudaMemset(b, 0, 128) zeroes all 32 ints; cudaMemcpy(b + 16, h, 64) then writes h's 16
    // cells 7..22 from cell 16 on: 0 x 16, then 7 8 … 22.
    let src = "\
__global__ void k(int *b) { b[threadIdx.x] += 0; }
int main() {
  int h[16];
  for (int i = 0; i < 16; i++) h[i] = 7 + i;
  int *b;
  cudaMalloc(&b, 32 * sizeof(int));
  cudaMemset(b, 0, 32 * sizeof(int));
  cudaMemcpy(b + 16, h, 16 * sizeof(int), cudaMemcpyHostToDevice);
  k<<<1, 32>>>(b);
  return 0;
}
";
    let t = run(src);
    let want: Vec<Option<i128>> = (0..32)
        .map(|i| Some(if i < 16 { 0 } else { i - 16 + 7 }))
        .collect();
    assert_eq!(ints(&t, "b"), want);
}

#[test]
fn offset_argument_not_read_leaves_cells_undefined_with_a_warning() {
    // `d + off` with `off = rand()`: which cells the kernel sees is not known here, so they
    // are undefined (never the index fill) and a warning names the argument.
    let src = "\
__global__ void k(int *out, int n) { int i = threadIdx.x; if (i < n) out[i] += 100; }
int main() {
  int h[64];
  for (int i = 0; i < 64; i++) h[i] = -1;
  int *d;
  int off = rand();
  cudaMalloc(&d, 256);
  cudaMemcpy(d, h, 256, cudaMemcpyHostToDevice);
  k<<<1, 32>>>(d + off, 32);
  return 0;
}
";
    let t = run(src);
    assert!(ints(&t, "out").iter().all(Option::is_none));
    assert!(
        said(&t, Level::Warning)
            .iter()
            .any(|w| w.contains("`d+off` points into `d`")),
        "{:?}",
        said(&t, Level::Warning)
    );
}

#[test]
fn two_dimensional_host_array_filled_by_nested_loops_is_copied_row_major() {
    // float hc[4][8] is 32 floats in row-major order ([dcl.array]/9): cell i * 8 + j holds
    // i * 10 + j. Python: [i * 10 + j for i in range(4) for j in range(8)].
    let src = "\
__global__ void k(float *c) { c[threadIdx.x] += 0.0f; }
int main() {
  float hc[4][8];
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 8; j++) hc[i][j] = i * 10 + j;
  float *d;
  cudaMalloc(&d, 32 * sizeof(float));
  cudaMemcpy(d, hc, sizeof(hc), cudaMemcpyHostToDevice);
  k<<<1, 32>>>(d);
  return 0;
}
";
    let t = run(src);
    let want: Vec<Option<f64>> = (0..4)
        .flat_map(|i| (0..8).map(move |j| Some(f64::from(i * 10 + j))))
        .collect();
    assert_eq!(floats(&t, "c"), want);
}

#[test]
fn host_array_of_structs_filled_member_by_member_is_copied_per_member() {
    // h[i].x = 0.5 i, h[i].id = 10 + i, copied into d: p.x starts 0 0.5 … 3.5 and the kernel
    // adds 1 (1 1.5 … 4.5); p.id is 10 … 17. A member host code never writes (`Q::id`) is
    // undefined with a warning, never the index fill.
    let src = "\
struct P { float x; int id; };
__global__ void k(P *p) { int i = threadIdx.x; p[i].x += 1.0f; }
int main() {
  P h[8];
  for (int i = 0; i < 8; i++) { h[i].x = i * 0.5f; h[i].id = 10 + i; }
  P *d;
  cudaMalloc(&d, 8 * sizeof(P));
  cudaMemcpy(d, h, 8 * sizeof(P), cudaMemcpyHostToDevice);
  k<<<1, 8>>>(d);
  return 0;
}
";
    let t = run(src);
    let x: Vec<Option<f64>> = (0..8).map(|i| Some(f64::from(i) * 0.5 + 1.0)).collect();
    assert_eq!(floats(&t, "p.x"), x);
    assert_eq!(ints(&t, "p.id"), (10..18).map(Some).collect::<Vec<_>>());
    let half = src.replace(" h[i].id = 10 + i;", "");
    let t = run(&half);
    assert!(ints(&t, "p.id").iter().all(Option::is_none));
    assert!(
        said(&t, Level::Warning)
            .iter()
            .any(|w| w.contains("never writes this member")),
        "{:?}",
        said(&t, Level::Warning)
    );
}
