//! Shapes of AMD's public HIP code found in a third round (rocPRIM's warp and block tests,
//! the ROCm documentation's warp-size examples, AMDMIGraphX's older DPP reduction): kernels
//! written here in those shapes, never copied. Expected values come from rocPRIM's API
//! reference (`rocprim::warp_reduce`, `warp_scan`, `block_reduce`), the HIP Programming Guide
//! and the C++17 standard, computed by the Python models quoted beside each test.

use crate::support::{has, ints, no_errors, refused, run_finished};
use crosslane_core::result::Level;
use crosslane_core::Dialect;
use crosslane_kernel::LaunchConfig;

fn hip(lanes: usize) -> LaunchConfig {
    LaunchConfig {
        dialect: Some(Dialect::Hip),
        lanes: Some(lanes),
        ..LaunchConfig::default()
    }
}

/// rocPRIM's warp reduction in its tests' shape: a kernel template overloaded by parameter
/// count (with and without `valid_items`), `rocprim::detail::logical_warp_id<W>()` indexing
/// the `storage_type` array, launched through `HIP_KERNEL_NAME(…)` with the overload's
/// arguments.
const WARP_REDUCE: &str = "\
#include <hip/hip_runtime.h>
#include <rocprim/rocprim.hpp>
template <class T, unsigned int Block, unsigned int W>
__global__ void wsum(T* in, T* out) {
  constexpr unsigned int nw = Block / W;
  const unsigned int wid = rocprim::detail::logical_warp_id<W>();
  using R = rocprim::warp_reduce<T, W>;
  __shared__ typename R::storage_type st[nw];
  T v = in[threadIdx.x];
  R().reduce(v, v, st[wid]);
  out[threadIdx.x] = v;
}
template <class T, unsigned int Block, unsigned int W>
__global__ void wsum(T* in, T* out, unsigned int valid) {
  constexpr unsigned int nw = Block / W;
  using R = rocprim::warp_reduce<T, W, true>;
  __shared__ typename R::storage_type st[nw];
  T v = in[threadIdx.x];
  R().reduce(v, v, valid, st[rocprim::detail::logical_warp_id<W>()], rocprim::maximum<T>());
  out[threadIdx.x] = v;
}
int main() {
  int *a, *b;
  hipMalloc(&a, 64 * sizeof(int));
  hipMalloc(&b, 64 * sizeof(int));
  hipLaunchKernelGGL(HIP_KERNEL_NAME(wsum<int, 64, LW>), dim3(1), dim3(64), 0, 0, a, b ARGS);
  return 0;
}";

fn warp_reduce_run(lanes: usize, lw: u32, valid: bool) -> Vec<Option<i128>> {
    let src = WARP_REDUCE
        .replace("LW", &lw.to_string())
        .replace("ARGS", if valid { ", 5" } else { "" });
    let mut c = hip(lanes);
    c.args.insert("in".into(), "i*3+1".into());
    let t = run_finished(&src, c);
    no_errors(&t);
    ints(&t, "out")
}

#[test]
fn rocprim_warp_reduce_holds_the_sum_in_each_logical_warps_first_lane() {
    // Python: v = [3*i+1 for i in range(64)];
    // [sum(v[g*16:g*16+16]) for g in range(4)] == [376, 1144, 1912, 2680];
    // sum(v[:32]), sum(v[32:]) == 1520, 4592. Lanes other than each logical warp's first hold
    // no promised value (hipCUB's model of rocPRIM's reduce): undefined.
    let out = warp_reduce_run(64, 16, false);
    for (l, c) in out.iter().enumerate() {
        let want = if l % 16 == 0 {
            Some([376, 1144, 1912, 2680][l / 16])
        } else {
            None
        };
        assert_eq!(*c, want, "lane {l}");
    }
    let out = warp_reduce_run(32, 32, false);
    assert_eq!(out[0], Some(1520));
    assert_eq!(out[32], Some(4592));
    assert_eq!(out[1], None);
}

#[test]
fn rocprim_all_reduce_with_valid_items_is_in_every_lane() {
    // The three-parameter overload, picked by the launch's three arguments. Python: max of
    // the first 5 values of each 16-lane group, [max(v[g*16:g*16+5]) for g in range(4)] ==
    // [13, 61, 109, 157], given to every lane of the group (UseAllReduce).
    let out = warp_reduce_run(64, 16, true);
    for (l, c) in out.iter().enumerate() {
        assert_eq!(*c, Some([13, 61, 109, 157][l / 16]), "lane {l}");
    }
}

#[test]
fn entry_of_kernel_templates_overloaded_by_arity_names_the_counts_to_give() {
    let src = WARP_REDUCE.replace("LW", "16").replace("ARGS", "");
    let mut c = hip(64);
    c.entry = Some("wsum<int, 64, 16>".into());
    let e = refused(&src, c);
    assert!(
        e.contains("by its parameter count after a `/`")
            && e.contains("--entry 'wsum<int, 64, 16>/3'"),
        "{e}"
    );
    assert!(e.contains("launch it from host code"), "{e}");
}

/// rocPRIM's warp scans: the inclusive scan with the logical warp's total, and the exclusive
/// scan seeded with an initial value.
const WARP_SCAN: &str = "\
#include <hip/hip_runtime.h>
#include <rocprim/rocprim.hpp>
template <unsigned int W>
__global__ void scans(const int* in, int* inc, int* exc, int* red) {
  using S = rocprim::warp_scan<int, W>;
  __shared__ typename S::storage_type st[64 / W];
  unsigned int w = rocprim::detail::logical_warp_id<W>();
  int x = in[threadIdx.x];
  int i, e, r;
  S().inclusive_scan(x, i, r, st[w]);
  S().exclusive_scan(x, e, 100, st[w], rocprim::plus<int>());
  inc[threadIdx.x] = i;
  exc[threadIdx.x] = e;
  red[threadIdx.x] = r;
}";

#[test]
fn rocprim_warp_scans_per_logical_warp() {
    // Python: v = [i % 5 + 1 for i in range(64)]; for lane l of group g = (l // W) * W:
    // inc = sum(v[g:l+1]), exc = 100 + sum(v[g:l]), red = sum(v[g:g+W]).
    let v: Vec<i128> = (0..64).map(|i| i % 5 + 1).collect();
    let list: Vec<String> = v.iter().map(ToString::to_string).collect();
    for (w, lanes) in [(16usize, 64usize), (32, 32)] {
        let mut c = hip(lanes);
        c.entry = Some(format!("scans<{w}>"));
        c.block_dim = Some([64, 1, 1]);
        c.args.insert("in".into(), list.join(","));
        for b in ["in", "inc", "exc", "red"] {
            c.buffer_len.insert(b.into(), 64);
        }
        let t = run_finished(WARP_SCAN, c);
        no_errors(&t);
        let (inc, exc, red) = (ints(&t, "inc"), ints(&t, "exc"), ints(&t, "red"));
        for l in 0..64 {
            let g = (l / w) * w;
            let s = |a: usize, b: usize| v[a..b].iter().sum::<i128>();
            assert_eq!(inc[l], Some(s(g, l + 1)), "W {w} inc lane {l}");
            assert_eq!(exc[l], Some(100 + s(g, l)), "W {w} exc lane {l}");
            assert_eq!(red[l], Some(s(g, g + w)), "W {w} red lane {l}");
        }
    }
}

/// rocPRIM's block reduction in its tests' shape: the algorithm an enum template argument, the
/// operator a rocPRIM functor type, the block size a `constexpr` local of `main`.
const BLOCK_REDUCE: &str = "\
#include <hip/hip_runtime.h>
#include <rocprim/rocprim.hpp>
template <unsigned int B, rocprim::block_reduce_algorithm A, class T, class Op>
__global__ void bred(T* in, T* out) {
  rocprim::block_reduce<T, B, A> r;
  T v = in[blockIdx.x * B + threadIdx.x];
  r.reduce(v, v, Op());
  if (threadIdx.x == 0) out[blockIdx.x] = v;
}
int main() {
  constexpr unsigned int bs = 128;
  int *in, *out;
  hipMalloc(&in, 256 * sizeof(int));
  hipMalloc(&out, 2 * sizeof(int));
  hipLaunchKernelGGL(HIP_KERNEL_NAME(bred<bs, rocprim::block_reduce_algorithm::using_warp_reduce, int, rocprim::maximum<int>>), dim3(2), dim3(bs), 0, 0, in, out);
  return 0;
}";

#[test]
fn rocprim_block_reduce_from_host_launch() {
    // Python: b = [(i*7919) % 1009 for i in range(256)]; max(b[:128]), max(b[128:]) ==
    // 1005, 993.
    let list: Vec<String> = (0..256).map(|i| ((i * 7919) % 1009).to_string()).collect();
    let mut c = hip(64);
    c.args.insert("in".into(), list.join(","));
    let t = run_finished(BLOCK_REDUCE, c);
    no_errors(&t);
    assert_eq!(ints(&t, "out"), vec![Some(1005), Some(993)]);
}

#[test]
fn rocprim_names_not_modelled_are_refused_by_name() {
    let load = "\
#include <hip/hip_runtime.h>
#include <rocprim/rocprim.hpp>
__global__ void k(const int* in, int* out) {
  using L = rocprim::block_radix_rank<64, 8>;
  out[threadIdx.x] = in[threadIdx.x];
}";
    let e = refused(load, hip(64));
    assert!(
        e.contains("`rocprim::block_radix_rank` is a rocPRIM library class"),
        "{e}"
    );
    assert!(e.contains("warp_reduce"), "{e}");
    assert!(e.contains("4:"), "at its line: {e}");
    let op = "\
#include <hip/hip_runtime.h>
#include <rocprim/rocprim.hpp>
__global__ void k(const int* in, int* out) {
  int s;
  rocprim::block_reduce<int, 64>().reduce(in[threadIdx.x], s, rocprim::bit_and<int>());
  out[threadIdx.x] = s;
}";
    let e = refused(op, hip(64));
    assert!(e.contains("`rocprim::bit_and` is a rocPRIM name"), "{e}");
}

/// Lane masks as the ROCm documentation's porting guide writes them: a brace functional cast
/// of a typedef in parentheses, and an alias template's functional casts.
const LANE_MASKS: &str = "\
#include <hip/hip_runtime.h>
#include <cstdint>
#include <type_traits>
using mask_t = std::uint64_t;
template <std::uint32_t W>
using lm_t = typename std::conditional<W == 32, std::uint32_t, std::uint64_t>::type;
template <std::uint32_t W>
__global__ void k(unsigned long long* o) {
  unsigned int l = threadIdx.x % W;
  mask_t a = (mask_t{1} << l) - 1;
  lm_t<W> c = lm_t<W>(1) << l;
  lm_t<W> d = lm_t<W>{2} << l;
  o[threadIdx.x] = a + c + d;
}";

#[test]
fn functional_casts_of_typedefs_and_alias_templates() {
    // Python: [((1 << l) - 1) + (1 << l) + (2 << l) for l in (0, 5, 31)] == [3, 127,
    // 8589934591]; W = 32 wraps the `lm_t` shifts in 32 bits: l = 31 gives
    // (2**31 - 1) + 2**31 + ((2 << 31) % 2**32) == 4294967295.
    for (w, want31) in [(64u32, 8_589_934_591i128), (32, 4_294_967_295)] {
        let mut c = hip(64);
        c.entry = Some(format!("k<{w}>"));
        c.block_dim = Some([32, 1, 1]);
        c.buffer_len.insert("o".into(), 32);
        let t = run_finished(LANE_MASKS, c);
        no_errors(&t);
        let o = ints(&t, "o");
        assert_eq!(
            (o[0], o[5], o[31]),
            (Some(3), Some(127), Some(want31)),
            "W {w}"
        );
    }
}

/// A `constexpr` helper whose unreached `default:` throws (AMDMIGraphX's `dpp_row_bcast`
/// shape), used as a template argument and at run time.
const THROWING: &str = "\
#include <hip/hip_runtime.h>
#include <stdexcept>
constexpr unsigned int bcast(unsigned int x) {
  unsigned int y = 0;
  switch (x) {
  case 15: y = 0x142; break;
  case 31: y = 0x143; break;
  default: throw std::runtime_error(\"Unknown bcast\");
  }
  return y;
}
template <unsigned int C> __device__ unsigned int ctl() { return C; }
__global__ void k(unsigned int* o, unsigned int x) { o[threadIdx.x] = ctl<bcast(15)>() + bcast(x); }";

#[test]
fn an_unreached_throw_keeps_a_constexpr_function_constant() {
    let mut c = hip(64);
    c.args.insert("x".into(), "31".into());
    let t = run_finished(THROWING, c);
    no_errors(&t);
    // 0x142 + 0x143 == 645.
    assert!(ints(&t, "o").iter().all(|v| *v == Some(645)));
    // Reached at run time, the throw stops the run: device code has no exceptions.
    let mut c = hip(64);
    c.args.insert("x".into(), "7".into());
    let t = crosslane_kernel::run_kernel(THROWING, c).expect("parses");
    assert!(has(&t, Level::Error, "device code has no exceptions"));
}

/// A GCN-assembly overload beside a template of the same name (AMDMIGraphX's older
/// `dpp_reduce(float&, sum)`): refused where it is called, not for the whole file.
const ASM_OVERLOAD: &str = "\
#include <hip/hip_runtime.h>
struct sum { template <class T> __device__ T operator()(T a, T b) const { return a + b; } };
template <class T, class Op> __device__ void wred(T& x, Op op) {
  for (int d = 1; d < 64; d *= 2) x = op(x, __shfl_xor(x, d));
}
__device__ inline void wred(float& x, sum) {
  __asm__ volatile(\"s_nop 4\\n v_add_f32 %0 %0 %0 row_shr:1\" : \"=v\"(x) : \"0\"(x));
}
__global__ void ints_k(int* o) { int v = threadIdx.x; wred(v, sum{}); o[threadIdx.x] = v; }
__global__ void floats_k(float* o) { float v = threadIdx.x; wred(v, sum{}); o[threadIdx.x] = v; }";

#[test]
fn gcn_asm_refuses_only_the_runs_that_call_it() {
    let mut c = hip(64);
    c.entry = Some("ints_k".into());
    let t = run_finished(ASM_OVERLOAD, c);
    no_errors(&t);
    // Python: sum(range(64)) == 2016 in every lane of the xor butterfly.
    assert!(ints(&t, "o").iter().all(|v| *v == Some(2016)));
    let mut c = hip(64);
    c.entry = Some("floats_k".into());
    let e = refused(ASM_OVERLOAD, c);
    assert!(e.contains("AMD GCN/CDNA/RDNA assembly is not read"), "{e}");
    assert!(e.contains("__hip_move_dpp"), "{e}");
}

#[test]
fn old_llvm_amdgcn_wrappers_say_where_they_are_now() {
    let src = "\
#include <hip/hip_runtime.h>
__global__ void k(int* o) { o[threadIdx.x] = __llvm_amdgcn_move_dpp(threadIdx.x, 0x111, 15, 15, false); }";
    let e = refused(src, hip(64));
    assert!(
        e.contains("`__hip_move_dpp` or `__builtin_amdgcn_mov_dpp`"),
        "{e}"
    );
    assert!(e.contains("llvm.amdgcn.mov.dpp.i32"), "{e}");
}
