//! Cooperative-groups and CUB/hipCUB shapes library code writes that the front end refused or
//! misread: a group parameter as a forwarding reference (`Group&& g`) and a group made in place
//! deducing a template's group parameter; `cg::exclusive_scan` with any operator; HIP's
//! mask-free `__match_any` / `__match_all`; hipCUB's shuffles at the wave64 width and its
//! `WarpId` / `LaneId`; `WarpScan::Scan` with both outputs; `BlockReduce` over an items array;
//! a class argument bound to a parameter of its base class. Expected values are computed here
//! from the vendors' definitions (each test says which), never read from a run.

use crate::support::{has, ints, launch, launch_lanes, refused, run_finished};
use crosslane_core::op::Dialect;
use crosslane_core::result::Level;

/// `shfl_down` tree sums over tiles of `n` (CUDA C++ Programming Guide, thread_block_tile
/// `shfl_down`: rank r reads rank r + o of its tile, its own value where r + o is past the
/// tile), `v = t + 1`, for `threads` threads: each thread's final value.
fn tree_sums(threads: usize, n: usize) -> Vec<i128> {
    let mut v: Vec<i128> = (0..threads).map(|t| t as i128 + 1).collect();
    let mut o = n / 2;
    while o > 0 {
        let old = v.clone();
        for t in 0..threads {
            let r = t % n;
            let src = if r + o < n { t + o } else { t };
            v[t] = old[t] + old[src];
        }
        o /= 2;
    }
    v
}

/// ginkgo's shape: `template <typename Group> T reduce(Group&& g, T v)` called with a tile made
/// in place (an rvalue) and with a tile variable (an lvalue), `template <typename G> f(const G&
/// g)` with `cg::this_thread_block()` made in place, and `Group&&` with the block lvalue. Each
/// deduces the group's kind, so `g.size()` is the tile's or the block's.
#[test]
fn forwarding_reference_and_in_place_groups_deduce_the_group() {
    let src = "#include <cooperative_groups.h>
namespace cg = cooperative_groups;
template <typename Group, typename T>
__device__ T reduce_sum(Group&& g, T v) {
  for (int o = g.size() / 2; o > 0; o /= 2) v += g.shfl_down(v, o);
  return v;
}
template <typename G>
__device__ int rank_of(const G& g) { return g.thread_rank() + 1000 * g.size(); }
template <typename Group>
__device__ int info(Group&& g) { g.sync(); return g.thread_rank() * 1000 + g.size(); }
__global__ void k(int* out) {
  cg::thread_block block = cg::this_thread_block();
  int v = threadIdx.x + 1;
  int a = reduce_sum(cg::tiled_partition<32>(block), v);
  auto tile = cg::tiled_partition<16>(block);
  int b = reduce_sum(tile, v);
  int c = rank_of(cg::this_thread_block());
  int d = info(block);
  out[threadIdx.x * 4 + 0] = a;
  out[threadIdx.x * 4 + 1] = b;
  out[threadIdx.x * 4 + 2] = c;
  out[threadIdx.x * 4 + 3] = d;
}";
    let t = run_finished(src, launch(Dialect::Cuda, 64, &[("out", 256, "zero")]));
    let (a, b) = (tree_sums(64, 32), tree_sums(64, 16));
    let want: Vec<Option<i128>> = (0..64)
        .flat_map(|t| [a[t], b[t], t as i128 + 64_000, t as i128 * 1000 + 64])
        .map(Some)
        .collect();
    assert_eq!(ints(&t, "out"), want);
    // Rank 0 of each tile holds the tile's sum: 1 + … + 32 = 528, 33 + … + 64 = 1552.
    assert_eq!((a[0], a[32]), (528, 1552));
}

/// HIP wave64: a tile of 64 made in place and passed to `const G&`; its `shfl_xor` butterfly
/// gives every lane the sum 1 + … + 64 = 2080 and `size()` 64.
#[test]
fn hip_wave64_tile_made_in_place_deduces_the_tile() {
    let src = "#include <hip/hip_cooperative_groups.h>
namespace cg = cooperative_groups;
template <typename G>
__device__ int total(const G& g, int v) {
  for (int m = g.size() / 2; m > 0; m /= 2) v += g.shfl_xor(v, m);
  return v * 100 + g.size();
}
__global__ void k(int* out) {
  cg::thread_block block = cg::this_thread_block();
  out[threadIdx.x] = total(cg::tiled_partition<64>(block), (int)threadIdx.x + 1);
}";
    let t = run_finished(src, launch_lanes(Dialect::Hip, 64, &[("out", 64, "zero")]));
    assert_eq!(ints(&t, "out"), vec![Some(2080 * 100 + 64); 64]);
}

/// `cg::exclusive_scan` (CUDA C++ Programming Guide, Cooperative Groups, inclusive_scan and
/// exclusive_scan: rank r gets the reduction of the values of ranks below r): with `plus`
/// (written or by default) rank 0 gets 0, the sum of no values; with a lambda, `greater` or
/// `bit_or` rank 0 has no values to reduce and no identity the Guide names, so its result is
/// undefined; every other rank gets the reduction of ranks 0..r.
#[test]
fn exclusive_scan_takes_any_operator_rank_zero_undefined_but_for_plus() {
    let src = "#include <cooperative_groups.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;
__global__ void k(int* out) {
  cg::thread_block block = cg::this_thread_block();
  auto tile = cg::tiled_partition<16>(block);
  int v = (threadIdx.x * 7) % 11 + 1;
  int a = cg::exclusive_scan(tile, v, cg::plus<int>());
  int b = cg::exclusive_scan(tile, v);
  int c = cg::exclusive_scan(tile, v, [](int x, int y) { return x + 2 * y; });
  int d = cg::exclusive_scan(tile, v, cg::greater<int>());
  int e = cg::exclusive_scan(tile, v, cg::bit_or<int>());
  out[threadIdx.x * 5 + 0] = a;
  out[threadIdx.x * 5 + 1] = b;
  out[threadIdx.x * 5 + 2] = c;
  out[threadIdx.x * 5 + 3] = d;
  out[threadIdx.x * 5 + 4] = e;
}";
    let t = run_finished(src, launch(Dialect::Cuda, 32, &[("out", 160, "zero")]));
    let v = |t: usize| ((t * 7) % 11 + 1) as i128;
    // Per thread: plus, default plus, (the lambda: checked below), greater, bit_or.
    let mut want = Vec::new();
    for t in 0..32usize {
        let lower: Vec<i128> = (t / 16 * 16..t).map(v).collect();
        let sum = Some(lower.iter().sum());
        let max = lower.iter().max().copied();
        let or = lower.iter().copied().reduce(|a, b| a | b);
        want.extend([sum, sum, None, max, or]);
    }
    let got = ints(&t, "out");
    for t in 0..32 {
        for j in [0, 1, 3, 4] {
            assert_eq!(got[t * 5 + j], want[t * 5 + j], "thread {t} result {j}");
        }
    }
    // The lambda `x + 2·y` is not associative, so its other ranks' values depend on the
    // implementation's order of combination; rank 0's is undefined with the Guide's rule.
    assert_eq!(got[2], None);
    assert_eq!(got[16 * 5 + 2], None);
    assert!((1..16).all(|t| got[t * 5 + 2].is_some()));
    assert!(has(&t, Level::Warning, "thread_rank 0"));
}

/// The lambda's exclusive scan as the tile computes it, Kogge-Stone steps over `shfl_up` and
/// then one more `shfl_up` (the Guide leaves the order of a scan's combinations to the
/// implementation only for associative operators; with an associative lambda every order
/// agrees): `x + y` over a tile of 8, rank r gets v_0 + … + v_{r-1}.
#[test]
fn exclusive_scan_with_an_associative_lambda_matches_the_sum() {
    let src = "#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int* out) {
  auto tile = cg::tiled_partition<8>(cg::this_thread_block());
  int v = threadIdx.x * threadIdx.x;
  out[threadIdx.x] = cg::exclusive_scan(tile, v, [](int x, int y) { return x + y; });
}";
    let t = run_finished(src, launch(Dialect::Cuda, 16, &[("out", 16, "zero")]));
    let want: Vec<Option<i128>> = (0..16i128)
        .map(|t| {
            let base = t / 8 * 8;
            (t != base).then(|| (base..t).map(|k| k * k).sum())
        })
        .collect();
    assert_eq!(ints(&t, "out"), want);
}

/// A float `cg::exclusive_scan` with `plus`: rank r gets the inclusive result of rank r - 1
/// (`cooperative_groups` moves it up one rank; a difference `inclusive - own` would round
/// differently). The model runs the same Kogge-Stone steps in f32.
#[test]
fn float_exclusive_scan_is_the_inclusive_result_of_the_rank_below() {
    let src = "#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(float* out) {
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  float v = 0.1f * (threadIdx.x + 1);
  out[threadIdx.x] = cg::exclusive_scan(tile, v);
}";
    let t = run_finished(src, launch(Dialect::Cuda, 32, &[("out", 32, "zero")]));
    let mut v: Vec<f32> = (0..32).map(|t| 0.1f32 * (t as f32 + 1.0)).collect();
    let mut d = 1;
    while d < 32 {
        let old = v.clone();
        for r in d..32 {
            v[r] = old[r - d] + old[r];
        }
        d <<= 1;
    }
    let mut want = vec![0.0f64];
    want.extend(v[..31].iter().map(|x| f64::from(*x)));
    assert_eq!(crate::support::floats_or_nan(&t, "out"), want);
}

/// `cg::exclusive_scan` over a coalesced group with `cg::less`: ranks follow lane order among
/// the members; rank 0's result undefined, rank r the minimum of ranks 0..r.
#[test]
fn coalesced_exclusive_scan_with_less() {
    let src = "#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int* out) {
  int v = 100 - (int)threadIdx.x * 3 + (threadIdx.x % 4) * 10;
  if (threadIdx.x % 2 == 1) {
    cg::coalesced_group g = cg::coalesced_threads();
    out[threadIdx.x] = cg::exclusive_scan(g, v, cg::less<int>());
  }
}";
    let t = run_finished(src, launch(Dialect::Cuda, 32, &[("out", 32, "-1")]));
    let v = |t: i128| 100 - t * 3 + (t % 4) * 10;
    let members: Vec<i128> = (0..32).filter(|t| t % 2 == 1).collect();
    let mut want = vec![Some(-1); 32];
    for (r, &lane) in members.iter().enumerate() {
        want[lane as usize] = members[..r].iter().map(|&m| v(m)).min();
    }
    assert_eq!(ints(&t, "out"), want);
}

/// HIP's mask-free match functions (HIP Programming Guide, "Warp match functions"):
/// `__match_any(v)` sets bit n for each lane n holding the caller's value; `__match_all(v,
/// &pred)` is the participating lanes' mask with `pred` 1 when all hold one value, else 0 with
/// `pred` 0. Wave64, every lane participating.
#[test]
fn hip_match_any_and_match_all_without_a_mask() {
    let src = "#include <hip/hip_runtime.h>
__global__ void k(unsigned long long* out, int* preds) {
  int v = threadIdx.x % 3;
  unsigned long long a = __match_any(v);
  int p1 = 5, p2 = 5;
  unsigned long long b = __match_all(v, &p1);
  unsigned long long c = __match_all(7, &p2);
  out[threadIdx.x * 3 + 0] = a;
  out[threadIdx.x * 3 + 1] = b;
  out[threadIdx.x * 3 + 2] = c;
  preds[threadIdx.x * 2] = p1;
  preds[threadIdx.x * 2 + 1] = p2;
}";
    let t = run_finished(
        src,
        launch_lanes(
            Dialect::Hip,
            64,
            &[("out", 192, "zero"), ("preds", 128, "zero")],
        ),
    );
    let class = |r: u64| -> i128 { (0..64u64).filter(|l| l % 3 == r).map(|l| 1i128 << l).sum() };
    let want: Vec<Option<i128>> = (0..64u64)
        .flat_map(|l| [class(l % 3), 0, (1i128 << 64) - 1])
        .map(Some)
        .collect();
    assert_eq!(ints(&t, "out"), want);
    assert_eq!(ints(&t, "preds"), [Some(0), Some(1)].repeat(64));
}

/// hipCUB's `ShuffleIndex` / `ShuffleUp` / `ShuffleDown` (hipCUB `backend/rocprim/util_ptx.hpp`:
/// rocPRIM's `warp_shuffle`, `warp_shuffle_up`, `warp_shuffle_down` at the logical warp's
/// width, `first_thread`, `last_thread` and `member_mask` ignored): HIP's `__shfl` rules
/// (HIP Programming Guide: an up or down read outside the segment returns the caller's own
/// value) over 64-bit masks on wave64; `WarpId()` the linear thread index over 64,
/// `LaneId()` the lane. `cub::` after `namespace cub = hipcub;` is the same.
#[test]
fn hipcub_shuffles_at_wave64_and_warp_lane_ids() {
    let src = "#include <hipcub/hipcub.hpp>
namespace cub = hipcub;
__global__ void k(int* out) {
  int v = threadIdx.x + 1;
  unsigned long long full = 0xffffffffffffffffull;
  int a = hipcub::ShuffleIndex<64>(v, 50, full);
  int b = hipcub::ShuffleUp<64>(v, 3, 0, full);
  int c = cub::ShuffleDown<16>(v, 5, 15, full);
  int d = hipcub::WarpId() * 100 + hipcub::LaneId();
  out[threadIdx.x * 4 + 0] = a;
  out[threadIdx.x * 4 + 1] = b;
  out[threadIdx.x * 4 + 2] = c;
  out[threadIdx.x * 4 + 3] = d;
}";
    let t = run_finished(
        src,
        launch_lanes(Dialect::Hip, 128, &[("out", 512, "zero")]),
    );
    let v = |t: usize| t as i128 + 1;
    let want: Vec<Option<i128>> = (0..128usize)
        .flat_map(|t| {
            let lane = t % 64;
            let warp = t / 64 * 64;
            let up = if lane >= 3 { v(t - 3) } else { v(t) };
            let down = if t % 16 + 5 < 16 { v(t + 5) } else { v(t) };
            [v(warp + 50), up, down, (t / 64 * 100 + lane) as i128]
        })
        .map(Some)
        .collect();
    assert_eq!(ints(&t, "out"), want);
}

/// `cub::WarpId()` reads PTX's `%warpid`, which the PTX ISA says may change during execution:
/// still refused before the run, with what to write.
#[test]
fn cub_warp_id_stays_refused_in_cuda() {
    let src = "#include <cub/cub.cuh>
__global__ void k(int* out) { out[threadIdx.x] = cub::WarpId(); }";
    let e = refused(src, launch(Dialect::Cuda, 32, &[("out", 32, "zero")]));
    assert!(
        e.contains("%warpid") && e.contains("threadIdx.x / 32"),
        "{e}"
    );
}

/// `WarpScan::Scan(x, inclusive, exclusive, op)` and `Scan(x, inclusive, exclusive, init, op)`
/// (CUB API, `cub::WarpScan::Scan`: both scans at once; without an initial value "the
/// exclusive_output computed for warp-lane 0 is undefined"), and an in-place inclusive output
/// (`Scan(v, v, e, op)`), whose exclusive output still reads the input.
#[test]
fn warp_scan_scan_gives_both_outputs() {
    let src = "#include <cub/cub.cuh>
__global__ void k(int* out) {
  typedef cub::WarpScan<int> WS;
  __shared__ typename WS::TempStorage ws;
  int v = (threadIdx.x * 5) % 13;
  int inc, exc, inc2, exc2;
  WS(ws).Scan(v, inc, exc, cub::Max());
  WS(ws).Scan(v, inc2, exc2, 100, cub::Sum());
  int w = v, e;
  WS(ws).Scan(w, w, e, cub::Sum());
  out[threadIdx.x * 6 + 0] = inc;
  out[threadIdx.x * 6 + 1] = exc;
  out[threadIdx.x * 6 + 2] = inc2;
  out[threadIdx.x * 6 + 3] = exc2;
  out[threadIdx.x * 6 + 4] = w;
  out[threadIdx.x * 6 + 5] = e;
}";
    let t = run_finished(src, launch(Dialect::Cuda, 32, &[("out", 192, "zero")]));
    let v = |t: i128| (t * 5) % 13;
    let want: Vec<Option<i128>> = (0..32i128)
        .flat_map(|t| {
            let incl_max = (0..=t).map(v).max();
            let excl_max = (0..t).map(v).max();
            let incl: i128 = (0..=t).map(v).sum();
            let excl: i128 = (0..t).map(v).sum();
            [
                incl_max,
                excl_max,
                Some(incl),
                Some(100 + excl),
                Some(incl),
                (t > 0).then_some(excl),
            ]
        })
        .collect();
    assert_eq!(ints(&t, "out"), want);
}

/// `BlockReduce::Sum(items)` and `Reduce(items, op)` (CUB API, `cub::BlockReduce`: each thread
/// contributes an array of consecutive items; the result is valid in thread 0): the block's
/// 4 × 64 items 0…255 sum to 32640, their maximum is 255. hipCUB on wave64 likewise.
#[test]
fn block_reduce_over_an_items_array() {
    let body = |lib: &str| {
        format!(
            "__global__ void k(int* sums) {{
  typedef {lib}::BlockReduce<int, 64> BR;
  __shared__ typename BR::TempStorage br;
  int items[4];
  for (int i = 0; i < 4; i++) items[i] = threadIdx.x * 4 + i;
  int s = BR(br).Sum(items);
  __syncthreads();
  int m = BR(br).Reduce(items, {lib}::Max());
  if (threadIdx.x == 0) {{ sums[0] = s; sums[1] = m; }}
}}"
        )
    };
    for (dialect, lib) in [(Dialect::Cuda, "cub"), (Dialect::Hip, "hipcub")] {
        let src = format!("#include <{lib}/{lib}.hpp>\n{}", body(lib));
        let t = run_finished(&src, launch_lanes(dialect, 64, &[("sums", 2, "zero")]));
        assert_eq!(ints(&t, "sums"), vec![Some(32640), Some(255)], "{lib}");
    }
}

/// A class argument bound to a parameter of its base class ([conv.ptr]/3, [over.best.ics]/6:
/// the derived-to-base conversion binds the reference to, or copies, the base subobject):
/// `f(const Base&)`, `f(Base)` and a function template's `Scaled& f` given a derived object,
/// whose own members come after the base's.
#[test]
fn derived_object_passed_where_the_base_is_the_parameter() {
    let src = "struct Base {
  int scale;
  __device__ int apply(int v) const { return v * scale; }
};
struct Op : Base { int extra; };
struct Combine {
  __device__ int operator()(int a, int b) const { return a > b ? a : b; }
};
struct MaxOp : Combine {};
struct Scaled {
  int s;
  __device__ int operator()(int v) const { return v * s; }
};
struct Tagged : Scaled { int tag; };
__device__ int use(const Base& b, int v) { return b.apply(v) + b.scale; }
__device__ int copy(Base b, int v) { return b.scale * 1000 + v; }
__device__ int fold(const Combine& c, int a, int b) { return c(a, b); }
template <typename T>
__device__ T run(Scaled& f, T v) { return f(v) + 1; }
__global__ void k(int* out) {
  Op op;
  op.scale = 3;
  op.extra = 7;
  MaxOp m;
  Tagged d;
  d.s = 5;
  d.tag = 9;
  int t = threadIdx.x;
  out[t * 4 + 0] = use(op, t);
  out[t * 4 + 1] = copy(op, t);
  out[t * 4 + 2] = fold(m, t, 2);
  out[t * 4 + 3] = run(d, t);
}";
    let t = run_finished(src, launch(Dialect::Cuda, 4, &[("out", 16, "zero")]));
    let want: Vec<Option<i128>> = (0..4i128)
        .flat_map(|t| [t * 3 + 3, 3000 + t, t.max(2), t * 5 + 1])
        .map(Some)
        .collect();
    assert_eq!(ints(&t, "out"), want);
}

/// A `cg::thread_group` parameter (rocm-examples' shape) given a group made in place: the
/// hidden rank and size are the made group's (the block's: rank t of 32; a tile of 16's: rank
/// t mod 16 of 16).
#[test]
fn thread_group_parameter_takes_a_group_made_in_place() {
    let src = "#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ int info(cg::thread_group g) { g.sync(); return g.thread_rank() * 100 + g.size(); }
__global__ void k(int* out) {
  cg::thread_block block = cg::this_thread_block();
  out[threadIdx.x * 2] = info(cg::this_thread_block());
  out[threadIdx.x * 2 + 1] = info(cg::tiled_partition<16>(block));
}";
    let t = run_finished(src, launch(Dialect::Cuda, 32, &[("out", 64, "zero")]));
    let want: Vec<Option<i128>> = (0..32i128)
        .flat_map(|t| [t * 100 + 32, t % 16 * 100 + 16])
        .map(Some)
        .collect();
    assert_eq!(ints(&t, "out"), want);
}
