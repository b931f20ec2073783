//! CUB / hipCUB `BlockLoad` and `BlockStore` (`parser::cub_load`), `KeyValuePair` with
//! `ArgMax` / `ArgMin` (`parser::cub_kv`), and the block algorithm template arguments. Every
//! expected value is derived here from the documented rule it checks (CUB API reference,
//! `cub::BlockLoadAlgorithm`: blocked = thread t holds items t·N + i, striped = items
//! t + i·THREADS; `cub/thread/thread_operators.cuh`, `ArgMax`: the larger value, the smaller
//! key on a tie).

use crate::support::ints;
use crosslane_core::Dialect;
use crosslane_kernel::{run_kernel, KVal, KernelTrace as Trace, LaunchConfig, Outcome};

fn run(src: &str, dialect: Dialect, lanes: usize, threads: usize, bufs: &[(&str, usize)]) -> Trace {
    let config = LaunchConfig {
        dialect: Some(dialect),
        lanes: Some(lanes),
        block_dim: Some([threads, 1, 1]),
        buffer_len: bufs.iter().map(|(n, l)| (n.to_string(), *l)).collect(),
        ..LaunchConfig::default()
    };
    let t = run_kernel(src, config).expect("runs");
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    t
}

fn hipify(src: &str) -> String {
    src.replace("#include <cub/cub.cuh>", "#include <hipcub/hipcub.hpp>")
        .replace("cub::", "hipcub::")
}

/// 64 threads, 4 items each: `in[j] = 3j + 1`, written by the kernel before the loads.
const LOADS: &str = "\
#include <cub/cub.cuh>
__global__ void k(int* in, int* blocked, int* striped, int* guarded, int* deflt, int* back) {
  using LD = cub::BlockLoad<int, 64, 4, cub::BLOCK_LOAD_DIRECT>;
  using LS = cub::BlockLoad<int, 64, 4, cub::BLOCK_LOAD_STRIPED>;
  using LW = cub::BlockLoad<int, 64, 4, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  typedef cub::BlockLoad<int, 64, 4, cub::BLOCK_LOAD_VECTORIZE> LV;
  using SS = cub::BlockStore<int, 64, 4, cub::BLOCK_STORE_STRIPED>;
  using SW = cub::BlockStore<int, 64, 4, cub::BLOCK_STORE_WARP_TRANSPOSE>;
  __shared__ typename LW::TempStorage tw;
  __shared__ typename SW::TempStorage sw;
  int t = threadIdx.x;
  for (int j = t; j < 256; j += 64) in[j] = 3 * j + 1;
  __syncthreads();
  int a[4], b[4], c[4], d[4];
  LD().Load(in, a);
  LS().Load(in, b);
  LW(tw).Load(in, c, 250);
  __syncthreads();
  LV().Load(in, d, 250, -1);
  for (int i = 0; i < 4; ++i) {
    blocked[t * 4 + i] = a[i];
    striped[t * 4 + i] = b[i];
    guarded[t * 4 + i] = c[i];
  }
  SW(sw).Store(deflt, d);
  SS().Store(back, b, 130);
}";

#[test]
fn block_loads_leave_each_documented_arrangement() {
    let bufs = [
        ("in", 256),
        ("blocked", 256),
        ("striped", 256),
        ("guarded", 256),
        ("deflt", 256),
        ("back", 256),
    ];
    let v = |j: usize| Some(3 * j as i128 + 1);
    // Blocked: thread t, item i is in[4t + i], stored back at 4t + i: the identity.
    let blocked: Vec<_> = (0..256).map(v).collect();
    // Striped: thread t, item i is in[t + 64i], stored at 4t + i.
    let striped: Vec<_> = (0..256).map(|k| v(k / 4 + 64 * (k % 4))).collect();
    // Guarded by 250 without a default: 250..255 undefined.
    let guarded: Vec<_> = (0..256)
        .map(|j| if j < 250 { v(j) } else { None })
        .collect();
    // With the default -1, stored blocked by the warp-transposing store.
    let deflt: Vec<_> = (0..256)
        .map(|j| if j < 250 { v(j) } else { Some(-1) })
        .collect();
    for (src, dialect, lanes) in [
        (LOADS.to_string(), Dialect::Cuda, 32),
        (hipify(LOADS), Dialect::Hip, 64),
    ] {
        let t = run(&src, dialect, lanes, 64, &bufs);
        assert_eq!(ints(&t, "blocked"), blocked, "{dialect:?}");
        assert_eq!(ints(&t, "striped"), striped, "{dialect:?}");
        assert_eq!(ints(&t, "guarded"), guarded, "{dialect:?}");
        assert_eq!(ints(&t, "deflt"), deflt, "{dialect:?}");
        // The striped store of the striped items: back[t + 64i] = in[t + 64i] where below
        // 130; the rest of `back` is never written.
        let back = ints(&t, "back");
        for (j, got) in back.iter().enumerate().take(130) {
            assert_eq!(*got, v(j), "{dialect:?} back[{j}]");
        }
        let json = serde_json::to_string(&t).expect("serializes");
        assert!(json.contains("assigns nothing to an item past valid_items"));
    }
}

/// Argmax / argmin over 128 threads: value `(37t) mod 64` (37 odd: each residue twice, at t
/// and t + 64), key `127 - t`. The maximum 63 is at t = 19 (37·19 = 703 = 10·64 + 63) and
/// t = 83: keys 108 and 44; the smaller key 44 wins. The minimum 0 is at t = 0 and 64: keys
/// 127 and 63: 63. Warp w of 32 (ArgMin): lanes t = 32w + j hold 37j + 32·37w ≡ 37j + 32w
/// (mod 64); the minimum over j in 0..32 of (37j + 32w) mod 64: w even: 0 at j = 0; w odd:
/// 37j ≡ 32 (mod 64) at j = 32·37⁻¹ = 32·45 mod 64 = 32 (out of the warp), so the minimum is
/// 1 at j with 37j ≡ 33: j = 33·45 mod 64 = 1485 mod 64 = 13 (37·13 = 481 = 7·64 + 33).
/// Keys: w0 127 - 0 = 127, w1 127 - 45 = 82, w2 127 - 64 = 63, w3 127 - 109 = 18.
const ARGS: &str = "\
#include <cub/cub.cuh>
__global__ void k(int* out, float* vals) {
  using KV = cub::KeyValuePair<int, float>;
  typedef cub::BlockReduce<KV, 128> BR;
  using WR = cub::WarpReduce<cub::KeyValuePair<int, float>>;
  __shared__ typename BR::TempStorage bt;
  __shared__ typename WR::TempStorage wt[4];
  int t = threadIdx.x;
  float x = (float)((37 * t) % 64);
  KV kv(127 - t, x);
  KV best = BR(bt).Reduce(kv, cub::ArgMax());
  __syncthreads();
  cub::KeyValuePair<int, float> lo;
  lo.key = 127 - t;
  lo.value = x;
  KV least = BR(bt).Reduce(lo, cub::ArgMin{});
  KV w = WR(wt[t / 32]).Reduce(cub::KeyValuePair<int, float>(127 - t, x), cub::ArgMin());
  if (t == 0) { out[0] = best.key; vals[0] = best.value; out[1] = least.key; vals[1] = least.value; }
  if (t % 32 == 0) { out[2 + t / 32] = w.key; vals[2 + t / 32] = w.value; }
  if (t == 1) out[6] = best.key;
}";

#[test]
fn argmax_and_argmin_of_key_value_pairs_take_the_smaller_key_on_a_tie() {
    let want = vec![
        Some(44),
        Some(63),
        Some(127),
        Some(82),
        Some(63),
        Some(18),
        None,
    ];
    for (src, dialect, lanes) in [
        (ARGS.to_string(), Dialect::Cuda, 32),
        (hipify(ARGS), Dialect::Hip, 32),
    ] {
        let t = run(&src, dialect, lanes, 128, &[("out", 7), ("vals", 6)]);
        assert_eq!(ints(&t, "out"), want, "{dialect:?}");
        let vals: Vec<Option<f64>> = t
            .buffer("vals")
            .expect("vals")
            .iter()
            .map(|c| c.as_ref().and_then(KVal::as_f64))
            .collect();
        let want_vals = [63.0, 0.0, 0.0, 1.0, 0.0, 1.0].map(Some).to_vec();
        assert_eq!(vals, want_vals, "{dialect:?}");
    }
}

#[test]
fn argmax_of_plain_values_and_bad_loads_are_refused_at_their_line() {
    let cases = [
        (
            "#include <cub/cub.cuh>\n__global__ void k(float* o) {\n  typedef cub::BlockReduce<float, 64> BR;\n  __shared__ typename BR::TempStorage t;\n  o[0] = BR(t).Reduce(1.0f, cub::ArgMax());\n}",
            5,
            "cub::ArgMax reduces cub::KeyValuePair<K, V> values",
        ),
        (
            "#include <cub/cub.cuh>\n__global__ void k(float* o) {\n  typedef cub::BlockLoad<float, 48, 2, cub::BLOCK_LOAD_WARP_TRANSPOSE> L;\n}",
            3,
            "needs a block of whole 32-lane warps",
        ),
        (
            "#include <cub/cub.cuh>\n__global__ void k(float* o) {\n  typedef cub::BlockLoad<float, 64, 2, cub::BLOCK_LOAD_SIDEWAYS> L;\n}",
            3,
            "ALGORITHM must be written as one of BLOCK_LOAD_DIRECT",
        ),
        (
            "#include <cub/cub.cuh>\n__global__ void k(float* o) {\n  typedef cub::BlockLoad<float, 64, 2> L;\n  float x;\n  L().Load(o, x);\n}",
            5,
            "items must be the thread's array `float items[2]`",
        ),
    ];
    for (src, line, part) in cases {
        let e = run_kernel(src, LaunchConfig::default()).expect_err("refused");
        assert_eq!(e.line, line, "{}", e.message);
        assert!(e.message.contains(part), "{}", e.message);
    }
}

/// The raking algorithms' orders, from `models/cub_raking.py` (x = 2^24 at thread 0, 1 where
/// t % 6 == 1): the default 16777234, BLOCK_REDUCE_RAKING 16777236 (16777230 over the first
/// 100 threads), BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY 16777240; the exact sum is 2^24 + 22.
const RAKING: &str = "\
#include <cub/cub.cuh>
__global__ void k(float* out) {
  typedef cub::BlockReduce<float, 128> WR;
  typedef cub::BlockReduce<float, 128, cub::BLOCK_REDUCE_RAKING> RK;
  typedef cub::BlockReduce<float, 128, cub::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY> RC;
  typedef cub::BlockScan<float, 128, cub::BLOCK_SCAN_WARP_SCANS> WS;
  __shared__ typename WR::TempStorage tw;
  __shared__ typename RK::TempStorage tr;
  __shared__ typename RC::TempStorage tc;
  int t = threadIdx.x;
  float x = t == 0 ? 16777216.0f : (t % 6 == 1 ? 1.0f : 0.0f);
  float a = WR(tw).Sum(x);
  float b = RK(tr).Sum(x);
  __syncthreads();
  float c = RK(tr).Reduce(x, cub::Sum(), 100);
  float d = RC(tc).Sum(x);
  if (t == 0) { out[0] = a; out[1] = b; out[2] = c; out[3] = d; }
  if (t == 1) out[4] = d;
}";

#[test]
fn raking_block_reductions_follow_cubs_raking_orders() {
    let t = run(RAKING, Dialect::Cuda, 32, 128, &[("out", 5)]);
    let out: Vec<Option<f64>> = t
        .buffer("out")
        .expect("out")
        .iter()
        .map(|c| c.as_ref().and_then(KVal::as_f64))
        .collect();
    assert_eq!(
        out,
        vec![
            Some(16_777_234.0),
            Some(16_777_236.0),
            Some(16_777_230.0),
            Some(16_777_240.0),
            None
        ]
    );
    let notes: Vec<(u32, String)> = t
        .all_diagnostics()
        .map(|d| (d.line, d.message.clone()))
        .collect();
    // The warp-scans block scan is noted (line 6), and so is the commutative-only reduction
    // of 128 threads (3 cells per raking thread: CCCL 2.x may combine them as a tree).
    assert!(
        notes.iter().any(|(l, m)| *l == 6
            && m.contains("BLOCK_SCAN_WARP_SCANS is run in BLOCK_SCAN_RAKING's order")),
        "{notes:?}"
    );
    assert!(
        notes
            .iter()
            .any(|(l, m)| *l == 5 && m.contains("folds its own value and 3 grid cells")),
        "{notes:?}"
    );
    // hipCUB: accepted, run in the default order with a note saying so.
    let t = run(&hipify(RAKING), Dialect::Hip, 64, 128, &[("out", 5)]);
    assert!(t.all_diagnostics().any(|d| d.line == 4
        && d.message
            .contains("rocPRIM's raking orders are not modelled")));
}

/// A block radix sort of 64 threads × 2 keys with values (the input rank `j = 2t + i`), and a
/// descending sort of ints into a striped arrangement.
const SORTS: &str = "\
#include <cub/cub.cuh>
__global__ void k(float* okey, int* oval, int* oint) {
  typedef cub::BlockRadixSort<float, 64, 2, int> RS;
  typedef cub::BlockRadixSort<int, 64, 2> RI;
  __shared__ typename RS::TempStorage ts;
  __shared__ typename RI::TempStorage ti;
  int t = threadIdx.x;
  float key[2];
  int val[2], a[2];
  for (int i = 0; i < 2; ++i) {
    int j = 2 * t + i;
    key[i] = (float)((j * 7) % 5) - 2.0f;
    if (j == 3 || j == 40) key[i] = -0.0f;
    if (j == 10) key[i] = NAN;
    if (j == 11) key[i] = -INFINITY;
    val[i] = j;
    a[i] = (37 * j) % 50 - 25;
  }
  RS(ts).Sort(key, val);
  RI(ti).SortDescendingBlockedToStriped(a);
  for (int i = 0; i < 2; ++i) {
    okey[2 * t + i] = key[i];
    oval[2 * t + i] = val[i];
    oint[t + 64 * i] = a[i];
  }
}";

#[test]
fn block_radix_sort_is_stable_with_cubs_float_order() {
    // The input, as the kernel builds it.
    let key = |j: usize| -> f32 {
        match j {
            3 | 40 => -0.0,
            10 => f32::NAN,
            11 => f32::NEG_INFINITY,
            _ => ((j * 7) % 5) as f32 - 2.0,
        }
    };
    // CUB's documented order: floats by their twiddled bits (a NaN by its bits: a positive one
    // after +inf), -0.0 and +0.0 equivalent; a stable sort keeps equal keys in input order.
    let order = |x: f32| -> u32 {
        let b = if x == 0.0 { 0 } else { x.to_bits() };
        if b & 0x8000_0000 != 0 {
            !b
        } else {
            b | 0x8000_0000
        }
    };
    let mut ranks: Vec<usize> = (0..128).collect();
    ranks.sort_by_key(|&j| order(key(j))); // stable
    let ints_in: Vec<i128> = (0..128).map(|j| (37 * j) % 50 - 25).collect();
    let mut desc = ints_in.clone();
    desc.sort_by(|a, b| b.cmp(a));
    // By hand: -inf first (input 11), the NaN last (input 10); -0.0 at 3 and 40 sit among the
    // zeros in input order.
    assert_eq!((ranks[0], ranks[127]), (11, 10));
    for dialect in [Dialect::Cuda, Dialect::Hip] {
        let src = if dialect == Dialect::Cuda {
            SORTS.to_string()
        } else {
            hipify(SORTS)
        };
        let t = run(
            &src,
            dialect,
            32,
            64,
            &[("okey", 128), ("oval", 128), ("oint", 128)],
        );
        let want_vals: Vec<Option<i128>> = ranks.iter().map(|&j| Some(j as i128)).collect();
        assert_eq!(ints(&t, "oval"), want_vals, "{dialect:?}");
        let keys: Vec<Option<f64>> = t
            .buffer("okey")
            .expect("okey")
            .iter()
            .map(|c| c.as_ref().and_then(KVal::as_f64))
            .collect();
        for (k, &j) in ranks.iter().enumerate().take(127) {
            assert_eq!(keys[k], Some(f64::from(key(j))), "{dialect:?} okey[{k}]");
        }
        assert!(keys[127].is_some_and(f64::is_nan));
        let want_desc: Vec<Option<i128>> = desc.iter().map(|&v| Some(v)).collect();
        assert_eq!(ints(&t, "oint"), want_desc, "{dialect:?}");
    }
}

#[test]
fn a_const_restrict_row_pointer_with_an_offset_loads() {
    // The usual signature: `const float* __restrict__` and the block's row `x + row * 64`.
    // Buffers start as their index (x[j] = j); block 0's row is x[0..64]: blocked, thread t
    // holds x[2t], x[2t + 1], stored plus 100 at the same place (`out` starts as its index
    // too, so the + 100 shows the stores happened).
    let src = "\
#include <cub/cub.cuh>
__global__ void k(const float* __restrict__ x, float* out) {
  using L = cub::BlockLoad<float, 32, 2, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  __shared__ typename L::TempStorage tl;
  float v[2];
  L(tl).Load(x + blockIdx.x * 64, v);
  out[2 * threadIdx.x] = v[0] + 100.0f;
  out[2 * threadIdx.x + 1] = v[1] + 100.0f;
}";
    let t = run(src, Dialect::Cuda, 32, 32, &[("x", 64), ("out", 64)]);
    let got: Vec<Option<f64>> = t
        .buffer("out")
        .expect("out")
        .iter()
        .map(|c| c.as_ref().and_then(KVal::as_f64))
        .collect();
    let want: Vec<Option<f64>> = (0..64).map(|j| Some(f64::from(j) + 100.0)).collect();
    assert_eq!(got, want);
}
