//! CUB / hipCUB shapes of inference kernels: a named `cub::ArgMax` object (vLLM's MoE top-k
//! softmax: `cub::ArgMax arg_max; … BlockReduce(tmp).Reduce(thread_kvp, arg_max)`) and
//! `BlockScan::InclusiveSum` / `ExclusiveSum` over an array of items per thread (blocked
//! arrangement). Every expected value is derived in the comments from the documented rule:
//! CUB `cub/thread/thread_operators.cuh`, `ArgMax` / `ArgMin` (the smaller key on equal
//! values); CUB API reference, `cub::BlockScan` (items-per-thread overloads: thread t holds the
//! t-th run of ITEMS_PER_THREAD consecutive items; `ExclusiveSum` starts from 0;
//! `block_aggregate` is the sum of all items, in every thread); `cub::BlockReduce::Reduce`
//! (the result is valid in thread 0 only).

use crate::support::ints;
use crosslane_core::Dialect;
use crosslane_kernel::{run_kernel, KVal, KernelTrace as Trace, LaunchConfig, Outcome};

fn config(dialect: Dialect, lanes: usize, threads: usize, bufs: &[(&str, usize)]) -> LaunchConfig {
    LaunchConfig {
        dialect: Some(dialect),
        lanes: Some(lanes),
        block_dim: Some([threads, 1, 1]),
        buffer_len: bufs.iter().map(|(n, l)| (n.to_string(), *l)).collect(),
        ..LaunchConfig::default()
    }
}

fn run(src: &str, dialect: Dialect, lanes: usize, threads: usize, bufs: &[(&str, usize)]) -> Trace {
    let t = run_kernel(src, config(dialect, lanes, threads, bufs)).expect("runs");
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    t
}

fn floats(t: &Trace, name: &str) -> Vec<Option<f64>> {
    t.buffer(name)
        .expect("buffer")
        .iter()
        .map(|c| c.as_ref().and_then(KVal::as_f64))
        .collect()
}

fn hipify(src: &str) -> String {
    src.replace("#include <cub/cub.cuh>", "#include <hipcub/hipcub.hpp>")
        .replace("cub::", "hipcub::")
}

/// 64 threads, thread t's pair (t, (11·t) mod 32). 11⁻¹ ≡ 3 (mod 32) (11·3 = 33), so the
/// maximum 31 is at t = 31·3 mod 32 = 29 and at 61: ArgMax keeps the smaller key, 29. The
/// minimum 0 is at t = 0 and 32: ArgMin keeps 0. The objects called directly: ArgMax of
/// (5, 2) and (3, 2) is the tie's smaller key 3; ArgMin of (5, 1) and (7, 0.5) is 7. out[4] is
/// thread 1's copy of the block result: undefined.
const NAMED: &str = "\
#include <cub/cub.cuh>
__global__ void k(int* out, float* vals) {
  using KV = cub::KeyValuePair<int, float>;
  using BR = cub::BlockReduce<KV, 64>;
  __shared__ typename BR::TempStorage tmp;
  cub::ArgMax arg_max;
  cub::ArgMin arg_min{};
  int t = threadIdx.x;
  KV mine(t, (float)((11 * t) % 32));
  const KV best = BR(tmp).Reduce(mine, arg_max);
  __syncthreads();
  KV least = BR(tmp).Reduce(mine, arg_min);
  KV tie = arg_max(KV(5, 2.0f), KV(3, 2.0f));
  KV lo = arg_min(KV(5, 1.0f), KV(7, 0.5f));
  if (t == 0) {
    out[0] = best.key; vals[0] = best.value; out[1] = least.key; vals[1] = least.value;
    out[2] = tie.key; out[3] = lo.key;
  }
  if (t == 1) out[4] = best.key;
}";

#[test]
fn a_named_arg_max_object_reduces_a_block_of_key_value_pairs() {
    for (src, dialect, lanes) in [
        (NAMED.to_string(), Dialect::Cuda, 32),
        (hipify(NAMED), Dialect::Hip, 64),
    ] {
        let t = run(&src, dialect, lanes, 64, &[("out", 5), ("vals", 2)]);
        assert_eq!(
            ints(&t, "out"),
            vec![Some(29), Some(0), Some(3), Some(7), None],
            "{dialect:?}"
        );
        assert_eq!(
            floats(&t, "vals"),
            vec![Some(31.0), Some(0.0)],
            "{dialect:?}"
        );
    }
}

/// `InclusiveSum(items, items)` in place over 3 floats per thread, 64 threads: every item is
/// 0.5, so item j = 3t + i gets 0.5·(j + 1) (exact in binary): thread 0 0.5 1 1.5, thread 63
/// (j = 189..191) 95 95.5 96. `ExclusiveSum(d, e, agg)` over 2 ints per thread, d = [t, t]:
/// thread t's prefix is 2·(0 + … + (t − 1)) = t(t − 1), so e = [t² − t, t²] (thread 5: 20 25);
/// the aggregate is 2·(0 + … + 63) = 2·2016 = 4032 in every thread.
const SCANS: &str = "\
#include <cub/cub.cuh>
__global__ void k(float* f, int* e, int* agg) {
  typedef cub::BlockScan<float, 64> BSF;
  typedef cub::BlockScan<int, 64> BSI;
  __shared__ typename BSF::TempStorage tf;
  __shared__ typename BSI::TempStorage ti;
  int t = threadIdx.x;
  float items[3];
  for (int i = 0; i < 3; ++i) items[i] = 0.5f;
  BSF(tf).InclusiveSum(items, items);
  int d[2] = {t, t};
  int out[2];
  int total;
  BSI(ti).ExclusiveSum(d, out, total);
  for (int i = 0; i < 3; ++i) f[3 * t + i] = items[i];
  e[2 * t] = out[0];
  e[2 * t + 1] = out[1];
  agg[t] = total;
}";

#[test]
fn block_scans_over_items_per_thread_follow_the_blocked_arrangement() {
    for (src, dialect, lanes) in [
        (SCANS.to_string(), Dialect::Cuda, 32),
        (hipify(SCANS), Dialect::Hip, 64),
    ] {
        let t = run(
            &src,
            dialect,
            lanes,
            64,
            &[("f", 192), ("e", 128), ("agg", 64)],
        );
        let f = floats(&t, "f");
        let want_f: Vec<Option<f64>> = (0..192).map(|j| Some(0.5 * (j as f64 + 1.0))).collect();
        assert_eq!(f, want_f, "{dialect:?}");
        assert_eq!(f[189..], [Some(95.0), Some(95.5), Some(96.0)]);
        let e = ints(&t, "e");
        let want_e: Vec<Option<i128>> = (0..64i128)
            .flat_map(|t| [Some(t * t - t), Some(t * t)])
            .collect();
        assert_eq!(e, want_e, "{dialect:?}");
        assert_eq!(e[10..12], [Some(20), Some(25)]);
        assert_eq!(ints(&t, "agg"), vec![Some(4032); 64], "{dialect:?}");
    }
}

#[test]
fn item_scans_that_are_not_modelled_are_refused_at_their_line() {
    let cases = [
        (
            "#include <cub/cub.cuh>\n__global__ void k(int* o) {\n  typedef cub::BlockScan<int, 32> BS;\n  __shared__ typename BS::TempStorage s;\n  int a[2] = {1, 2};\n  BS(s).InclusiveScan(a, a, cub::Max());\n  o[0] = a[0];\n}",
            6,
            "BlockScan::InclusiveScan over an array of items per thread is not modelled",
        ),
        (
            "#include <cub/cub.cuh>\n__global__ void k(int* o) {\n  typedef cub::BlockScan<int, 32> BS;\n  __shared__ typename BS::TempStorage s;\n  int a[2] = {1, 2};\n  int b[3];\n  BS(s).InclusiveSum(a, b);\n  o[0] = b[0];\n}",
            7,
            "the output `b` must be an array of 2 items",
        ),
    ];
    for (src, line, part) in cases {
        let e = run_kernel(src, config(Dialect::Cuda, 32, 32, &[("o", 1)])).expect_err("refused");
        assert_eq!(e.line, line, "{e:?}");
        assert!(e.message.contains(part), "{}", e.message);
    }
}
