//! Host fills of the shapes samples write that were left unread: a fill through a host helper
//! function (`ConstantInit(h_A, size_A, 1.0f)` as the CUDA matrixMul sample writes it), the C
//! math library and half conversions in a fill, a host array of structs filled member by member
//! with a vector member, a recurrence over the cells written before, `memcpy` between host
//! arrays, and vector values (`make_int3(…)`, a struct's vector member) as launch arguments.
//! Each expected value is derived by hand or by the Python beside it (`f` rounds to `float`:
//! `f = lambda x: struct.unpack('f', struct.pack('f', x))[0]`).

use crate::support::{floats, ints};
use crosslane_kernel::{run_kernel, KernelTrace, LaunchConfig};

fn run(src: &str) -> KernelTrace {
    run_kernel(src, LaunchConfig::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn some(v: &[f64]) -> Vec<Option<f64>> {
    v.iter().copied().map(Some).collect()
}

#[test]
fn a_helper_function_fills_the_callers_arrays_with_its_parameters_bound() {
    // `fill_const(h_a, n, 1.5f)` writes 1.5 into each of the n = 6 cells of `h_a`; `ramp(b,
    // n)` writes (i % 4) * 0.5 into `b`'s cells through `b.data()`: 0 0.5 1 1.5 0 0.5. The
    // kernel adds them: 1.5 2 2.5 3 1.5 2.
    let src = "\
#include <vector>
__global__ void add(const float *a, const float *b, float *c) {
  int i = threadIdx.x;
  c[i] = a[i] + b[i];
}
void fill_const(float *data, int size, float val) { for (int i = 0; i < size; ++i) data[i] = val; }
void ramp(float *d, int n) {
  for (int i = 0; i < n; i++) d[i] = (i % 4) * 0.5f;
}
int main() {
  const int n = 6;
  float *h_a = (float *)malloc(n * sizeof(float));
  std::vector<float> b(n);
  fill_const(h_a, n, 1.5f);
  ramp(b.data(), n);
  float *da, *db, *dc;
  cudaMalloc(&da, n * sizeof(float)); cudaMalloc(&db, n * sizeof(float));
  cudaMalloc(&dc, n * sizeof(float));
  cudaMemcpy(da, h_a, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  add<<<1, n>>>(da, db, dc);
  return 0;
}
";
    let t = run(src);
    assert_eq!(floats(&t, "a"), some(&[1.5; 6]));
    assert_eq!(floats(&t, "b"), some(&[0.0, 0.5, 1.0, 1.5, 0.0, 0.5]));
    assert_eq!(floats(&t, "c"), some(&[1.5, 2.0, 2.5, 3.0, 1.5, 2.0]));
}

#[test]
fn host_math_in_a_fill_gives_the_float_the_host_computes() {
    // h[i] = sinf(x) + cosf(x) + expf(-0.5f * i) + powf(1.5f, i) + sqrtf((float)i), x being
    // i * 0.25f, each call's result rounded to float and the sum left to right in float. Python:
    //   x = f(i * 0.25); a = f(math.sin(x)); b = f(math.cos(x)); c = f(math.exp(f(-0.5 * i)))
    //   p = f(math.pow(1.5, i)); s = f(math.sqrt(i)); f(f(f(f(a + b) + c) + p) + s)
    // gives 3.0 4.32284688949585 5.389101028442383 6.743508815765381 8.579608917236328
    // 11.176209449768066.
    let src = "\
#include <cmath>
__global__ void copy(const float *in, float *out) { out[threadIdx.x] = in[threadIdx.x]; }
int main() {
  const int n = 6;
  float h[n];
  for (int i = 0; i < n; i++)
    h[i] = sinf(i * 0.25f) + cosf(i * 0.25f) + expf(-0.5f * i) + powf(1.5f, i) + sqrtf((float)i);
  float *d, *o;
  cudaMalloc(&d, sizeof(h)); cudaMalloc(&o, sizeof(h));
  cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
  copy<<<1, n>>>(d, o);
  return 0;
}
";
    let t = run(src);
    let want = [
        3.0,
        4.32284688949585,
        5.389101028442383,
        6.743508815765381,
        8.579608917236328,
        11.176209449768066,
    ];
    assert_eq!(floats(&t, "out"), some(&want));
}

#[test]
fn float2half_and_a_half_cast_in_a_fill_round_to_the_nearest_half() {
    // __float2half rounds to nearest, ties to even (CUDA Math API, half conversions); so does
    // a cast. Python: struct.unpack('e', struct.pack('e', f(f(0.1) * i)))[0] for i in 0..4
    // gives 0, 0.0999755859375, 0.199951171875, 0.300048828125; (half)(i / 3.0f) for i = 1, 2
    // gives 0.333251953125 and 0.66650390625 (and 0, 1 for i = 0, 3). The kernel doubles each.
    let src = "\
#include <cuda_fp16.h>
__global__ void k(const half *x, const half *y, float *a, float *b) {
  int i = threadIdx.x;
  a[i] = __half2float(x[i]) * 2.0f;
  b[i] = __half2float(y[i]) * 2.0f;
}
int main() {
  const int n = 4;
  half hx[n], hy[n];
  for (int i = 0; i < n; ++i) hx[i] = __float2half(0.1f * i);
  for (int i = 0; i < n; ++i) hy[i] = (half)(i / 3.0f);
  half *dx, *dy; float *a, *b;
  cudaMalloc(&dx, n * sizeof(half)); cudaMalloc(&dy, n * sizeof(half));
  cudaMalloc(&a, n * sizeof(float)); cudaMalloc(&b, n * sizeof(float));
  cudaMemcpy(dx, hx, n * sizeof(half), cudaMemcpyHostToDevice);
  cudaMemcpy(dy, hy, n * sizeof(half), cudaMemcpyHostToDevice);
  k<<<1, n>>>(dx, dy, a, b);
  return 0;
}
";
    let t = run(src);
    assert_eq!(
        floats(&t, "a"),
        some(&[0.0, 0.199951171875, 0.39990234375, 0.60009765625])
    );
    assert_eq!(
        floats(&t, "b"),
        some(&[0.0, 0.66650390625, 1.3330078125, 2.0])
    );
}

#[test]
fn a_malloced_array_of_structs_filled_member_by_member_reaches_the_kernel() {
    // h[i].p = make_float3(i, 2 * i, 1); h[i].m = 0.5f * i: the kernel computes p.x * m +
    // p.y - p.z = 0.5 i^2 + 2 i - 1: -1 1.5 5 9.5 for i = 0..4.
    let src = "\
struct Body { float3 p; float m; };
__global__ void k(const Body *b, float *out) {
  int i = threadIdx.x;
  Body x = b[i];
  out[i] = x.p.x * x.m + x.p.y - x.p.z;
}
int main() {
  const int n = 4;
  Body *h = (Body *)malloc(n * sizeof(Body));
  for (int i = 0; i < n; ++i) {
    h[i].p = make_float3(i, 2.0f * i, 1.0f);
    h[i].m = 0.5f * i;
  }
  Body *d; float *out;
  cudaMalloc(&d, n * sizeof(Body)); cudaMalloc(&out, n * sizeof(float));
  cudaMemcpy(d, h, n * sizeof(Body), cudaMemcpyHostToDevice);
  k<<<1, n>>>(d, out);
  return 0;
}
";
    let t = run(src);
    assert_eq!(floats(&t, "out"), some(&[-1.0, 1.5, 5.0, 9.5]));
}

#[test]
fn a_recurrence_and_a_host_memcpy_fill_the_arrays_in_order() {
    // h[0] = 1; h[i] = h[i - 1] * 2 + 1: 1 3 7 15 31 63 (2^(i+1) - 1). memcpy(g, src,
    // sizeof(src)) copies all six ints of src: 9 8 7 6 5 4. The kernel sums them:
    // 10 11 14 21 36 67.
    let src = "\
#include <cstring>
__global__ void add(const int *a, const int *b, int *c) { int i = threadIdx.x; c[i] = a[i] + b[i]; }
int main() {
  const int n = 6;
  int h[n];
  h[0] = 1;
  for (int i = 1; i < n; ++i) h[i] = h[i - 1] * 2 + 1;
  int src[n] = {9, 8, 7, 6, 5, 4}, g[n];
  memcpy(g, src, sizeof(src));
  int *a, *b, *c;
  cudaMalloc(&a, sizeof(h)); cudaMalloc(&b, sizeof(g)); cudaMalloc(&c, sizeof(h));
  cudaMemcpy(a, h, sizeof(h), cudaMemcpyHostToDevice);
  cudaMemcpy(b, g, sizeof(g), cudaMemcpyHostToDevice);
  add<<<1, n>>>(a, b, c);
  return 0;
}
";
    let t = run(src);
    let some_i = |v: &[i128]| v.iter().copied().map(Some).collect::<Vec<_>>();
    assert_eq!(ints(&t, "a"), some_i(&[1, 3, 7, 15, 31, 63]));
    assert_eq!(ints(&t, "b"), some_i(&[9, 8, 7, 6, 5, 4]));
    assert_eq!(ints(&t, "c"), some_i(&[10, 11, 14, 21, 36, 67]));
}

#[test]
fn vector_values_reach_vector_parameters_and_struct_members() {
    // make_int3(2, 5, 9) gives d = (2, 5, 9); make_float4(0, 1, 2, 3).w = 3; o.off =
    // make_float2(1.5f, 2.5f) and o.dim = make_int3(4, 5, 6) set the struct's members.
    let src = "\
struct Cfg { float2 off; int k; int3 dim; };
__global__ void k(int3 d, float4 f, Cfg o, float *r) {
  r[0] = d.x; r[1] = d.y; r[2] = d.z; r[3] = f.w;
  r[4] = o.off.y; r[5] = o.k; r[6] = o.dim.z;
}
int main() {
  Cfg o; o.off = make_float2(1.5f, 2.5f); o.k = 7; o.dim = make_int3(4, 5, 6);
  float *r; cudaMalloc(&r, 7 * sizeof(float));
  k<<<1, 1>>>(make_int3(2, 5, 9), make_float4(0.f, 1.f, 2.f, 3.f), o, r);
  return 0;
}
";
    let t = run(src);
    assert_eq!(floats(&t, "r"), some(&[2.0, 5.0, 9.0, 3.0, 2.5, 7.0, 6.0]));
}

#[test]
fn a_vector_variable_declared_or_assigned_make_t_is_passed_as_its_components() {
    // int3 d = make_int3(7, 8, 9) and f = make_float2(0.5f, 1.5f) are the arguments: r = 7 8 9 1.5.
    let src = "\
__global__ void k(int3 d, float2 f, float *r) { r[0] = d.x; r[1] = d.y; r[2] = d.z; r[3] = f.y; }
int main() {
  int3 d = make_int3(7, 8, 9);
  float2 f; f = make_float2(0.5f, 1.5f);
  float *r; cudaMalloc(&r, 4 * sizeof(float));
  k<<<1, 1>>>(d, f, r);
  return 0;
}
";
    let t = run(src);
    assert_eq!(floats(&t, "r"), some(&[7.0, 8.0, 9.0, 1.5]));
}
