//! Host code that decides a launch's shape and its buffers' contents: several declarators in
//! one declaration, a `dim3`'s members, struct members set on the host, `std::vector`
//! constructors, managed memory written by the host, `cudaMemset`, memory nothing wrote,
//! `cudaLaunchKernel`, and an earlier launch run first. Each expected value is derived by
//! hand beside its test from C++17 and the CUDA/HIP runtime's documented behaviour.

use crate::support::{ints, said};
use crosslane_core::op::Dialect;
use crosslane_core::Level;
use crosslane_kernel::{run_kernel, KernelTrace, LaunchConfig};

fn floats(t: &KernelTrace, name: &str) -> Vec<Option<f64>> {
    t.buffer(name)
        .unwrap()
        .iter()
        .map(|c| c.as_ref().and_then(crosslane_kernel::KVal::as_f64))
        .collect()
}

fn run(src: &str) -> KernelTrace {
    run_kernel(src, LaunchConfig::default()).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn several_declarators_in_one_host_declaration_each_get_their_value() {
    // `int threads = 32, blocks = 2;` declares two ints (C++17 [dcl.decl]/3): <<<2, 32>>>,
    // 64 threads, out[i] = i + 100 for i in 0..64. `unsigned a = 1, b;`: a = 1.
    let src = "\
__global__ void k(int* out, int a) { int i = blockIdx.x * blockDim.x + threadIdx.x; out[i] = i * a + 100; }
int main() {
  int threads = 32, blocks = 2;
  unsigned a = 1, b;
  int* d; cudaMalloc(&d, 64 * sizeof(int));
  k<<<blocks, threads>>>(d, a);
  return 0;
}
";
    let t = run(src);
    assert_eq!(t.launch.grid_dim, [2, 1, 1]);
    assert_eq!(t.launch.block_dim, [32, 1, 1]);
    let want: Vec<Option<i128>> = (0..64).map(|i| Some(i + 100)).collect();
    assert_eq!(ints(&t, "out"), want);
    assert!(
        said(&t, Level::Warning).is_empty(),
        "{:?}",
        said(&t, Level::Warning)
    );
}

#[test]
fn a_later_declarator_without_initializer_has_no_value() {
    // `int a = 4, n;`: n is indeterminate ([dcl.init]/12), so the launch says so.
    let src = "\
__global__ void k(int* out, int n) { out[threadIdx.x] = n; }
int main() {
  int a = 4, n;
  int* d; cudaMalloc(&d, 32 * sizeof(int));
  k<<<1, 32>>>(d, n);
  return 0;
}
";
    let t = run(src);
    let w = said(&t, Level::Warning);
    assert!(
        w.iter()
            .any(|m| m.contains("`n`") && m.contains("without an initializer")),
        "{w:?}"
    );
}

#[test]
fn several_dim3_declarators_and_a_default_dim3() {
    // `dim3 g(2), b(64), one;`: g = (2,1,1), b = (64,1,1), one = (1,1,1) (dim3's components
    // default to 1). Block b.x * one.y = 64, grid g: 128 threads, out[i] = i.
    let src = "\
__global__ void k(int* out) { int i = blockIdx.x * blockDim.x + threadIdx.x; out[i] = i; }
int main() {
  dim3 g(2), b(64), one;
  int* d; cudaMalloc(&d, 128 * sizeof(int));
  k<<<g, b.x * one.y>>>(d);
  return 0;
}
";
    let t = run(src);
    assert_eq!(t.launch.grid_dim, [2, 1, 1]);
    assert_eq!(t.launch.block_dim, [64, 1, 1]);
    let want: Vec<Option<i128>> = (0..128).map(Some).collect();
    assert_eq!(ints(&t, "out"), want);
}

#[test]
fn a_dim3_member_in_a_host_expression_is_its_component() {
    // grid((1000 + 256 - 1) / 256) = 1255 / 256 = 4 blocks; y = 2 * 1 + 2 = 4 for i < 1000
    // (x and y filled with 1 and 2 by host loops).
    let src = "\
#define N 1000
__global__ void saxpy(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
int main() {
  float hx[N], hy[N];
  for (int i = 0; i < N; i++) { hx[i] = 1.0f; hy[i] = 2.0f; }
  float *d_x, *d_y;
  cudaMalloc(&d_x, N * sizeof(float)); cudaMalloc(&d_y, N * sizeof(float));
  cudaMemcpy(d_x, hx, N * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_y, hy, N * sizeof(float), cudaMemcpyHostToDevice);
  dim3 block(256);
  dim3 grid((N + block.x - 1) / block.x);
  saxpy<<<grid, block>>>(N, 2.0f, d_x, d_y);
  return 0;
}
";
    let t = run(src);
    assert_eq!(t.launch.grid_dim, [4, 1, 1]);
    assert_eq!(floats(&t, "y"), vec![Some(4.0); 1000]);
}

#[test]
fn struct_members_set_on_the_host_are_the_kernel_s_argument() {
    // p.n = 20, p.scale = 0.5: y[i] = 0.5 i for i < 20; y[20..32] never written (undefined).
    let src = "\
struct Params { int n; float scale; };
__global__ void k(Params p, float* y) { int i = threadIdx.x; if (i < p.n) y[i] = i * p.scale; }
int main() { Params p; p.n = 20; p.scale = 0.5f; float* d; cudaMalloc(&d, 32 * sizeof(float)); k<<<1, 32>>>(p, d); return 0; }
";
    let t = run(src);
    let want: Vec<Option<f64>> = (0..32)
        .map(|i| (i < 20).then_some(0.5 * f64::from(i)))
        .collect();
    assert_eq!(floats(&t, "y"), want);
}

#[test]
fn vector_constructors_fill_the_host_array() {
    // std::vector<float> hx(n, 3.0f): every cell 3 ([vector.cons]/4); std::vector<int> hv(n):
    // value-initialized, 0 ([vector.cons]/3). y = 3 * 2 + 1 + 0 = 7.
    let src = "\
#include <vector>
__global__ void k(float* y, const float* x, const int* v) { int i = threadIdx.x; y[i] = x[i] * 2.0f + 1.0f + v[i]; }
int main() {
  int n = 32;
  std::vector<float> hx(n, 3.0f);
  std::vector<int> hv(n);
  float *dx, *dy; int* dv;
  cudaMalloc(&dx, n * sizeof(float)); cudaMalloc(&dy, n * sizeof(float)); cudaMalloc(&dv, n * sizeof(int));
  cudaMemcpy(dx, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dv, hv.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  k<<<1, 32>>>(dy, dx, dv);
  return 0;
}
";
    let t = run(src);
    assert_eq!(floats(&t, "y"), vec![Some(7.0); 32]);
    assert!(
        said(&t, Level::Warning).is_empty(),
        "{:?}",
        said(&t, Level::Warning)
    );
}

#[test]
fn a_host_array_passed_to_an_unread_call_is_no_longer_its_fill() {
    // init(hx.data(), n) may write hx: the copied values are not known, said with a warning.
    let src = "\
#include <vector>
void init(float* p, int n);
__global__ void k(float* y, const float* x) { int i = threadIdx.x; y[i] = x[i]; }
int main() {
  int n = 32;
  std::vector<float> hx(n);
  init(hx.data(), n);
  float *dx, *dy;
  cudaMalloc(&dx, n * sizeof(float)); cudaMalloc(&dy, n * sizeof(float));
  cudaMemcpy(dx, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  k<<<1, 32>>>(dy, dx);
  return 0;
}
";
    let t = run(src);
    let w = said(&t, Level::Warning);
    assert!(w.iter().any(|m| m.contains("`hx`")), "{w:?}");
}

#[test]
fn managed_memory_written_by_the_host_is_the_device_s_input() {
    // x[i] = 0.5 i written through managed memory: y = 2 x + 1 = i + 1.
    for (malloc, launch) in [
        ("cudaMallocManaged", "k<<<2, 32>>>(y, x, n);"),
        (
            "hipMallocManaged",
            "hipLaunchKernelGGL(k, dim3(2), dim3(32), 0, 0, y, x, n);",
        ),
    ] {
        let src = format!(
            "\
__global__ void k(float* y, const float* x, int n) {{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = x[i] * 2.0f + 1.0f; }}
int main() {{
  const int n = 64;
  float *x, *y;
  {malloc}(&x, n * sizeof(float));
  {malloc}(&y, n * sizeof(float));
  for (int i = 0; i < n; i++) x[i] = 0.5f * i;
  {launch}
  return 0;
}}
"
        );
        let config = LaunchConfig {
            dialect: Some(if malloc.starts_with("hip") {
                Dialect::Hip
            } else {
                Dialect::Cuda
            }),
            lanes: Some(32),
            ..LaunchConfig::default()
        };
        let t = run_kernel(&src, config).unwrap_or_else(|e| panic!("{e}"));
        let want: Vec<Option<f64>> = (1..=64).map(|i| Some(f64::from(i))).collect();
        assert_eq!(floats(&t, "y"), want, "{malloc}");
    }
}

#[test]
fn managed_memory_the_host_writes_in_a_way_not_read_is_said() {
    // x[i] = rand(): not a constant fill; the launch says `x` is not read.
    let src = "\
__global__ void k(float* y, const float* x) { y[threadIdx.x] = x[threadIdx.x]; }
int main() {
  float *x, *y;
  cudaMallocManaged(&x, 32 * sizeof(float)); cudaMallocManaged(&y, 32 * sizeof(float));
  for (int i = 0; i < 32; i++) x[i] = (float)rand();
  k<<<1, 32>>>(y, x);
  return 0;
}
";
    let t = run(src);
    let w = said(&t, Level::Warning);
    assert!(
        w.iter().any(|m| m.contains("`x`") && m.contains("managed")),
        "{w:?}"
    );
}

#[test]
fn memory_nothing_wrote_is_undefined() {
    // cudaMalloc does not clear memory (CUDA Runtime API): acc[i] += 1 reads undefined cells.
    let src = "__global__ void k(int* acc) { acc[threadIdx.x] += 1; }
int main() { int* d; cudaMalloc(&d, 32 * sizeof(int)); k<<<1, 32>>>(d); return 0; }
";
    let t = run(src);
    assert_eq!(ints(&t, "acc"), vec![None; 32]);
    let notes = said(&t, Level::Info);
    assert!(
        notes.iter().any(|m| m.contains("does not clear memory")),
        "{notes:?}"
    );
}

#[test]
fn memset_sets_every_byte() {
    // cudaMemset(d, 1, bytes): each byte 0x01, so an int cell is 0x01010101 = 16843009; acc += 1
    // gives 16843010. A memset of 0: 0 + 1 = 1. hipMemset the same (HIP Runtime API).
    for (call, byte, want) in [
        ("cudaMemset", 1, 16_843_010),
        ("cudaMemset", 0, 1),
        ("hipMemset", 1, 16_843_010),
    ] {
        let src = format!(
            "__global__ void k(int* acc) {{ acc[threadIdx.x] += 1; }}
int main() {{ int* d; cudaMalloc(&d, 32 * sizeof(int)); {call}(d, {byte}, 32 * sizeof(int)); k<<<1, 32>>>(d); return 0; }}
"
        );
        let t = run(&src);
        assert_eq!(ints(&t, "acc"), vec![Some(want); 32], "{call}({byte})");
    }
}

#[test]
fn a_partial_memset_leaves_the_rest_undefined() {
    // 16 of 32 ints set to 0: acc[0..16] = 1, acc[16..32] undefined.
    let src = "__global__ void k(int* acc) { acc[threadIdx.x] += 1; }
int main() { int* d; cudaMalloc(&d, 32 * sizeof(int)); cudaMemset(d, 0, 16 * sizeof(int)); k<<<1, 32>>>(d); return 0; }
";
    let t = run(src);
    let want: Vec<Option<i128>> = (0..32).map(|i| (i < 16).then_some(1)).collect();
    assert_eq!(ints(&t, "acc"), want);
}

#[test]
fn cuda_launch_kernel_reads_its_argument_array() {
    // cudaLaunchKernel((void*)k, dim3(2), dim3(32), args, 0, 0) with args = {&dy, &dx, &n} is
    // k<<<2, 32>>>(dy, dx, 64); x memset to 0, so y = 0 * 2 + 1 = 1 (CUDA Runtime API,
    // cudaLaunchKernel).
    let src = "\
__global__ void k(float* y, const float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = x[i] * 2.0f + 1.0f; }
int main() {
  int n = 64; float *dx, *dy;
  cudaMalloc(&dx, n * sizeof(float)); cudaMalloc(&dy, n * sizeof(float));
  cudaMemset(dx, 0, n * sizeof(float));
  void* args[] = {&dy, &dx, &n};
  cudaLaunchKernel((void*)k, dim3(2), dim3(32), args, 0, 0);
  return 0;
}
";
    let t = run(src);
    assert_eq!(t.launch.grid_dim, [2, 1, 1]);
    assert_eq!(floats(&t, "y"), vec![Some(1.0); 64]);
}

#[test]
fn a_launch_api_whose_argument_array_is_not_read_says_so() {
    let src = "\
__global__ void k(float* y) { y[threadIdx.x] = 1.0f; }
void** make_args();
int main() {
  float* dy; cudaMalloc(&dy, 32 * sizeof(float));
  cudaLaunchKernel((void*)k, dim3(1), dim3(32), make_args(), 0, 0);
  return 0;
}
";
    let t = run(src);
    let w = said(&t, Level::Warning);
    assert!(w.iter().any(|m| m.contains("argument array")), "{w:?}");
}

#[test]
fn an_earlier_launch_runs_first_and_the_traced_launch_finds_what_it_wrote() {
    // init<<<2, 32>>>(d, 5) writes d before compute runs; launches on one stream run in order
    // (CUDA C++ Programming Guide, "Streams"), so compute finds d = 5: out[i] = 5 + i.
    let src = "\
__global__ void init(int* d, int v) { d[blockIdx.x * blockDim.x + threadIdx.x] = v; }
__global__ void compute(int* d, int* out) { int i = blockIdx.x * blockDim.x + threadIdx.x; out[i] = d[i] + i; }
int main() {
  int *d, *o;
  cudaMalloc(&d, 64 * sizeof(int)); cudaMalloc(&o, 64 * sizeof(int));
  init<<<2, 32>>>(d, 5);
  compute<<<2, 32>>>(d, o);
  return 0;
}
";
    let config = LaunchConfig {
        entry: Some("compute".into()),
        ..LaunchConfig::default()
    };
    let t = run_kernel(src, config).unwrap_or_else(|e| panic!("{e}"));
    let want: Vec<Option<i128>> = (0..64).map(|i| Some(5 + i)).collect();
    assert_eq!(ints(&t, "out"), want);
    let notes = said(&t, Level::Info);
    assert!(
        notes
            .iter()
            .any(|m| m.contains("`init(d, 5)` launched at line 6 left in it")),
        "{notes:?}"
    );
    // The first launch (init) traced: d[i] = 5, and compute (which writes only out, not a
    // parameter of init) runs after it.
    let t = run(src);
    assert_eq!(ints(&t, "d"), vec![Some(5); 64]);
}

#[test]
fn hip_shapes_read_as_cuda_s() {
    // hipMalloc + a host loop copied by hipMemcpy, hipLaunchKernelGGL with dim3(g), dim3(b) from
    // `int g = 2, b = 32;`: y = x + 1 = i + 1.
    let src = "\
__global__ void k(float* y, const float* x) { int i = blockIdx.x * blockDim.x + threadIdx.x; y[i] = x[i] + 1.0f; }
int main() {
  int g = 2, b = 32;
  float h[64];
  for (int i = 0; i < 64; i++) h[i] = i;
  float *dx, *dy;
  hipMalloc(&dx, 64 * sizeof(float)); hipMalloc(&dy, 64 * sizeof(float));
  hipMemcpy(dx, h, sizeof(h), hipMemcpyHostToDevice);
  hipLaunchKernelGGL(k, dim3(g), dim3(b), 0, 0, dy, dx);
  return 0;
}
";
    let config = LaunchConfig {
        dialect: Some(Dialect::Hip),
        lanes: Some(32),
        ..LaunchConfig::default()
    };
    let t = run_kernel(src, config).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(t.launch.grid_dim, [2, 1, 1]);
    let want: Vec<Option<f64>> = (1..=64).map(|i| Some(f64::from(i))).collect();
    assert_eq!(floats(&t, "y"), want);
}

#[test]
fn a_device_to_device_copy_of_part_of_fresh_memory_is_not_invented() {
    // d2 gets d1's first 16 cells (zeros, the memset) by a device-to-device copy of 16 of its
    // 32 cells (CUDA Runtime API, cudaMemcpy: count bytes); d2's other 16 cells were never
    // written (cudaMalloc does not clear memory): undefined. A whole copy is read
    // (`kernel_host_state.rs`), more partial ones in `kernel_host_copies.rs`.
    let src = "\
__global__ void k(int* out, const int* in) { out[threadIdx.x] = in[threadIdx.x]; }
int main() {
  int *d1, *d2, *o;
  cudaMalloc(&d1, 32 * sizeof(int)); cudaMalloc(&d2, 32 * sizeof(int)); cudaMalloc(&o, 32 * sizeof(int));
  cudaMemset(d1, 0, 32 * sizeof(int));
  cudaMemcpy(d2, d1, 16 * sizeof(int), cudaMemcpyDeviceToDevice);
  k<<<1, 32>>>(o, d2);
  return 0;
}
";
    let t = run(src);
    let mut want = vec![Some(0); 16];
    want.extend(vec![None; 16]);
    assert_eq!(ints(&t, "out"), want);
}

#[test]
fn a_memset_of_0xff_over_floats_gives_nans() {
    // Every byte 0xff: each float is 0xffffffff, exponent all ones and a nonzero significand,
    // a NaN (IEEE 754-2019 3.4); y = x * 2 + 1 is NaN in every cell.
    let src = "\
__global__ void k(float* y, const float* x) { y[threadIdx.x] = x[threadIdx.x] * 2.0f + 1.0f; }
int main() {
  float *dx, *dy;
  cudaMalloc(&dx, 32 * sizeof(float)); cudaMalloc(&dy, 32 * sizeof(float));
  cudaMemset(dx, 0xff, 32 * sizeof(float));
  k<<<1, 32>>>(dy, dx);
  return 0;
}
";
    let t = run(src);
    let y = floats(&t, "y");
    assert_eq!(y.len(), 32);
    assert!(y.iter().all(|c| c.is_some_and(f64::is_nan)), "{y:?}");
}

#[test]
fn aggregate_initialized_structs_give_their_members() {
    // `Params a = {4, 0.5f};`: n = 4, scale = 0.5, off from its default member initializer 7
    // (C++17 [dcl.init.aggr]/8): y[i] = 0.5 i + 7 for i < 4 → 7, 7.5, 8, 8.5.
    // `Params b{2};`: n = 2, scale 3 and off 7 by default: y = 7, 10.
    for (decl, want) in [
        ("Params p = {4, 0.5f};", vec![7.0, 7.5, 8.0, 8.5]),
        ("Params p{2};", vec![7.0, 10.0]),
    ] {
        let src = format!(
            "\
struct Params {{ int n; float scale = 3.0f; int off = 7; }};
__global__ void k(Params p, float* y) {{ int i = threadIdx.x; if (i < p.n) y[i] = i * p.scale + p.off; }}
int main() {{
  {decl}
  float* d; cudaMalloc(&d, 32 * sizeof(float));
  k<<<1, 32>>>(p, d);
  return 0;
}}
"
        );
        let t = run(&src);
        let y = floats(&t, "y");
        let got: Vec<f64> = y[..want.len()].iter().map(|c| c.unwrap()).collect();
        assert_eq!(got, want, "{decl}");
        assert!(y[want.len()..].iter().all(Option::is_none), "{decl}");
    }
}

#[test]
fn a_host_range_for_assigning_a_constant_is_the_arrays_fill() {
    // `for (auto& v : ha) v = 1.5f;` sets each of ha's 32 elements (C++17 [stmt.ranged]/1),
    // so the copied buffer and out are 32 x 1.5.
    let src = "\
#include <vector>
__global__ void k(const float* a, float* out) { out[threadIdx.x] = a[threadIdx.x] * 2.0f; }
int main() {
  float *a, *o;
  cudaMalloc(&a, 32 * sizeof(float)); cudaMalloc(&o, 32 * sizeof(float));
  std::vector<float> ha(32);
  for (auto& v : ha) v = 1.5f;
  cudaMemcpy(a, ha.data(), 32 * sizeof(float), cudaMemcpyHostToDevice);
  k<<<1, 32>>>(a, o);
}
";
    let t = run(src);
    assert_eq!(floats(&t, "out"), vec![Some(3.0); 32]);
}

#[test]
fn a_host_range_for_not_read_leaves_the_copy_undefined_and_warns() {
    // `v = rand()` is not a host constant: the copy of ha warns naming it and a's cells are
    // undefined, never the index fill (a[5] = 5) nor the earlier zeros.
    let src = "\
#include <vector>
__global__ void k(const float* a, float* out) { out[threadIdx.x] = a[threadIdx.x]; }
int main() {
  float *a, *o;
  cudaMalloc(&a, 32 * sizeof(float)); cudaMalloc(&o, 32 * sizeof(float));
  std::vector<float> ha(32);
  for (auto& v : ha) v = rand();
  cudaMemcpy(a, ha.data(), 32 * sizeof(float), cudaMemcpyHostToDevice);
  k<<<1, 32>>>(a, o);
}
";
    let t = run(src);
    let w = said(&t, Level::Warning);
    assert!(
        w.iter()
            .any(|m| m.contains("`ha`") && m.contains("undefined")),
        "{w:?}"
    );
    assert_eq!(floats(&t, "a"), vec![None; 32]);
    let n = said(&t, Level::Info);
    assert!(
        n.iter()
            .any(|m| m.contains("range-for over `ha` at line 7")),
        "{n:?}"
    );
}

#[test]
fn a_copy_into_an_offset_of_a_device_buffer_lands_there() {
    // cudaMemcpy(db + 16, hi, 16 floats): db + 16 points 16 floats in ([expr.add]/4), so
    // b = 16 x 1.0 then 16 x 2.0.
    let src = "\
#include <vector>
__global__ void k(const float* b, float* out) { out[threadIdx.x] = b[threadIdx.x]; }
int main() {
  float *db, *dout;
  std::vector<float> lo(16, 1.0f), hi(16, 2.0f);
  cudaMalloc(&db, 32 * sizeof(float)); cudaMalloc(&dout, 32 * sizeof(float));
  cudaMemcpy(db, lo.data(), 16 * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(db + 16, hi.data(), 16 * sizeof(float), cudaMemcpyHostToDevice);
  k<<<1, 32>>>(db, dout);
}
";
    let t = run(src);
    let want: Vec<Option<f64>> = (0..32)
        .map(|i| Some(if i < 16 { 1.0 } else { 2.0 }))
        .collect();
    assert_eq!(floats(&t, "out"), want);
}

#[test]
fn an_offset_copy_into_fresh_memory_leaves_the_rest_undefined() {
    // Only &d[8]..&d[11] are written (4 ints of 7); cudaMalloc does not clear memory, so the
    // other 4 of 8 cells are undefined.
    let src = "\
__global__ void k(const int* d, int* out) { out[threadIdx.x] = d[threadIdx.x % 8]; }
int main() {
  int *d, *o; int h[4] = {7, 7, 7, 7};
  cudaMalloc(&d, 8 * sizeof(int)); cudaMalloc(&o, 32 * sizeof(int));
  cudaMemcpy(&d[4], h, 4 * sizeof(int), cudaMemcpyHostToDevice);
  k<<<1, 32>>>(d, o);
}
";
    let t = run(src);
    let want: Vec<Option<i128>> = (0..8).map(|i| (i >= 4).then_some(7)).collect();
    assert_eq!(ints(&t, "d"), want);
}

#[test]
fn a_partial_copy_after_a_full_copy_overwrites_only_its_cells() {
    // 32 x 0.25 copied, then sizeof(h_small) = 16 bytes = 4 floats over the start:
    // b = {1, 2, 3, 4, 0.25 x 28}.
    let src = "\
#include <vector>
__global__ void k(const float* b, float* out) { out[threadIdx.x] = b[threadIdx.x]; }
int main() {
  float *db, *dout; float h_small[4] = {1.f, 2.f, 3.f, 4.f};
  std::vector<float> hb(32, 0.25f);
  cudaMalloc(&db, 32 * sizeof(float)); cudaMalloc(&dout, 32 * sizeof(float));
  cudaMemcpy(db, hb.data(), 32 * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(db, h_small, sizeof(h_small), cudaMemcpyHostToDevice);
  k<<<1, 32>>>(db, dout);
}
";
    let t = run(src);
    let mut want = vec![Some(0.25); 32];
    for (i, w) in want.iter_mut().take(4).enumerate() {
        *w = Some(i as f64 + 1.0);
    }
    assert_eq!(floats(&t, "out"), want);
}

#[test]
fn a_comma_expression_of_allocations_allocates_each() {
    // `cudaMalloc(&a, …), cudaMalloc(&b, 64 floats);` evaluates both ([expr.comma]/1): b has 64
    // cells, all written (2 below 32, 3 above), no out-of-bounds write.
    let src = "\
__global__ void k(float* a, float* b) { int t = threadIdx.x; a[t] = 1.f; b[t] = 2.f; b[t + 32] = 3.f; }
int main() {
  float *a, *b;
  cudaMalloc(&a, 64 * sizeof(float)), cudaMalloc(&b, 64 * sizeof(float));
  k<<<1, 32>>>(a, b);
}
";
    let t = run(src);
    let want: Vec<Option<f64>> = (0..64)
        .map(|i| Some(if i < 32 { 2.0 } else { 3.0 }))
        .collect();
    assert_eq!(floats(&t, "b"), want);
    let w = said(&t, Level::Warning);
    assert!(w.iter().all(|m| !m.contains("outside")), "{w:?}");
}

#[test]
fn each_vector_declarator_and_a_braced_vector_are_fills() {
    // `std::vector<float> ha(32, 2.0f), hs(1, 1.5f);` ([dcl.decl]/3) and
    // `std::vector<float> hv = {1, 2, 3, 4};` ([vector.cons] initializer_list):
    // out[t] = ha[t] * hs[0] + hv[t % 4] = 3 + (t % 4 + 1).
    let src = "\
#include <vector>
__global__ void k(const float* a, float* out, const float* s, const float* v) { out[threadIdx.x] = a[threadIdx.x] * s[0] + v[threadIdx.x % 4]; }
int main() {
  float *a, *b, *s, *v;
  cudaMalloc(&a, 32 * sizeof(float)); cudaMalloc(&b, 32 * sizeof(float)); cudaMalloc(&s, sizeof(float)); cudaMalloc(&v, 4 * sizeof(float));
  std::vector<float> ha(32, 2.0f), hs(1, 1.5f);
  std::vector<float> hv = {1.f, 2.f, 3.f, 4.f};
  cudaMemcpy(a, ha.data(), 32 * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(s, hs.data(), sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(v, hv.data(), 4 * sizeof(float), cudaMemcpyHostToDevice);
  k<<<1, 32>>>(a, b, s, v);
}
";
    let t = run(src);
    let want: Vec<Option<f64>> = (0..32).map(|t| Some(3.0 + (t % 4 + 1) as f64)).collect();
    assert_eq!(floats(&t, "out"), want);
}

#[test]
fn memcpy_async_and_nested_fill_loops_are_read() {
    // hb = 16 x 2 (cudaMemcpyAsync copies it, in stream order before the launch);
    // hc[i*4+j] = i - j. out[t] = 10*b[t] + 100*c[t]: t = 6 (i 1, j 2) gives 20 - 100 = -80.
    let src = "\
#include <vector>
__global__ void k(const float* b, const float* c, float* out) { int t = threadIdx.x; out[t] = 10.f * b[t] + 100.f * c[t]; }
int main() {
  float *b, *c, *o; cudaStream_t s; cudaStreamCreate(&s);
  cudaMalloc(&b, 16 * sizeof(float)); cudaMalloc(&c, 16 * sizeof(float)); cudaMalloc(&o, 16 * sizeof(float));
  std::vector<float> hb(16, 2.0f);
  float hc[16];
  for (int i = 0; i < 4; ++i) for (int j = 0; j < 4; ++j) hc[i * 4 + j] = i - j;
  cudaMemcpyAsync(b, hb.data(), 16 * sizeof(float), cudaMemcpyHostToDevice, s);
  cudaMemcpy(c, hc, sizeof(hc), cudaMemcpyHostToDevice);
  k<<<1, 16, 0, s>>>(b, c, o);
}
";
    let t = run(src);
    let want: Vec<Option<f64>> = (0..16)
        .map(|t| Some(20.0 + 100.0 * ((t / 4) - (t % 4)) as f64))
        .collect();
    assert_eq!(floats(&t, "out"), want);
}

#[test]
fn a_copied_fill_not_read_is_undefined_not_the_index_fill() {
    // hc's loop calls rand(): not a host constant, so c's cells are undefined (warned), where
    // the index fill would have given c[3] = 3.
    let src = "\
__global__ void k(const float* c, float* out) { out[threadIdx.x] = c[threadIdx.x]; }
int main() {
  float *c, *o; float hc[32];
  cudaMalloc(&c, 32 * sizeof(float)); cudaMalloc(&o, 32 * sizeof(float));
  for (int i = 0; i < 32; ++i) hc[i] = (float)rand();
  cudaMemcpy(c, hc, sizeof(hc), cudaMemcpyHostToDevice);
  k<<<1, 32>>>(c, o);
}
";
    let t = run(src);
    assert_eq!(floats(&t, "c"), vec![None; 32]);
    let w = said(&t, Level::Warning);
    assert!(
        w.iter()
            .any(|m| m.contains("`hc`") && m.contains("undefined")),
        "{w:?}"
    );
}
