//! Shapes of AMD's public HIP code (hip-tests, rocm-examples, rocPRIM, composable_kernel,
//! MIGraphX) that crosslane refused or misread: kernels written here in those shapes, never
//! copied. Expected values come from the HIP Programming Guide ("Cooperative Groups", "Warp
//! cross-lane functions") and the C++17 standard, computed by the Python models quoted beside
//! each test.

use crate::support::out_ints as run_ints;
use crosslane_core::Dialect;
use crosslane_kernel::{run_kernel, KVal, LaunchConfig, Outcome};

/// `auto x = group.member(…)`: a value deduced from a group's member call, not a new group
/// (hip-tests' `auto cg_ballot_res = cg.ballot(val == 10);`, `auto r = tile.thread_rank();`).
const AUTO_FROM_GROUP: &str = "\
#include <hip/hip_runtime.h>
#include <hip/hip_cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(unsigned long long* out) {
  int v = threadIdx.x;
  int n = blockDim.x;
  auto tile = cg::tiled_partition<16>(cg::this_thread_block());
  auto r = tile.thread_rank();
  auto first = tile.shfl(v, 0);
  auto votes = tile.ballot(v % 3 == 0);
  auto half = tile.size() / 2;
  out[v] = r;
  out[n + v] = first;
  out[2 * n + v] = votes;
  out[3 * n + v] = half;
  if (v % 2 == 0) {
    auto g = cg::coalesced_threads();
    auto b = g.ballot(v % 4 == 0);
    out[4 * n + v] = b;
  }
}";

#[test]
fn auto_takes_the_value_of_a_group_member_call() {
    // Python model: tile t = i // 16, rank k = i % 16; ballot bit kk set when (16t + kk) % 3 == 0
    // (tiles 0, 3: 37449; tile 1: 18724; tile 2: 9362). The even lanes' coalesced group has
    // member ranks k = lane / 2; `lane % 4 == 0` holds at even ranks: 0x5555… over its
    // n / 2 ranks.
    for lanes in [64usize, 32] {
        let out = run_ints(AUTO_FROM_GROUP, Dialect::Hip, lanes, lanes, 5 * lanes);
        let votes = |t: usize| -> i128 {
            (0..16)
                .filter(|kk| (16 * t + kk).is_multiple_of(3))
                .map(|kk| 1i128 << kk)
                .sum()
        };
        let even_bits: i128 = (0..lanes / 2)
            .filter(|k| k % 2 == 0)
            .map(|k| 1i128 << k)
            .sum();
        for i in 0..lanes {
            assert_eq!(out[i], Some((i % 16) as i128), "rank, lane {i}");
            assert_eq!(
                out[lanes + i],
                Some((16 * (i / 16)) as i128),
                "shfl, lane {i}"
            );
            assert_eq!(out[2 * lanes + i], Some(votes(i / 16)), "ballot, lane {i}");
            assert_eq!(out[3 * lanes + i], Some(8), "size / 2, lane {i}");
            if i % 2 == 0 {
                assert_eq!(
                    out[4 * lanes + i],
                    Some(even_bits),
                    "coalesced ballot, lane {i}"
                );
            }
        }
        assert_eq!(votes(0), 37449);
        assert_eq!(even_bits, if lanes == 64 { 0x5555_5555 } else { 0x5555 });
    }
}

/// Member function templates of one name chosen per call as C++17 [over.match] chooses:
/// by arity (`reduce(T, T&, F)` beside `reduce(T, T&, unsigned, F)`), by a tag type
/// (`impl(…, std::false_type)` / `impl(…, std::true_type)`, selected by an
/// `std::integral_constant<bool, (N < 64)>{}`), and by an `enable_if` return type on an
/// explicit `bool` argument — rocPRIM's warp-reduce class shapes. A reference parameter
/// (`T& out`) passed on binds as the value it names.
const MEMBER_OVERLOADS: &str = "\
#include <type_traits>
struct Add { template <class T> __device__ T operator()(const T& a, const T& b) const { return a + b; } };
template <class T, unsigned N>
struct Red {
  template <class F> __device__ void impl(T in, T& out, F f, std::false_type) { out = f(in, (T)1000); }
  template <class F> __device__ void impl(T in, T& out, F f, std::true_type) { out = f(in, (T)2000); }
  template <class F> __device__ void reduce(T in, T& out, F f) {
    impl(in, out, f, std::integral_constant<bool, (N < 64)>{});
  }
  template <class F> __device__ void reduce(T in, T& out, unsigned valid, F f) {
    out = f(in, (T)valid);
    finish<(N > 8)>(out);
  }
  template <bool B> __device__ typename std::enable_if<B>::type finish(T& out) { out += 1; }
  template <bool B> __device__ typename std::enable_if<!B>::type finish(T& out) { out += 3; }
};
__global__ void k(int* out) {
  int v = threadIdx.x;
  Red<int, 64> wide;
  Red<int, 8> narrow;
  int a, b, c, d;
  wide.reduce(v, a, Add());
  narrow.reduce(v, b, Add());
  wide.reduce(v, c, 5u, Add());
  narrow.reduce(v, d, 7u, Add());
  out[4 * v] = a;
  out[4 * v + 1] = b;
  out[4 * v + 2] = c;
  out[4 * v + 3] = d;
}";

#[test]
fn member_templates_of_one_name_are_an_overload_set() {
    // Red<int, 64>: 64 < 64 is false → the false_type overload adds 1000; Red<int, 8> adds
    // 2000. The four-argument reduce adds `valid`, then finish<N > 8>: +1 for 64, +3 for 8.
    let out = run_ints(MEMBER_OVERLOADS, Dialect::Hip, 64, 4, 16);
    for v in 0..4i128 {
        let k = (4 * v) as usize;
        assert_eq!(out[k], Some(v + 1000), "tag false_type, thread {v}");
        assert_eq!(out[k + 1], Some(v + 2000), "tag true_type, thread {v}");
        assert_eq!(
            out[k + 2],
            Some(v + 5 + 1),
            "arity 4, enable_if<true>, thread {v}"
        );
        assert_eq!(
            out[k + 3],
            Some(v + 7 + 3),
            "arity 4, enable_if<false>, thread {v}"
        );
    }
}

/// A user template named `bit_cast` (rocPRIM's `detail::bit_cast`) is the source's function,
/// not `std::bit_cast`; `std::is_trivially_copyable` answers for scalars and plain structs.
const USER_BIT_CAST: &str = "\
#include <type_traits>
namespace lib { namespace detail {
template <class To, class From> __device__ To bit_cast(const From& f) {
  To t;
  __builtin_memcpy(&t, &f, sizeof(To));
  return t;
}
template <class T>
__device__ typename std::enable_if<std::is_trivially_copyable<T>::value, T>::type words_plus_one(const T& x) {
  constexpr int n = (sizeof(T) + sizeof(int) - 1) / sizeof(int);
  struct V { int w[n]; };
  auto a = ::lib::detail::bit_cast<V>(x);
  for (int i = 0; i < n; i++) a.w[i] += 1;
  return ::lib::detail::bit_cast<T>(a);
}
} }
struct P { int a; int b; };
__global__ void k(long long* out) {
  int v = threadIdx.x;
  out[v] = lib::detail::words_plus_one(v);
  out[4 + v] = std::is_trivially_copyable<P>::value + 2 * std::is_trivially_copyable<float>::value;
}";

#[test]
fn a_user_bit_cast_template_is_called_and_trivially_copyable_answers() {
    let out = run_ints(USER_BIT_CAST, Dialect::Hip, 64, 4, 8);
    for v in 0..4usize {
        assert_eq!(out[v], Some(v as i128 + 1), "thread {v}");
        assert_eq!(out[4 + v], Some(3), "traits, thread {v}");
    }
}

/// `typename std::enable_if<(expr), T>::type` as a return type, the condition parenthesized
/// or a bare `sizeof(T) == 4` (rocPRIM's `warp_shuffle_op` pair, its `set_output<bool>`
/// members): the `(` inside the template argument list is not the parameter list.
const ENABLE_IF_PARENS: &str = "\
#include <type_traits>
template <class T, class Op>
__device__ inline typename std::enable_if<(sizeof(T) % sizeof(int) == 0), T>::type
apply(const T& x, Op&& op) { return op(x) + 100; }
template <class T, class Op>
__device__ inline typename std::enable_if<!(sizeof(T) % sizeof(int) == 0), T>::type
apply(const T& x, Op&& op) { return op(x) + 200; }
template <class T>
__device__ typename std::enable_if<sizeof(T) == 8, int>::type width_tag(T) { return 8; }
template <class T>
__device__ typename std::enable_if<sizeof(T) == 4, int>::type width_tag(T) { return 4; }
struct S {
  template <bool B> __device__ typename std::enable_if<(B == true), int>::type pick() { return 1; }
  template <bool B> __device__ typename std::enable_if<(B == false), int>::type pick() { return 2; }
};
__global__ void k(int* out) {
  int v = threadIdx.x;
  short h = (short)v;
  S s;
  out[4 * v] = apply(v, [](int a) { return a * 2; });
  out[4 * v + 1] = apply(h, [](short a) { return (short)(a * 3); });
  out[4 * v + 2] = width_tag(1.0) * 10 + width_tag(v);
  out[4 * v + 3] = s.pick<true>() * 10 + s.pick<false>();
}";

#[test]
fn enable_if_return_types_with_parenthesized_conditions() {
    // int: 4 % 4 == 0 → 2v + 100; short: 2 % 4 != 0 → 3v + 200; double 8, int 4 → 84;
    // pick<true> 1, pick<false> 2 → 12.
    let out = run_ints(ENABLE_IF_PARENS, Dialect::Hip, 64, 4, 16);
    for v in 0..4i128 {
        let k = (4 * v) as usize;
        assert_eq!(out[k], Some(2 * v + 100), "thread {v}");
        assert_eq!(out[k + 1], Some(3 * v + 200), "thread {v}");
        assert_eq!(out[k + 2], Some(84), "thread {v}");
        assert_eq!(out[k + 3], Some(12), "thread {v}");
    }
}

/// A kernel template's `thread_block_tile<P>` (P its parameter) passed to a `thread_group`
/// parameter (rocm-examples' cooperative-groups sample with `vector_reduce_kernel<16>`), and a
/// device template deducing `N` from `thread_block_tile<N> const&` (hip-tests' tile
/// reductions).
const TILE_TEMPLATES: &str = "\
#include <hip/hip_runtime.h>
#include <hip/hip_cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ int rank_plus(cg::thread_group g, int v) { return v + (int)g.thread_rank(); }
template <unsigned int N>
__device__ int tile_sum(cg::thread_block_tile<N> const& t, int v) {
  for (int i = t.size() / 2; i > 0; i >>= 1) v += t.shfl_xor(v, i);
  return v;
}
template <unsigned int P>
__global__ void k(int* out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<P> tile = cg::tiled_partition<P>(block);
  int v = threadIdx.x;
  out[v] = rank_plus(tile, 100);
  out[blockDim.x + v] = tile_sum(tile, v);
}
template __global__ void k<8>(int*);";

#[test]
fn template_size_tiles_pass_as_groups_and_deduce_their_size() {
    // Tiles of 8: rank v % 8 → 100 + v % 8; the xor sum of tile t is 8·8t + 28 = 64t + 28.
    let config = LaunchConfig {
        dialect: Some(Dialect::Hip),
        lanes: Some(64),
        block_dim: Some([32, 1, 1]),
        entry: Some("k<8>".into()),
        buffer_len: [("out".to_string(), 64)].into(),
        ..LaunchConfig::default()
    };
    let t = run_kernel(TILE_TEMPLATES, config).expect("runs");
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    let out: Vec<Option<i128>> = t
        .buffer("out")
        .expect("out")
        .iter()
        .map(|c| c.as_ref().and_then(KVal::as_int))
        .collect();
    for v in 0..32usize {
        assert_eq!(out[v], Some(100 + (v % 8) as i128), "rank, thread {v}");
        assert_eq!(
            out[32 + v],
            Some(64 * (v / 8) as i128 + 28),
            "sum, thread {v}"
        );
    }
}

/// `hipLaunchCooperativeKernel(k<N>, grid, block, args, shmem, stream)` with a template
/// kernel and its `void* params[]`: the instance and its buffers read from host code.
const COOP_TEMPLATE_LAUNCH: &str = "\
#include <hip/hip_runtime.h>
#include <hip/hip_cooperative_groups.h>
namespace cg = cooperative_groups;
template <unsigned int Tile>
__global__ void tile_sums(const int* in, int* sums) {
  cg::thread_block b = cg::this_thread_block();
  cg::thread_block_tile<Tile> t = cg::tiled_partition<Tile>(b);
  int v = in[b.thread_rank()];
  for (unsigned int i = Tile / 2; i > 0; i /= 2) v += t.shfl_down(v, i);
  if (t.thread_rank() == 0) sums[b.thread_rank() / Tile] = v;
}
int main() {
  constexpr unsigned int tile = 8;
  int h[32];
  for (int i = 0; i < 32; i++) h[i] = 2 * i;
  int *d_in, *d_sums;
  hipMalloc(&d_in, 32 * sizeof(int));
  hipMalloc(&d_sums, 4 * sizeof(int));
  hipMemcpy(d_in, h, 32 * sizeof(int), hipMemcpyHostToDevice);
  void* params[] = {&d_in, &d_sums};
  hipLaunchCooperativeKernel(tile_sums<tile>, dim3(1), dim3(32), params, 0, hipStreamDefault);
  return 0;
}";

#[test]
fn a_cooperative_launch_of_a_template_kernel_is_read() {
    // Tile t of 8 sums 2·(8t … 8t + 7) = 2·(64t + 28) = 128t + 56.
    let config = LaunchConfig {
        dialect: Some(Dialect::Hip),
        lanes: Some(64),
        ..LaunchConfig::default()
    };
    let t = run_kernel(COOP_TEMPLATE_LAUNCH, config).expect("runs");
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    let sums: Vec<Option<i128>> = t
        .buffer("sums")
        .expect("sums")
        .iter()
        .map(|c| c.as_ref().and_then(KVal::as_int))
        .collect();
    assert_eq!(sums, [56, 184, 312, 440].map(Some).to_vec());
}

/// A generic lambda called with a union's members (MIGraphX's `dpp_op`: `union { uint32_t
/// reg[n]; T data; }` and `[](auto i) { return __hip_move_dpp(i, …); }`): the members'
/// types deduce `auto`, and the AMD builtins' results have their prototypes' types.
const UNION_LAMBDA: &str = "\
#include <hip/hip_runtime.h>
#include <cstdint>
template <class T, class F>
__device__ T words_op(T& x, F f) {
  static const uint32_t n = sizeof(T) < 4 ? 1 : sizeof(T) / 4;
  union type { uint32_t reg[n]; T data; };
  type out{};
  type in{};
  in.data = x;
  for (uint32_t i = 0; i < n; i++) out.reg[i] = f(in.reg[i]);
  return out.data;
}
__global__ void k(int* out) {
  int v = threadIdx.x * 10;
  // quad_perm:[1,0,3,2] (0xb1): lane l reads lane l ^ 1 within its quad.
  out[threadIdx.x] = words_op(v, [](auto i) { return __hip_move_dpp(i, 0xb1, 0xf, 0xf, false); });
  union { uint32_t u; int s; } p;
  p.s = -1;
  auto twice = [](auto w) { return w + w; };
  auto r = twice(p.u);
  auto sw = __builtin_amdgcn_ds_swizzle(v, 0x041F);
  out[blockDim.x + threadIdx.x] = (r == 4294967294u) + 2 * (sw == (int)((threadIdx.x ^ 1) * 10));
}";

#[test]
fn generic_lambdas_deduce_from_union_members_and_amd_builtins_are_typed() {
    // Python model: [10 * (l ^ 1) for l in range(8)] = 10, 0, 30, 20, 50, 40, 70, 60.
    // `p.u` is a uint32_t: 0xffffffff + 0xffffffff wraps to 0xfffffffe (unsigned arithmetic,
    // [basic.fundamental]/4); the swizzle's xor mask 1 reads lane l ^ 1.
    let out = run_ints(UNION_LAMBDA, Dialect::Hip, 64, 8, 16);
    let want: Vec<Option<i128>> = [10, 0, 30, 20, 50, 40, 70, 60]
        .into_iter()
        .chain([3; 8])
        .map(Some)
        .collect();
    assert_eq!(out, want);
}

/// `tiled_partition(coalesced_group, n)` with `n` a kernel parameter (hip-tests' coalesced
/// tile reductions): the group's members by rank, n at a time; a short last tile reduces
/// over its own size.
const COALESCED_DYN_TILE: &str = "\
#include <hip/hip_runtime.h>
#include <hip/hip_cooperative_groups.h>
using namespace cooperative_groups;
__device__ int down_sum(coalesced_group const& g, int v) {
  for (int i = g.size() / 2; i > 0; i >>= 1) v += g.shfl_down(v, i);
  return v;
}
__global__ void k(int* out, unsigned int tile, int every) {
  if (threadIdx.x % every == 0) {
    coalesced_group active = coalesced_threads();
    coalesced_group part = tiled_partition(active, tile);
    int s = down_sum(part, (int)part.thread_rank());
    if (part.thread_rank() == 0) out[active.thread_rank() / tile] = s;
  }
}";

#[test]
fn a_coalesced_group_partitions_by_a_runtime_size() {
    // Python model: members l % 3 == 0 of 32 lanes → 11 ranks; tiles of 4: [0..4), [4..8),
    // [8..11); a tile of size s reduces ranks with shfl_down(i) for i = s/2, …, 1, a member
    // without rank + i keeping its value: 0+1+2+3 = 6, 6, and for s = 3 only i = 1: 0 + 1 = 1.
    let config = LaunchConfig {
        dialect: Some(Dialect::Hip),
        lanes: Some(64),
        block_dim: Some([32, 1, 1]),
        args: [
            ("tile".to_string(), "4".to_string()),
            ("every".to_string(), "3".to_string()),
        ]
        .into(),
        buffer_len: [("out".to_string(), 3)].into(),
        ..LaunchConfig::default()
    };
    let t = run_kernel(COALESCED_DYN_TILE, config).expect("runs");
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    let out: Vec<Option<i128>> = t
        .buffer("out")
        .expect("out")
        .iter()
        .map(|c| c.as_ref().and_then(KVal::as_int))
        .collect();
    assert_eq!(out, [6, 6, 1].map(Some).to_vec());
}

/// A host helper called once per case allocates its own device buffer each time (hip-tests'
/// `runTestShflUp<int>()`, `runTestShflUp<float>()`): the later calls' launches write their
/// own allocations, so the traced launch's buffer ends as it left it.
const HELPER_ALLOCS: &str = "\
#include <hip/hip_runtime.h>
template <typename T> __global__ void up_sum(T* a) {
  T v = a[threadIdx.x];
  for (int i = 1; i < 8; i *= 2) v += __shfl_up(v, i, 8);
  a[threadIdx.x] = v;
}
template <typename T, int K> static void run_case() {
  T h[8];
  for (int i = 0; i < 8; i++) h[i] = K;
  T* d_a;
  hipMalloc(&d_a, 8 * sizeof(T));
  hipMemcpy(d_a, h, 8 * sizeof(T), hipMemcpyHostToDevice);
  hipLaunchKernelGGL(up_sum<T>, 1, 8, 0, 0, d_a);
  hipMemcpy(h, d_a, 8 * sizeof(T), hipMemcpyDeviceToHost);
  hipFree(d_a);
}
int main() {
  run_case<int, 1>();
  run_case<int, 3>();
  run_case<long long, 5>();
  return 0;
}";

#[test]
fn each_call_of_a_host_helper_has_its_own_allocation() {
    // HIP's `__shfl_up` gives a lane below `delta` its own value, so each step doubles lanes
    // 0 … i − 1 too: every lane ends at 8·K (Python: v = [K] * 8; for i in 1, 2, 4: v[l] +=
    // v[l - i] if l >= i else v[l]). The traced launch is K = 1: 8; the K = 3 call's launch
    // (24) writes its own allocation.
    let config = LaunchConfig {
        dialect: Some(Dialect::Hip),
        lanes: Some(64),
        ..LaunchConfig::default()
    };
    let t = run_kernel(HELPER_ALLOCS, config).expect("runs");
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    let a: Vec<Option<i128>> = t
        .buffer("a")
        .expect("a")
        .iter()
        .map(|c| c.as_ref().and_then(KVal::as_int))
        .collect();
    assert_eq!(a, vec![Some(8); 8]);
}

/// A host fill scaled by `std::for_each` with a lambda (rocm-examples' warp_shuffle:
/// `std::iota(…, 1.f)` then `[](float& f) { f = 10.f * f; }`), and a compound form: the
/// launch's buffer holds the values host code computes.
const FOR_EACH_FILL: &str = "\
#include <hip/hip_runtime.h>
#include <algorithm>
#include <numeric>
#include <vector>
__global__ void rev(float* out, const float* in, const int* w) {
  out[threadIdx.x] = __shfl(in[threadIdx.x], 7 - threadIdx.x) + (float)w[threadIdx.x];
}
int main() {
  std::vector<float> m(8);
  std::iota(m.begin(), m.end(), 1.f);
  std::for_each(m.begin(), m.end(), [](float& f) { f = 10.f * f + 0.5f; });
  std::vector<int> w(8);
  std::fill(w.begin(), w.end(), 3);
  std::for_each(w.begin(), w.end(), [](int& x) { x *= 2; });
  float *d_out, *d_in;
  int* d_w;
  hipMalloc(&d_out, 8 * sizeof(float));
  hipMalloc(&d_in, 8 * sizeof(float));
  hipMalloc(&d_w, 8 * sizeof(int));
  hipMemcpy(d_in, m.data(), 8 * sizeof(float), hipMemcpyHostToDevice);
  hipMemcpy(d_w, w.data(), 8 * sizeof(int), hipMemcpyHostToDevice);
  rev<<<1, 8>>>(d_out, d_in, d_w);
  return 0;
}";

#[test]
fn a_for_each_lambda_rewrites_a_known_host_fill() {
    // in[i] = 10·(i + 1) + 0.5; lane t reads lane 7 − t: 10·(8 − t) + 0.5, plus w = 3·2 = 6.
    let config = LaunchConfig {
        dialect: Some(Dialect::Hip),
        lanes: Some(64),
        ..LaunchConfig::default()
    };
    let t = run_kernel(FOR_EACH_FILL, config).expect("runs");
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    let out: Vec<Option<f64>> = t
        .buffer("out")
        .expect("out")
        .iter()
        .map(|c| c.as_ref().and_then(KVal::as_f64))
        .collect();
    let want: Vec<Option<f64>> = (0..8).map(|t| Some(10.0 * (8 - t) as f64 + 6.5)).collect();
    assert_eq!(out, want);
}
