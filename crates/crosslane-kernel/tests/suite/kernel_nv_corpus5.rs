//! Shapes of NVIDIA-family code (round five of the corpus) that were refused or left their
//! inputs unread: a host helper whose return type or prototype names a CUDA runtime type
//! (`inline cudaError_t checkCuda(cudaError_t r)`, `void check(cudaError_t e);`), a host copy
//! through `void*` casts (`cudaMemcpy((void*)d, (void*)h, …)`), and the grid group's
//! `group_dim()` / `dim_blocks()` / `block_index()`. Kernels are written here; expected values
//! come from the Python beside each test.

use crate::support::{floats, ints};
use crosslane_kernel::{run_kernel, KernelTrace, LaunchConfig};

fn run(src: &str) -> KernelTrace {
    run_kernel(src, LaunchConfig::default()).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn a_host_helper_returning_cuda_error_t_and_a_prototype_do_not_stop_the_file() {
    // A status check returning `cudaError_t` whose body names `cudaGetErrorString` (host-only),
    // a prototype of a helper defined elsewhere, and a stream handle: host code, read for
    // its launch. The kernel XORs lanes in pairs. Python: [i ^ 1 for i in range(32)]
    let src = "\
#include <cstdio>
void report(cudaError_t e, const char *where);
cudaStream_t make_stream(int flags);
inline cudaError_t checkCuda(cudaError_t result) {
  if (result != cudaSuccess) {
    fprintf(stderr, \"CUDA Runtime Error: %s\\n\", cudaGetErrorString(result));
  }
  return result;
}
__global__ void pairs(int *a) {
  a[threadIdx.x] = __shfl_xor_sync(0xffffffff, (int)threadIdx.x, 1);
}
int main() {
  int *d;
  checkCuda(cudaMalloc(&d, 32 * sizeof(int)));
  pairs<<<1, 32>>>(d);
  checkCuda(cudaDeviceSynchronize());
  return 0;
}
";
    let t = run(src);
    let want: Vec<Option<i128>> = (0..32).map(|i| Some(i ^ 1)).collect();
    assert_eq!(ints(&t, "a"), want);
}

#[test]
fn a_copy_through_void_pointer_casts_carries_the_host_fill() {
    // `cudaMemcpy((void*)d, (void*)h, …)` copies the filled host array; the kernel takes the
    // maximum of each warp by XOR shuffles. 2 warps of h[i] = 3 i mod 64.
    // Python: h=[3*i%64 for i in range(64)]; [max(h[32*(i//32):32*(i//32)+32]) for i in range(64)]
    let src = "\
#include <cstdlib>
__global__ void warp_max(float *p) {
  float v = p[threadIdx.x];
  for (int m = 16; m > 0; m >>= 1) {
    float o = __shfl_xor_sync(0xffffffff, v, m);
    v = o > v ? o : v;
  }
  p[threadIdx.x] = v;
}
int main() {
  const int n = 64;
  float *h = (float *)malloc(n * sizeof(float));
  float *d = nullptr;
  cudaMalloc((void **)&d, n * sizeof(float));
  for (int i = 0; i < n; i++) {
    h[i] = static_cast<float>((3 * i) % 64);
  }
  cudaMemcpy((void *)d, (void *)h, n * sizeof(float), cudaMemcpyHostToDevice);
  warp_max<<<1, n>>>(d);
  cudaMemcpy(static_cast<void *>(h), (const void *)d, n * sizeof(float), cudaMemcpyDeviceToHost);
  return 0;
}
";
    let t = run(src);
    let h: Vec<f64> = (0..64).map(|i| f64::from((3 * i) % 64)).collect();
    let want: Vec<Option<f64>> = (0..64)
        .map(|i| {
            let w = 32 * (i / 32);
            Some(h[w..w + 32].iter().copied().fold(f64::MIN, f64::max))
        })
        .collect();
    assert_eq!(floats(&t, "p"), want);
}

#[test]
fn the_grid_group_gives_its_block_index_and_dimensions_in_blocks() {
    // `g.group_dim().x * w.meta_group_size()` warps in the grid (the Programming Guide's
    // legacy alias of `dim_blocks()`), `g.block_index().x` and `g.dim_blocks().x`: a grid of
    // 3 blocks of 64. Python: [[3 * 2, b, 3] for b in range(3)]
    let src = "\
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void shape(int *o) {
  auto g = cg::this_grid();
  auto b = cg::this_thread_block();
  auto w = cg::tiled_partition<32>(b);
  if (b.thread_rank() == 0) {
    o[3 * blockIdx.x + 0] = g.group_dim().x * w.meta_group_size();
    o[3 * blockIdx.x + 1] = g.block_index().x;
    o[3 * blockIdx.x + 2] = g.dim_blocks().x;
  }
}
int main() {
  int *o;
  cudaMalloc(&o, 9 * sizeof(int));
  shape<<<3, 64>>>(o);
  return 0;
}
";
    let t = run(src);
    let want: Vec<Option<i128>> = (0..3).flat_map(|b| [Some(6), Some(b), Some(3)]).collect();
    assert_eq!(ints(&t, "o"), want);
}

#[test]
fn a_malloc_array_filled_at_computed_indices_reaches_the_kernel() {
    // `float *h = (float *) malloc(4 * N * sizeof(float));` then a loop writing h[4i + k]
    // (an array of float4 bodies, as n-body drivers fill them); the kernel broadcasts lane
    // 3's x of each warp (the fourth body's first component) to the warp. Python:
    //   h=[v for i in range(16) for v in (i % 4, i // 4, 0.5 * i, 1.0)]
    //   [h[4 * (32 * (t // 32) + 3)] for t in range(64)] -> [3.0] * 32 + [3.0] * 32
    // and the kernel's copy of h: o2[t] = h[t] for t < 64.
    let src = "\
#include <cstdlib>
__global__ void bcast(const float4 *pm, float *o, float *o2) {
  float4 me = pm[threadIdx.x % 16];
  o[threadIdx.x] = __shfl_sync(0xffffffff, me.x, 3);
  o2[threadIdx.x] = ((const float *)pm)[threadIdx.x];
}
int main() {
  const size_t N = 16;
  float *h = (float *) malloc( 4*N*sizeof(float) );
  for ( int i = 0; i < N; i++ ) {
    h[4*i+0] = (float) (i % 4);
    h[4*i+1] = (float) (i / 4);
    h[4*i+2] = 0.5f * i;
    h[4*i+3] = 1.0f;
  }
  float *d, *o, *o2;
  cudaMalloc(&d, 4 * N * sizeof(float));
  cudaMalloc(&o, 64 * sizeof(float));
  cudaMalloc(&o2, 64 * sizeof(float));
  cudaMemcpy(d, h, 4 * N * sizeof(float), cudaMemcpyHostToDevice);
  bcast<<<1, 64>>>((float4 *)d, o, o2);
  return 0;
}
";
    let t = run(src);
    let h: Vec<f64> = (0..16)
        .flat_map(|i: i32| [f64::from(i % 4), f64::from(i / 4), 0.5 * f64::from(i), 1.0])
        .collect();
    assert_eq!(floats(&t, "o"), vec![Some(3.0); 64]);
    assert_eq!(
        floats(&t, "o2"),
        h.into_iter().map(Some).collect::<Vec<_>>()
    );
}

#[test]
fn a_launch_inside_a_timing_lambda_is_read_with_the_callers_buffers() {
    // A timing macro that expands to an immediately-invoked lambda calling the lambda it is
    // given (`TIME_IT(([&]{ k<<<…>>>(…); }))`), as tutorial repositories time launches: the
    // launch takes main's pointers and size. The kernel sums each warp by shuffles into
    // out[warp]. Python: h=[2 * i + 1 for i in range(64)]; [sum(h[:32]), sum(h[32:])]
    let src = "\
#include <cstdio>
#define TIME_IT(func) [&] { float ms = 0; for (int r = 0; r < 1; ++r) { func(); } return ms; }()
__global__ void warp_sums(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
  if ((threadIdx.x & 31) == 0) out[i / 32] = v;
}
int main() {
  const int n = 64;
  int h[n];
  for (int i = 0; i < n; i++) h[i] = 2 * i + 1;
  int *d_in, *d_out;
  cudaMalloc(&d_in, n * sizeof(int));
  cudaMalloc(&d_out, 2 * sizeof(int));
  cudaMemcpy(d_in, h, n * sizeof(int), cudaMemcpyHostToDevice);
  float t = TIME_IT(([&]{ warp_sums<<<1, n>>>(d_in, d_out, n); }));
  printf(\"%f ms\\n\", t);
  return 0;
}
";
    let t = run(src);
    let h: Vec<i128> = (0..64).map(|i| 2 * i + 1).collect();
    assert_eq!(
        ints(&t, "out"),
        vec![Some(h[..32].iter().sum()), Some(h[32..].iter().sum())]
    );
}

#[test]
fn stream_ordered_allocations_are_allocations_the_memsets_clear() {
    // `cudaMallocAsync(&p, bytes, 0)` then `cudaMemsetAsync(p, 0, bytes, 0)` (a scratch counter
    // and flags, as single-pass scans allocate them): the kernel claims a ticket per block by
    // `atomicAdd` on the zeroed counter and each warp votes on its ticket. 3 blocks of 32:
    // tickets 0, 1, 2 in block order; flags[b] = __ballot_sync(~0, lane < ticket + 1).
    // Python: [(1 << (b + 1)) - 1 for b in range(3)]
    let src = "\
__global__ void tickets(unsigned *counter, unsigned *flags) {
  __shared__ unsigned t;
  if (threadIdx.x == 0) t = atomicAdd(counter, 1u);
  __syncthreads();
  unsigned m = __ballot_sync(0xffffffffu, threadIdx.x < t + 1);
  if (threadIdx.x == 0) flags[t] = m;
}
int main() {
  unsigned *counter = 0, *flags = 0;
  cudaMallocAsync(&counter, sizeof(unsigned), 0);
  cudaMemsetAsync(counter, 0, sizeof(unsigned), 0);
  cudaMallocAsync(&flags, 3 * sizeof(unsigned), 0);
  tickets<<<3, 32>>>(counter, flags);
  cudaFreeAsync(counter, 0);
  return 0;
}
";
    let t = run(src);
    assert_eq!(ints(&t, "flags"), vec![Some(1), Some(3), Some(7)]);
    assert_eq!(ints(&t, "counter"), vec![Some(3)]);
}

#[test]
fn helper_math_operators_are_there_when_the_source_includes_the_header() {
    // `#include "helper_math.h"` (the CUDA samples' vector operators): `v4 += in4[i]` over
    // float4 loads, `dot`, a scalar times a vector; then a warp sum by shuffles. One warp,
    // in[i] = i over 128 floats (32 float4): lane l loads in4[l] = (4l, 4l+1, 4l+2, 4l+3).
    // Python: s = sum(range(128)) = 8128; d = sum((4*l)**2 + (4*l+1)**2 for l in range(32))
    //   = 337312 (lane dot of (x, y, 0) with itself); sc = 2 * (4*31 + 3) = 254 (lane 31's w).
    let src = "\
#include \"helper_math.h\"
__global__ void vec(const float *in, float *out) {
  const float4 *in4 = reinterpret_cast<const float4 *>(in);
  float4 v4 = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  v4 += in4[threadIdx.x];
  float s = v4.x + v4.y + v4.z + v4.w;
  float3 xy = make_float3(v4.x, v4.y, 0.0f);
  float d = dot(xy, xy);
  float4 twice = 2.0f * v4;
  for (int o = 16; o > 0; o >>= 1) {
    s += __shfl_down_sync(0xffffffff, s, o);
    d += __shfl_down_sync(0xffffffff, d, o);
  }
  if (threadIdx.x == 0) { out[0] = s; out[1] = d; }
  if (threadIdx.x == 31) out[2] = twice.w;
}
int main() {
  float h[128];
  for (int i = 0; i < 128; i++) h[i] = i;
  float *d_in, *d_out;
  cudaMalloc(&d_in, sizeof(h));
  cudaMalloc(&d_out, 3 * sizeof(float));
  cudaMemcpy(d_in, h, sizeof(h), cudaMemcpyHostToDevice);
  vec<<<1, 32>>>(d_in, d_out);
  return 0;
}
";
    let t = run(src);
    assert_eq!(
        floats(&t, "out"),
        vec![Some(8128.0), Some(337_312.0), Some(254.0)]
    );
}

#[test]
fn a_cg_reduce_over_a_builtin_vector_is_refused_at_its_line_with_what_to_write() {
    // `cg::reduce(tile, int4, cg::plus<int4>())` with the program's own `operator+` (the
    // Programming Guide's reduce-operator example): refused at the call, naming the
    // per-component form, not at an intrinsic the program never wrote.
    let src = "\
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__device__ int4 operator+(const int4 &a, const int4 &b) {
  return make_int4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}
__global__ void k(int4 *out) {
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  int v = tile.thread_rank();
  int4 vec = {v, 2 * v, -v, v * v};
  int4 c = cg::reduce(tile, vec, cg::plus<int4>());
  if (tile.thread_rank() == 0) out[0] = c;
}
";
    let e = crate::support::refused(
        src,
        crate::support::launch_grid(32, 1, &[("out", 1, "zero")]),
    );
    assert!(e.contains("7:") || e.contains("11:"), "{e}");
    assert!(e.contains("reduce each component"), "{e}");
}

#[test]
fn a_later_cub_warp_class_is_named_as_not_modelled() {
    // CCCL's `cub::WarpReduceBroadcast<int>` (a sum returned to every lane): refused as one of
    // CUB's collective classes not run here, naming those that are and what to write, not as
    // an unknown type with an unrelated `cuda::atomic` hint.
    let src = "\
#include <cub/warp/warp_reduce_broadcast.cuh>
__global__ void k(int *out) {
  using WarpReduceBroadcast = cub::WarpReduceBroadcast<int>;
  __shared__ typename WarpReduceBroadcast::TempStorage temp_storage;
  int aggregate = WarpReduceBroadcast{temp_storage}.Sum(static_cast<int>(threadIdx.x));
  out[threadIdx.x] = aggregate;
}
";
    let e = crate::support::refused(
        src,
        crate::support::launch_grid(32, 1, &[("out", 32, "zero")]),
    );
    assert!(
        e.contains("`cub::WarpReduceBroadcast` is not modelled here"),
        "{e}"
    );
    assert!(e.contains("WarpReduce, WarpScan"), "{e}");
    assert!(!e.contains("cuda::atomic"), "{e}");
}

#[test]
fn a_launch_host_code_holds_but_the_reading_does_not_follow_is_said() {
    // The launch sits in a host class's member function, which host reading skips: the run
    // takes crosslane's defaults (one warp, index-filled buffers), and says that these are not
    // the program's launch, at the launch's line.
    let src = "\
__global__ void k(float *in, float *out) {
  float v = in[threadIdx.x];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
  if (threadIdx.x == 0) out[0] = v;
}
struct Runner {
  float *in, *out;
  void go() { k<<<1, 64>>>(in, out); }
};
int main() {
  float *in, *out;
  cudaMalloc(&in, 64 * sizeof(float));
  cudaMalloc(&out, sizeof(float));
  Runner r{in, out};
  r.go();
  return 0;
}
";
    let t = run(src);
    assert!(
        t.diagnostics
            .iter()
            .any(|d| d.level == crosslane_core::result::Level::Warning
                && d.line == 8
                && d.message.contains("not the program's")),
        "{:?}",
        t.diagnostics
    );
}
