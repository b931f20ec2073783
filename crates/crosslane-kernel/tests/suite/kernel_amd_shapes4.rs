//! Shapes of AMD's public HIP code found in a fourth round (rocPRIM's block scan, load/store,
//! exchange, warp sort and segmented reduction tests, hipCUB's segmented reduction test,
//! rocBLAS's wavefront reduction): kernels written here in those shapes, never copied.
//! Expected values come from rocPRIM's API reference (`block_scan`, `block_load`,
//! `block_exchange`, `warp_sort`, `warp_reduce::head_segmented_reduce`), the HIP
//! Programming Guide and the C++17 standard, computed by the Python models quoted beside each
//! test.

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

/// A block scan kernel template overloaded by a `Method` value through `enable_if` defaults
/// (one parameter list for all), each method a `rocprim::block_scan` form; launched from host
/// code, whose fill sizes a second vector with `a.size()`.
const SCAN: &str = "\
#include <hip/hip_runtime.h>
#include <rocprim/rocprim.hpp>
#include <vector>
#include <type_traits>
template <int M, unsigned int B, class T, typename std::enable_if<M == 0>::type* = nullptr>
__global__ void scan(T* d, T* agg, T init) {
  T v = d[threadIdx.x];
  T r;
  rocprim::block_scan<T, B> s;
  s.inclusive_scan(v, v, r);
  d[threadIdx.x] = v;
  if (threadIdx.x == 0) agg[0] = r;
}
template <int M, unsigned int B, class T, typename std::enable_if<M == 1>::type* = nullptr>
__global__ void scan(T* d, T* agg, T init) {
  T v = d[threadIdx.x];
  rocprim::block_scan<T, B, rocprim::block_scan_algorithm::reduce_then_scan> s;
  s.exclusive_scan(v, v, init, rocprim::maximum<T>());
  d[threadIdx.x] = v;
}
template <int M, unsigned int B, class T, typename std::enable_if<M == 2>::type* = nullptr>
__global__ void scan(T* d, T* agg, T init) {
  T running = init;
  auto cb = [&running](T total) { T p = running; running = running + total; return p; };
  T v = d[threadIdx.x];
  using S = rocprim::block_scan<T, B>;
  __shared__ typename S::storage_type st;
  S().exclusive_scan(v, v, st, cb, rocprim::plus<T>());
  d[threadIdx.x] = v;
  if (threadIdx.x == 0) agg[0] = running;
}
int main() {
  constexpr unsigned int n = 128;
  std::vector<int> a(n);
  for (size_t i = 0; i < a.size(); i++) a[i] = (int)((i * 13) % 10);
  std::vector<int> back(a.size());
  int *d, *agg;
  hipMalloc(&d, n * sizeof(int));
  hipMalloc(&agg, sizeof(int));
  hipMemcpy(d, a.data(), n * sizeof(int), hipMemcpyHostToDevice);
  hipMemset(agg, 0, sizeof(int));
  hipLaunchKernelGGL(HIP_KERNEL_NAME(scan<METHOD, n, int>), dim3(1), dim3(n), 0, 0, d, agg, 7);
  hipMemcpy(back.data(), d, n * sizeof(int), hipMemcpyDeviceToHost);
  return 0;
}";

fn scan_run(method: u32) -> (Vec<Option<i128>>, Option<i128>) {
    let src = SCAN.replace("METHOD", &method.to_string());
    let t = run_finished(&src, hip(64));
    no_errors(&t);
    (ints(&t, "d"), ints(&t, "agg")[0])
}

#[test]
fn rocprim_block_scan_methods_picked_by_enable_if_from_a_host_launch() {
    // Python: a = [(i*13) % 10 for i in range(128)]; inc = list(accumulate(a));
    // sum(a) == 574.
    let a: Vec<i128> = (0..128).map(|i| (i * 13) % 10).collect();
    let inc: Vec<i128> = a
        .iter()
        .scan(0, |s, x| {
            *s += x;
            Some(*s)
        })
        .collect();
    let (d, agg) = scan_run(0);
    assert_eq!(d, inc.iter().map(|&x| Some(x)).collect::<Vec<_>>());
    assert_eq!(agg, Some(574));
    // Exclusive max from 7: thread 0 gets 7, thread t max(7, a[0..t]) (9 from t = 4 on:
    // a[3] == 9).
    let (d, _) = scan_run(1);
    let mut want = vec![Some(7)];
    let mut m = 7;
    for x in &a[..127] {
        m = m.max(*x);
        want.push(Some(m));
    }
    assert_eq!(d, want);
    // Exclusive sum seeded by the callback's prefix 7; thread 0's copy ends at 7 + 574.
    let (d, agg) = scan_run(2);
    let mut want = vec![Some(7)];
    want.extend(inc[..127].iter().map(|&x| Some(7 + x)));
    assert_eq!(d, want);
    assert_eq!(agg, Some(581));
}

/// Items per thread: rocPRIM's array overloads with an operator and with `init` and the block
/// reduction.
const SCAN_ITEMS: &str = "\
#include <hip/hip_runtime.h>
#include <rocprim/rocprim.hpp>
template <unsigned int B, unsigned int N>
__global__ void items(int* d, int* red) {
  int x[N];
  for (unsigned int j = 0; j < N; j++) x[j] = d[threadIdx.x * N + j];
  rocprim::block_scan<int, B> s;
  EXPR;
  for (unsigned int j = 0; j < N; j++) d[threadIdx.x * N + j] = x[j];
}";

#[test]
fn rocprim_block_scan_over_items_per_thread() {
    // Python: d = [(7*i) % 11 for i in range(256)] (64 threads x 4 items, blocked);
    // inclusive max: list(accumulate(d, max)); exclusive sum from 3: [3] + [3 + s for s in
    // accumulate(d)][:-1]; the reduction (without the 3) sum(d) == 1275.
    let d: Vec<i128> = (0..256).map(|i| (7 * i) % 11).collect();
    let fill = d.iter().map(i128::to_string).collect::<Vec<_>>().join(",");
    let run = |expr: &str| {
        let src = SCAN_ITEMS.replace("EXPR", expr);
        let mut c = hip(64);
        c.entry = Some("items<64, 4>".into());
        c.block_dim = Some([64, 1, 1]);
        c.args.insert("d".into(), fill.clone());
        c.buffer_len.insert("d".into(), 256);
        c.args.insert("red".into(), "zero".into());
        c.buffer_len.insert("red".into(), 1);
        let t = run_finished(&src, c);
        no_errors(&t);
        (ints(&t, "d"), ints(&t, "red")[0])
    };
    let (out, _) = run("s.inclusive_scan(x, x, rocprim::maximum<int>())");
    let mut m = 0;
    let want: Vec<_> = d
        .iter()
        .map(|&x| {
            m = m.max(x);
            Some(m)
        })
        .collect();
    assert_eq!(out, want);
    let (out, red) = run(
        "int r; s.exclusive_scan(x, x, 3, r, rocprim::plus<int>()); if (threadIdx.x == 0) red[0] = r",
    );
    let mut sum = 3;
    let want: Vec<_> = d
        .iter()
        .map(|&x| {
            let v = sum;
            sum += x;
            Some(v)
        })
        .collect();
    assert_eq!(out, want);
    assert_eq!(red, Some(1275));
}

/// `block_load` / `block_store` with a method, the direct functions, and `block_exchange`.
const LOAD_STORE: &str = "\
#include <hip/hip_runtime.h>
#include <rocprim/rocprim.hpp>
template <rocprim::block_load_method L, rocprim::block_store_method S>
__global__ void copy(const int* in, int* out) {
  int v[4];
  rocprim::block_load<int, 32, 4, L>().load(in, v);
  rocprim::block_store<int, 32, 4, S>().store(out, v);
}
__global__ void exchange(const int* in, long* out) {
  int v[4];
  long w[4];
  rocprim::block_load_direct_blocked(threadIdx.x, in, v);
  rocprim::block_exchange<int, 32, 4> x;
  x.blocked_to_striped(v, w);
  rocprim::block_store_direct_blocked(threadIdx.x, out, w);
}";

#[test]
fn rocprim_block_load_store_and_exchange() {
    let run = |entry: &str| {
        let mut c = hip(32);
        c.entry = Some(entry.into());
        c.block_dim = Some([32, 1, 1]);
        c.args.insert("in".into(), "index".into());
        c.buffer_len.insert("in".into(), 128);
        c.args.insert("out".into(), "zero".into());
        c.buffer_len.insert("out".into(), 128);
        let t = run_finished(LOAD_STORE, c);
        no_errors(&t);
        ints(&t, "out")
    };
    // Matching arrangements copy the tile: out == in (rocPRIM API: a transposing load leaves
    // a blocked arrangement, which a transposing store takes).
    let id: Vec<_> = (0..128).map(Some).collect();
    for (l, s) in [
        ("block_load_transpose", "block_store_transpose"),
        ("block_load_striped", "block_store_striped"),
        ("block_load_direct", "block_store_vectorize"),
    ] {
        let e = format!("copy<rocprim::block_load_method::{l}, rocprim::block_store_method::{s}>");
        assert_eq!(run(&e), id, "{e}");
    }
    // A striped load stored blocked: thread t's item i is in[t + 32*i], stored at 4*t + i.
    // Python: [t + 32*i for t in range(32) for i in range(4)].
    let e = "copy<rocprim::block_load_method::block_load_striped, \
             rocprim::block_store_method::block_store_direct>";
    let want: Vec<_> = (0..32)
        .flat_map(|t| (0..4).map(move |i| Some(t + 32 * i)))
        .collect();
    assert_eq!(run(e), want);
    // blocked_to_striped then a blocked store: the same permutation.
    assert_eq!(run("exchange"), want);
}

/// rocPRIM's segmented warp reductions (16-lane logical warps on wave64), and hipCUB's test
/// shape with the operator in a local variable.
const SEGMENTED: &str = "\
#include <hip/hip_runtime.h>
#include <rocprim/rocprim.hpp>
#include <hipcub/hipcub.hpp>
__global__ void seg(const int* in, const unsigned char* flags, int* head, int* tail, int* cub) {
  using R = rocprim::warp_reduce<int, 16, true>;
  __shared__ R::storage_type st[4];
  int v = in[threadIdx.x];
  int h, t;
  R().head_segmented_reduce(v, h, flags[threadIdx.x], st[threadIdx.x / 16]);
  R().tail_segmented_reduce(v, t, flags[threadIdx.x], st[threadIdx.x / 16]);
  head[threadIdx.x] = h;
  tail[threadIdx.x] = t;
  using W = hipcub::WarpReduce<int, 16>;
  __shared__ typename W::TempStorage ts[4];
  auto op = hipcub::Sum();
  cub[threadIdx.x] = W(ts[threadIdx.x / 16]).HeadSegmentedReduce(v, flags[threadIdx.x], op);
}";

#[test]
fn segmented_warp_reductions_on_wave64() {
    // Python: v = [3*i+1 for i in range(64)]; f = [i % 5 == 0 for i in range(64)]; per
    // 16-lane warp w, heads = lane 0 and flagged lanes, each head's sum up to the next head
    // or the warp's end; tails end a segment at a flagged lane (or the warp's last), the
    // result at the segment's first lane. Other lanes: no promised value.
    let v: Vec<i128> = (0..64).map(|i| 3 * i + 1).collect();
    let f: Vec<bool> = (0..64).map(|i| i % 5 == 0).collect();
    let mut head = vec![None; 64];
    let mut tail = vec![None; 64];
    for w in 0..4 {
        let (lo, hi) = (16 * w, 16 * w + 16);
        let starts: Vec<usize> = (lo..hi).filter(|&l| l == lo || f[l]).collect();
        for (k, &s) in starts.iter().enumerate() {
            let e = starts.get(k + 1).copied().unwrap_or(hi);
            head[s] = Some(v[s..e].iter().sum::<i128>());
        }
        let mut s = lo;
        for l in lo..hi {
            if f[l] || l == hi - 1 {
                tail[s] = Some(v[s..=l].iter().sum::<i128>());
                s = l + 1;
            }
        }
    }
    let mut c = hip(64);
    c.block_dim = Some([64, 1, 1]);
    c.args.insert("in".into(), "i*3+1".into());
    let flags: Vec<&str> = f.iter().map(|&b| if b { "1" } else { "0" }).collect();
    c.args.insert("flags".into(), flags.join(","));
    let t = run_finished(SEGMENTED, c);
    no_errors(&t);
    assert_eq!(ints(&t, "head"), head);
    assert_eq!(ints(&t, "tail"), tail);
    assert_eq!(ints(&t, "cub"), head);
    assert_eq!(head[0..3], [Some(35), None, None]);
}

const SORT: &str = "\
#include <hip/hip_runtime.h>
#include <rocprim/rocprim.hpp>
__global__ void sort(int* k, int* v) {
  int key = k[threadIdx.x];
  rocprim::warp_sort<int, 8> s;
  s.sort(key);
  k[threadIdx.x] = key;
}
__global__ void sort_kv(int* k, int* v) {
  int key = k[threadIdx.x];
  int val = v[threadIdx.x];
  rocprim::warp_sort<int, 8, int> s;
  s.sort(key, val);
  k[threadIdx.x] = key;
}";

#[test]
fn rocprim_warp_sort_of_keys_and_the_key_value_refusal() {
    // Python: k = [(i*37+11) % 20 for i in range(32)];
    // [x for w in range(4) for x in sorted(k[8*w:8*w+8])].
    let k: Vec<i128> = (0..32).map(|i| (i * 37 + 11) % 20).collect();
    let mut want = Vec::new();
    for w in 0..4 {
        let mut part = k[8 * w..8 * w + 8].to_vec();
        part.sort_unstable();
        want.extend(part.into_iter().map(Some));
    }
    let mut c = hip(32);
    c.entry = Some("sort".into());
    c.block_dim = Some([32, 1, 1]);
    c.args.insert("k".into(), "i*37+11".into());
    c.args.insert("v".into(), "zero".into());
    // (i*37+11) % 20 through a fill of its own: the list.
    let list: Vec<String> = k.iter().map(i128::to_string).collect();
    c.args.insert("k".into(), list.join(","));
    let t = run_finished(SORT, c.clone());
    no_errors(&t);
    assert_eq!(ints(&t, "k"), want);
    c.entry = Some("sort_kv".into());
    let e = refused(SORT, c);
    assert!(
        e.contains("warp_sort of keys and values is not modelled"),
        "{e}"
    );
    // Placed at a line of the source's that calls `sort` (the first such call: the message
    // of a kernel run by --entry names no frame of the kernel's own), never at the columns of
    // crosslane's own declarations.
    let at: Vec<u32> = e
        .split(':')
        .take(2)
        .map(|n| n.trim().parse().unwrap_or(u32::MAX))
        .collect();
    assert!(at[0] <= 14 && at[1] < 100, "{e}");
}

#[test]
fn rocprim_raking_block_reduce_and_no_namespace_notes() {
    let src = "\
#include <hip/hip_runtime.h>
#include <rocprim/rocprim.hpp>
__global__ void k(const int* in, int* out) {
  int v = in[threadIdx.x];
  rocprim::block_reduce<int, 128, rocprim::block_reduce_algorithm::raking_reduce> r;
  r.reduce(v, v, rocprim::plus<int>());
  if (threadIdx.x == 0) out[0] = v;
}";
    // Python: sum((i*7) % 100 for i in range(128)) == 6296.
    let mut c = hip(64);
    c.block_dim = Some([128, 1, 1]);
    c.args.insert(
        "in".into(),
        (0..128)
            .map(|i| ((i * 7) % 100).to_string())
            .collect::<Vec<_>>()
            .join(","),
    );
    c.args.insert("out".into(), "zero".into());
    c.buffer_len.insert("out".into(), 1);
    let t = run_finished(src, c);
    no_errors(&t);
    assert_eq!(ints(&t, "out"), vec![Some(6296)]);
    assert!(!has(&t, Level::Info, "is read as file scope"));
}

/// rocBLAS's reduction shape: HIP's `warpSize` as a template argument and an array bound.
const WAVEFRONT: &str = "\
#include <hip/hip_runtime.h>
template <int N, typename T>
__device__ T wf_reduce(T val) {
  int offset = N / 2;
  for (int i = 1; i < N; i *= 2) {
    val += __shfl_down(val, offset);
    offset >>= 1;
  }
  return val;
}
template <int NB, typename T>
__device__ T blk_reduce(T val) {
  __shared__ T part[warpSize];
  int w = threadIdx.x / warpSize;
  int l = threadIdx.x % warpSize;
  val = wf_reduce<warpSize>(val);
  if (l == 0) part[w] = val;
  __syncthreads();
  constexpr int nw = NB / warpSize;
  val = (threadIdx.x < nw) ? part[l] : 0;
  if (w == 0) val = wf_reduce<nw>(val);
  return val;
}
__global__ void k(const int* in, int* out) {
  int s = blk_reduce<256>(in[threadIdx.x]);
  if (threadIdx.x == 0) out[0] = s;
}";

#[test]
fn hip_warp_size_is_a_constant_of_the_wave() {
    // Python: sum(3*i+1 for i in range(256)) == 98176, on wave64 and wave32 alike.
    for lanes in [64, 32] {
        let mut c = hip(lanes);
        c.block_dim = Some([256, 1, 1]);
        c.args.insert("in".into(), "i*3+1".into());
        c.args.insert("out".into(), "zero".into());
        c.buffer_len.insert("out".into(), 1);
        let t = run_finished(WAVEFRONT, c);
        no_errors(&t);
        assert_eq!(ints(&t, "out"), vec![Some(98176)], "wave {lanes}");
    }
}

/// `rocprim::block_reduce::reduce` over each thread's items (`T (&)[ItemsPerThread]`), with
/// and without a storage argument, the shape of rocPRIM's block-sum example: each thread
/// folds its items, the block reduces the partials, thread 0 holds the result.
const BLOCK_REDUCE_ITEMS: &str = "\
#include <hip/hip_runtime.h>
#include <rocprim/rocprim.hpp>
__global__ void k(const int* in, int* out) {
  using block_reduce = rocprim::block_reduce<int, 64>;
  __shared__ block_reduce::storage_type storage;
  int items[2];
  items[0] = in[threadIdx.x * 2];
  items[1] = in[threadIdx.x * 2 + 1];
  int sum;
  block_reduce{}.reduce(items, sum, rocprim::plus<int>());
  int top;
  block_reduce().reduce(items, top, storage, rocprim::maximum<int>());
  if (threadIdx.x == 0) { out[0] = sum; out[1] = top; }
}
int main() {
  int h[128];
  for (int i = 0; i < 128; i++) h[i] = (i * 7) % 11;
  int *d, *o;
  hipMalloc(&d, 128 * sizeof(int));
  hipMalloc(&o, 2 * sizeof(int));
  hipMemcpy(d, h, 128 * sizeof(int), hipMemcpyHostToDevice);
  k<<<1, 64>>>(d, o);
}
";

#[test]
fn rocprim_block_reduce_over_items_per_thread() {
    // Python: a = [(i*7) % 11 for i in range(128)]; sum(a) == 642, max(a) == 10.
    let a: Vec<i128> = (0..128).map(|i| (i * 7) % 11).collect();
    assert_eq!(a.iter().sum::<i128>(), 642);
    for lanes in [64, 32] {
        let t = run_finished(BLOCK_REDUCE_ITEMS, hip(lanes));
        assert_eq!(ints(&t, "out"), vec![Some(642), Some(10)], "{lanes} lanes");
    }
}
