//! Cooperative-groups collectives over a user struct or with a user's operator, and
//! `cg::memcpy_async` of a struct array (CUDA C++ Programming Guide, Cooperative Groups:
//! `reduce` gives "the result of the reduction to every thread in the group",
//! `inclusive_scan` / `exclusive_scan` give rank r the combination of ranks 0..=r / 0..r, the
//! operator any binary function object; `memcpy_async` copies the bytes for the group and
//! `wait` completes them). The front end builds each as syntax-tree nodes (no C++ text printed
//! and parsed again); these tests hold their values, computed here from those definitions
//! (sums and maxima over each tile, not the shuffle order), and the errors' positions.

use crate::support::{floats, ints, launch, run_finished};
use crosslane_core::op::Dialect;
use crosslane_kernel::{run_kernel, LaunchConfig};

/// Per thread t of `threads`, `f` over the values `value(u)` of the threads u of t's tile of
/// `n` up to t (`scan`) or all of them, folded left from rank 0.
fn per_tile<T: Copy>(
    threads: usize,
    n: usize,
    scan: bool,
    value: impl Fn(usize) -> T,
    f: impl Fn(T, T) -> T,
) -> Vec<T> {
    (0..threads)
        .map(|t| {
            let first = t - t % n;
            let last = if scan { t } else { first + n - 1 };
            (first + 1..=last).fold(value(first), |acc, u| f(acc, value(u)))
        })
        .collect()
}

fn some<T: Copy>(v: &[T]) -> Vec<Option<T>> {
    v.iter().map(|x| Some(*x)).collect()
}

/// The launch of 64 threads with int buffers `names`, 64 cells each.
fn ints_launch(names: &[&str]) -> LaunchConfig {
    let bufs: Vec<(&str, usize, &str)> = names.iter().map(|n| (*n, 64, "zero")).collect();
    launch(Dialect::Cuda, 64, &bufs)
}

/// A struct reduced with a function object (`Comb()`, stateless, returning the struct) over
/// tiles of 8 and of 32: each member the combination over the tile (sum of `s`, largest
/// `mx`, sum of the float `w`, exact in binary at these sizes).
#[test]
fn struct_reduce_with_a_function_object_over_tiles_of_8_and_32() {
    let src = "#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
struct P { int s; int mx; float w; };
struct Comb {
  __device__ P operator()(const P& a, const P& b) const {
    return P{a.s + b.s, a.mx > b.mx ? a.mx : b.mx, a.w + b.w};
  }
};
__global__ void k(int* s8, int* m8, float* w8, int* s32, int* m32, float* w32) {
  int t = threadIdx.x;
  auto block = cg::this_thread_block();
  auto t8 = cg::tiled_partition<8>(block);
  auto t32 = cg::tiled_partition<32>(block);
  P v{t, (t * 7) % 11, 0.5f * t};
  P a = cg::reduce(t8, v, Comb());
  Comb comb;
  P b = cg::reduce(t32, v, comb);
  s8[t] = a.s; m8[t] = a.mx; w8[t] = a.w;
  s32[t] = b.s; m32[t] = b.mx; w32[t] = b.w;
}";
    let mut c = ints_launch(&["s8", "m8", "s32", "m32"]);
    for n in ["w8", "w32"] {
        c.buffer_len.insert(n.into(), 64);
        c.args.insert(n.into(), "zero".into());
    }
    let t = run_finished(src, c);
    for (n, s, m, w) in [(8, "s8", "m8", "w8"), (32, "s32", "m32", "w32")] {
        let sum = per_tile(64, n, false, |u| u as i128, |a, b| a + b);
        let max = per_tile(64, n, false, |u| (u as i128 * 7) % 11, |a, b| a.max(b));
        let wsum = per_tile(64, n, false, |u| 0.5 * u as f64, |a, b| a + b);
        assert_eq!(ints(&t, s), some(&sum), "{s}");
        assert_eq!(ints(&t, m), some(&max), "{m}");
        assert_eq!(floats(&t, w), some(&wsum), "{w}");
    }
}

/// Lambdas as operators: one capturing `c` by copy and returning the struct (`s` summed plus
/// `c` per combination, an associative operation: x ∘ y = x + y + c gives the sum plus
/// (count − 1)·c in any order), a scan of an `int` with the same shape, and a generic lambda
/// (`auto` parameters) taking the larger.
#[test]
fn lambda_operators_over_a_struct_and_a_scalar() {
    let src = "#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;
struct P { int s; int mx; };
__global__ void k(int* s, int* mx, int* q, int* big) {
  int t = threadIdx.x;
  auto t8 = cg::tiled_partition<8>(cg::this_thread_block());
  int c = 3;
  P v{t, (t * 5) % 13};
  P r = cg::reduce(t8, v, [c](P a, P b) { return P{a.s + b.s + c, a.mx > b.mx ? a.mx : b.mx}; });
  s[t] = r.s;
  mx[t] = r.mx;
  q[t] = cg::inclusive_scan(t8, t, [c](int a, int b) { return a + b + c; });
  big[t] = cg::reduce(t8, (t * 5) % 13, [](auto a, auto b) { return a > b ? a : b; });
}";
    let t = run_finished(src, ints_launch(&["s", "mx", "q", "big"]));
    let sum = per_tile(64, 8, false, |u| u as i128, |a, b| a + b + 3);
    let max = per_tile(64, 8, false, |u| (u as i128 * 5) % 13, |a, b| a.max(b));
    let scan = per_tile(64, 8, true, |u| u as i128, |a, b| a + b + 3);
    assert_eq!(ints(&t, "s"), some(&sum));
    assert_eq!(ints(&t, "mx"), some(&max));
    assert_eq!(ints(&t, "q"), some(&scan));
    assert_eq!(ints(&t, "big"), some(&max));
}

/// Inclusive and exclusive scans of a struct with `cg::plus` (its `operator+`) over tiles of
/// 4: rank r's inclusive result counts r + 1 items and sums the weights of ranks 0..=r; the
/// exclusive result is that less its own value (its `operator-`), rank 0's all zero.
#[test]
fn struct_scans_with_plus() {
    let src = "#include <cooperative_groups.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;
struct C { int n; float w; };
__device__ C operator+(const C& a, const C& b) { return C{a.n + b.n, a.w + b.w}; }
__device__ C operator-(const C& a, const C& b) { return C{a.n - b.n, a.w - b.w}; }
__global__ void k(int* in_n, float* in_w, int* ex_n, float* ex_w) {
  int t = threadIdx.x;
  auto t4 = cg::tiled_partition<4>(cg::this_thread_block());
  C c{1, 0.5f * t};
  C i = cg::inclusive_scan(t4, c, cg::plus<C>());
  C e = cg::exclusive_scan(t4, c, cg::plus<C>());
  in_n[t] = i.n; in_w[t] = i.w; ex_n[t] = e.n; ex_w[t] = e.w;
}";
    let mut c = ints_launch(&["in_n", "ex_n"]);
    for n in ["in_w", "ex_w"] {
        c.buffer_len.insert(n.into(), 64);
        c.args.insert(n.into(), "zero".into());
    }
    let t = run_finished(src, c);
    let count = per_tile(64, 4, true, |_| 1i128, |a, b| a + b);
    let w = per_tile(64, 4, true, |u| 0.5 * u as f64, |a, b| a + b);
    let ex_count: Vec<i128> = count.iter().map(|x| x - 1).collect();
    let ex_w: Vec<f64> = w
        .iter()
        .enumerate()
        .map(|(u, x)| x - 0.5 * u as f64)
        .collect();
    assert_eq!(ints(&t, "in_n"), some(&count));
    assert_eq!(floats(&t, "in_w"), some(&w));
    assert_eq!(ints(&t, "ex_n"), some(&ex_count));
    assert_eq!(floats(&t, "ex_w"), some(&ex_w));
}

/// `cg::less` over a struct with a member `operator<` (smaller key, then smaller index) over
/// the tile of 32: every thread gets the least element of its warp.
#[test]
fn struct_reduce_with_less_picks_the_least() {
    let src = "#include <cooperative_groups.h>
namespace cg = cooperative_groups;
struct KV {
  int key; int idx;
  __device__ bool operator<(const KV& o) const { return key < o.key || (key == o.key && idx < o.idx); }
};
__global__ void k(int* key, int* idx) {
  int t = threadIdx.x;
  auto t32 = cg::tiled_partition<32>(cg::this_thread_block());
  KV v{(t * 7 + 3) % 10, t};
  KV r = cg::reduce(t32, v, cg::less<KV>());
  key[t] = r.key; idx[t] = r.idx;
}";
    let t = run_finished(src, ints_launch(&["key", "idx"]));
    let least = per_tile(
        64,
        32,
        false,
        |u| ((u as i128 * 7 + 3) % 10, u as i128),
        |a, b| if b < a { b } else { a },
    );
    let keys: Vec<i128> = least.iter().map(|p| p.0).collect();
    let idxs: Vec<i128> = least.iter().map(|p| p.1).collect();
    assert_eq!(ints(&t, "key"), some(&keys));
    assert_eq!(ints(&t, "idx"), some(&idxs));
}

/// `cg::memcpy_async` of a struct array into shared memory, then `cg::wait`: the block's
/// threads share the elements, and after the wait every element is there (thread t reads
/// element 63 − t of its block's slice); a read before the wait is undefined, naming the copy.
#[test]
fn memcpy_async_of_a_struct_array_into_shared_memory() {
    let src = "#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;
struct E { int a; float b; };
__global__ void k(const E* in, int* oa, float* ob, int* early) {
  __shared__ E sh[64];
  auto block = cg::this_thread_block();
  int t = threadIdx.x;
  cg::memcpy_async(block, sh, in + 64 * blockIdx.x, sizeof(E) * 64);
  early[t] = sh[t].a;
  cg::wait(block);
  oa[t] = sh[63 - t].a;
  ob[t] = sh[63 - t].b;
}";
    let mut c = ints_launch(&["oa", "early"]);
    for (n, fill) in [("ob", "zero"), ("in.a", "i*3"), ("in.b", "i*0.25")] {
        c.buffer_len.insert(n.into(), 64);
        c.args.insert(n.into(), fill.into());
    }
    let t = run_finished(src, c);
    let a: Vec<i128> = (0..64).map(|t| (63 - t) * 3).collect();
    let b: Vec<f64> = (0..64).map(|t| (63 - t) as f64 * 0.25).collect();
    assert_eq!(ints(&t, "oa"), some(&a));
    assert_eq!(floats(&t, "ob"), some(&b));
    assert!(ints(&t, "early").iter().all(Option::is_none));
    assert!(t
        .steps
        .iter()
        .flat_map(|s| &s.diagnostics)
        .any(|d| d.message.contains("memcpy_async` has not completed")));
}

/// Errors of a struct-valued collective name the user's line and column: the operator's
/// position for an operator the struct does not have and for a lambda of the wrong
/// parameters, not a position the front end made.
#[test]
fn struct_collective_errors_point_at_the_call() {
    let head = "#include <cooperative_groups.h>
namespace cg = cooperative_groups;
struct P { int s; int mx; };
__global__ void k(int* q) {
  auto t8 = cg::tiled_partition<8>(cg::this_thread_block());
  P v{1, 2};
";
    for (op, what) in [
        ("cg::bit_and<P>()", "operator&"),
        ("[](int a, int b) { return P{a, b}; }", "two values"),
        ("5", "a lambda or a function object"),
    ] {
        let src = format!("{head}  P r = cg::reduce(t8, v, {op});\n  q[0] = r.s;\n}}\n");
        let e = run_kernel(&src, ints_launch(&["q"])).expect_err("refused");
        assert_eq!((e.line, e.col), (7, 27), "{op}: {e}");
        assert!(e.message.contains(what), "{op}: {e}");
    }
}

/// A tile's hidden meta parameters are bound without steps of their own: a call of a function
/// taking a tile records the binding of its own parameter and the statement, nothing for the
/// `meta_group_rank` / `meta_group_size` pair it carries.
#[test]
fn tile_meta_parameters_take_no_steps() {
    let src = "#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ int pair(const cg::thread_block_tile<8>& t) {
  return t.meta_group_rank() * 10 + t.meta_group_size();
}
__global__ void k(int* out) {
  auto t8 = cg::tiled_partition<8>(cg::tiled_partition<32>(cg::this_thread_block()));
  out[threadIdx.x] = pair(t8);
}";
    let t = run_finished(src, launch(Dialect::Cuda, 32, &[("out", 32, "zero")]));
    let want: Vec<i128> = (0..32).map(|t| (t / 8) * 10 + 4).collect();
    assert_eq!(ints(&t, "out"), some(&want));
    // At the call's line: the parameter `t`'s binding and the statement itself.
    let at_call = t.steps.iter().filter(|s| s.line == 8).count();
    assert_eq!(
        at_call,
        2,
        "{:?}",
        t.steps
            .iter()
            .map(|s| (s.line, &s.text))
            .collect::<Vec<_>>()
    );
}
