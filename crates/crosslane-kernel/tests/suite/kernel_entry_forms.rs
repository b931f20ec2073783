//! Entry and deduction forms public kernels use: template argument deduction from a vector's
//! component (`cast_to<int>(v.y)` with `v` a `float2`) and an array bound from a reference to an
//! array parameter (`const T (&a)[N]`); a namespace alias in a function body; east-const and
//! `auto&&` references to cooperative-groups handles; explicit template arguments on warp
//! builtins; a run-time `tiled_partition` size; a type parameter hiding a class template of
//! its name; the `--entry` choices of a template-only file; namespaced kernels' qualified
//! names. Every expected
//! value is derived by hand beside its test.

use crate::cells::cell_ints as ints;
use crosslane_kernel::{run_kernel, KernelTrace, LaunchConfig, Outcome};

fn run_out(src: &str, threads: usize) -> KernelTrace {
    let mut c = LaunchConfig {
        block_dim: Some([threads, 1, 1]),
        ..LaunchConfig::default()
    };
    c.buffer_len.insert("out".into(), threads);
    let t = run_kernel(src, c).expect("kernel parses and launches");
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    t
}

/// `src_t` is deduced from `v.y`, a `float2`'s component: `float` (CUDA C++ Programming Guide,
/// "Built-in Vector Types"; [temp.deduct.call]/1). Lane t: v.y = 0.75 * t + 1, truncated
/// toward zero by the conversion to `int` ([conv.fpint]/1): t=0: 1, t=1: 1.75 -> 1,
/// t=2: 2.5 -> 2, t=3: 3.25 -> 3. The second output proves `src_t` is `float`, not `int`:
/// `half_of(v.x)` with v.x = 0.5 * t + 0.5 gives 0.25 * t + 0.25 (nonzero fraction) times 4:
/// t + 1 exactly, where an `int` `src_t` would have truncated v.x first.
#[test]
fn a_template_argument_is_deduced_from_a_vector_component() {
    let src = r#"
template <typename dst_t, typename src_t>
__device__ dst_t cast_to(src_t x) { return (dst_t)x; }
template <typename src_t>
__device__ src_t half_of(src_t x) { return x / 2; }
__global__ void k(int *out, int *q) {
  float2 v = make_float2(0.5f * threadIdx.x + 0.5f, 0.75f * threadIdx.x + 1.0f);
  out[threadIdx.x] = cast_to<int>(v.y);
  q[threadIdx.x] = (int)(half_of(v.x) * 4.0f);
}
"#;
    let mut c = LaunchConfig {
        block_dim: Some([4, 1, 1]),
        ..LaunchConfig::default()
    };
    c.buffer_len.insert("out".into(), 4);
    c.buffer_len.insert("q".into(), 4);
    let t = run_kernel(src, c).expect("kernel parses and launches");
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    assert_eq!(
        ints(t.buffer("out").unwrap()),
        [1, 1, 2, 3].map(Some).to_vec()
    );
    assert_eq!(
        ints(t.buffer("q").unwrap()),
        [1, 2, 3, 4].map(Some).to_vec()
    );
}

/// `N` is deduced from the argument arrays' bound ([temp.deduct.type]/8: `T[i]` deduces `i`).
/// `dot`: lane t has a = {t, t+1, t+2}, b = {1, 2, 3}, so the sum is 6t + (0 + 2 + 6) =
/// 6t + 8: 8, 14, 20, 26. `tally` of the braced `int c[4] = {1, 2, 3, 4}` returns
/// 100 * N + sum = 400 + 10 = 410, added as 410 * 1000 in the high part.
#[test]
fn an_array_bound_is_deduced_from_a_reference_to_an_array_parameter() {
    let src = r#"
template <typename T, int N>
__device__ T dot(const T (&a)[N], const T (&b)[N]) {
  T s = 0;
  for (int i = 0; i < N; ++i) s += a[i] * b[i];
  return s;
}
template <int N>
__device__ int tally(const int (&a)[N]) {
  int s = 100 * N;
  for (int i = 0; i < N; ++i) s += a[i];
  return s;
}
__global__ void k(int *out) {
  float a[3], b[3];
  for (int i = 0; i < 3; ++i) { a[i] = threadIdx.x + i; b[i] = i + 1.0f; }
  int c[4] = {1, 2, 3, 4};
  out[threadIdx.x] = tally(c) * 1000 + (int)dot(a, b);
}
"#;
    let t = run_out(src, 4);
    assert_eq!(
        ints(t.buffer("out").unwrap()),
        [410_008, 410_014, 410_020, 410_026].map(Some).to_vec()
    );
}

/// `namespace cg = cooperative_groups;` and an alias of the source's own namespace, both inside
/// the kernel body ([namespace.alias]: a block-scope declaration). `shfl_down(v, 1)` on a
/// 32-thread tile: lane i reads lane i + 1; lane 31's source is past the tile, so it keeps its
/// own value (CUDA C++ Programming Guide, Warp Shuffle Functions: "the value of var is
/// unchanged" for a source outside the width). out = 10 * (that) + twice(1) = 10 * v + 2:
/// lane i < 31: 10 * (i + 1) + 2; lane 31: 312.
#[test]
fn a_namespace_alias_in_a_kernel_body_is_read() {
    let src = r#"
#include <cooperative_groups.h>
namespace detail {
__device__ int twice(int x) { return 2 * x; }
}
__global__ void k(int *out) {
  namespace cg = cooperative_groups;
  namespace d = detail;
  cg::thread_block_tile<32> w = cg::tiled_partition<32>(cg::this_thread_block());
  out[threadIdx.x] = 10 * w.shfl_down((int)threadIdx.x, 1) + d::twice(1);
}
"#;
    let t = run_out(src, 32);
    let want: Vec<Option<i128>> = (0..32)
        .map(|i: i128| Some(10 * if i < 31 { i + 1 } else { 31 } + 2))
        .collect();
    assert_eq!(ints(t.buffer("out").unwrap()), want);
}

/// `cg::thread_block const& b`, `cg::coalesced_group const& c` and `auto&& g`: the same
/// groups as without the `const` and the reference ([dcl.ref]/1). Threads 0, 3, 6 of 8 take the
/// branch: the coalesced group holds those 3, ranked in lane order 0, 1, 2 (CUDA C++
/// Programming Guide, "Cooperative Groups", coalesced_group); the block holds 8. out =
/// 1000 * 8 + 100 * rank + 10 * size (via `c`) + size (via `g`): 8033, 8133, 8233; -1 elsewhere.
#[test]
fn east_const_and_forwarding_references_to_groups_are_the_groups() {
    let src = r#"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int *out) {
  cg::thread_block const& b = cg::this_thread_block();
  out[threadIdx.x] = -1;
  if (threadIdx.x % 3 == 0) {
    cg::coalesced_group const& c = cg::coalesced_threads();
    auto&& g = cg::coalesced_threads();
    out[threadIdx.x] = 1000 * b.size() + 100 * g.thread_rank() + 10 * c.size() + g.size();
  }
}
"#;
    let t = run_out(src, 8);
    assert_eq!(
        ints(t.buffer("out").unwrap()),
        [8033, -1, -1, 8133, -1, -1, 8233, -1].map(Some).to_vec()
    );
}

/// `__reduce_add_sync<decltype(mask)>(mask, v)` and `__shfl_sync<unsigned, int>(…)`: the
/// explicit arguments name the argument types (HIP declares these builtins as templates over
/// the mask type, then the value type), so the call is the plain one. Lane i adds 0 + … + 31 =
/// 496 (CUDA C++ Programming Guide, Warp Reduce Functions) and reads lane 5's i = 5:
/// 496 * 100 + 5 = 49605. An argument that disagrees (`float` named, `int` given) is refused.
#[test]
fn explicit_template_arguments_on_warp_builtins_that_agree_are_accepted() {
    let src = r#"
__global__ void k(int *out) {
  unsigned mask = 0xffffffffu;
  int v = threadIdx.x;
  out[threadIdx.x] = __reduce_add_sync<decltype(mask)>(mask, v) * 100
                   + __shfl_sync<unsigned, int>(mask, v, 5);
}
"#;
    let t = run_out(src, 32);
    assert_eq!(ints(t.buffer("out").unwrap()), vec![Some(49605); 32]);
    let bad = src.replace("<unsigned, int>", "<unsigned, float>");
    let mut c = LaunchConfig {
        block_dim: Some([32, 1, 1]),
        ..LaunchConfig::default()
    };
    c.buffer_len.insert("out".into(), 32);
    let e = run_kernel(&bad, c).expect_err("a disagreeing template argument");
    assert!(
        e.message
            .contains("explicit template argument 2 of `__shfl_sync`"),
        "{}",
        e.message
    );
}

/// `tiled_partition(block, n)` with `n` a kernel argument: the dynamic overload returns a
/// `thread_group` (CUDA C++ Programming Guide, "Cooperative Groups", tiled_partition, "limited
/// to power-of-2 sizes" up to 32) with `thread_rank()`, `size()` and `sync()`. Tiles of 4 over
/// 8 threads give rank t % 4 and size 4: out = 100 * (t % 4) + 4, as the constant form gives.
/// n = 6 is not a power of two: the run stops with an error naming the rule; n = 64 is past
/// the 32-lane warp, likewise.
#[test]
fn a_run_time_tile_size_makes_a_thread_group() {
    let src = r#"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int *out, unsigned n) {
  cg::thread_group tile = cg::tiled_partition(cg::this_thread_block(), n);
  tile.sync();
  out[threadIdx.x] = tile.thread_rank() * 100 + tile.size();
}
"#;
    let config = |n: &str| {
        let mut c = LaunchConfig {
            block_dim: Some([8, 1, 1]),
            ..LaunchConfig::default()
        };
        c.buffer_len.insert("out".into(), 8);
        c.args.insert("n".into(), n.into());
        c
    };
    let t = run_kernel(src, config("4")).expect("runs");
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    assert_eq!(
        ints(t.buffer("out").unwrap()),
        [4, 104, 204, 304, 4, 104, 204, 304].map(Some).to_vec()
    );
    let fixed = src
        .replace("this_thread_block(), n)", "this_thread_block(), 4)")
        .replace(", unsigned n", "");
    let t = run_out(&fixed, 8);
    assert_eq!(
        ints(t.buffer("out").unwrap()),
        [4, 104, 204, 304, 4, 104, 204, 304].map(Some).to_vec()
    );
    for bad in ["6", "64"] {
        let t = run_kernel(src, config(bad)).expect("parses");
        match &t.outcome {
            Some(Outcome::Error(e)) => assert!(
                e.message
                    .contains(&format!("tiled_partition(parent, {bad})"))
                    && e.message.contains("power of two up to the 32-lane warp"),
                "{}",
                e.message
            ),
            other => panic!("n = {bad}: {other:?}"),
        }
    }
}

/// The runtime form's `thread_group` has no shuffles (CUDA C++ Programming Guide,
/// Cooperative Groups, `thread_group`: sync, thread_rank, size, num_threads): refused before
/// the run, naming what to write. A runtime partition of a coalesced group is its members by
/// rank, `n` at a time (CUDA C++ Programming Guide, Cooperative Groups, tiled_partition;
/// HIP's the same): with all 32 lanes active and n = 4, lane t has rank t % 4.
#[test]
fn a_run_time_tile_refuses_what_thread_group_lacks() {
    let shfl = r#"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int *out, unsigned n) {
  cg::thread_group tile = cg::tiled_partition(cg::this_thread_block(), n);
  out[threadIdx.x] = tile.shfl(1, 0);
}
"#;
    let mut c = LaunchConfig::default();
    c.buffer_len.insert("out".into(), 32);
    c.args.insert("n".into(), "4".into());
    let e = run_kernel(shfl, c.clone()).expect_err("no shfl on a thread_group");
    assert!(
        e.message.contains("`tiled_partition<N>(g)`"),
        "{}",
        e.message
    );
    let coalesced = shfl
        .replace("cg::this_thread_block(), n", "cg::coalesced_threads(), n")
        .replace("tile.shfl(1, 0)", "tile.thread_rank()");
    let t = run_kernel(&coalesced, c).expect("a coalesced parent runs");
    let ranks: Vec<Option<i128>> = t
        .buffer("out")
        .expect("out")
        .iter()
        .map(|v| v.as_ref().and_then(crosslane_kernel::KVal::as_int))
        .collect();
    assert_eq!(ranks, (0..32).map(|t| Some(t % 4)).collect::<Vec<_>>());
}

/// A template type parameter named like a class template (`Vec`) hides it in explicit
/// template arguments ([temp.local]/6): `pick<Vec, N>(a)` inside `template <typename Vec, int
/// N>` passes the bound type `float`, not the class. Lane t: a = {t + 0.5, 7}; `pick` returns
/// a[N - 1] + a[0] = 7 + t + 0.5, times 2 = 2t + 15: 15, 17, 19, 21.
#[test]
fn a_type_parameter_hides_a_class_template_of_its_name_in_template_arguments() {
    let src = r#"
template <typename T, int S>
struct Vec { T v[S]; };
template <typename Vec, int N>
__device__ Vec pick(const Vec (&a)[N]) { return a[N - 1] + a[0]; }
template <typename Vec, int N>
__device__ Vec twice_pick(const Vec (&a)[N]) { return 2 * pick<Vec, N>(a); }
__global__ void k(int *out) {
  float a[2] = {threadIdx.x + 0.5f, 7.0f};
  out[threadIdx.x] = (int)twice_pick<float, 2>(a);
}
"#;
    let t = run_out(src, 4);
    assert_eq!(
        ints(t.buffer("out").unwrap()),
        [15, 17, 19, 21].map(Some).to_vec()
    );
}

/// A file whose kernels are all templates (C++17 [temp.fct]: a template is not a function; an
/// instance is), beside a `__device__` function template: run without an entry, the error
/// lists the `--entry` values — each explicit instantiation as written ([temp.explicit]),
/// then the kernel template without one, with its parameters to replace — and not the device
/// template `twice`. The first listed value runs: out = twice(out) · 4 = 8, 16, 24 over the
/// fill 1, 2, 3 (lane 3 is past n = 3 and keeps its fill, 4).
#[test]
fn a_template_only_file_lists_its_entries() {
    let src = r#"
template <typename T>
__device__ T twice(T x) { return x + x; }
template <typename T, int N>
__global__ void scale(T *out, int n) {
  int t = threadIdx.x;
  if (t < n) out[t] = twice(out[t]) * N;
}
template <typename T>
__global__ void fill(T *out) { out[threadIdx.x] = T(1); }
template __global__ void scale<float, 4>(float *, int);
template __global__ void scale<int, 8>(int *, int);
"#;
    let mut c = LaunchConfig {
        block_dim: Some([4, 1, 1]),
        ..LaunchConfig::default()
    };
    c.buffer_len.insert("out".into(), 4);
    c.args.insert("out".into(), "1,2,3,4".into());
    c.args.insert("n".into(), "3".into());
    let e = run_kernel(src, c.clone()).expect_err("nothing names an instance");
    let listed: Vec<&str> = e
        .message
        .lines()
        .filter_map(|l| l.trim().strip_prefix("--entry '"))
        .filter_map(|l| l.split('\'').next())
        .collect();
    assert_eq!(
        listed,
        ["scale<float, 4>", "scale<int, 8>", "fill<T>"],
        "{}",
        e.message
    );
    assert!(!e.message.contains("twice"), "{}", e.message);
    c.entry = Some(listed[0].into());
    let t = run_kernel(src, c).expect("the listed entry runs");
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    let out: Vec<Option<f64>> = t
        .buffer("out")
        .unwrap()
        .iter()
        .map(|c| c.as_ref().and_then(crosslane_kernel::KVal::as_f64))
        .collect();
    assert_eq!(out, [8.0, 16.0, 24.0, 4.0].map(Some).to_vec());
}

/// A kernel inside a namespace is `ops::k` to C++ ([basic.namespace]): the trace's
/// `launch.entry` names it so, chosen by default, by `--entry ops::k`, or by `--entry k`
/// (no other `k`); nested namespaces qualify in order (`a::b::j`), an anonymous one adds
/// nothing, and a template instance keeps its arguments (`ops::t<int>`).
#[test]
fn a_namespaced_kernel_is_named_by_its_qualified_name() {
    let src = r#"
namespace ops {
__device__ int one() { return 1; }
__global__ void k(int *out) { out[threadIdx.x] = one(); }
template <typename T>
__global__ void t(T *out) { out[threadIdx.x] = T(2); }
}
namespace a { namespace b {
__global__ void j(int *out) { out[threadIdx.x] = 3; }
} }
namespace {
__global__ void anon(int *out) { out[threadIdx.x] = 4; }
}
"#;
    let entry_of = |entry: Option<&str>| {
        let mut c = LaunchConfig::default();
        c.buffer_len.insert("out".into(), 32);
        c.entry = entry.map(str::to_string);
        let t = run_kernel(src, c).expect("runs");
        assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
        (t.launch.entry.clone(), ints(t.buffer("out").unwrap())[0])
    };
    assert_eq!(entry_of(None), ("ops::k".to_string(), Some(1)));
    assert_eq!(entry_of(Some("ops::k")), ("ops::k".to_string(), Some(1)));
    assert_eq!(entry_of(Some("k")), ("ops::k".to_string(), Some(1)));
    assert_eq!(entry_of(Some("a::b::j")), ("a::b::j".to_string(), Some(3)));
    assert_eq!(entry_of(Some("anon")), ("anon".to_string(), Some(4)));
    assert_eq!(
        entry_of(Some("ops::t<int>")),
        ("ops::t<int>".to_string(), Some(2))
    );
}
