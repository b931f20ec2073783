//! Shapes of AMD's public HIP code found in a fifth round (rocPRIM's intrinsics, warp load,
//! warp exchange tests; hipCUB's util_ptx, warp scan, warp exchange and warp merge sort
//! tests): kernels written here in those shapes, never copied. Expected values come from
//! rocPRIM's and hipCUB's API references (`warp_shuffle_down`, `warp_load`, `warp_exchange`,
//! `WarpScan`, `WarpExchange`), the C++17 standard, and the Python models quoted beside each
//! test.

use crate::support::{ints, no_errors, refused, run_finished};
use crosslane_core::Dialect;
use crosslane_kernel::LaunchConfig;

fn hip(lanes: usize) -> LaunchConfig {
    LaunchConfig {
        dialect: Some(Dialect::Hip),
        lanes: Some(lanes),
        ..LaunchConfig::default()
    }
}

/// Device helpers overloaded by a trailing return type (`auto f(…) -> std::enable_if_t<C>`),
/// `C` a variable template over the library's wave-size macro, as the libraries' tests guard
/// a logical warp wider than the device's; a `typename enable_if<…>::type` trailing form too.
const TRAILING: &str = "\
#include <hip/hip_runtime.h>
#include <hipcub/hipcub.hpp>
#include <type_traits>
template <unsigned int W>
constexpr bool fits_v = HIPCUB_DEVICE_WARP_THREADS >= W;
template <unsigned int W, class T>
__device__ auto put(T* out) -> std::enable_if_t<fits_v<W>> { out[threadIdx.x] = T(W); }
template <unsigned int W, class T>
__device__ auto put(T* out) -> std::enable_if_t<!fits_v<W>> { out[threadIdx.x] = T(-1); }
template <unsigned int W>
__device__ auto twice() -> typename std::enable_if<(W > 8), int>::type { return 2 * W; }
template <unsigned int W>
__device__ auto twice() -> typename std::enable_if<(W <= 8), int>::type { return 0; }
template <unsigned int W>
__global__ void k(int* a, int* b) {
  put<W>(a);
  put<W * 4>(b);
  a[threadIdx.x] += twice<W>();
}
int main() {
  int *a, *b;
  hipMalloc(&a, 64 * sizeof(int));
  hipMalloc(&b, 64 * sizeof(int));
  k<32><<<1, 64>>>(a, b);
  return 0;
}";

#[test]
fn trailing_return_enable_if_chooses_the_overload() {
    // W = 32 on a 64-lane wave: put<32> writes 32 (32 <= 64), put<128> writes -1
    // (128 > 64); twice<32> = 64, so a holds 96.
    let t = run_finished(TRAILING, hip(64));
    no_errors(&t);
    assert!(ints(&t, "a").iter().all(|v| *v == Some(96)));
    assert!(ints(&t, "b").iter().all(|v| *v == Some(-1)));
}

/// A warp scan whose `TempStorage` array is sized by a `constexpr` function template of the
/// source, the block chosen in host code by hipCUB's host wave-size macros, and the type named
/// through a block-scope alias.
const SCAN: &str = "\
#include <hip/hip_runtime.h>
#include <hipcub/hipcub.hpp>
#include <vector>
namespace util {
template <class T>
HIPCUB_HOST_DEVICE constexpr T larger(const T& a, const T& b) { return a < b ? b : a; }
}
template <class T, unsigned int B, unsigned int W>
__global__ __launch_bounds__(B) void scan(T* d, T* tot) {
  constexpr unsigned int warps = util::larger(B / W, 1u);
  using S = ::hipcub::WarpScan<T, W>;
  __shared__ typename S::TempStorage st[warps];
  T v = d[threadIdx.x];
  T all;
  S(st[threadIdx.x / W]).InclusiveSum(v, v, all);
  d[threadIdx.x] = v;
  if (threadIdx.x % W == 0) tot[threadIdx.x / W] = all;
}
int main() {
  using T = int;
  constexpr unsigned int w = 16;
  constexpr size_t b32 = util::larger<size_t>(size_t(HIPCUB_WARP_SIZE_32), w * 2);
  constexpr size_t b64 = util::larger<size_t>(size_t(HIPCUB_WARP_SIZE_64), w * 2);
  const unsigned int wave = HIPCUB_HOST_WARP_THREADS;
  const size_t n = wave == HIPCUB_WARP_SIZE_32 ? b32 : b64;
  std::vector<T> h(n);
  for (size_t i = 0; i < n; i++) h[i] = (T)((i * 5) % 7);
  T *d, *tot;
  hipMalloc(&d, n * sizeof(T));
  hipMalloc(&tot, (n / w) * sizeof(T));
  hipMemcpy(d, h.data(), n * sizeof(T), hipMemcpyHostToDevice);
  if (wave == HIPCUB_WARP_SIZE_64) {
    hipLaunchKernelGGL(HIP_KERNEL_NAME(scan<T, b64, w>), dim3(1), dim3(b64), 0, 0, d, tot);
  } else {
    hipLaunchKernelGGL(HIP_KERNEL_NAME(scan<T, b32, w>), dim3(1), dim3(b32), 0, 0, d, tot);
  }
  return 0;
}";

#[test]
fn hipcub_host_macros_and_a_constexpr_template_size_a_warp_scan() {
    // Python: x = [(i*5) % 7 for i in range(n)]; per 16-lane group g the running sums
    // list(accumulate(x[16g:16g+16])), totals sum(x[16g:16g+16]). On 64 lanes n = 64, on 32
    // lanes n = 32: the host macros give the run's wave.
    for (lanes, n) in [(64usize, 64usize), (32, 32)] {
        let t = run_finished(SCAN, hip(lanes));
        no_errors(&t);
        let x: Vec<i128> = (0..n as i128).map(|i| (i * 5) % 7).collect();
        let mut want = Vec::new();
        let mut totals = Vec::new();
        for g in x.chunks(16) {
            let mut s = 0;
            for v in g {
                s += v;
                want.push(Some(s));
            }
            totals.push(Some(s));
        }
        assert_eq!(ints(&t, "d"), want, "{lanes} lanes");
        assert_eq!(ints(&t, "tot")[..totals.len()], totals[..], "{lanes} lanes");
    }
}

/// `rocprim::warp_shuffle_down` of a struct (rocPRIM's shuffles take any type), a launch
/// whose template argument is a type alias of `main`, and the wave width from
/// `rocprim::warp_size()` in host code.
const STRUCT_SHUFFLE: &str = "\
#include <hip/hip_runtime.h>
#include <rocprim/rocprim.hpp>
struct rec { short a; double b; unsigned int c; };
template <class T>
__global__ void k(short* oa, double* ob, unsigned int* oc, unsigned int delta) {
  T p;
  p.a = (short)(threadIdx.x * 3);
  p.b = threadIdx.x * 0.5;
  p.c = threadIdx.x + 100;
  T q = rocprim::warp_shuffle_down(p, delta, 16);
  oa[threadIdx.x] = q.a;
  ob[threadIdx.x] = q.b;
  oc[threadIdx.x] = q.c;
}
int main() {
  using R = rec;
  const unsigned int n = ::rocprim::warp_size();
  short* oa; double* ob; unsigned int* oc;
  hipMalloc(&oa, n * sizeof(short));
  hipMalloc(&ob, n * sizeof(double));
  hipMalloc(&oc, n * sizeof(unsigned int));
  hipLaunchKernelGGL(HIP_KERNEL_NAME(k<R>), dim3(1), dim3(n), 0, 0, oa, ob, oc, 3u);
  return 0;
}";

#[test]
fn rocprim_struct_shuffle_moves_the_source_lanes_whole_value() {
    // Python: src = [i+3 if i%16 + 3 < 16 else i for i in range(64)]; a = 3*src,
    // b = 0.5*src, c = src + 100.
    let t = run_finished(STRUCT_SHUFFLE, hip(64));
    no_errors(&t);
    let src: Vec<i128> = (0..64)
        .map(|i| if i % 16 + 3 < 16 { i + 3 } else { i })
        .collect();
    assert_eq!(
        ints(&t, "oa"),
        src.iter().map(|s| Some(3 * s)).collect::<Vec<_>>()
    );
    assert_eq!(
        ints(&t, "oc"),
        src.iter().map(|s| Some(s + 100)).collect::<Vec<_>>()
    );
    let b = crate::support::floats(&t, "ob");
    for (i, s) in src.iter().enumerate() {
        assert_eq!(b[i], Some(*s as f64 * 0.5));
    }
}

/// rocPRIM's warp load (striped), warp exchange (striped to blocked) and warp store (direct),
/// with the storage arrays the libraries' tests declare per warp.
const WARP_IO: &str = "\
#include <hip/hip_runtime.h>
#include <rocprim/rocprim.hpp>
template <unsigned int B, unsigned int N, unsigned int W>
__global__ void io(const int* in, int* mid, int* out) {
  using load_t = ::rocprim::warp_load<int, N, W, ::rocprim::warp_load_method::warp_load_striped>;
  using xchg_t = rocprim::warp_exchange<int, N, W>;
  using store_t = rocprim::warp_store<int, N, W, rocprim::warp_store_method::warp_store_direct>;
  ROCPRIM_SHARED_MEMORY typename load_t::storage_type ls[B / W];
  ROCPRIM_SHARED_MEMORY typename xchg_t::storage_type xs[B / W];
  ROCPRIM_SHARED_MEMORY typename store_t::storage_type ss[B / W];
  const unsigned int w = threadIdx.x / W;
  int v[N];
  load_t().load(in + w * W * N, v, ls[w]);
  for (unsigned int i = 0; i < N; i++) mid[threadIdx.x * N + i] = v[i];
  xchg_t().striped_to_blocked(v, v, xs[w]);
  store_t().store(out + w * W * N, v, ss[w]);
}";

#[test]
fn rocprim_warp_load_exchange_and_store() {
    // Python (W = 8 lanes, N = 3 items, 32 threads): striped load gives lane l of warp w
    // items in[w*24 + l + 8*i]; mid[t*3 + i] is that; striped-to-blocked then a direct store
    // puts the warp's tile back in order: out == in.
    let mut c = hip(64);
    c.entry = Some("io<32, 3, 8>".into());
    c.block_dim = Some([32, 1, 1]);
    for (n, f) in [("in", "index"), ("mid", "zero"), ("out", "zero")] {
        c.args.insert(n.into(), f.into());
        c.buffer_len.insert(n.into(), 96);
    }
    let t = run_finished(WARP_IO, c);
    no_errors(&t);
    let mut mid = Vec::new();
    for th in 0..32i128 {
        let (w, l) = (th / 8, th % 8);
        for i in 0..3 {
            mid.push(Some(w * 24 + l + 8 * i));
        }
    }
    assert_eq!(ints(&t, "mid"), mid);
    assert_eq!(
        ints(&t, "out"),
        (0..96).map(Some).collect::<Vec<Option<i128>>>()
    );
}

/// hipCUB's `WarpExchange` with its ALGORITHM given through a template parameter of the
/// kernel (`hipcub::WarpExchangeAlgorithm`), named from the global namespace.
const EXCHANGE_ALG: &str = "\
#include <hip/hip_runtime.h>
#include <hipcub/hipcub.hpp>
template <unsigned int N, unsigned int W, ::hipcub::WarpExchangeAlgorithm A>
__global__ void x(int* d) {
  using E = ::hipcub::WarpExchange<int, N, W, A>;
  __shared__ typename E::TempStorage st[64 / W];
  int v[N];
  for (unsigned int i = 0; i < N; i++) v[i] = d[threadIdx.x * N + i];
  E(st[threadIdx.x / W]).BlockedToStriped(v, v);
  for (unsigned int i = 0; i < N; i++) d[threadIdx.x * N + i] = v[i];
}";

#[test]
fn hipcub_warp_exchange_algorithm_parameter() {
    // Python (W = 8, N = 2): after blocked-to-striped lane l of warp w holds the tile's
    // ranks l + 8*i, stored at t*2 + i: d[t*2+i] = w*16 + l + 8*i.
    let want: Vec<Option<i128>> = (0..64i128)
        .flat_map(|t| (0..2).map(move |i| Some((t / 8) * 16 + t % 8 + 8 * i)))
        .collect();
    for alg in [
        "hipcub::WARP_EXCHANGE_SMEM",
        "hipcub::WARP_EXCHANGE_SHUFFLE",
    ] {
        let mut c = hip(64);
        c.entry = Some(format!("x<2, 8, {alg}>"));
        c.block_dim = Some([64, 1, 1]);
        c.args.insert("d".into(), "index".into());
        c.buffer_len.insert("d".into(), 128);
        let t = run_finished(EXCHANGE_ALG, c);
        no_errors(&t);
        assert_eq!(ints(&t, "d"), want, "{alg}");
    }
    // hipCUB's shuffle form needs ITEMS_PER_THREAD to divide the logical warp.
    let mut c = hip(64);
    c.entry = Some("x<3, 8, hipcub::WARP_EXCHANGE_SHUFFLE>".into());
    c.block_dim = Some([64, 1, 1]);
    let e = refused(EXCHANGE_ALG, c);
    assert!(e.contains("WARP_EXCHANGE_SHUFFLE"), "{e}");
}

/// A hipCUB collective crosslane does not run, named inside a template instance.
const MERGE_SORT: &str = "\
#include <hip/hip_runtime.h>
#include <hipcub/hipcub.hpp>
template <unsigned int W>
__device__ void srt(int* d) {
  using S = hipcub::WarpMergeSort<int, 1, W>;
  __shared__ typename S::TempStorage st;
  int k[1] = {d[threadIdx.x]};
  S(st).Sort(k, [](int a, int b) { return a < b; });
  d[threadIdx.x] = k[0];
}
template <unsigned int W>
__global__ void k(int* d) { srt<W>(d); }";

#[test]
fn unmodelled_hipcub_class_in_an_instance_is_named() {
    let mut c = hip(64);
    c.entry = Some("k<16>".into());
    let e = refused(MERGE_SORT, c);
    assert!(
        e.contains("`hipcub::WarpMergeSort` is not modelled here"),
        "{e}"
    );
    assert!(e.contains("in `srt<16>`"), "{e}");
}

/// A class template of a namespace named from the global namespace, in an alias and in a
/// declaration (C++17 [basic.lookup.qual]/4).
const GLOBAL_NS: &str = "\
#include <hip/hip_runtime.h>
namespace lib { template <class T, int N> struct box { __device__ T get() { return T(N); } }; }
__global__ void k(int* o) {
  using B = ::lib::box<int, 7>;
  ::lib::box<int, 3> y;
  o[threadIdx.x] = B().get() * 10 + y.get();
}";

#[test]
fn global_namespace_class_names() {
    let t = run_finished(GLOBAL_NS, hip(64));
    no_errors(&t);
    assert!(ints(&t, "o").iter().all(|v| *v == Some(73)));
}

/// rocPRIM's `block_shuffle` (offset, rotate, up, down), the buffers given through
/// parenthesized pointer declarators `int (*p)`.
const BLOCK_SHUFFLE: &str = "\
#include <hip/hip_runtime.h>
#include <rocprim/rocprim.hpp>
template <unsigned int B>
__global__ void sh(int (*in), int (*off), int (*rot), int (*up), int (*down), int d) {
  const unsigned int t = threadIdx.x;
  rocprim::block_shuffle<int, B> s;
  s.offset(in[t], off[t], d);
  s.rotate(in[t], rot[t], (unsigned int)d);
  int a[2] = {in[2 * t], in[2 * t + 1]};
  int p[2] = {-1, -1};
  int n[2] = {-1, -1};
  s.template up<2>(a, p);
  s.down<2>(a, n);
  up[2 * t] = p[0]; up[2 * t + 1] = p[1];
  down[2 * t] = n[0]; down[2 * t + 1] = n[1];
}";

#[test]
fn rocprim_block_shuffle_offset_rotate_up_down() {
    // Python (B = 64, in = [3*i + 1], d = 5): off[t] = in[t+5] for t + 5 < 64, else the zero
    // fill (offset leaves it); rot[t] = in[(t+5) % 64]; up over items 2t, 2t+1: p = [a of the
    // previous thread's last item, own first] — thread 0's p[0] keeps -1; down: n = [own
    // second, next thread's first] — thread 63's n[1] keeps -1.
    let mut c = hip(64);
    c.entry = Some("sh<64>".into());
    c.block_dim = Some([64, 1, 1]);
    c.args.insert("in".into(), "i*3+1".into());
    c.buffer_len.insert("in".into(), 128);
    for (n, len) in [("off", 64), ("rot", 64), ("up", 128), ("down", 128)] {
        c.args.insert(n.into(), "zero".into());
        c.buffer_len.insert(n.into(), len);
    }
    c.args.insert("d".into(), "5".into());
    let t = run_finished(BLOCK_SHUFFLE, c);
    no_errors(&t);
    let x = |i: i128| 3 * i + 1;
    let off: Vec<_> = (0..64i128)
        .map(|t| Some(if t + 5 < 64 { x(t + 5) } else { 0 }))
        .collect();
    let rot: Vec<_> = (0..64i128).map(|t| Some(x((t + 5) % 64))).collect();
    let up: Vec<_> = (0..128i128)
        .map(|i| Some(if i == 0 { -1 } else { x(i - 1) }))
        .collect();
    let down: Vec<_> = (0..128i128)
        .map(|i| Some(if i == 127 { -1 } else { x(i + 1) }))
        .collect();
    assert_eq!(ints(&t, "off"), off);
    assert_eq!(ints(&t, "rot"), rot);
    assert_eq!(ints(&t, "up"), up);
    assert_eq!(ints(&t, "down"), down);
}
