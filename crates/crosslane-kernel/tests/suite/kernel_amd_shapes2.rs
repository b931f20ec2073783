//! More shapes of AMD's public HIP code (hip-tests' warp and cooperative-groups tests,
//! HeCBench's HIP programs, older ROCm libraries' lane reductions) that crosslane refused,
//! stopped on, or misread: kernels written here in those shapes, never copied. Expected values
//! come from the HIP Programming Guide ("Warp cross-lane functions", "Warp match functions"),
//! clang's AMDGPU builtins and the C++17 standard, computed by the models quoted beside each
//! test.

use crate::support::{floats, has, ints, no_errors, run_finished};
use crosslane_core::result::Level;
use crosslane_core::Dialect;
use crosslane_kernel::LaunchConfig;

/// The input of the match tests: `((i * 5) % 7) - 3 + 0.25`, negative and fractional, so a
/// conversion to an integer would be undefined or merge values; equal exactly when `i % 7` is.
fn match_input() -> String {
    (0..64)
        .map(|i| format!("{}", f64::from((i * 5) % 7) - 3.0 + 0.25))
        .collect::<Vec<_>>()
        .join(",")
}

/// `__match_any_sync` / `__match_all_sync` on `float` and `double` elements of a template
/// kernel's `T*` (hip-tests' `matchAny_1<float>`): HIP takes floating-point values.
const MATCH_FLOAT: &str = "\
#include <hip/hip_runtime.h>
template <typename T>
__global__ void match_k(const T* in, unsigned long long* out, int* pred_out) {
  int t = threadIdx.x;
  out[t] = __match_any_sync(~0ull, in[t]);
  int pred = -1;
  unsigned long long all = __match_all_sync(~0ull, in[t] * (T)0 - (T)2.5, &pred);
  out[blockDim.x + t] = all;
  pred_out[t] = pred;
}";

#[test]
fn match_sync_compares_floating_point_values() {
    // Python model: masks[i] = sum(1 << j for j in range(W) if v[j] == v[i]) with
    // v = [((i*5) % 7) - 3 + 0.25 ...]: v[j] == v[i] exactly when j % 7 == i % 7. The
    // match_all value is -2.5 in every lane: the full mask, pred 1.
    for ty in ["float", "double"] {
        for lanes in [64usize, 32] {
            let mut config = LaunchConfig {
                dialect: Some(Dialect::Hip),
                lanes: Some(lanes),
                entry: Some(format!("match_k<{ty}>")),
                block_dim: Some([lanes, 1, 1]),
                ..LaunchConfig::default()
            };
            let input: Vec<String> = match_input()
                .split(',')
                .take(lanes)
                .map(String::from)
                .collect();
            config.args.insert("in".into(), input.join(","));
            config.buffer_len.insert("in".into(), lanes);
            config.buffer_len.insert("out".into(), 2 * lanes);
            config.buffer_len.insert("pred_out".into(), lanes);
            let t = run_finished(MATCH_FLOAT, config);
            no_errors(&t);
            let out = ints(&t, "out");
            let pred = ints(&t, "pred_out");
            let full: i128 = if lanes == 64 {
                (1i128 << 64) - 1
            } else {
                (1i128 << 32) - 1
            };
            for i in 0..lanes {
                let want: i128 = (0..lanes)
                    .filter(|j| j % 7 == i % 7)
                    .map(|j| 1i128 << j)
                    .sum();
                assert_eq!(out[i], Some(want), "{ty} w{lanes} any, lane {i}");
                assert_eq!(out[lanes + i], Some(full), "{ty} w{lanes} all, lane {i}");
                assert_eq!(pred[i], Some(1), "{ty} w{lanes} pred, lane {i}");
            }
        }
    }
}

/// `std::is_same<Op, Plus<T>>::value`: the `>>` closes both lists, and `::value` is
/// `is_same`'s (hip-tests' warp_reduce.cc `reduceOp<T, Op, MaskType>`).
const IS_SAME_NESTED: &str = "\
#include <hip/hip_runtime.h>
template <class T> struct Plus { __device__ T operator()(T a, T b) const { return a + b; } };
template <class T> struct Max { __device__ T operator()(T a, T b) const { return a > b ? a : b; } };
template <class T, class Op>
__global__ void red(const T* in, T* out) {
  T v = in[threadIdx.x];
  T r = -1;
  if constexpr (std::is_same<Op, Plus<T>>::value && sizeof(T) == 4)
    r = __reduce_add_sync(~0ull, v);
  else if constexpr (std::is_same<Op, Max<T>>::value)
    r = __reduce_max_sync(~0ull, v);
  out[threadIdx.x] = r;
}";

#[test]
fn nested_template_argument_closes_before_scope() {
    // Python model: in = [3*i + 1 for i in range(64)]; sum = 3*2016 + 64 = 6112; max = 190.
    for (op, want) in [("Plus<int>", 6112i128), ("Max<int>", 190)] {
        let mut config = LaunchConfig {
            dialect: Some(Dialect::Hip),
            lanes: Some(64),
            entry: Some(format!("red<int, {op}>")),
            block_dim: Some([64, 1, 1]),
            ..LaunchConfig::default()
        };
        config.args.insert("in".into(), "i*3+1".into());
        let t = run_finished(IS_SAME_NESTED, config);
        no_errors(&t);
        assert!(ints(&t, "out").iter().all(|c| *c == Some(want)), "{op}");
    }
}

/// hip-tests' `int warpSize = getWarpSize();` (a helper of hip_test_common.hh, not in the
/// file) sizes the launch and a `std::vector` fill.
const GET_WARP_SIZE: &str = "\
#include <hip/hip_runtime.h>
#include <vector>
__global__ void count(const int* in, int* out) {
  out[threadIdx.x] = __popcll(__ballot(in[threadIdx.x] == 3));
}
int main() {
  int warpSize = getWarpSize();
  std::vector<int> input(warpSize, 3);
  int *d_in, *d_out;
  hipMalloc(&d_in, sizeof(int) * warpSize);
  hipMalloc(&d_out, sizeof(int) * warpSize);
  hipMemcpy(d_in, input.data(), sizeof(int) * warpSize, hipMemcpyHostToDevice);
  hipLaunchKernelGGL(count, 1, warpSize, 0, 0, d_in, d_out);
  return 0;
}";

#[test]
fn hip_tests_get_warp_size_is_the_run_wave() {
    // Model: one block of W threads, every input 3, so each ballot holds W bits.
    for lanes in [64usize, 32] {
        let config = LaunchConfig {
            dialect: Some(Dialect::Hip),
            lanes: Some(lanes),
            ..LaunchConfig::default()
        };
        let t = run_finished(GET_WARP_SIZE, config);
        no_errors(&t);
        assert!(has(&t, Level::Info, "getWarpSize()"), "the note");
        let out = ints(&t, "out");
        assert_eq!(out.len(), lanes);
        assert!(
            out.iter().all(|c| *c == Some(lanes as i128)),
            "w{lanes}: {out:?}"
        );
    }
}

/// Older ROCm libraries' lane reductions: an intrinsic declared by asm label, a function-local
/// `typedef union` for the bits, `__builtin_amdgcn_ds_swizzle` quad permutes.
const ASM_LABEL_SWIZZLE: &str = "\
#include <hip/hip_runtime.h>
__device__ int lane_read(int value, int lane) __asm(\"llvm.amdgcn.readlane\");
template <int N>
__device__ float quad_sum(float x) {
  typedef union bits_u { float f; unsigned int u; } bits_t;
  bits_t a, b;
  a.f = x;
  if (N > 1) {
    b.u = __builtin_amdgcn_ds_swizzle(a.u, 0x80b1);
    a.f += b.f;
  }
  if (N > 2) {
    b.u = __builtin_amdgcn_ds_swizzle(a.u, 0x804e);
    a.f += b.f;
  }
  return a.f;
}
__global__ void k(const float* in, float* out, float* bc) {
  int t = threadIdx.x;
  float s = quad_sum<4>(in[t]);
  float p = quad_sum<2>(in[t]);
  typedef union { float val; int b32; } word_t;
  word_t w;
  w.val = s;
  w.b32 = lane_read(w.b32, 5);
  out[t] = s + 1000.0f * p;
  bc[t] = w.val;
}";

#[test]
fn asm_label_intrinsic_and_local_typedef_union() {
    // Python model: in = [0.5*i + 1]; quad-perm 0x80b1 swaps lanes (0,1)(2,3), 0x804e
    // (0,2)(1,3): s = sum of the lane's quad, p = sum of its pair; readlane(…, 5) is lane 5's s,
    // quad 1: 3 + 3.5 + 4 + 4.5 = 15.
    for lanes in [64usize, 32] {
        let mut config = LaunchConfig {
            dialect: Some(Dialect::Hip),
            lanes: Some(lanes),
            block_dim: Some([lanes, 1, 1]),
            ..LaunchConfig::default()
        };
        config.args.insert("in".into(), "i*0.5+1".into());
        let t = run_finished(ASM_LABEL_SWIZZLE, config);
        no_errors(&t);
        let val = |i: usize| 0.5 * i as f64 + 1.0;
        let out = floats(&t, "out");
        let bc = floats(&t, "bc");
        for i in 0..lanes {
            let q = (0..4).map(|k| val(4 * (i / 4) + k)).sum::<f64>();
            let p = val(i) + val(i ^ 1);
            assert_eq!(out[i], Some(q + 1000.0 * p), "w{lanes} lane {i}");
            assert_eq!(bc[i], Some(15.0), "w{lanes} lane {i}");
        }
    }
}

/// HeCBench's `const int repeat = atoi(argv[2]);` passed to every launch: `--arg repeat=1`
/// reaches the launches that run before and after the traced one too.
const ARG_EVERY_LAUNCH: &str = "\
#include <hip/hip_runtime.h>
#include <cstdlib>
__global__ void step(int* out, int repeat) {
  int v = out[threadIdx.x];
  for (int i = 0; i < repeat; i++) v += __shfl_xor(v, 1);
  out[threadIdx.x] = v;
}
int main(int argc, char** argv) {
  const int repeat = atoi(argv[1]);
  int h[64];
  for (int i = 0; i < 64; i++) h[i] = i;
  int* d;
  hipMalloc(&d, 64 * sizeof(int));
  hipMemcpy(d, h, 64 * sizeof(int), hipMemcpyHostToDevice);
  hipLaunchKernelGGL(step, 1, 64, 0, 0, d, repeat);
  hipLaunchKernelGGL(step, 1, 64, 0, 0, d, repeat);
  return 0;
}";

#[test]
fn user_scalar_reaches_the_other_launches() {
    // Model: one step with repeat 1 gives lane 2p and 2p+1 the pair sum 4p + 1; the second
    // launch doubles it: 8p + 2.
    let mut config = LaunchConfig {
        dialect: Some(Dialect::Hip),
        lanes: Some(64),
        ..LaunchConfig::default()
    };
    config.args.insert("repeat".into(), "1".into());
    let t = run_finished(ARG_EVERY_LAUNCH, config);
    no_errors(&t);
    assert!(has(&t, Level::Info, "from --arg"), "the note");
    let out = ints(&t, "out");
    for (i, c) in out.iter().enumerate() {
        assert_eq!(*c, Some(8 * (i / 2) as i128 + 2), "lane {i}");
    }
}

/// hip-tests' host fills: `auto in = std::vector<int>(n);` filled by a loop to `in.size()`, and
/// `reserve(n)` before a loop of `push_back` under `if`/`else`.
const VECTOR_FILLS: &str = "\
#include <hip/hip_runtime.h>
#include <vector>
__global__ void k(const int* a, const unsigned* b, int* out) {
  int t = threadIdx.x;
  out[t] = __shfl(a[t], 63 - t) * 100 + (int)b[t];
}
int main() {
  size_t n = getWarpSize();
  auto a = std::vector<int>(n);
  for (size_t i = 0; i < a.size(); i++) {
    a[i] = i;
  }
  std::vector<unsigned int> b;
  b.reserve(n);
  for (size_t i = 0; i < n; i++) {
    if ((i % 2) == 0) {
      b.push_back(20);
    } else {
      b.push_back(10);
    }
  }
  int *d_a, *d_out;
  unsigned* d_b;
  hipMalloc(&d_a, a.size() * sizeof(a[0]));
  hipMalloc(&d_b, sizeof(unsigned) * n);
  hipMalloc(&d_out, sizeof(int) * n);
  hipMemcpy(d_a, a.data(), a.size() * sizeof(a[0]), hipMemcpyHostToDevice);
  hipMemcpy(d_b, b.data(), sizeof(unsigned) * n, hipMemcpyHostToDevice);
  hipLaunchKernelGGL(k, 1, n, 0, 0, d_a, d_b, d_out);
  return 0;
}";

#[test]
fn vector_fills_of_hip_tests_are_read() {
    // Model: a[i] = i, b[i] = 20 for even i else 10; out[t] = a[63 - t] * 100 + b[t].
    let config = LaunchConfig {
        dialect: Some(Dialect::Hip),
        lanes: Some(64),
        ..LaunchConfig::default()
    };
    let t = run_finished(VECTOR_FILLS, config);
    no_errors(&t);
    let out = ints(&t, "out");
    assert_eq!(out.len(), 64);
    for (i, c) in out.iter().enumerate() {
        let b = if i % 2 == 0 { 20 } else { 10 };
        assert_eq!(*c, Some((63 - i as i128) * 100 + b), "lane {i}");
    }
}

/// rocm-examples' rocPRIM `block_sum` shape with a rocPRIM class not modelled (a
/// `block_radix_rank`): refused at its line by name, with the supported classes as what to
/// write instead (`rocprim::block_reduce` runs since `kernel_amd_shapes3`, `block_load`
/// since `kernel_amd_shapes4`, `block_histogram` since `kernel_lib6`).
const ROCPRIM_CLASS: &str = "\
#include <hip/hip_runtime.h>
#include <rocprim/block/block_radix_rank.hpp>
template <unsigned int BlockSize>
__global__ void sum(const int* in, int* out) {
  using block_hist = rocprim::block_radix_rank<BlockSize, 8>;
  int s = in[threadIdx.x];
  block_hist{}.composite(in, s);
  if (threadIdx.x == 0) out[blockIdx.x] = s;
}";

#[test]
fn rocprim_class_is_refused_by_name() {
    let config = LaunchConfig {
        dialect: Some(Dialect::Hip),
        entry: Some("sum<64>".into()),
        ..LaunchConfig::default()
    };
    let e = crate::support::refused(ROCPRIM_CLASS, config);
    assert!(
        e.contains("`rocprim::block_radix_rank` is a rocPRIM library class"),
        "{e}"
    );
    assert!(e.contains("hipcub::WarpReduce"), "{e}");
    assert!(e.contains("5:"), "at its line: {e}");
}

/// Host fills through helpers: a template helper filling through its pointer parameter with a
/// host function's value per cell (hip-tests' `initializeInput(Input, size)` shape, with one
/// helper definition), a helper returning `unsigned char` (its value converted to the return
/// type), and an `int` array assigned a `double` (converted on the store).
const HELPER_FILLS: &str = "\
#include <hip/hip_runtime.h>
__global__ void k(const int* a, const int* b, const int* c, int* out) {
  int t = threadIdx.x;
  out[t] = a[t] + b[t] + c[t];
}
inline int expand(int x) { return x * 3; }
unsigned char low(int x) { return x; }
template <typename T>
inline void init(T* in, int size) {
  int values[] = {5, -1, 2, 3};
  for (int i = 0; i != size; ++i) {
    in[i] = expand(values[i % 4]);
  }
}
int main() {
  const int size = 64;
  int a[size], b[size], c[size];
  init(a, size);
  for (int i = 0; i < size; i++) b[i] = low(i * 10);
  for (int i = 0; i < size; i++) c[i] = i * 0.5;
  int *da, *db, *dc, *o;
  hipMalloc(&da, sizeof(int) * size);
  hipMalloc(&db, sizeof(int) * size);
  hipMalloc(&dc, sizeof(int) * size);
  hipMalloc(&o, sizeof(int) * size);
  hipMemcpy(da, a, sizeof(int) * size, hipMemcpyHostToDevice);
  hipMemcpy(db, b, sizeof(int) * size, hipMemcpyHostToDevice);
  hipMemcpy(dc, c, sizeof(int) * size, hipMemcpyHostToDevice);
  hipLaunchKernelGGL(k, 1, size, 0, 0, da, db, dc, o);
  return 0;
}";

#[test]
fn host_helper_fills_are_read_with_their_conversions() {
    // Python model: a = [3 * [5, -1, 2, 3][i % 4]], b = [(10 * i) % 256] (unsigned char),
    // c = [int(i * 0.5)] (truncated toward zero).
    let config = LaunchConfig {
        dialect: Some(Dialect::Hip),
        lanes: Some(64),
        ..LaunchConfig::default()
    };
    let t = run_finished(HELPER_FILLS, config);
    no_errors(&t);
    let vals = [5i128, -1, 2, 3];
    for (i, cell) in ints(&t, "a").iter().enumerate() {
        assert_eq!(*cell, Some(3 * vals[i % 4]), "a[{i}]");
    }
    for (i, cell) in ints(&t, "b").iter().enumerate() {
        assert_eq!(*cell, Some((10 * i as i128) % 256), "b[{i}]");
    }
    for (i, cell) in ints(&t, "c").iter().enumerate() {
        assert_eq!(*cell, Some(i as i128 / 2), "c[{i}]");
    }
}

/// An overloaded host helper is not called by name alone: its call in a fill stays unread
/// (said), where the first overload's value would be a wrong number.
const OVERLOADED_HELPER: &str = "\
#include <hip/hip_runtime.h>
__global__ void k(const int* a, int* out) { out[threadIdx.x] = a[threadIdx.x]; }
int twice(int x) { return 2 * x; }
float twice(float x) { return 2.5f * x; }
int main() {
  int a[64];
  for (int i = 0; i < 64; i++) a[i] = twice((float)i);
  int *da, *o;
  hipMalloc(&da, sizeof(int) * 64);
  hipMalloc(&o, sizeof(int) * 64);
  hipMemcpy(da, a, sizeof(int) * 64, hipMemcpyHostToDevice);
  hipLaunchKernelGGL(k, 1, 64, 0, 0, da, o);
  return 0;
}";

#[test]
fn overloaded_host_helper_is_not_guessed() {
    let config = LaunchConfig {
        dialect: Some(Dialect::Hip),
        lanes: Some(64),
        ..LaunchConfig::default()
    };
    let t = run_finished(OVERLOADED_HELPER, config);
    assert!(
        ints(&t, "a").iter().all(Option::is_none),
        "undefined, not 2 * i"
    );
    assert!(has(&t, Level::Warning, "cannot be read here"), "said");
}

/// An input nothing wrote: the match masks are undefined and said, and the run finishes (the
/// match function does not branch on the comparison, so no branch on an undefined value stops
/// it where the source has none).
#[test]
fn match_on_undefined_input_is_undefined_not_stopped() {
    let mut config = LaunchConfig {
        dialect: Some(Dialect::Hip),
        lanes: Some(64),
        entry: Some("match_k<float>".into()),
        block_dim: Some([64, 1, 1]),
        ..LaunchConfig::default()
    };
    config.args.insert("in".into(), "undef".into());
    config.buffer_len.insert("out".into(), 128);
    config.buffer_len.insert("pred_out".into(), 64);
    let t = run_finished(MATCH_FLOAT, config);
    let out = ints(&t, "out");
    assert!(out[..64].iter().all(Option::is_none), "any: undefined");
    assert!(has(&t, Level::Warning, "undefined"), "said");
}

/// `getWarpSize()` inside host expressions: a vector's length, an allocation's size and the
/// launch's block.
const GET_WARP_SIZE_INLINE: &str = "\
#include <hip/hip_runtime.h>
#include <vector>
__global__ void count(const int* in, int* out) {
  out[threadIdx.x] = __popcll(__ballot(in[threadIdx.x] == 3)) + 1000 * (blockDim.x / 32);
}
int main() {
  std::vector<int> input(getWarpSize(), 3);
  int *d_in, *d_out;
  hipMalloc(&d_in, sizeof(int) * getWarpSize());
  hipMalloc(&d_out, sizeof(int) * getWarpSize());
  hipMemcpy(d_in, input.data(), sizeof(int) * getWarpSize(), hipMemcpyHostToDevice);
  hipLaunchKernelGGL(count, 1, getWarpSize(), 0, 0, d_in, d_out);
  return 0;
}";

#[test]
fn get_warp_size_inside_host_expressions() {
    // Model: W threads, every input 3: W + 1000 * (W / 32).
    for lanes in [64usize, 32] {
        let config = LaunchConfig {
            dialect: Some(Dialect::Hip),
            lanes: Some(lanes),
            ..LaunchConfig::default()
        };
        let t = run_finished(GET_WARP_SIZE_INLINE, config);
        no_errors(&t);
        let out = ints(&t, "out");
        assert_eq!(out.len(), lanes);
        let want = lanes as i128 + 1000 * (lanes as i128 / 32);
        assert!(out.iter().all(|c| *c == Some(want)), "w{lanes}: {out:?}");
    }
}

/// Error-checking macros: `do { hipError_t e = (x); if (e != hipSuccess) … } while (0)` runs its
/// body once, so a host array copied by it stays known for a second copy; `#define CHECK(x) (x)`
/// leaves a parenthesized call, read as the call.
const CHECK_MACROS: &str = "\
#include <hip/hip_runtime.h>
#include <cstdlib>
#define HIP_CHECK(cmd) do { hipError_t e = (cmd); if (e != hipSuccess) { exit(1); } } while (0)
#define CHECK(x) (x)
__global__ void k(const int* a, int* out) { out[threadIdx.x] = __shfl_xor(a[threadIdx.x], 1); }
int main() {
  int h[64];
  for (int i = 0; i < 64; i++) h[i] = i;
  int *d, *d2, *o, *o2;
  HIP_CHECK(hipMalloc(&d, sizeof(int) * 64));
  CHECK(hipMalloc(&d2, sizeof(int) * 64));
  HIP_CHECK(hipMalloc(&o, sizeof(int) * 64));
  HIP_CHECK(hipMalloc(&o2, sizeof(int) * 64));
  HIP_CHECK(hipMemcpy(d, h, sizeof(int) * 64, hipMemcpyHostToDevice));
  CHECK(hipMemcpy(d2, h, sizeof(int) * 64, hipMemcpyHostToDevice));
  hipLaunchKernelGGL(k, 1, 64, 0, 0, d, o);
  hipLaunchKernelGGL(k, 1, 64, 0, 0, d2, o2);
  return 0;
}";

#[test]
fn error_check_macros_keep_host_arrays_readable() {
    // Model: out[t] = h[t ^ 1] = t ^ 1, for both launches.
    for launch in [1usize, 2] {
        let config = LaunchConfig {
            dialect: Some(Dialect::Hip),
            lanes: Some(64),
            launch: Some(launch),
            ..LaunchConfig::default()
        };
        let t = run_finished(CHECK_MACROS, config);
        no_errors(&t);
        let out = ints(&t, "out");
        for (i, c) in out.iter().enumerate() {
            assert_eq!(*c, Some((i ^ 1) as i128), "launch {launch}, lane {i}");
        }
    }
}

/// The same `do { … } while (0)` copy, with the launch made by a host helper that `main` calls
/// after the copy: the helper's launch sees the array the wrapped `hipMemcpy` filled.
const CHECK_MACRO_HELPER: &str = "\
#include <hip/hip_runtime.h>
#include <cstdlib>
#define CHK(cmd) do { hipError_t err = cmd; if (err != hipSuccess) exit(1); } while (0)
__global__ void k(int* a, int* out) { out[threadIdx.x] = __shfl_down(a[threadIdx.x], 2); }
void go(int* a, int* out) { hipLaunchKernelGGL(k, 1, 64, 0, 0, a, out); }
int main() {
  int n = 64;
  int *a, *out, *h;
  h = (int*)malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) h[i] = 3 * i;
  hipMalloc(&a, n * sizeof(int));
  hipMalloc(&out, n * sizeof(int));
  CHK(hipMemcpy(a, h, n * sizeof(int), hipMemcpyHostToDevice));
  go(a, out);
  return 0;
}";

#[test]
fn error_check_macro_copy_before_a_helper_launch() {
    // Model (HIP __shfl_down: lane t reads t + 2 when t + 2 < 64, else keeps its own value):
    // out[t] = 3 * (t + 2) for t < 62, 3 * t for t = 62, 63.
    let config = LaunchConfig {
        dialect: Some(Dialect::Hip),
        lanes: Some(64),
        ..LaunchConfig::default()
    };
    let t = run_finished(CHECK_MACRO_HELPER, config);
    no_errors(&t);
    let out = ints(&t, "out");
    assert_eq!(out.len(), 64);
    for (i, c) in out.iter().enumerate() {
        let src = if i + 2 < 64 { i + 2 } else { i };
        assert_eq!(*c, Some(3 * src as i128), "lane {i}");
    }
}
