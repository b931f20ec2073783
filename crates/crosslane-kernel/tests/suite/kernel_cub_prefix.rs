//! CUB / hipCUB `BlockScan` with a block prefix callback (CUB API reference, `cub::BlockScan`,
//! "block_prefix_callback_op"): the first warp calls the functor `T operator()(T
//! block_aggregate)` with the block-wide aggregate of the call; lane 0's return value is the
//! prefix seeding the scan (exclusive scans give it to thread 0 and combine it into every other
//! output, inclusive scans into every output). The functor keeps state across calls (CUB's
//! documented `running_total` loop over tiles); each thread owns its copy and only the first
//! warp calls it, so the other warps' copies keep their starting value.
//!
//! Expected values are derived by hand in the comments; the independent model is a sequential
//! running scan over the whole array (Python: `itertools.accumulate`), written out in Rust in
//! `running_sum` below.

use crate::support::{ints, launch, launch_lanes, refused, run_finished};
use crosslane_core::Dialect;

/// CUB's documented tile loop: `BLOCK` threads, `TILES` tiles of `BLOCK` items, the callback
/// starting at 100 for the exclusive sum and 0 for the inclusive one; `st` gets each thread's
/// copy of the exclusive callback's `running_total` after the loop.
fn tile_loop(block: usize, tiles: usize) -> String {
    format!(
        "\
#include <cub/cub.cuh>
struct BlockPrefixCallbackOp {{
  int running_total;
  __device__ BlockPrefixCallbackOp(int r) : running_total(r) {{}}
  __device__ int operator()(int block_aggregate) {{
    int old = running_total;
    running_total += block_aggregate;
    return old;
  }}
}};
__global__ void k(const int *in, int *ex, int *inc, int *st) {{
  typedef cub::BlockScan<int, {block}> BlockScan;
  __shared__ typename BlockScan::TempStorage temp_storage;
  BlockPrefixCallbackOp prefix_op(100);
  BlockPrefixCallbackOp inclusive_op(0);
  for (int tile = 0; tile < {n}; tile += {block}) {{
    int x = in[tile + threadIdx.x];
    int e, i;
    BlockScan(temp_storage).ExclusiveSum(x, e, prefix_op);
    __syncthreads();
    BlockScan(temp_storage).InclusiveSum(x, i, inclusive_op);
    __syncthreads();
    ex[tile + threadIdx.x] = e;
    inc[tile + threadIdx.x] = i;
  }}
  st[threadIdx.x] = prefix_op.running_total;
}}",
        n = block * tiles
    )
}

fn hipify(src: &str) -> String {
    src.replace("#include <cub/cub.cuh>", "#include <hipcub/hipcub.hpp>")
        .replace("cub::", "hipcub::")
}

/// The running inclusive sum of `x` from `start` (the model).
fn running_sum(x: &[i128], start: i128) -> Vec<i128> {
    x.iter()
        .scan(start, |s, v| {
            *s += v;
            Some(*s)
        })
        .collect()
}

fn some(v: Vec<i128>) -> Vec<Option<i128>> {
    v.into_iter().map(Some).collect()
}

/// Runs the tile loop over `in[i] = i` and checks every output against the model: the
/// exclusive sum of element i is 100 + i·(i−1)/2, the inclusive one i·(i+1)/2, across tile
/// boundaries (thread 0 of tile 1 of a 32-thread block: 100 + 0 + … + 31 = 596); after the
/// loop the first warp's copies of `prefix_op` hold 100 + the whole sum, n·(n−1)/2 + 100, the
/// other warps' copies their starting 100 (they never call it).
fn check_tile_loop(src: &str, dialect: Dialect, block: usize, tiles: usize, warp: usize) {
    let n = block * tiles;
    let cfg = launch_lanes(
        dialect,
        block,
        &[
            ("in", n, "index"),
            ("ex", n, "0"),
            ("inc", n, "0"),
            ("st", block, "0"),
        ],
    );
    let t = run_finished(src, cfg);
    let x: Vec<i128> = (0..n as i128).collect();
    let inc = running_sum(&x, 0);
    let ex: Vec<i128> = std::iter::once(100)
        .chain(inc[..n - 1].iter().map(|v| v + 100))
        .collect();
    assert_eq!(ints(&t, "ex"), some(ex.clone()));
    assert_eq!(ints(&t, "inc"), some(inc));
    let total = (n * (n - 1) / 2) as i128;
    let st: Vec<i128> = (0..block)
        .map(|t| if t < warp { 100 + total } else { 100 })
        .collect();
    assert_eq!(ints(&t, "st"), some(st));
    // Hand values: tile 1's thread 0 and the last element.
    assert_eq!(ex[block], 100 + (block * (block - 1) / 2) as i128);
    assert_eq!(ex[n - 1], 100 + total - (n as i128 - 1));
}

#[test]
fn a_running_prefix_sum_over_four_tiles_of_32_threads() {
    // Tile 1's thread 0: 100 + (0 + … + 31) = 596; the last of 128: 100 + 8128 − 127 = 8101.
    check_tile_loop(&tile_loop(32, 4), Dialect::Cuda, 32, 4, 32);
}

#[test]
fn a_running_prefix_sum_over_four_tiles_of_128_threads() {
    // Four warps: only warp 0 calls the functor, so threads 32..127 keep running_total = 100.
    check_tile_loop(&tile_loop(128, 4), Dialect::Cuda, 128, 4, 32);
}

#[test]
fn hipcub_on_wave64_calls_the_callback_in_the_first_wavefront() {
    // 128 threads are two wavefronts of 64: threads 0..63 update their functor, 64..127 not.
    check_tile_loop(&hipify(&tile_loop(128, 4)), Dialect::Hip, 128, 4, 64);
}

/// A running-maximum callback over two tiles of 32: tile 0 holds (7·t) mod 32 (0, 7, 14, 21,
/// 28, 3, 10, 17, …; its maximum 31 at t = 9, as 7·9 = 63 ≡ 31), tile 1 holds t mod 5.
const MAX_SCAN: &str = "\
#include <cub/cub.cuh>
struct MaxPrefix {
  int m;
  __device__ MaxPrefix(int s) : m(s) {}
  __device__ int operator()(int agg) { int old = m; m = agg > m ? agg : m; return old; }
};
__global__ void k(const int *in, int *ex, int *inc) {
  typedef cub::BlockScan<int, 32> BS;
  __shared__ typename BS::TempStorage tmp;
  MaxPrefix a(10), b(10);
  for (int tile = 0; tile < 64; tile += 32) {
    int v = in[tile + threadIdx.x], e, i;
    BS(tmp).ExclusiveScan(v, e, cub::Max(), a);
    __syncthreads();
    BS(tmp).InclusiveScan(v, i, cub::Max(), b);
    __syncthreads();
    ex[tile + threadIdx.x] = e;
    inc[tile + threadIdx.x] = i;
  }
}";

#[test]
fn a_max_scan_is_seeded_with_the_callbacks_prefix() {
    // Tile 0, prefix 10 (the functor's start): exclusive 10, 10, max(10, 0, 7) = 10, 14, 21,
    // 28, 28, 28, 28, then 31 from t = 10 on (31 is input 9); inclusive 10, 10, 14, 21, 28,
    // 28, 28, 28, 28, 31 from t = 9. Tile 1: the functor returns max(10, 31) = 31, above every
    // t mod 5, so every output is 31.
    let input: Vec<String> = (0..32)
        .map(|t| (7 * t) % 32)
        .chain((0..32).map(|t| t % 5))
        .map(|v| v.to_string())
        .collect();
    let input = input.join(",");
    let mut ex = vec![10, 10, 10, 14, 21, 28, 28, 28, 28, 28];
    ex.resize(64, 31);
    let mut inc = vec![10, 10, 14, 21, 28, 28, 28, 28, 28];
    inc.resize(64, 31);
    let cfg = launch(
        Dialect::Cuda,
        32,
        &[
            ("in", 64, input.as_str()),
            ("ex", 64, "0"),
            ("inc", 64, "0"),
        ],
    );
    let t = run_finished(MAX_SCAN, cfg.clone());
    assert_eq!(ints(&t, "ex"), some(ex.clone()));
    assert_eq!(ints(&t, "inc"), some(inc.clone()));
    // hipCUB on wave64, a 32-thread block (one partial wavefront): the same values.
    let cfg = launch_lanes(
        Dialect::Hip,
        32,
        &[
            ("in", 64, input.as_str()),
            ("ex", 64, "0"),
            ("inc", 64, "0"),
        ],
    );
    let t = run_finished(&hipify(MAX_SCAN), cfg);
    assert_eq!(ints(&t, "ex"), some(ex));
    assert_eq!(ints(&t, "inc"), some(inc));
}

/// The items-per-thread overloads with a callback: 64 threads × 4 items, two tiles of 256.
const ITEMS: &str = "\
#include <cub/cub.cuh>
struct BlockPrefixCallbackOp {
  int running_total;
  __device__ BlockPrefixCallbackOp(int r) : running_total(r) {}
  __device__ int operator()(int block_aggregate) {
    int old = running_total;
    running_total += block_aggregate;
    return old;
  }
};
__global__ void k(const int *in, int *ex, int *inc) {
  typedef cub::BlockScan<int, 64> BS;
  __shared__ typename BS::TempStorage tmp;
  BlockPrefixCallbackOp op(5), op2(5);
  for (int tile = 0; tile < 512; tile += 256) {
    int a[4], b[4];
    for (int i = 0; i < 4; ++i) { a[i] = in[tile + threadIdx.x * 4 + i]; b[i] = a[i]; }
    BS(tmp).ExclusiveSum(a, a, op);
    __syncthreads();
    BS(tmp).InclusiveSum(b, b, op2);
    __syncthreads();
    for (int i = 0; i < 4; ++i) {
      ex[tile + threadIdx.x * 4 + i] = a[i];
      inc[tile + threadIdx.x * 4 + i] = b[i];
    }
  }
}";

#[test]
fn the_items_per_thread_sums_take_a_callback() {
    // Blocked items, in[i] = i: exclusive 5 + i·(i−1)/2, inclusive 5 + i·(i+1)/2; tile 1's
    // first item (thread 0's a[0]) gets 5 + (0 + … + 255) = 32645.
    let x: Vec<i128> = (0..512).collect();
    let inc = running_sum(&x, 5);
    let ex: Vec<i128> = std::iter::once(5)
        .chain(inc[..511].iter().copied())
        .collect();
    assert_eq!(ex[256], 32645);
    for (src, dialect) in [
        (ITEMS.to_string(), Dialect::Cuda),
        (hipify(ITEMS), Dialect::Hip),
    ] {
        let cfg = launch_lanes(
            dialect,
            64,
            &[("in", 512, "index"), ("ex", 512, "0"), ("inc", 512, "0")],
        );
        let t = run_finished(&src, cfg);
        assert_eq!(ints(&t, "ex"), some(ex.clone()));
        assert_eq!(ints(&t, "inc"), some(inc.clone()));
    }
}

/// Lambdas as callbacks (a closure's `operator()`), capturing the running total by reference.
const LAMBDA: &str = "\
#include <cub/cub.cuh>
__global__ void k(int *d, int *r) {
  typedef cub::BlockScan<int, 64> BS;
  __shared__ typename BS::TempStorage tmp;
  int run = 100;
  auto cb = [&](int a) { int o = run; run += a; return o; };
  int v = d[threadIdx.x];
  BS(tmp).ExclusiveSum(v, v, cb);
  __syncthreads();
  int w = 1;
  BS(tmp).InclusiveSum(w, w, [&](int a) { int o = run; run += a; return o; });
  d[threadIdx.x] = v; r[threadIdx.x] = run * 1000 + w;
}";

#[test]
fn a_lambda_capturing_the_running_total_is_a_callback() {
    // 64 ones: the first call gives 100 + t and leaves run = 164 in warp 0; the second call's
    // prefix is 164, so w = 164 + t + 1, and warp 0's run becomes 164 + 64 = 228 while warp
    // 1's stays 100: r = 228·1000 + 165 + t for t < 32, 100·1000 + 165 + t after.
    let cfg = launch(Dialect::Cuda, 64, &[("d", 64, "1"), ("r", 64, "0")]);
    let t = run_finished(LAMBDA, cfg);
    assert_eq!(ints(&t, "d"), some((100..164).collect()));
    let r: Vec<i128> = (0..64)
        .map(|t| if t < 32 { 228_000 } else { 100_000 } + 165 + t)
        .collect();
    assert_eq!(ints(&t, "r"), some(r));
}

#[test]
fn callbacks_that_are_not_modelled_are_refused_before_the_run() {
    // A functor given to a WarpScan: CUB's WarpScan has no callback overload.
    let src = "\
#include <cub/cub.cuh>
struct P { int t; __device__ P(int x) : t(x) {} __device__ int operator()(int a) { return t; } };
__global__ void k(int *d) {
  typedef cub::WarpScan<int> WS;
  __shared__ typename WS::TempStorage tmp;
  P op(0);
  int v = d[threadIdx.x];
  WS(tmp).ExclusiveSum(v, v, op);
  d[threadIdx.x] = v;
}";
    let e = refused(src, launch(Dialect::Cuda, 32, &[("d", 32, "1")]));
    assert!(e.contains("WarpScan has no block prefix callback"), "{e}");
    // An initial value and a callback: no such overload (CUB API, cub::BlockScan).
    let src = "\
#include <cub/cub.cuh>
struct P { int t; __device__ P(int x) : t(x) {} __device__ int operator()(int a) { return t; } };
__global__ void k(int *d) {
  typedef cub::BlockScan<int, 32> BS;
  __shared__ typename BS::TempStorage tmp;
  P op(0);
  int v = d[threadIdx.x];
  BS(tmp).ExclusiveScan(v, v, 0, cub::Max(), op);
  d[threadIdx.x] = v;
}";
    let e = refused(src, launch(Dialect::Cuda, 32, &[("d", 32, "1")]));
    assert!(e.contains("not both"), "{e}");
}
