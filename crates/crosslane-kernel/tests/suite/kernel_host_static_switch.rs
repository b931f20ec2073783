//! A compile-time switch over a list of block sizes calling a generic lambda with the one the
//! host value equals (the shape of rocm-examples' reduction tutorial: `static_switch<
//! std::array{…}>(v, [&]<int B>() { hipLaunchKernelGGL(k<B, W>, …); })`), a captureless
//! `__device__` lambda passed to the kernel as its operator, and `hipLaunchKernelGGL` given a
//! template instance with two arguments. Kernels written here; expected values from the Python
//! models quoted beside each test.

use crate::support::{ints, no_errors, refused, run_finished};
use crosslane_core::Dialect;
use crosslane_kernel::LaunchConfig;

fn hip(lanes: usize) -> LaunchConfig {
    LaunchConfig {
        dialect: Some(Dialect::Hip),
        lanes: Some(lanes),
        ..LaunchConfig::default()
    }
}

const SWITCHED: &str = "\
#define HIP_TEMPLATE_KERNEL_LAUNCH
#include <hip/hip_runtime.h>
#include <array>
#include <numeric>
#include <utility>
#include <vector>
namespace sel {
template <auto L, int I, int N, typename V, typename G>
void walk(V&& v, G&& g) {
  if constexpr (I != N) {
    if (v == L[I]) g.template operator()<L[I]>();
    else walk<L, I + 1, N, V, G>(std::forward<V>(v), std::forward<G>(g));
  }
}
template <auto L, typename V, typename G>
void among(V&& v, G&& g) { walk<L, 0, L.size(), V, G>(std::forward<V>(v), std::forward<G>(g)); }
}
template <int Block, int Wave, typename T, typename Op>
__global__ void fold(const T* src, T* dst, Op op, int count) {
  int t = threadIdx.x;
  T v = t < count ? src[t] : T(0);
  for (int d = Wave / 2; d > 0; d /= 2) v = op(v, __shfl_xor(v, d, Wave));
  if (t % Wave == 0) dst[t / Wave] = v * 1000 + Block;
}
int main() {
  const int count = 128;
  std::vector<int> h(count);
  std::iota(h.begin(), h.end(), 1);
  int *src, *dst;
  hipMalloc(&src, count * sizeof(int));
  hipMalloc(&dst, 4 * sizeof(int));
  hipMemcpy(src, h.data(), count * sizeof(int), hipMemcpyHostToDevice);
  hipDeviceProp_t prop;
  hipGetDeviceProperties(&prop, 0);
  int block = THREADS;
  int wave = prop.warpSize;
  auto biggest = [] __device__ (int a, int b) { return a > b ? a : b; };
  sel::among<std::array{32, 64, 128, 256}>(block, [&]<int B>() noexcept {
    sel::among<std::array{32, 64}>(wave, [&]<int W>() {
      hipLaunchKernelGGL(fold<B, W>, dim3(1), dim3(B), 0, hipStreamDefault, src, dst, biggest, count);
    });
  });
  return 0;
}";

#[test]
fn static_switch_launches_the_instance_of_the_matching_block_size() {
    // Python: h = list(range(1, 129)); for W in (64, 32):
    //   [max(h[g*W:(g+1)*W]) * 1000 + 128 for g in range(128 // W)]
    // W=64: [64128, 128128] (cells 2, 3 never written); W=32: [32128, 64128, 96128, 128128].
    let src = SWITCHED.replace("THREADS", "128");
    let t = run_finished(&src, hip(64));
    no_errors(&t);
    assert_eq!(ints(&t, "dst"), vec![Some(64128), Some(128128), None, None]);
    let t = run_finished(&src, hip(32));
    no_errors(&t);
    assert_eq!(
        ints(&t, "dst"),
        vec![Some(32128), Some(64128), Some(96128), Some(128128)]
    );
}

#[test]
fn static_switch_on_a_value_host_code_does_not_give_says_so() {
    // `block` comes from a function with no body here: the switch's launch is said, not
    // dropped silently.
    let src = SWITCHED
        .replace("THREADS", "chosen_block()")
        .replace("int main() {", "int chosen_block();\nint main() {");
    let e = refused(&src, hip(64));
    assert!(
        e.contains("the value it switches on, `block`, has no constant value"),
        "{e}"
    );
}

/// A template lambda in device code is a call operator template (C++20
/// [expr.prim.lambda.closure]/7; was refused before `kernel_template_lambda`): called with
/// `<3>`, every lane stores 3.
#[test]
fn template_lambda_in_device_code_runs() {
    let src = "\
#include <hip/hip_runtime.h>
__global__ void k(int* o) {
  auto f = [&]<int N>() { o[threadIdx.x] = N; };
  f.template operator()<3>();
}";
    let mut c = hip(64);
    c.buffer_len.insert("o".into(), 64);
    let t = run_finished(src, c);
    assert_eq!(ints(&t, "o"), vec![Some(3); 64]);
}
