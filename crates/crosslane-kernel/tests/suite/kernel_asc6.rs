//! Forms met in round six's public programs of the Ascend C / MetaX MACA / HeCBench family
//! (CANN asc-devkit's SIMT Sobel sample, HeCBench's `jaccard`), each in a program of my own of
//! the same shape; the expected values are worked out by hand in the comments.
//!
//! - `aclrtMemset(devPtr, maxCount, value, count)` (CANN AscendCL API reference, aclrtMemset:
//!   sets the first `count` bytes to `value`; `maxCount` is the memory's size) is read as
//!   `cudaMemset` is: the buffer holds those bytes at the launch. Before: "`aclrtMemset(…)`
//!   may write it (not read here); its cells are undefined here".
//! - `typedef vector<vector<float>> matrix;` after `using namespace std;`: an alias of a
//!   host-only library template named unqualified ([namespace.udir]/2: the name is
//!   `std::vector`) is host code, skipped as `typedef std::vector<…> matrix;` is. Before:
//!   "expected a type, found `vector`", and no kernel of the file ran.
//! - A host helper called twice with the same host arrays, whose non-const pointer parameters
//!   it only copies to the device (`void run(int* ptr, …) { cudaMemcpy(d, ptr, …); … }`): the
//!   arrays keep their values after the first call, so the second call's launches read them.
//!   Before: the second call's device buffers were undefined ("how `ptr` is filled cannot be
//!   read here").
//! - A struct of device pointers allocated by a helper given its address (`alloc(&device)`
//!   with `cudaMalloc((void**)&d->x, …)`) and passed to a launcher helper (`run(device)` of
//!   `void run(const Buffers& d)`, CANN's histogram sample): the launcher's `d.x` is the
//!   caller's `device.x` ([expr.call]/4), so the launch reads the caller's allocations and
//!   copies. Before: the launcher was read alone and its buffers took the index fill silently
//!   (a copied input of 100, 101, … ran as 0, 1, …).

use crate::support::{floats, has, ints, ints_at_launch, run_finished};
use crosslane_core::op::Dialect;
use crosslane_core::Level;
use crosslane_kernel::{run_kernel, LaunchConfig, Outcome};

#[test]
fn acl_memset_zeroes_the_counter_a_warp_ballot_appends_to() {
    // The Sobel sample's shape: a counter zeroed by aclrtMemset, lane 0 of each warp adding
    // the popcount of its warp's ballot, the warp's base broadcast back with asc_shfl.
    let src = "\
#include \"acl/acl.h\"
#include \"simt_api/asc_simt.h\"
__global__ void compact(uint32_t* list, uint32_t* count, const int32_t* in)
{
    uint32_t idx = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = laneid();
    bool keep = in[idx] % 3 == 0;
    uint32_t mask = asc_ballot(keep);
    uint32_t base = 0;
    if (lane == 0) {
        base = asc_atomic_add(count, static_cast<uint32_t>(__popc(mask)));
    }
    base = asc_shfl(base, 0, warpSize);
    if (keep) {
        list[base + __popc(mask & lanemask_lt())] = idx;
    }
}
int main()
{
    int32_t h[32];
    for (int32_t i = 0; i < 32; i++) h[i] = i;
    aclrtStream stream = nullptr;
    int32_t* din = nullptr;
    uint32_t* dlist = nullptr;
    uint32_t* dcount = nullptr;
    aclrtMalloc((void**)&din, 32 * sizeof(int32_t), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&dlist, 32 * sizeof(uint32_t), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&dcount, sizeof(uint32_t), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(din, 32 * sizeof(int32_t), h, 32 * sizeof(int32_t), ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemset(dcount, sizeof(uint32_t), 0, sizeof(uint32_t));
    aclrtMemset(dlist, 32 * sizeof(uint32_t), 0xff, 32 * sizeof(uint32_t));
    compact<<<1, 32, 0, stream>>>(dlist, dcount, din);
    aclrtSynchronizeStream(stream);
    return 0;
}";
    let config = LaunchConfig {
        dialect: Some(Dialect::Ascend),
        ..LaunchConfig::default()
    };
    let t = run_finished(src, config);
    // Multiples of 3 below 32: 0, 3, …, 30, 11 of them. The count starts at 0 (the memset),
    // not undefined, so lane 0 gets base 0 and the count ends at 11.
    assert_eq!(ints(&t, "count"), vec![Some(11)]);
    // The list: the 11 multiples in order, then the memset's 0xffffffff bytes.
    let mut want: Vec<Option<i128>> = (0..11).map(|i| Some(3 * i)).collect();
    want.extend((11..32).map(|_| Some(0xffff_ffff)));
    assert_eq!(ints(&t, "list"), want);
}

/// HeCBench jaccard's shape: `using namespace std;`, a file-scope alias of a vector of
/// vectors, host functions taking it, and a kernel using a width-16 legacy shuffle.
const STD_ALIAS: &str = "\
#include <vector>
#include <iostream>
using namespace std;
typedef float vtype;
typedef vector<vector<vtype>> matrix;
void show(const matrix& M) {
  for (size_t i = 0; i < M.size(); i++) cout << M[i][0] << endl;
}
__global__ void last_of_16(const float* w, float* out) {
  float v = w[threadIdx.x];
  for (int j = 1; j < blockDim.x; j *= 2) {
    float u = __shfl_up(v, j, blockDim.x);
    if (threadIdx.x >= j) v += u;
  }
  out[threadIdx.x] = __shfl(v, blockDim.x - 1, blockDim.x);
}
int main() {
  float h[16];
  for (int i = 0; i < 16; i++) h[i] = i;
  float *dw, *dout;
  cudaMalloc((void**)&dw, 16 * sizeof(float));
  cudaMalloc((void**)&dout, 16 * sizeof(float));
  cudaMemcpy(dw, h, 16 * sizeof(float), cudaMemcpyHostToDevice);
  last_of_16<<<1, 16>>>(dw, dout);
  return 0;
}";

#[test]
fn a_typedef_of_vector_after_using_namespace_std_is_host_code() {
    let t = run_kernel(STD_ALIAS, LaunchConfig::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    assert!(has(&t, Level::Info, "host declaration `typedef vector"));
    // An inclusive scan of 0..15 in 16 lanes ends at 0 + … + 15 = 120, which every lane reads
    // from lane 15.
    assert_eq!(floats(&t, "out"), vec![Some(120.0); 16]);
}

/// A host helper given the same host arrays twice, copying them to the device each time
/// through non-const pointer parameters.
const HELPER_TWICE: &str = "\
__global__ void scale(const int* ptr, const float* val, float* out, float k) {
  int i = threadIdx.x;
  out[i] = val[i] * k + ptr[i];
}
void run(int n, int* ptr, float* val, float k) {
  int* d_ptr; float* d_val; float* d_out;
  cudaMalloc((void**)&d_ptr, n * sizeof(int));
  cudaMalloc((void**)&d_val, n * sizeof(float));
  cudaMalloc((void**)&d_out, n * sizeof(float));
  cudaMemcpyAsync(d_ptr, ptr, n * sizeof(int), cudaMemcpyHostToDevice, 0);
  cudaMemcpy(d_val, val, n * sizeof(float), cudaMemcpyHostToDevice);
  scale<<<1, n>>>(d_ptr, d_val, d_out, k);
  cudaFree(d_ptr); cudaFree(d_val); cudaFree(d_out);
}
int main() {
  int ptr[5] = {0, 1, 3, 4, 6};
  float val[5] = {1, 5, 8, 3, 6};
  run(5, ptr, val, 2.0f);
  run(5, ptr, val, 10.0f);
  return 0;
}";

#[test]
fn a_helper_that_only_copies_its_array_parameters_leaves_them_for_the_next_call() {
    for (launch, k) in [(1usize, 2.0f64), (2, 10.0)] {
        let config = LaunchConfig {
            launch: Some(launch),
            ..LaunchConfig::default()
        };
        let t = run_finished(HELPER_TWICE, config);
        // out[i] = val[i] * k + ptr[i], on the same arrays both times.
        let ptr = [0.0, 1.0, 3.0, 4.0, 6.0];
        let val = [1.0, 5.0, 8.0, 3.0, 6.0];
        let want: Vec<Option<f64>> = (0..5).map(|i| Some(val[i] * k + ptr[i])).collect();
        assert_eq!(floats(&t, "out"), want, "launch {launch}");
    }
}

/// CANN's histogram sample's shape: a struct of device pointers allocated in one helper given
/// its address, copied into by `main`, and launched on by another helper given the struct.
const STRUCT_HELPERS: &str = "\
struct Buffers { float* in = nullptr; float* out = nullptr; };
__global__ void twice(float* out, const float* in) {
  out[threadIdx.x] = in[threadIdx.x] * 2.0f + __shfl_xor_sync(0xffffffff, in[threadIdx.x], 1);
}
void allocate(Buffers* d) {
  cudaMalloc((void**)&d->in, 32 * sizeof(float));
  cudaMalloc((void**)&d->out, 32 * sizeof(float));
}
void compute(const Buffers& d) {
  twice<<<1, 32>>>(d.out, d.in);
}
int main() {
  float h[32];
  for (int i = 0; i < 32; i++) h[i] = 100 + i;
  Buffers device;
  allocate(&device);
  cudaMemcpy(device.in, h, 32 * sizeof(float), cudaMemcpyHostToDevice);
  compute(device);
  return 0;
}";

#[test]
fn a_struct_of_device_pointers_passes_through_host_helpers() {
    let t = run_finished(STRUCT_HELPERS, LaunchConfig::default());
    // in[i] = 100 + i; out[i] = 2·in[i] + in[i ^ 1].
    let want: Vec<Option<f64>> = (0..32)
        .map(|i: i32| Some(f64::from(2 * (100 + i) + 100 + (i ^ 1))))
        .collect();
    assert_eq!(floats(&t, "out"), want);
    // `out` is fresh memory: undefined at the launch, never the index fill.
    assert_eq!(ints_at_launch(&t, "out"), vec![None; 32]);
    // `in` holds the copy of `h`, not the index fill (the kernel leaves it as it was).
    let copied: Vec<Option<f64>> = (0..32).map(|i| Some(f64::from(100 + i))).collect();
    assert_eq!(floats(&t, "in"), copied);
}
