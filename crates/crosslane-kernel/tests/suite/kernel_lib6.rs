//! Shapes of AMD's library code found in a sixth round (rocPRIM's block examples and tests:
//! whole programs whose host code holds its buffers in rocPRIM's `common::device_ptr`, and
//! the block-wide discontinuity, adjacent difference, histogram and radix sort classes):
//! kernels written here in those shapes, never copied. Expected values come from rocPRIM's API
//! reference (the classes' pages and `common/utils_device_ptr.hpp`'s comments) through the
//! small Rust models beside each test.

use crate::support::{ints, no_errors, run_finished};
use crosslane_core::Dialect;
use crosslane_kernel::LaunchConfig;

fn hip() -> LaunchConfig {
    LaunchConfig {
        dialect: Some(Dialect::Hip),
        ..LaunchConfig::default()
    }
}

/// A whole program whose buffers are `common::device_ptr`s: one built from a host vector,
/// one from a count, one filled later with `store`; the launch passes their `get()`.
const DEVICE_PTR: &str = "\
#include <hip/hip_runtime.h>
#include <vector>
#include \"../common/utils_device_ptr.hpp\"
__global__ void twice(const int* a, const int* b, int* out) {
  const int t = threadIdx.x;
  out[t] = 2 * a[t] + b[t];
}
int main() {
  std::vector<int> xs = {5, 1, 4, 2, 8, 7, 3, 6};
  std::vector<int> ys(8);
  for (int i = 0; i < 8; i++) ys[i] = 100 * i;
  const int n = static_cast<int>(xs.size());
  common::device_ptr<int> d_x(xs);
  common::device_ptr<int> d_y(n);
  d_y.store(ys);
  common::device_ptr<int> d_out(n);
  hipLaunchKernelGGL(twice, dim3(1), dim3(8), 0, 0, d_x.get(), d_y.get(), d_out.get());
  const auto h = d_out.load();
  return h[0] == 10 ? 0 : 1;
}";

#[test]
fn rocprim_device_ptr_buffers_are_the_host_vectors() {
    // device_ptr(vector) allocates xs.size() cells holding xs; device_ptr(n) n cells;
    // store(ys) copies ys in: out[t] = 2 * xs[t] + 100 * t.
    let t = run_finished(DEVICE_PTR, hip());
    no_errors(&t);
    let xs = [5, 1, 4, 2, 8, 7, 3, 6];
    assert_eq!(
        ints(&t, "a"),
        xs.iter().map(|v| Some(*v)).collect::<Vec<_>>()
    );
    let want: Vec<_> = (0..8).map(|i| Some(2 * xs[i] + 100 * i as i128)).collect();
    assert_eq!(ints(&t, "out"), want);
}

/// `block_discontinuity`'s flags over two items per thread, plain and against tile
/// neighbours, with rocPRIM's functors.
const DISCONTINUITY: &str = "\
#include <hip/hip_runtime.h>
#include <rocprim/rocprim.hpp>
template <unsigned int B>
__global__ void disc(const int* in, int* heads, int* tails, int* hp, int* ts, int* both) {
  using bd = rocprim::block_discontinuity<int, B>;
  __shared__ typename bd::storage_type st;
  const unsigned int t = threadIdx.x;
  int v[2] = {in[2 * t], in[2 * t + 1]};
  int h[2];
  int tl[2];
  bd().flag_heads(h, v, rocprim::not_equal_to<int>{}, st);
  heads[2 * t] = h[0]; heads[2 * t + 1] = h[1];
  bd().flag_tails(tl, v, rocprim::not_equal_to<int>());
  tails[2 * t] = tl[0]; tails[2 * t + 1] = tl[1];
  bd().flag_heads(h, 7, v, rocprim::less<int>(), st);
  hp[2 * t] = h[0]; hp[2 * t + 1] = h[1];
  bd().flag_tails(tl, 7, v, rocprim::greater<int>(), st);
  ts[2 * t] = tl[0]; ts[2 * t + 1] = tl[1];
  bool hb[2];
  bool tb[2];
  bd().flag_heads_and_tails(hb, tb, v, rocprim::equal_to<int>(), st);
  both[2 * t] = hb[0] + 2 * tb[0]; both[2 * t + 1] = hb[1] + 2 * tb[1];
}";

#[test]
fn rocprim_block_discontinuity_flags_heads_and_tails() {
    // Model: 64 threads × 2 items, x[i] = (i * 7) % 5. Head i: op(x[i-1], x[i]), item 0 true
    // (or op(7, x[0]) with the predecessor 7); tail i: op(x[i], x[i+1]), the last true (or
    // op(x[last], 7)).
    let mut c = hip();
    c.entry = Some("disc<64>".into());
    c.block_dim = Some([64, 1, 1]);
    let x: Vec<i128> = (0..128).map(|i| (i * 7) % 5).collect();
    let fill: Vec<String> = x.iter().map(|v| v.to_string()).collect();
    c.args.insert("in".into(), fill.join(","));
    c.buffer_len.insert("in".into(), 128);
    for n in ["heads", "tails", "hp", "ts", "both"] {
        c.args.insert(n.into(), "zero".into());
        c.buffer_len.insert(n.into(), 128);
    }
    let t = run_finished(DISCONTINUITY, c);
    no_errors(&t);
    let n = x.len();
    let b = |v: bool| Some(i128::from(v));
    let heads: Vec<_> = (0..n).map(|i| b(i == 0 || x[i - 1] != x[i])).collect();
    let tails: Vec<_> = (0..n).map(|i| b(i == n - 1 || x[i] != x[i + 1])).collect();
    let hp: Vec<_> = (0..n)
        .map(|i| b(if i == 0 { 7 < x[0] } else { x[i - 1] < x[i] }))
        .collect();
    let ts: Vec<_> = (0..n)
        .map(|i| {
            b(if i == n - 1 {
                x[i] > 7
            } else {
                x[i] > x[i + 1]
            })
        })
        .collect();
    let both: Vec<_> = (0..n)
        .map(|i| {
            let h = i == 0 || x[i - 1] == x[i];
            let tl = i == n - 1 || x[i] == x[i + 1];
            Some(i128::from(h) + 2 * i128::from(tl))
        })
        .collect();
    assert_eq!(ints(&t, "heads"), heads);
    assert_eq!(ints(&t, "tails"), tails);
    assert_eq!(ints(&t, "hp"), hp);
    assert_eq!(ints(&t, "ts"), ts);
    assert_eq!(ints(&t, "both"), both);
}

/// `block_adjacent_difference`'s subtractions, whole and partial, with and without tile
/// neighbours.
const ADJ_DIFF: &str = "\
#include <hip/hip_runtime.h>
#include <rocprim/rocprim.hpp>
__global__ void adj(const int* in, int* l, int* lp, int* r, int* rs, int* lpart, int* rpart, int valid) {
  using ad = rocprim::block_adjacent_difference<int, 32>;
  __shared__ ad::storage_type st;
  const unsigned int t = threadIdx.x;
  int v[3] = {in[3 * t], in[3 * t + 1], in[3 * t + 2]};
  int o[3];
  ad().subtract_left(v, o, rocprim::minus<int>{}, st);
  for (int i = 0; i < 3; i++) l[3 * t + i] = o[i];
  ad().subtract_left(v, o, rocprim::minus<int>{}, 1000, st);
  for (int i = 0; i < 3; i++) lp[3 * t + i] = o[i];
  ad().subtract_right(v, o, rocprim::minus<int>{}, st);
  for (int i = 0; i < 3; i++) r[3 * t + i] = o[i];
  ad().subtract_right(v, o, rocprim::minus<int>{}, -1000, st);
  for (int i = 0; i < 3; i++) rs[3 * t + i] = o[i];
  ad().subtract_left_partial(v, o, rocprim::minus<int>{}, (unsigned int)valid, st);
  for (int i = 0; i < 3; i++) lpart[3 * t + i] = o[i];
  ad().subtract_right_partial(v, o, rocprim::minus<int>{}, (unsigned int)valid, st);
  for (int i = 0; i < 3; i++) rpart[3 * t + i] = o[i];
}";

#[test]
fn rocprim_block_adjacent_difference_subtracts_neighbours() {
    // Model: 32 threads × 3 items, x[i] = i*i. left: x[i] - x[i-1], item 0 copied (or
    // x[0] - 1000); right: x[i] - x[i+1], the last copied (or x[last] + 1000); partial with
    // valid = 50: items whose neighbour (or own index) is at or past 50 are copied.
    let mut c = hip();
    c.block_dim = Some([32, 1, 1]);
    c.args.insert("in".into(), "0,1,4,9,16,25,36,49,64,81,100,121,144,169,196,225,256,289,324,361,400,441,484,529,576,625,676,729,784,841,900,961,1024,1089,1156,1225,1296,1369,1444,1521,1600,1681,1764,1849,1936,2025,2116,2209,2304,2401,2500,2601,2704,2809,2916,3025,3136,3249,3364,3481,3600,3721,3844,3969,4096,4225,4356,4489,4624,4761,4900,5041,5184,5329,5476,5625,5776,5929,6084,6241,6400,6561,6724,6889,7056,7225,7396,7569,7744,7921,8100,8281,8464,8649,8836,9025".into());
    c.buffer_len.insert("in".into(), 96);
    for n in ["l", "lp", "r", "rs", "lpart", "rpart"] {
        c.args.insert(n.into(), "zero".into());
        c.buffer_len.insert(n.into(), 96);
    }
    c.args.insert("valid".into(), "50".into());
    let t = run_finished(ADJ_DIFF, c);
    no_errors(&t);
    let x: Vec<i128> = (0..96).map(|i| i * i).collect();
    let n = x.len();
    let valid = 50;
    let l: Vec<_> = (0..n)
        .map(|i| Some(if i == 0 { x[0] } else { x[i] - x[i - 1] }))
        .collect();
    let lp: Vec<_> = (0..n)
        .map(|i| Some(if i == 0 { x[0] - 1000 } else { x[i] - x[i - 1] }))
        .collect();
    let r: Vec<_> = (0..n)
        .map(|i| Some(if i == n - 1 { x[i] } else { x[i] - x[i + 1] }))
        .collect();
    let rs: Vec<_> = (0..n)
        .map(|i| {
            Some(if i == n - 1 {
                x[i] + 1000
            } else {
                x[i] - x[i + 1]
            })
        })
        .collect();
    let lpart: Vec<_> = (0..n)
        .map(|i| {
            Some(if i == 0 || i >= valid {
                x[i]
            } else {
                x[i] - x[i - 1]
            })
        })
        .collect();
    let rpart: Vec<_> = (0..n)
        .map(|i| {
            Some(if i + 1 >= valid {
                x[i]
            } else {
                x[i] - x[i + 1]
            })
        })
        .collect();
    assert_eq!(ints(&t, "l"), l);
    assert_eq!(ints(&t, "lp"), lp);
    assert_eq!(ints(&t, "r"), r);
    assert_eq!(ints(&t, "rs"), rs);
    assert_eq!(ints(&t, "lpart"), lpart);
    assert_eq!(ints(&t, "rpart"), rpart);
}

/// `block_histogram` into a shared bin array, read back after a barrier.
const HISTOGRAM: &str = "\
#include <hip/hip_runtime.h>
#include <rocprim/rocprim.hpp>
__global__ void hist(const int* in, unsigned int* out) {
  constexpr unsigned int Bins = 10;
  using bh = rocprim::block_histogram<int, 64, 3, Bins>;
  __shared__ bh::storage_type st;
  __shared__ unsigned int bins[Bins];
  const unsigned int t = threadIdx.x;
  int v[3] = {in[3 * t], in[3 * t + 1], in[3 * t + 2]};
  bh().histogram(v, bins, st);
  __syncthreads();
  if (t < Bins) out[t] = bins[t];
}";

#[test]
fn rocprim_block_histogram_counts_the_block_items() {
    // Model: 64 threads × 3 items, x[i] = (i * i + 3) % 10, counted per value.
    let mut c = hip();
    c.block_dim = Some([64, 1, 1]);
    let x: Vec<i128> = (0..192).map(|i| (i * i + 3) % 10).collect();
    let fill: Vec<String> = x.iter().map(|v| v.to_string()).collect();
    c.args.insert("in".into(), fill.join(","));
    c.buffer_len.insert("in".into(), 192);
    c.args.insert("out".into(), "zero".into());
    c.buffer_len.insert("out".into(), 10);
    let t = run_finished(HISTOGRAM, c);
    no_errors(&t);
    let want: Vec<_> = (0..10)
        .map(|b| Some(x.iter().filter(|v| **v == b).count() as i128))
        .collect();
    assert_eq!(ints(&t, "out"), want);
}

/// `block_radix_sort` of keys and of key–value pairs, ascending, descending and to striped.
const RADIX: &str = "\
#include <hip/hip_runtime.h>
#include <rocprim/rocprim.hpp>
__global__ void rs(const int* in, int* up, int* down, int* stripe, int* kv_k, int* kv_v) {
  using sort_t = rocprim::block_radix_sort<int, 16, 2>;
  using pairs_t = rocprim::block_radix_sort<int, 16, 2, int>;
  __shared__ sort_t::storage_type st;
  __shared__ pairs_t::storage_type pst;
  const unsigned int t = threadIdx.x;
  int k[2] = {in[2 * t], in[2 * t + 1]};
  sort_t().sort(k, st);
  up[2 * t] = k[0]; up[2 * t + 1] = k[1];
  __syncthreads();
  k[0] = in[2 * t]; k[1] = in[2 * t + 1];
  sort_t().sort_desc(k);
  down[2 * t] = k[0]; down[2 * t + 1] = k[1];
  __syncthreads();
  k[0] = in[2 * t]; k[1] = in[2 * t + 1];
  sort_t().sort_to_striped(k, st);
  stripe[t] = k[0]; stripe[t + 16] = k[1];
  __syncthreads();
  k[0] = in[2 * t]; k[1] = in[2 * t + 1];
  int v[2] = {(int)(2 * t), (int)(2 * t + 1)};
  pairs_t().sort(k, v, pst);
  kv_k[2 * t] = k[0]; kv_k[2 * t + 1] = k[1];
  kv_v[2 * t] = v[0]; kv_v[2 * t + 1] = v[1];
}";

#[test]
fn rocprim_block_radix_sort_keys_and_pairs() {
    // Model: 16 threads × 2 keys, x[i] = (i * 11) % 7 - 3 (ties, negatives). Ascending and
    // descending sorted sequences; to_striped stores item t + 16 i = sorted[t + 16 i], so
    // the buffer written at [t] and [t + 16] is the sorted sequence; pairs: values (the
    // input ranks) follow their keys stably.
    let mut c = hip();
    c.block_dim = Some([16, 1, 1]);
    let x: Vec<i128> = (0..32).map(|i| (i * 11) % 7 - 3).collect();
    let fill: Vec<String> = x.iter().map(|v| v.to_string()).collect();
    c.args.insert("in".into(), fill.join(","));
    c.buffer_len.insert("in".into(), 32);
    for n in ["up", "down", "stripe", "kv_k", "kv_v"] {
        c.args.insert(n.into(), "zero".into());
        c.buffer_len.insert(n.into(), 32);
    }
    let t = run_finished(RADIX, c);
    no_errors(&t);
    let mut up = x.clone();
    up.sort();
    let mut down = x.clone();
    down.sort_by(|a, b| b.cmp(a));
    let mut ranks: Vec<usize> = (0..32).collect();
    ranks.sort_by_key(|i| x[*i]);
    let some = |v: &[i128]| v.iter().map(|x| Some(*x)).collect::<Vec<_>>();
    assert_eq!(ints(&t, "up"), some(&up));
    assert_eq!(ints(&t, "down"), some(&down));
    assert_eq!(ints(&t, "stripe"), some(&up));
    assert_eq!(ints(&t, "kv_k"), some(&up));
    let kv_v: Vec<i128> = ranks.iter().map(|r| *r as i128).collect();
    assert_eq!(ints(&t, "kv_v"), some(&kv_v));
}

/// A member function template forwarding its array-reference parameters to another member
/// template, as rocPRIM's block classes forward `T (&input)[ItemsPerThread]` to their
/// implementation: `N` is deduced from the parameter's bound ([temp.deduct.call]/1), as in a
/// free function; and a reference to an array of structs, `P (&items)[2]` ([dcl.ref]), which
/// was "expected a name, found `(`".
const MEMBER_FORWARD: &str = "\
#include <hip/hip_runtime.h>
struct P { int x; };
template <class T, unsigned int B>
struct Agg {
  template <unsigned int N, class F> __device__ int sum(F (&a)[N], const T (&b)[N]) {
    int s = 0;
    for (unsigned int i = 0; i < N; i++) s += a[i] * b[i];
    return s + (int)(100 * N);
  }
  template <unsigned int N, class F> __device__ int twice(F (&a)[N], const T (&b)[N]) { return 2 * sum(a, b); }
  __device__ int xs(P (&p)[2]) { return p[0].x + p[1].x; }
};
__global__ void fwd(int* out) {
  int v[3] = {1, 2, 3};
  int w[3] = {4, 5, 6};
  P p[2];
  p[0].x = 7;
  p[1].x = 9;
  out[0] = Agg<int, 64>().twice(v, w);
  out[1] = Agg<int, 64>().xs(p);
}";

#[test]
fn member_templates_deduce_array_bounds_from_reference_parameters() {
    // twice: 2 * (1*4 + 2*5 + 3*6 + 100*3) = 2 * 332 = 664; xs: 7 + 9 = 16.
    let mut c = hip();
    c.block_dim = Some([1, 1, 1]);
    c.args.insert("out".into(), "zero".into());
    c.buffer_len.insert("out".into(), 2);
    let t = run_finished(MEMBER_FORWARD, c);
    no_errors(&t);
    assert_eq!(ints(&t, "out"), vec![Some(664), Some(16)]);
}

/// `block_sort` of keys, by the default `less` and by a comparison functor of the kernel's own.
const BLOCK_SORT: &str = "\
#include <hip/hip_runtime.h>
#include <rocprim/rocprim.hpp>
struct by_low_digit {
  __device__ bool operator()(const int& a, const int& b) const { return (a % 10) < (b % 10); }
};
__global__ void bsort(const int* in, int* up, int* digit) {
  using sort_t = rocprim::block_sort<int, 8, 3>;
  __shared__ sort_t::storage_type st;
  const unsigned int t = threadIdx.x;
  int k[3] = {in[3 * t], in[3 * t + 1], in[3 * t + 2]};
  sort_t().sort(k, st);
  for (int i = 0; i < 3; i++) up[3 * t + i] = k[i];
  __syncthreads();
  for (int i = 0; i < 3; i++) k[i] = in[3 * t + i];
  sort_t().sort(k, st, by_low_digit());
  for (int i = 0; i < 3; i++) digit[3 * t + i] = k[i];
}";

#[test]
fn rocprim_block_sort_by_less_and_by_a_functor() {
    // Model: 8 threads × 3 keys, x[i] = (i * 37) % 101. Ascending; then stably by the low
    // decimal digit (equal digits keep their input order).
    let mut c = hip();
    c.block_dim = Some([8, 1, 1]);
    let x: Vec<i128> = (0..24).map(|i| (i * 37) % 101).collect();
    let fill: Vec<String> = x.iter().map(|v| v.to_string()).collect();
    c.args.insert("in".into(), fill.join(","));
    c.buffer_len.insert("in".into(), 24);
    for n in ["up", "digit"] {
        c.args.insert(n.into(), "zero".into());
        c.buffer_len.insert(n.into(), 24);
    }
    let t = run_finished(BLOCK_SORT, c);
    no_errors(&t);
    let mut up = x.clone();
    up.sort();
    let mut digit = x.clone();
    digit.sort_by_key(|v| v % 10);
    let some = |v: &[i128]| v.iter().map(|x| Some(*x)).collect::<Vec<_>>();
    assert_eq!(ints(&t, "up"), some(&up));
    assert_eq!(ints(&t, "digit"), some(&digit));
}

/// `block_run_length_decode` built from each thread's runs, decoding one window; the run
/// values written with functional casts inside parentheses, `(int(t) + 1)`, which were read
/// as a C-style cast ("expected `)`, found `(`").
const RLD: &str = "\
#include <hip/hip_runtime.h>
#include <rocprim/rocprim.hpp>
__global__ void rld(int* out, unsigned int* rel, unsigned int* total) {
  using dec_t = rocprim::block_run_length_decode<int, 4, 2, 3>;
  __shared__ dec_t::storage_type st;
  const unsigned int t = threadIdx.x;
  int vals[2];
  unsigned int lens[2];
  vals[0] = 10 * (int(t) + 1);
  vals[1] = 10 * (int(t) + 1) + 5;
  lens[0] = t % 2;
  lens[1] = (unsigned int)(t + 1);
  unsigned int n = 0;
  dec_t d(st, vals, lens, n);
  int items[3];
  unsigned int offs[3];
  d.run_length_decode(items, offs, 2);
  for (int i = 0; i < 3; i++) {
    out[3 * t + i] = items[i];
    rel[3 * t + i] = offs[i];
  }
  if (t == 0) total[0] = n;
}";

#[test]
fn rocprim_block_run_length_decode_window() {
    // Model: runs in blocked order (thread t: (10(t+1), t % 2), (10(t+1) + 5, t + 1)); the
    // decoded stream is each value repeated its length; thread t's items are positions
    // 2 + 3t + i of it, with their offsets in their runs; the total is 12.
    let mut c = hip();
    c.block_dim = Some([4, 1, 1]);
    for (n, len) in [("out", 12), ("rel", 12), ("total", 1)] {
        c.args.insert(n.into(), "zero".into());
        c.buffer_len.insert(n.into(), len);
    }
    let t = run_finished(RLD, c);
    no_errors(&t);
    let mut stream: Vec<(i128, i128)> = Vec::new();
    for th in 0..4i128 {
        for (v, l) in [(10 * (th + 1), th % 2), (10 * (th + 1) + 5, th + 1)] {
            for k in 0..l {
                stream.push((v, k));
            }
        }
    }
    assert_eq!(stream.len(), 12);
    let out: Vec<_> = (0..12)
        .map(|p| Some(stream.get(p + 2).map_or(0, |s| s.0)))
        .collect();
    let rel: Vec<_> = (0..12)
        .map(|p| Some(stream.get(p + 2).map_or(0, |s| s.1)))
        .collect();
    assert_eq!(ints(&t, "total"), vec![Some(12)]);
    // The last two positions (12, 13) are past the total: their items are not written, so
    // those cells keep what the uninitialized locals held — undefined — and are not compared.
    assert_eq!(ints(&t, "out")[..10], out[..10]);
    assert_eq!(ints(&t, "rel")[..10], rel[..10]);
    assert_eq!(ints(&t, "out")[10..], [None, None]);
}
