//! CUB and hipCUB warp and block reductions (`parser::cub`): the float results of the
//! vendors' documented orders of combination, from the independent model
//! `models/cub_order.py` (its inputs make the three orders — CUB's warp tree then a left fold
//! of the warp aggregates, rocPRIM's two trees, a sequential sum — give three different
//! floats), and the rule that only lane 0 / thread 0 holds the result: every other thread's
//! value is undefined with the library's reason.

use crate::support::{floats, ints};
use crosslane_core::Dialect;
use crosslane_kernel::{run_kernel, KernelTrace as Trace, LaunchConfig, Outcome};

/// `x[t]`: 2^24 at thread 0, 1 at threads 1..3 and at every multiple of 32, else 0.
const SUMS: &str = "\
#include <cub/cub.cuh>
__global__ void k(float* out) {
  typedef cub::BlockReduce<float, 256> BR;
  using WR = cub::WarpReduce<float>;
  __shared__ typename BR::TempStorage bt;
  __shared__ typename WR::TempStorage wt[8];
  int t = threadIdx.x;
  float x = t == 0 ? 16777216.0f : ((t < 4 || t % 32 == 0) ? 1.0f : 0.0f);
  float b = BR(bt).Sum(x);
  float w = WR(wt[t / warpSize]).Sum(x);
  float p = WR(wt[t / warpSize]).Sum(x, 13);
  out[t] = b;
  if (t == 0) { out[256] = w; out[257] = p; }
}";

fn run(src: &str, dialect: Dialect, lanes: usize, threads: usize, out: usize) -> Trace {
    let config = LaunchConfig {
        dialect: Some(dialect),
        lanes: Some(lanes),
        block_dim: Some([threads, 1, 1]),
        buffer_len: [("out".to_string(), out)].into(),
        ..LaunchConfig::default()
    };
    let t = run_kernel(src, config).expect("runs");
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    t
}

/// Every `why` of the trace's JSON that contains `part`.
fn reasons(t: &Trace, part: &str) -> usize {
    let json = serde_json::to_string(t).expect("serializes");
    json.matches(part).count()
}

#[test]
fn cub_block_and_warp_sums_follow_cubs_order_on_cuda() {
    let t = run(SUMS, Dialect::Cuda, 32, 256, 258);
    let out = floats(&t, "out");
    // models/cub_order.py: CUB BlockReduce 16777220 (a sequential sum would give 16777216),
    // WarpReduce of lanes 0..31 16777218, Sum(x, 13) 16777218.
    assert_eq!(out[0], Some(16_777_220.0));
    assert_eq!(out[256], Some(16_777_218.0));
    assert_eq!(out[257], Some(16_777_218.0));
    // Threads 1..255 got no defined aggregate: their stores are undefined, with CUB's reason.
    assert!(out[1..256].iter().all(Option::is_none), "{out:?}");
    assert!(reasons(&t, "returns the block-wide aggregate to thread 0 only") > 0);
    assert!(
        reasons(
            &t,
            "returns the aggregate to lane 0 of each logical warp only"
        ) > 0
    );
}

#[test]
fn hipcub_sums_follow_rocprims_order_on_wave64() {
    let src = SUMS.replace(
        "#include <cub/cub.cuh>",
        "#include <hipcub/hipcub.hpp>\nnamespace cub = hipcub;",
    );
    let t = run(&src, Dialect::Hip, 64, 256, 258);
    let out = floats(&t, "out");
    // models/cub_order.py: rocPRIM's warp trees over 64 lanes, then a tree over the 4 warp
    // partials: 16777226; hipcub::WarpReduce<float> spans the 64-lane wavefront: 16777220.
    assert_eq!(out[0], Some(16_777_226.0));
    assert_eq!(out[256], Some(16_777_220.0));
    assert_eq!(out[257], Some(16_777_218.0));
    assert!(out[1..256].iter().all(Option::is_none), "{out:?}");
    assert!(
        reasons(
            &t,
            "hipcub::BlockReduce<T, 256> returns the block-wide reduction"
        ) > 0
    );
}

/// Integer reductions with each operator, logical warps of 16, a partial block and a lambda.
/// Values by hand: x = (7 t) % 23 - 11 on thread t.
const OPS: &str = "\
#include <cub/cub.cuh>
__global__ void k(int* out) {
  using BR = cub::BlockReduce<int, 64>;
  using W16 = cub::WarpReduce<int, 16>;
  __shared__ typename BR::TempStorage bt;
  __shared__ typename W16::TempStorage wt[4];
  int t = threadIdx.x;
  int x = (7 * t) % 23 - 11;
  int mx = BR(bt).Reduce(x, cub::Max());
  __syncthreads();
  int mn = BR(bt).Reduce(x, cuda::minimum<>{}, 40);
  __syncthreads();
  int s = BR(bt).Reduce(x, [](int a, int b) { return a + b; });
  int w = W16(wt[t / 16]).Reduce(x, cub::Sum{});
  if (t == 0) { out[0] = mx; out[1] = mn; out[2] = s; }
  if (t % 16 == 0) out[3 + t / 16] = w;
  if (t == 5) out[7] = w;
}";

#[test]
fn operators_partial_blocks_and_logical_warps() {
    // x_t = (7t) % 23 - 11 for t in 0..63, the expected values computed here from the
    // definition of each reduction (integers: the order does not change them); max 11
    // (t = 10) and min over the first 40 threads -11 (t = 0) checked by hand. Thread 5 is
    // not lane 0 of its logical warp: its WarpReduce result is undefined.
    let xs: Vec<i64> = (0..64).map(|t| (7 * t) % 23 - 11).collect();
    let max = *xs.iter().max().expect("max");
    let min40 = *xs[..40].iter().min().expect("min");
    let sum: i64 = xs.iter().sum();
    let w: Vec<i64> = (0..4)
        .map(|k| xs[16 * k..16 * k + 16].iter().sum())
        .collect();
    assert_eq!((max, min40), (11, -11));
    for (dialect, lanes) in [(Dialect::Cuda, 32), (Dialect::Hip, 64)] {
        let t = run(OPS, dialect, lanes, 64, 8);
        let out = ints(&t, "out");
        let want: Vec<Option<i128>> = [max, min40, sum, w[0], w[1], w[2], w[3]]
            .iter()
            .map(|&v| Some(i128::from(v)))
            .chain([None])
            .collect();
        assert_eq!(out, want, "{dialect:?}");
    }
}

#[test]
fn a_raking_block_reduce_of_a_partial_warp_count_is_refused_by_name() {
    // 48 threads: CUB's raking layout has 24 raking threads (2 cells each), which CUB reduces
    // with its shared-memory warp reduction, not modelled.
    let src = "\
#include <cub/cub.cuh>
__global__ void k(float* out) {
  typedef cub::BlockReduce<float, 48, cub::BLOCK_REDUCE_RAKING> BR;
  __shared__ typename BR::TempStorage t;
  out[threadIdx.x] = BR(t).Sum(1.0f);
}";
    let e = run_kernel(src, LaunchConfig::default()).expect_err("refused");
    assert!(
        e.message.contains("BLOCK_REDUCE_RAKING") && e.message.contains("24 raking threads"),
        "{}",
        e.message
    );
}

/// Block and warp scans of floats: `y` = 2^24 at thread 0, 1 elsewhere (block scan); the
/// reduction inputs above (warp scan).
const SCANS: &str = "\
#include <cub/cub.cuh>
__global__ void k(float* out) {
  typedef cub::BlockScan<float, 256> BS;
  typedef cub::WarpScan<float> WS;
  __shared__ typename BS::TempStorage bt;
  __shared__ typename WS::TempStorage wt[8];
  int t = threadIdx.x;
  float y = t == 0 ? 16777216.0f : 1.0f;
  float x = t == 0 ? 16777216.0f : ((t < 4 || t % 32 == 0) ? 1.0f : 0.0f);
  float inc, agg, ws;
  BS(bt).InclusiveSum(y, inc);
  __syncthreads();
  BS(bt).ExclusiveSum(y, out[t], agg);
  WS(wt[t / 32]).InclusiveSum(x, ws);
  if (t == 255) { out[256] = inc; out[257] = agg; }
  if (t == 31) out[258] = ws;
}";

#[test]
fn block_and_warp_scans_follow_each_librarys_order() {
    // models/cub_order.py: the raking scan's last thread, CUB (32 raking threads of 8 cells)
    // 16777456, rocPRIM on wave64 (64 raking threads of 4 cells) 16777464; a sequential
    // scan would give 16777216. CUB's warp scan of x over lanes 0..31: 16777218.
    let t = run(SCANS, Dialect::Cuda, 32, 256, 259);
    let out = floats(&t, "out");
    assert_eq!(out[256], Some(16_777_456.0));
    // ExclusiveSum: thread 0 gets 0 (the initial value T()), thread 1 gets y[0].
    assert_eq!((out[0], out[1]), (Some(0.0), Some(16_777_216.0)));
    assert_eq!(out[258], Some(16_777_218.0));
    let src = SCANS
        .replace("#include <cub/cub.cuh>", "#include <hipcub/hipcub.hpp>")
        .replace("cub::", "hipcub::");
    let t = run(&src, Dialect::Hip, 64, 256, 259);
    let out = floats(&t, "out");
    assert_eq!(out[256], Some(16_777_464.0));
    assert_eq!((out[0], out[1]), (Some(0.0), Some(16_777_216.0)));
}

#[test]
fn integer_scans_aggregates_and_undefined_lane_0() {
    // x_t = t % 5 + 1; prefix sums and maxima by hand (python: itertools.accumulate).
    let src = "\
#include <cub/cub.cuh>
__global__ void k(int* out) {
  typedef cub::WarpScan<int, 16> WS;
  typedef cub::BlockScan<int, 64> BS;
  __shared__ typename WS::TempStorage wt[4];
  __shared__ typename BS::TempStorage bt;
  int t = threadIdx.x;
  int x = t % 5 + 1;
  int a, b, c, agg, d;
  WS(wt[t / 16]).ExclusiveScan(x, a, cub::Max());
  WS(wt[t / 16]).ExclusiveScan(x, b, 100, cub::Sum(), agg);
  BS(bt).ExclusiveScan(x, c, cub::Max());
  __syncthreads();
  BS(bt).InclusiveScan(x, d, [](int p, int q) { return p + q; });
  out[t] = a; out[64 + t] = b; out[128 + t] = agg; out[192 + t] = c; out[256 + t] = d;
}";
    let xs: Vec<i128> = (0..64).map(|t| t % 5 + 1).collect();
    let mut want: Vec<Option<i128>> = Vec::new();
    // Warp exclusive max per logical warp of 16: lane 0 undefined.
    for t in 0..64 {
        let l = t % 16;
        want.push((l > 0).then(|| *xs[t - l..t].iter().max().expect("a lane below")));
    }
    for t in 0..64 {
        let l = t % 16;
        want.push(Some(100 + xs[t - l..t].iter().sum::<i128>()));
    }
    for t in 0..64 {
        want.push(Some(xs[t - t % 16..t - t % 16 + 16].iter().sum()));
    }
    for t in 0..64 {
        want.push((t > 0).then(|| *xs[..t].iter().max().expect("a thread below")));
    }
    for t in 0..64 {
        want.push(Some(xs[..=t].iter().sum()));
    }
    for (dialect, lanes) in [(Dialect::Cuda, 32), (Dialect::Hip, 64)] {
        let t = run(src, dialect, lanes, 64, 320);
        assert_eq!(ints(&t, "out"), want, "{dialect:?}");
        assert!(reasons(&t, "leaves lane 0's output undefined") > 0);
        assert!(reasons(&t, "leaves thread 0's output undefined") > 0);
    }
}

#[test]
fn reusing_temp_storage_without_a_barrier_is_a_warning() {
    let src = "\
#include <cub/cub.cuh>
__global__ void k(float* out) {
  typedef cub::BlockReduce<float, 64> BR;
  __shared__ typename BR::TempStorage t;
  float a = BR(t).Sum(1.0f);
  float b = BR(t).Sum(2.0f);
  __syncthreads();
  float c = BR(t).Sum(3.0f);
  if (threadIdx.x == 0) { out[0] = a; out[1] = b; out[2] = c; }
}";
    let t = run(src, Dialect::Cuda, 32, 64, 3);
    let warned: Vec<u32> = t
        .all_diagnostics()
        .filter(|d| {
            d.message
                .contains("is used again without a `__syncthreads()`")
        })
        .map(|d| d.line)
        .collect();
    // Line 6 reuses line 5's storage; line 8 follows a barrier.
    assert_eq!(warned, vec![6]);
    assert_eq!(
        floats(&t, "out"),
        vec![Some(64.0), Some(128.0), Some(192.0)]
    );
}

/// `cub::Sum` / `Max` / `Min` were removed in CCCL 3.0 (nvcc 13.0 refused them on an H200:
/// "namespace cub has no member Sum"): a CUDA run warns once a name, with the libcu++ name to
/// write, and still reduces as CUDA 12's CUB does; hipCUB keeps them (no warning), and
/// `cuda::std::plus<>` draws none.
#[test]
fn removed_cub_operators_warn_under_cuda_only() {
    let src = |ns: &str, op: &str| {
        format!(
            "#include <cub/cub.cuh>
__global__ void k(int* out) {{
  using WR = {ns}::WarpReduce<int>;
  __shared__ typename WR::TempStorage t;
  int a = WR(t).Reduce((int)threadIdx.x, {op});
  __syncwarp();
  int b = WR(t).Reduce((int)threadIdx.x, {op});
  if (threadIdx.x == 0) {{ out[0] = a; out[1] = b; }}
}}"
        )
    };
    let warnings = |t: &Trace| -> Vec<String> {
        t.all_diagnostics()
            .map(|d| d.message.clone())
            .filter(|m| m.contains("CCCL 3.0"))
            .collect()
    };
    // Lane 0's sum of 0..31 is 496, the maximum 31.
    let t = run(&src("cub", "cub::Sum()"), Dialect::Cuda, 32, 32, 2);
    assert_eq!(ints(&t, "out"), [Some(496), Some(496)]);
    let w = warnings(&t);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].contains("`cub::Sum`") && w[0].contains("cuda::std::plus<>{}"),
        "{w:?}"
    );
    let t = run(&src("cub", "cub::Max()"), Dialect::Cuda, 32, 32, 2);
    assert_eq!(ints(&t, "out"), [Some(31), Some(31)]);
    assert!(warnings(&t)[0].contains("cuda::maximum<>{}"));
    let t = run(&src("cub", "cuda::std::plus<>{}"), Dialect::Cuda, 32, 32, 2);
    assert!(warnings(&t).is_empty());
    let t = run(&src("hipcub", "hipcub::Sum()"), Dialect::Hip, 64, 64, 2);
    assert!(warnings(&t).is_empty());
}

/// A `__shared__ union` of TempStorages (the CUB API reference's idiom): its members share
/// their bytes, so a second collective on the union with no `__syncthreads()` between is the
/// reuse CUB forbids (warned of, as on one TempStorage); with the barrier, none. A member
/// that is not a TempStorage is refused at its line.
#[test]
fn a_union_of_temp_storages_shares_one_record_of_use() {
    let src = |barrier: &str| {
        format!(
            "#include <cub/cub.cuh>
__global__ void k(int* out) {{
  using R = cub::BlockReduce<int, 64>;
  using S = cub::BlockScan<int, 64>;
  __shared__ union {{ typename R::TempStorage r; typename S::TempStorage s; }} u;
  int x = threadIdx.x;
  int sum = R(u.r).Sum(x);
  {barrier}
  int before;
  S(u.s).ExclusiveSum(x, before);
  out[threadIdx.x] = before;
  if (threadIdx.x == 0) out[0] = sum;
}}"
        )
    };
    let reuse = |t: &Trace| {
        t.all_diagnostics()
            .filter(|d| d.message.contains("used again without a `__syncthreads()`"))
            .count()
    };
    // Thread 0: the sum of 0..63 = 2016; thread 5: the exclusive prefix 0+1+2+3+4 = 10.
    let t = run(&src("__syncthreads();"), Dialect::Cuda, 32, 64, 64);
    assert_eq!(
        ints(&t, "out")[..6],
        [Some(2016), Some(0), Some(1), Some(3), Some(6), Some(10)]
    );
    assert_eq!(reuse(&t), 0);
    let t = run(&src(""), Dialect::Cuda, 32, 64, 64);
    assert!(
        reuse(&t) >= 1,
        "the members alias: a reuse without a barrier is warned of"
    );
    let bad = "#include <cub/cub.cuh>
__global__ void k(int* out) {
  using R = cub::BlockReduce<int, 64>;
  __shared__ union { typename R::TempStorage r;
    int other[4]; } u;
  out[0] = R(u.r).Sum(1);
}";
    let e = run_kernel(
        bad,
        LaunchConfig {
            dialect: Some(Dialect::Cuda),
            block_dim: Some([64, 1, 1]),
            ..LaunchConfig::default()
        },
    )
    .expect_err("refused");
    assert_eq!(e.line, 5, "{e:?}");
    assert!(e.message.contains("TempStorage m;` members only"), "{e:?}");
}

/// A `BlockRadixSort` whose TempStorage is a member of a union type defined first, then
/// declared `__shared__` (vLLM-style top-k by sort):
/// 32 threads × 2 keys `x[i] = i` loaded blocked, sorted descending with their indices: the
/// first four ranks are 63, 62, 61, 60 with those indices.
#[test]
fn a_radix_sort_runs_on_a_union_member() {
    let src = "#include <cub/cub.cuh>
__global__ void k(const float* x, float* top_v, int* top_i) {
  using Load = cub::BlockLoad<float, 32, 2>;
  using Sort = cub::BlockRadixSort<float, 32, 2, int>;
  union Shared { typename Load::TempStorage load; typename Sort::TempStorage sort; };
  __shared__ Shared tmp;
  float keys[2];
  int vals[2];
  Load(tmp.load).Load(x, keys);
  vals[0] = threadIdx.x * 2; vals[1] = threadIdx.x * 2 + 1;
  __syncthreads();
  Sort(tmp.sort).SortDescending(keys, vals);
  if (threadIdx.x < 2) {
    top_v[threadIdx.x * 2] = keys[0]; top_v[threadIdx.x * 2 + 1] = keys[1];
    top_i[threadIdx.x * 2] = vals[0]; top_i[threadIdx.x * 2 + 1] = vals[1];
  }
}";
    let config = LaunchConfig {
        dialect: Some(Dialect::Cuda),
        block_dim: Some([32, 1, 1]),
        buffer_len: [
            ("x".to_string(), 64),
            ("top_v".to_string(), 4),
            ("top_i".to_string(), 4),
        ]
        .into(),
        ..LaunchConfig::default()
    };
    let t = run_kernel(src, config).expect("runs");
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    assert_eq!(
        floats(&t, "top_v"),
        [Some(63.0), Some(62.0), Some(61.0), Some(60.0)]
    );
    assert_eq!(ints(&t, "top_i"), [Some(63), Some(62), Some(61), Some(60)]);
}

#[test]
fn block_reduce_of_half2_sums_each_half_into_thread_0() {
    // HeCBench f16sp's shape: `cub::BlockReduce<half2, N>` reduced with `half2`'s `+`.
    // Thread t holds (t, 2t), 64 threads: sums (0 + … + 63, 2·(0 + … + 63)) = (2016, 4032),
    // every partial sum an integer below 2048 or an even one below 4096, so exact in half
    // whatever the order.
    let src = "\
#include <cub/cub.cuh>
#include <cuda_fp16.h>
__global__ void k(float* lo, float* hi) {
  typedef cub::BlockReduce<half2, 64> BR;
  __shared__ typename BR::TempStorage tmp;
  half2 v = __floats2half2_rn((float)threadIdx.x, 2.0f * threadIdx.x);
  v = BR(tmp).Sum(v);
  if (threadIdx.x == 0) {
    lo[0] = __low2float(v);
    hi[0] = __high2float(v);
  }
}
";
    let mut c = LaunchConfig {
        block_dim: Some([64, 1, 1]),
        ..LaunchConfig::default()
    };
    for n in ["lo", "hi"] {
        c.buffer_len.insert(n.into(), 1);
        c.args.insert(n.into(), "zero".into());
    }
    let t = run_kernel(src, c).expect("runs");
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    assert_eq!(floats(&t, "lo"), vec![Some(2016.0)]);
    assert_eq!(floats(&t, "hi"), vec![Some(4032.0)]);
}
