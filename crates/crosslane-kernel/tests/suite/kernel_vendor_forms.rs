//! Forms real CUDA and HIP kernels are written in that the vendors' compilers take: `atomicInc`
//! / `atomicDec`, `std::`-qualified `<cstdint>` types, adjacent string literals, operator
//! temporaries (`cg::plus<float>{}`, `cub::Sum{}`, a user functor), HIP's legacy index macros;
//! and the positions and notes their runs show. Every expected value is derived by hand beside
//! its test.

use crate::cells::cell_ints as ints;
use crate::support::{floats, run_finished as run_with};
use crosslane_core::op::Dialect;
use crosslane_kernel::{run_kernel, KVal, KernelTrace, LaunchConfig};

fn cuda(src: &str, threads: usize) -> KernelTrace {
    run_with(
        src,
        LaunchConfig {
            dialect: Some(Dialect::Cuda),
            block_dim: Some([threads, 1, 1]),
            ..LaunchConfig::default()
        },
    )
}

fn hip(src: &str, lanes: usize, threads: usize) -> KernelTrace {
    run_with(
        src,
        LaunchConfig {
            dialect: Some(Dialect::Hip),
            lanes: Some(lanes),
            block_dim: Some([threads, 1, 1]),
            ..LaunchConfig::default()
        },
    )
}

/// Every note of the run, as (line, col, message, rule): the run's own, each step's, and the
/// merged list the command line and the page print.
fn notes(t: &KernelTrace) -> Vec<(u32, u32, String, String)> {
    let run = t
        .diagnostics
        .iter()
        .chain(t.steps.iter().flat_map(|s| &s.diagnostics));
    run.map(|d| (d.line, d.col, d.message.clone(), d.rule.clone()))
        .chain(
            t.merged_diagnostics
                .iter()
                .map(|d| (d.line, d.col, d.message.clone(), d.rule.clone())),
        )
        .collect()
}

const INC_DEC: &str = r#"__global__ void k(unsigned *olds, unsigned *count) {
  unsigned t = threadIdx.x;
  if (t == 0) { count[0] = 0u; count[1] = 1u; }
  __syncthreads();
  unsigned a = atomicInc(&count[0], 4u);
  unsigned b = atomicDec(&count[1], 3u);
  olds[t] = a * 100u + b;
}
"#;

/// The old values `atomicInc(·, 4)` from 0 and `atomicDec(·, 3)` from 1 return to lanes 0, 1,
/// … in lane order, and the cells' final values: the CUDA C++ Programming Guide's formulas,
/// `inc: old >= val ? 0 : old + 1` and `dec: (old == 0 || old > val) ? val : old - 1`.
fn inc_dec_expected(lanes: usize) -> (Vec<Option<i128>>, i128, i128) {
    let (mut inc, mut dec) = (0i128, 1i128);
    let mut olds = Vec::new();
    for _ in 0..lanes {
        olds.push(Some(inc * 100 + dec));
        inc = if inc >= 4 { 0 } else { inc + 1 };
        dec = if dec == 0 || dec > 3 { 3 } else { dec - 1 };
    }
    (olds, inc, dec)
}

#[test]
fn atomic_inc_and_dec_wrap_at_their_bound_in_lane_order() {
    let t = cuda(INC_DEC, 32);
    let (olds, inc, dec) = inc_dec_expected(32);
    // atomicInc counts 0 1 2 3 4 0 1 …; atomicDec goes 1 0 3 2 1 0 3 …: lane 0 sees (0, 1),
    // lane 1 (1, 0), lane 2 (2, 3), lane 5 (0, 0).
    assert_eq!(&olds[..3], &[Some(1), Some(100), Some(203)]);
    assert_eq!(olds[5], Some(0));
    assert_eq!(ints(t.buffer("olds").unwrap()), olds);
    // 32 increments from 0 modulo 5 leave 32 % 5 = 2; the decrement cycle 1 0 3 2 has period 4
    // and 32 steps bring it back to 1.
    assert_eq!((inc, dec), (2, 1));
    assert_eq!(&ints(t.buffer("count").unwrap())[..2], &[Some(2), Some(1)]);
    let notes = notes(&t);
    let note = notes
        .iter()
        .find(|d| d.2.contains("`atomicInc` from several lanes"))
        .expect("the lane-order note of every atomic");
    assert_eq!((note.0, note.1), (5, 16));
}

#[test]
fn hip_atomic_inc_and_dec_on_a_wave64() {
    let t = hip(INC_DEC, 64, 64);
    let (olds, inc, dec) = inc_dec_expected(64);
    assert_eq!(ints(t.buffer("olds").unwrap()), olds);
    // 64 % 5 = 4; 64 steps of the period-4 cycle end at 1.
    assert_eq!((inc, dec), (4, 1));
    assert_eq!(&ints(t.buffer("count").unwrap())[..2], &[Some(4), Some(1)]);
    // The lane-order note cites HIP's own document in a HIP run.
    let notes = notes(&t);
    let note = notes
        .iter()
        .find(|d| d.2.contains("`atomicDec` from several lanes"))
        .expect("the lane-order note");
    assert_eq!(note.3, "HIP C++ language extensions, Atomic functions");
}

#[test]
fn atomic_inc_on_a_signed_cell_is_undefined_with_the_reason() {
    // Neither CUDA nor HIP has atomicInc(int*, …): the cell's new value and the result are
    // undefined, and the note says why.
    let t = cuda(
        "__global__ void k(int *c, int *o) {\n  if (threadIdx.x == 0) o[0] = atomicInc(&c[0], 4u);\n}\n",
        32,
    );
    assert_eq!(ints(t.buffer("o").unwrap())[0], None);
    // Nothing is written: c[0] keeps its launch value (the index fill, 0).
    assert_eq!(ints(t.buffer("c").unwrap())[0], Some(0));
    assert!(notes(&t)
        .iter()
        .any(|d| d.2.contains("`atomicInc`: takes an `unsigned int*`")
            && d.2.contains("this cell holds `int`")));
}

#[test]
fn std_qualified_cstdint_types_read_as_the_unqualified_ones() {
    let t = cuda(
        "#include <cstdint>\n\
         template <typename T> __device__ T twice(T v) { return v + v; }\n\
         __device__ std::uint64_t widen(std::uint32_t x) { return (std::uint64_t)x << 32; }\n\
         __global__ void k(std::uint32_t *out, std::int64_t *wide, ::uint8_t *bytes) {\n\
           std::size_t i = threadIdx.x;\n\
           std::ptrdiff_t d = static_cast<std::ptrdiff_t>(i) - 4;\n\
           ::uint32_t u = (::uint32_t)d;\n\
           out[i] = twice<std::uint32_t>(u);\n\
           wide[i] = (std::int64_t)(widen(1u) >> 31) + (std::int64_t)sizeof(std::int64_t);\n\
           bytes[i] = static_cast<std::uint8_t>(250 + i);\n\
         }\n",
        8,
    );
    // d = i - 4; as uint32_t, i = 0 gives 2^32 - 4; twice doubles modulo 2^32: 2^32 - 8 for
    // i = 0, 2^32 - 2 for i = 3, 0 for i = 4, 6 for i = 7.
    let out: Vec<Option<i128>> = (0..8i128)
        .map(|i| Some(((i - 4) * 2).rem_euclid(1 << 32)))
        .collect();
    assert_eq!(out[0], Some(4_294_967_288));
    assert_eq!(ints(t.buffer("out").unwrap()), out);
    // widen(1) = 2^32; >> 31 = 2; plus sizeof(int64_t) = 8.
    assert_eq!(ints(t.buffer("wide").unwrap()), vec![Some(10); 8]);
    // 250 + i modulo 256: 250 … 255, then 0, 1.
    assert_eq!(
        ints(t.buffer("bytes").unwrap()),
        [250, 251, 252, 253, 254, 255, 0, 1].map(Some)
    );
}

#[test]
fn adjacent_string_literals_are_one_literal() {
    let t = cuda(
        "#include <cstdio>\n\
         #define WHO \"lane \"\n\
         __global__ void k(unsigned *out) {\n\
           static_assert(sizeof(int) == 4, \"int \" \"is \" \"32 bits\");\n\
           unsigned lane;\n\
           asm volatile(\"mov.u32 %0, \" \"%%laneid;\" : \"=r\"(lane));\n\
           out[threadIdx.x] = lane;\n\
           if (threadIdx.x == 2) printf(WHO \"%u\" \" of \" \"%d\\n\", lane, 32);\n\
         }\n",
        32,
    );
    assert_eq!(t.printf.len(), 1);
    assert_eq!(t.printf[0].text, "lane 2 of 32\n");
    assert_eq!(
        ints(t.buffer("out").unwrap()),
        (0..32).map(Some).collect::<Vec<_>>()
    );
    // A failed static_assert shows its message joined.
    let e = run_kernel(
        "__global__ void k(int *o) {\n  static_assert(sizeof(int) == 8, \"int \" \"is \" \"64 bits\");\n  o[0] = 1;\n}\n",
        LaunchConfig::default(),
    )
    .expect_err("the assertion fails");
    assert_eq!((e.line, e.col), (2, 3));
    assert!(
        e.message
            .contains("static_assert failed: \"int is 64 bits\""),
        "{}",
        e.message
    );
}

#[test]
fn operator_temporaries_reach_cg_reduce_and_cub() {
    let t = cuda(
        "#include <cooperative_groups.h>\n\
         #include <cooperative_groups/reduce.h>\n\
         #include <cub/cub.cuh>\n\
         namespace cg = cooperative_groups;\n\
         __global__ void k(float *sum, int *top, int *wsum, int *wmax) {\n\
           auto tile = cg::tiled_partition<16>(cg::this_thread_block());\n\
           int t = threadIdx.x;\n\
           sum[t] = cg::reduce(tile, (float)t * 0.5f, cg::plus<float>{});\n\
           top[t] = cg::reduce(tile, (t * 7) % 16, cg::greater<int>());\n\
           using WR = cub::WarpReduce<int>;\n\
           __shared__ typename WR::TempStorage tmp;\n\
           int a = WR(tmp).Reduce(t, cub::Sum{});\n\
           int b = WR(tmp).Reduce(31 - t, cub::Max());\n\
           if (t == 0) { wsum[0] = a; wmax[0] = b; }\n\
         }\n",
        32,
    );
    // Tile 0 holds t = 0..15: Σ t/2 = 120/2 = 60; tile 1 t = 16..31: (376)/2 = 188.
    let sum: Vec<Option<f64>> = (0..32)
        .map(|t| Some(if t < 16 { 60.0 } else { 188.0 }))
        .collect();
    assert_eq!(floats(&t, "sum"), sum);
    // (t·7) mod 16 over 16 consecutive t is a permutation of 0..15 (7 is odd): the max is 15.
    assert_eq!(ints(t.buffer("top").unwrap()), vec![Some(15); 32]);
    // Σ 0..31 = 496 and max(31 - t) = 31, valid in lane 0 (CUB: warp lane 0's result).
    assert_eq!(ints(t.buffer("wsum").unwrap())[0], Some(496));
    assert_eq!(ints(t.buffer("wmax").unwrap())[0], Some(31));
}

#[test]
fn hipcub_block_reduce_takes_a_sum_temporary() {
    let t = hip(
        "#include <hipcub/hipcub.hpp>\n\
         __global__ void k(int *out) {\n\
           using BR = hipcub::BlockReduce<int, 128>;\n\
           __shared__ typename BR::TempStorage tmp;\n\
           int total = BR(tmp).Reduce((int)threadIdx.x, hipcub::Sum());\n\
           int most = BR(tmp).Reduce((int)threadIdx.x % 50, hipcub::Max{});\n\
           if (threadIdx.x == 0) { out[0] = total; out[1] = most; }\n\
         }\n",
        64,
        128,
    );
    // Σ 0..127 = 127·128/2 = 8128; max of t mod 50 over 0..127 is 49.
    assert_eq!(
        &ints(t.buffer("out").unwrap())[..2],
        &[Some(8128), Some(49)]
    );
}

#[test]
fn a_user_functor_temporary_is_called_through_the_template_parameter() {
    let t = cuda(
        "template <typename T> struct MaxOp {\n\
           __device__ T operator()(const T &a, const T &b) const { return a > b ? a : b; }\n\
         };\n\
         struct MinOp {\n\
           __device__ float operator()(float a, float b) const { return a < b ? a : b; }\n\
         };\n\
         template <typename T, typename Op>\n\
         __device__ T warp_reduce(T v, Op op) {\n\
           for (int o = 16; o > 0; o >>= 1) v = op(v, __shfl_xor_sync(0xffffffffu, v, o));\n\
           return v;\n\
         }\n\
         __global__ void k(float *hi, float *lo, int *ihi) {\n\
           int t = threadIdx.x;\n\
           float x = (float)((t * 11) % 32) - 8.5f;\n\
           hi[t] = warp_reduce(x, MaxOp<float>{});\n\
           lo[t] = warp_reduce(x, MinOp());\n\
           ihi[t] = warp_reduce<int>(t * 3, MaxOp<int>());\n\
         }\n",
        32,
    );
    // (t·11) mod 32 is a permutation of 0..31 (11 is odd): max 31 - 8.5 = 22.5, min -8.5.
    assert_eq!(floats(&t, "hi"), vec![Some(22.5); 32]);
    assert_eq!(floats(&t, "lo"), vec![Some(-8.5); 32]);
    assert_eq!(ints(t.buffer("ihi").unwrap()), vec![Some(93); 32]);
}

#[test]
fn hip_legacy_index_macros_are_the_built_in_variables() {
    let t = run_with(
        "#include <hip/hip_runtime.h>\n\
         __global__ void k(int *out) {\n\
           int i = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x;\n\
           out[i] = hipGridDim_x * 1000 + hipBlockDim_y * 100 + hipThreadIdx_y + hipBlockIdx_z;\n\
         }\n",
        LaunchConfig {
            dialect: Some(Dialect::Hip),
            lanes: Some(64),
            block_dim: Some([64, 1, 1]),
            grid_dim: Some([2, 1, 1]),
            ..LaunchConfig::default()
        },
    );
    // gridDim.x = 2, blockDim.y = 1, threadIdx.y = blockIdx.z = 0: 2100 in all 128 cells.
    assert_eq!(ints(t.buffer("out").unwrap()), vec![Some(2100); 128]);
    // CUDA has no such names (they are hip_runtime.h's).
    let e = run_kernel(
        "__global__ void k(int *o) { o[hipThreadIdx_x] = 1; }\n",
        LaunchConfig {
            dialect: Some(Dialect::Cuda),
            ..LaunchConfig::default()
        },
    )
    .expect_err("not a CUDA name");
    assert!(
        e.message.contains("`hipThreadIdx_x` is not declared"),
        "{}",
        e.message
    );
}

#[test]
fn positions_inside_macros_and_synthesized_barriers_are_the_sources() {
    // 64 threads, two warps; `t < 40` splits warp 1 (lanes 32..39 in, 40..63 out), so both
    // barriers inside the `if` are in divergent code. The macro's `b.sync()` is a
    // __syncthreads whose `b` is the argument `block` at 10:20; BlockScan's barriers are
    // synthesized at its call, 14:5.
    let src = r#"#include <cooperative_groups.h>
#include <cub/cub.cuh>
namespace cg = cooperative_groups;
#define SYNC_BLOCK(b) b.sync()
#define SYNC() __syncthreads()
__global__ void k(int *out) {
    auto block = cg::this_thread_block();
    using BS = cub::BlockScan<int, 64>;
    __shared__ typename BS::TempStorage tmp;
    int t = threadIdx.x, v = 0;
    if (t < 40) { SYNC_BLOCK(block);
                  SYNC(); v = 1; }
    int x = t;
    BS(tmp).ExclusiveSum(x, v);
    out[t] = v;
}
"#;
    // The barriers in divergent code end the run unless it keeps going.
    let t = run_with(
        src,
        LaunchConfig {
            dialect: Some(Dialect::Cuda),
            block_dim: Some([64, 1, 1]),
            keep_going: true,
            ..LaunchConfig::default()
        },
    );
    // The exclusive sum of t: t(t-1)/2.
    let out: Vec<Option<i128>> = (0..64i128).map(|t| Some(t * (t - 1) / 2)).collect();
    assert_eq!(ints(t.buffer("out").unwrap()), out);
    let notes = notes(&t);
    let divergent = |line: u32, col: u32| {
        notes.iter().any(|d| {
            (d.0, d.1) == (line, col)
                && d.2.starts_with(
                    "`__syncthreads` in divergent code: lane(s) 8-31 of warp 1 do not reach it",
                )
        })
    };
    assert!(divergent(11, 30), "{notes:#?}");
    assert!(divergent(12, 19), "{notes:#?}");
    assert!(notes
        .iter()
        .any(|d| (d.0, d.1) == (14, 5) && d.2.starts_with("warp 0 waits at the barrier")));
    // No position anywhere — notes, merged notes, steps — lies past the source's lines.
    let longest = src.lines().map(|l| l.chars().count() as u32).max().unwrap();
    for d in &notes {
        assert!(d.1 <= longest, "{d:?}");
    }
    for s in &t.steps {
        assert!(s.col <= longest, "step {} at {}:{}", s.index, s.line, s.col);
    }
}

#[test]
fn positions_inside_a_pack_expansion_are_the_sources() {
    // The fold `(f(xs) + ...)` is expanded once per pack element, each copy's nodes told
    // apart by a synthetic column; the notes on it show the fold's own column, 4:13. `y` is
    // set only where a > 2, so f(t) is undefined in lanes 0-2 and f(1) everywhere.
    let src = r#"template <typename... Ts>
__device__ int total(Ts... xs) {
    auto f = [&](int a) { int y; if (a > 2) y = 0; return a + y; };
    return (f(xs) + ...);
}
__global__ void k(int *out) {
    int t = threadIdx.x;
    out[t] = total(t, 1);
}
"#;
    let t = cuda(src, 32);
    assert_eq!(ints(t.buffer("out").unwrap()), vec![None; 32]);
    let notes = notes(&t);
    assert!(
        notes.iter().any(|d| (d.0, d.1) == (4, 13)
            && d.2.starts_with("`lambda#")
            && d.2.contains("@3:14::operator()()` is read uninitialized")),
        "{notes:#?}"
    );
    let longest = src.lines().map(|l| l.chars().count() as u32).max().unwrap();
    for d in &notes {
        assert!(d.1 <= longest, "{d:?}");
    }
    for s in &t.steps {
        assert!(s.col <= longest, "step {} at {}:{}", s.index, s.line, s.col);
    }
}

#[test]
fn syncwarp_notes_name_only_the_dialects_own_memory_model() {
    let src = "__global__ void k(int *out) {\n\
  if (threadIdx.x < 16) { __syncwarp(); __threadfence(); }\n\
  out[threadIdx.x] = 1;\n\
}\n";
    for t in [cuda(src, 32), hip(src, 64, 64)] {
        let all = notes(&t);
        let notes: Vec<&str> = all
            .iter()
            .filter(|d| d.0 == 2)
            .map(|d| d.2.as_str())
            .collect();
        assert!(
            notes
                .iter()
                .any(|m| m.starts_with("`__syncwarp` here orders memory only")),
            "{notes:?}"
        );
        assert!(
            notes
                .iter()
                .any(|m| m.starts_with("`__threadfence` only orders memory")),
            "{notes:?}"
        );
        for d in &all {
            assert!(!d.2.contains("MACA"), "{}", d.2);
            assert!(!d.3.contains("seed 002"), "{}", d.3);
        }
    }
}

/// C++'s alternative tokens (C++17 [lex.digraph]/2, table 2), as tilelang-style headers write
/// them in conditions and `static_assert`s, and in `#if`.
#[test]
fn alternative_tokens_are_the_operators_they_spell() {
    let t = cuda(
        "#if defined(__CUDACC__) and not defined(NOPE)\n\
         #define PICK 1\n\
         #else\n\
         #define PICK 0\n\
         #endif\n\
         __global__ void k(int *o, int *b) {\n\
           int t = threadIdx.x;\n\
           static_assert(PICK == 1 or PICK == 2, \"the first branch\");\n\
           o[t] = (t > 3 and t < 9) or not (t % 2);\n\
           int x = t bitand 6;\n\
           x xor_eq 1;\n\
           x or_eq 8;\n\
           b[t] = (x bitor compl 0) not_eq -1 ? -5 : x xor t;\n\
         }\n",
        16,
    );
    // o: lanes 4..=8 pass the range test; the others pass when t is even.
    let want: Vec<Option<i128>> = (0..16)
        .map(|t| Some(i128::from((t > 3 && t < 9) || t % 2 == 0)))
        .collect();
    assert_eq!(ints(t.buffer("o").unwrap()), want);
    // x = ((t & 6) ^ 1) | 8; x | ~0 is -1, so the condition is false and b = x ^ t.
    let want: Vec<Option<i128>> = (0..16i128).map(|t| Some((((t & 6) ^ 1) | 8) ^ t)).collect();
    assert_eq!(ints(t.buffer("b").unwrap()), want);
}

/// HIP's `__hip_ds_*` wrappers (ROCm amd_warp_functions.h) are the builtins they wrap:
/// swizzle pattern 0x1e0 is bitmask mode with and 0, or 15, xor 0, so every lane reads lane 15
/// (seed 003, ds_swizzle_b32); `__hip_ds_bpermute` takes a byte address, lane × 4.
#[test]
fn hip_ds_wrappers_are_the_builtins() {
    let t = hip(
        "__global__ void k(int *s, float *f, int *b) {\n\
           int t = threadIdx.x;\n\
           s[t] = __hip_ds_swizzle(t, 0x1e0);\n\
           f[t] = __hip_ds_swizzlef(t * 0.5f, 0x1e0);\n\
           b[t] = __hip_ds_bpermute((t ^ 1) << 2, t * 10);\n\
         }\n",
        32,
        32,
    );
    assert_eq!(ints(t.buffer("s").unwrap()), vec![Some(15); 32]);
    let f: Vec<Option<f64>> = t
        .buffer("f")
        .unwrap()
        .iter()
        .map(|c| c.as_ref().and_then(KVal::as_f64))
        .collect();
    assert_eq!(f, vec![Some(7.5); 32]);
    let want: Vec<Option<i128>> = (0..32).map(|t| Some((t ^ 1) * 10)).collect();
    assert_eq!(ints(t.buffer("b").unwrap()), want);
}

/// A reference parameter names its referent ([dcl.ref]/1), so a template called with it
/// deduces the value's type ([temp.deduct.call]/3) and `__builtin_bit_cast` sees a `float`:
/// generic helpers that forward `T&` / `const T&` (composable_kernel's warp shuffles,
/// MIGraphX's DPP reductions).
#[test]
fn reference_parameters_deduce_and_bit_cast_as_their_values() {
    let t = cuda(
        "template <class T> __device__ T mymax(T a, T b) { return a > b ? a : b; }\n\
         template <class T> __device__ void upd(T& best, const T& cand) { best = mymax(best, cand); }\n\
         template <typename Y, typename X> __device__ Y bc(const X& x) { return __builtin_bit_cast(Y, x); }\n\
         __global__ void k(float *o, int *bits) {\n\
           float b = 1.5f;\n\
           upd(b, (float)threadIdx.x);\n\
           o[threadIdx.x] = b;\n\
           float one = 1.0f;\n\
           bits[threadIdx.x] = bc<int>(one);\n\
         }\n",
        4,
    );
    // max(1.5, t): 1.5 1.5 2 3.
    let o: Vec<Option<f64>> = t
        .buffer("o")
        .unwrap()
        .iter()
        .map(|c| c.as_ref().and_then(KVal::as_f64))
        .collect();
    assert_eq!(o, vec![Some(1.5), Some(1.5), Some(2.0), Some(3.0)]);
    // 1.0f is 0x3F800000 = 1065353216 (IEEE 754 binary32).
    assert_eq!(
        ints(t.buffer("bits").unwrap()),
        vec![Some(1_065_353_216); 4]
    );
}

/// The toolkit version macros code gates on: CUDA 12.4's `CUDART_VERSION` (12040, from the
/// `cuda_runtime.h` nvcc force-includes) and nvcc's `__CUDACC_VER_MAJOR__`; ROCm 6.2's
/// `HIP_VERSION` (hip/hip_version.h: 6 × 10^7 + 2 × 10^5 + 41133).
#[test]
fn toolkit_version_macros_take_the_current_branch() {
    let t = cuda(
        "__global__ void k(int *o) {\n\
         #if CUDART_VERSION >= 9000 && __CUDACC_VER_MAJOR__ >= 12\n\
           o[threadIdx.x] = __shfl_sync(0xffffffff, (int)threadIdx.x + 10, 0);\n\
         #else\n\
           o[threadIdx.x] = -1;\n\
         #endif\n\
         }\n",
        4,
    );
    assert_eq!(ints(t.buffer("o").unwrap()), vec![Some(10); 4]);
    let t = hip(
        "__global__ void k(int *o) { o[threadIdx.x] = HIP_VERSION / 100000; }\n",
        64,
        4,
    );
    assert_eq!(ints(t.buffer("o").unwrap()), vec![Some(602); 4]);
}
