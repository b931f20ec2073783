//! Front-end gaps a tester met (tester 23): an error the front end reports while it reads on
//! ends the run before it starts; the rest of `<cstdint>` and the character types with their
//! widths; prefixed character literals; 128-bit integers, CUB block prefix callbacks and
//! `cg::invoke_one` refused by name (`template <auto N>`, once refused, runs); CUB's `util_ptx` shuffles; a tile's
//! `match_all`; a lambda inside a lambda; a label after a statement named as `goto`'s.
//!
//! Expected values are worked by hand from the documents each test cites; the shuffles' from
//! PTX ISA's `shfl.sync` rule, modelled in Python beside that test.

use crate::support::{launch, refused, run_finished};
use crosslane_core::op::Dialect;

fn ints(t: &crosslane_kernel::KernelTrace, name: &str) -> Vec<i128> {
    crate::support::ints_or_min(t, name)
}

#[test]
fn an_unknown_type_ends_the_run_before_it_starts() {
    // docs/kernels.md, "Errors and outcomes": any front-end error means nothing runs. The
    // unknown type used to be read as `int` with the run going on to exit 0.
    let src = "__global__ void k(int *o) { mystery_t a = 70000; o[0] = a; }";
    let e = refused(src, launch(Dialect::Cuda, 1, &[("o", 1, "0")]));
    assert!(e.contains("unknown type `mystery_t`"), "{e}");
}

/// An unknown type in a function the run never compiles (a `curandState` setup kernel beside
/// the kernel launched, a helper no kernel calls) stops nothing: the run goes on and a warning
/// names the function. The same type in a device function the launched kernel calls stops the
/// run before it starts, at the type's line.
#[test]
fn an_unknown_type_stops_only_the_runs_that_reach_it() {
    let src = "__global__ void setup(curandState *s) { int i = threadIdx.x; }
__device__ float helper(cudaTextureObject_t t) { return 1.0f; }
__global__ void scale(const float *a, float *b) { b[threadIdx.x] = a[threadIdx.x] * 2.0f; }
";
    let mut c = launch(Dialect::Cuda, 4, &[("a", 4, "index"), ("b", 4, "0")]);
    c.entry = Some("scale".into());
    let t = run_finished(src, c);
    assert_eq!(
        crate::support::floats(&t, "b"),
        vec![Some(0.0), Some(2.0), Some(4.0), Some(6.0)]
    );
    assert!(t
        .merged_diagnostics
        .iter()
        .any(|d| d.message.contains("unknown type `curandState` in `setup`")));
    let calls = "__device__ int helper(mystery_t v) { return 1; }
__global__ void k(int *o) { o[threadIdx.x] = helper(0); }
";
    let e = refused(calls, launch(Dialect::Cuda, 1, &[("o", 1, "0")]));
    assert!(
        e.contains("1:") && e.contains("unknown type `mystery_t`"),
        "{e}"
    );
}

#[test]
fn cstdint_least_fast_and_character_types_have_glibcs_widths() {
    // glibc <stdint.h> for a 64-bit __WORDSIZE: the least types are the exact ones,
    // int_fast8_t is signed char, the 16/32/64-bit fast types and intmax_t are long.
    // [basic.fundamental]/5: char16_t is uint_least16_t's size and signedness.
    // 70000 mod 2^16 = 4464; 200 as signed char = -56; (uint_fast32_t)0 - 1 = 2^64 - 1 > 2^32.
    let src = "\
#include <cstdint>
__global__ void k(long long *o) {
  uint_least16_t a = 70000; char16_t b = 70000; int_fast8_t c = 200;
  o[0] = a; o[1] = b; o[2] = c; o[3] = (int_fast8_t)200;
  o[4] = sizeof(uint_fast32_t) * 100 + sizeof(int_fast16_t) * 10 + sizeof(int_least16_t);
  o[5] = (uint_fast32_t)0 - 1 > 4294967296u;
  o[6] = sizeof(intmax_t) + sizeof(uintmax_t) + sizeof(char32_t) + sizeof(wchar_t);
  o[7] = (wchar_t)-1;
}";
    let t = run_finished(src, launch(Dialect::Cuda, 1, &[("o", 8, "0")]));
    assert_eq!(ints(&t, "o"), vec![4464, 4464, -56, -56, 882, 1, 24, -1]);
}

#[test]
fn prefixed_character_literals_have_their_types() {
    // C++17 [lex.ccon]: u'A' is a char16_t (2 bytes), U'A' a char32_t (4), L'A' a wchar_t (4
    // on x86-64 Linux), u8'A' a char (1); their values the characters' codes 65..68.
    let src = "\
__global__ void k(int *o) {
  wchar_t w = L'A'; o[0] = w; o[1] = u'B' + U'C' + u8'D';
  o[2] = sizeof(u'A') * 1000 + sizeof(U'A') * 100 + sizeof(L'A') * 10 + sizeof(u8'A');
}";
    let t = run_finished(src, launch(Dialect::Cuda, 1, &[("o", 3, "0")]));
    assert_eq!(ints(&t, "o"), vec![65, 66 + 67 + 68, 2441]);
}

#[test]
fn int128_is_refused_by_name_and_auto_template_parameters_run() {
    let src = "__global__ void k(unsigned long long *o) { unsigned __int128 p = o[0]; o[1] = p; }";
    let e = refused(src, launch(Dialect::Cuda, 1, &[("o", 2, "3")]));
    assert!(e.contains("`__int128`") && e.contains("64 bits"), "{e}");
    // `template <auto N>` was refused by name here; it now runs (suite `kernel_auto_members`
    // has its types): 3000000000 / 2 = 1500000000.
    let src = "\
template <auto N> struct C { static constexpr unsigned value = N; };
__global__ void k(long long *o) { o[0] = C<3000000000u>::value / 2; }";
    let t = run_finished(src, launch(Dialect::Cuda, 1, &[("o", 1, "0")]));
    assert_eq!(ints(&t, "o"), vec![1_500_000_000]);
}

#[test]
fn a_block_prefix_callback_seeds_the_scan() {
    // CUB API, cub::BlockScan: `ExclusiveSum(input, output, block_prefix_callback_op)`; the
    // functor's return value for the block aggregate (here 100, its starting total) prefixes
    // every output: 32 ones give 100 + t (it was refused before; suite `kernel_cub_prefix`).
    let src = "\
#include <cub/cub.cuh>
struct PrefixOp { int total; __device__ PrefixOp(int t) : total(t) {}
  __device__ int operator()(int agg) { int old = total; total += agg; return old; } };
__global__ void k(int *d) {
  typedef cub::BlockScan<int, 32> BS;
  __shared__ typename BS::TempStorage tmp;
  PrefixOp op(100);
  int v = d[threadIdx.x];
  BS(tmp).ExclusiveSum(v, v, op);
  d[threadIdx.x] = v;
}";
    let t = run_finished(src, launch(Dialect::Cuda, 32, &[("d", 32, "1")]));
    assert_eq!(ints(&t, "d"), (100..132).collect::<Vec<i128>>());
    // The aggregate form still runs: 32 ones sum to 32.
    let src = "\
#include <cub/cub.cuh>
__global__ void k(int *d, int *a) {
  typedef cub::BlockScan<int, 32> BS;
  __shared__ typename BS::TempStorage tmp;
  int v = d[threadIdx.x], agg;
  BS(tmp).ExclusiveSum(v, v, agg);
  d[threadIdx.x] = v; a[threadIdx.x] = agg;
}";
    let t = run_finished(
        src,
        launch(Dialect::Cuda, 32, &[("d", 32, "1"), ("a", 32, "0")]),
    );
    assert_eq!(ints(&t, "d"), (0..32).collect::<Vec<i128>>());
    assert_eq!(ints(&t, "a"), vec![32; 32]);
}

#[test]
fn cub_shuffles_follow_ptx_shfl_sync() {
    // PTX ISA shfl.sync with CUB's control operand: seg = lane & ~(L-1), max = seg | (clamp &
    // (L-1)); up takes lane-off when >= max, down lane+off when <= max, idx seg | (src & (L-1)).
    // Python model:
    //   up = [l-2 if l-2 >= (l & ~31) | 1 else l for l in range(32)]
    //   down = [l+3 if l+3 <= (l & ~15) | 15 else l for l in range(32)]
    //   idx8 = [(l & ~7) | (9 & 7) for l in range(32)]
    let src = "\
#include <cub/cub.cuh>
__global__ void k(const int *x, int *o, int *u, int *d, int *l, int *s) {
  int t = threadIdx.x;
  o[t] = cub::ShuffleIndex<32>(x[t], 3, 0xffffffff);
  u[t] = cub::ShuffleUp<32>(x[t], 2, 1, 0xffffffff);
  d[t] = cub::ShuffleDown<16>(x[t], 3, 15, 0xffffffff);
  l[t] = cub::LaneId();
  s[t] = cub::ShuffleIndex<8>(x[t], 9, 0xffffffff);
}";
    let bufs = [
        ("x", 32, "index"),
        ("o", 32, "0"),
        ("u", 32, "0"),
        ("d", 32, "0"),
        ("l", 32, "0"),
        ("s", 32, "0"),
    ];
    let t = run_finished(src, launch(Dialect::Cuda, 32, &bufs));
    let up: Vec<i128> = (0..32)
        .map(|l: i128| if l - 2 >= ((l & !31) | 1) { l - 2 } else { l })
        .collect();
    let down: Vec<i128> = (0..32)
        .map(|l: i128| if l + 3 <= ((l & !15) | 15) { l + 3 } else { l })
        .collect();
    let idx8: Vec<i128> = (0..32).map(|l: i128| (l & !7) | 1).collect();
    assert_eq!(ints(&t, "o"), vec![3; 32]);
    assert_eq!(ints(&t, "u"), up);
    assert_eq!(ints(&t, "d"), down);
    assert_eq!(ints(&t, "l"), (0..32).collect::<Vec<i128>>());
    assert_eq!(ints(&t, "s"), idx8);
    assert_eq!(&up[..4], &[0, 1, 2, 1]);
    assert_eq!(&down[12..16], &[15, 13, 14, 15]);
}

#[test]
fn a_tiles_match_all_and_invoke_one() {
    // CUDA C++ Programming Guide, Cooperative Groups, thread_block_tile::match_all(val, pred):
    // every member equal gives the tile's full mask (8 ranks: 255) and pred true, else 0 and
    // false. Tile 0 holds 5 everywhere; the others hold x % 2, which differs.
    let src = "\
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(const int *x, int *o) {
  auto tile = cg::tiled_partition<8>(cg::this_thread_block());
  int pred = 7;
  unsigned m = tile.match_all(threadIdx.x < 8 ? 5 : x[threadIdx.x] % 2, pred);
  o[threadIdx.x] = m * 10 + pred;
}";
    let t = run_finished(
        src,
        launch(Dialect::Cuda, 32, &[("x", 32, "index"), ("o", 32, "0")]),
    );
    let mut want = vec![2551; 8];
    want.extend(vec![0; 24]);
    assert_eq!(ints(&t, "o"), want);
    // invoke_one's thread is "arbitrary" in the Guide: refused rather than chosen.
    let src = "\
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int *o) {
  auto tile = cg::tiled_partition<8>(cg::this_thread_block());
  cg::invoke_one(tile, [&]() { atomicAdd(o, 1); });
}";
    let e = refused(src, launch(Dialect::Cuda, 32, &[("o", 1, "0")]));
    assert!(e.contains("cg::invoke_one is not supported"), "{e}");
}

#[test]
fn a_lambda_inside_a_lambda_captures_through_the_outer_one() {
    // f(7): g(3) = 7*3 + 5 = 26, g(1) = 7 + 5 = 12, r = 38; acc += 3 then 1 = 4.
    // h(4): m(2) = 4 - 2 + 5 = 7, times 10 = 70.
    let src = "\
__global__ void k(int *o) {
  int base = 5; int acc = 0;
  auto f = [&](int q) { auto g = [&](int z) { acc += z; return q * z + base; };
                        int r = g(3); r += g(1); return r; };
  o[0] = f(7); o[1] = acc;
  auto h = [=](int a) { auto m = [a, base](int b) { return a - b + base; }; return m(2) * 10; };
  o[2] = h(4);
}";
    let t = run_finished(src, launch(Dialect::Cuda, 1, &[("o", 3, "0")]));
    assert_eq!(ints(&t, "o"), vec![38, 4, 70]);
}

#[test]
fn a_label_after_a_statement_is_named_as_gotos() {
    let src =
        "__global__ void k(int *o) { int i = 0; again: i++; if (i < 3) goto again; o[0] = i; }";
    let e = refused(src, launch(Dialect::Cuda, 1, &[("o", 1, "0")]));
    // A backward `goto` (a loop written with it) stays refused, saying what to write; a
    // forward one runs (suite `kernel_cxx_gaps`).
    assert!(
        e.contains("`goto again;` jumps back to its label") && e.contains("`while`"),
        "{e}"
    );
}
