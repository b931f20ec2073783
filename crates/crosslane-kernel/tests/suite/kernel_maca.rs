//! MetaX MACA seed kernels (seed 002 §3.x, verbatim in examples_kernels/) on 64-lane warps.
//!
//! The barrier tests need no MACA operation; the others run the MACA builtins through their
//! `OpSpec`s (dialect/maca.rs) and pass once that dialect is merged.

use crate::cells::cell_ints as ints;
use crate::support::no_errors;
use crosslane_core::{Dialect, Level};
use crosslane_kernel::{run_kernel, KVal, KernelTrace, LaunchConfig, Outcome};

fn maca(src: &str, args: &[(&str, &str)]) -> KernelTrace {
    let mut config = LaunchConfig {
        dialect: Some(Dialect::Maca),
        ..LaunchConfig::default()
    };
    for (k, v) in args {
        config.args.insert((*k).to_string(), (*v).to_string());
    }
    run_kernel(src, config).expect("kernel parses and launches")
}

/// The device function's result (`return`) in every lane of warp 0.
fn returned(t: &KernelTrace) -> Vec<Option<i128>> {
    (0..t.launch.lanes)
        .map(|l| {
            t.value_of("return", 0, l)
                .and_then(|v| v.as_ref().ok())
                .and_then(KVal::as_int)
        })
        .collect()
}

#[test]
fn barrier_ex_swap_as_printed_reports_its_index_fault() {
    // Seed 002 §3.1.9 indexes `threadIdx.x + blockIdx.x + blockDim.x` (semantics.md, known
    // defects): with 2 warps of 64 threads every `id` is 128..255, past `sharedData[128]`.
    let mut config = LaunchConfig {
        dialect: Some(Dialect::Maca),
        block_dim: Some([128, 1, 1]),
        ..LaunchConfig::default()
    };
    config.buffer_len.insert("data".into(), 128);
    let t = run_kernel(
        include_str!("../../examples_kernels/maca_3_1_9_barrier_ex.cpp"),
        config,
    )
    .unwrap();
    assert_eq!(t.outcome, Some(Outcome::Finished));
    let oob = t
        .all_diagnostics()
        .find(|d| d.message.contains("writes `sharedData` outside"))
        .expect("out-of-bounds diagnostic");
    assert_eq!(oob.line, 7);
    // Both warps reached the barrier before either read shared memory.
    let waits = t
        .steps
        .iter()
        .filter(|s| {
            s.diagnostics
                .iter()
                .any(|d| d.message.contains("waits at the barrier"))
        })
        .count();
    assert_eq!(waits, 2);
}

#[test]
fn barrier_ex_swap_with_the_index_fixed_swaps_the_warps() {
    // The same kernel with `blockIdx.x * blockDim.x`: warp 0 and warp 1 exchange data through
    // shared memory, which only works because the barrier holds warp 0 until warp 1 has written.
    let src = include_str!("../../examples_kernels/maca_3_1_9_barrier_ex.cpp")
        .replace("blockIdx.x + blockDim.x", "blockIdx.x * blockDim.x");
    let config = LaunchConfig {
        dialect: Some(Dialect::Maca),
        block_dim: Some([128, 1, 1]),
        ..LaunchConfig::default()
    };
    let t = run_kernel(&src, config).unwrap();
    no_errors(&t);
    let data = ints(t.buffer("data").unwrap());
    let expected: Vec<Option<i128>> = (0..128).map(|i| Some((i + 64) % 128)).collect();
    assert_eq!(data, expected);
    assert!(t.all_diagnostics().all(|d| d.level != Level::Warning));
}

#[test]
fn mov_shfl_row_mirror_reverses_every_16_lanes() {
    let t = maca(
        include_str!("../../examples_kernels/maca_3_4_1_mov_shfl.cpp"),
        &[],
    );
    assert_eq!(t.launch.lanes, 64);
    no_errors(&t);
    let expected: Vec<Option<i128>> = (0..64).map(|n| Some(n ^ 0xf)).collect();
    assert_eq!(returned(&t), expected);
}

#[test]
fn update_shfl_shift_left_8_fills_100() {
    let t = maca(
        include_str!("../../examples_kernels/maca_3_4_2_update_shfl.cpp"),
        &[],
    );
    no_errors(&t);
    let expected: Vec<Option<i128>> = (0..64)
        .map(|n| Some(if n & 15 < 8 { n + 8 } else { 100 }))
        .collect();
    assert_eq!(returned(&t), expected);
}

#[test]
fn update_shlf_misspelling_runs_as_update_shfl() {
    let src = "__device__ int f(int val) {\n  return __builtin_mxc_update_shlf(100, val, 0x108, 0xf, 0xf, true);\n}";
    let t = maca(src, &[]);
    assert_eq!(returned(&t)[0], Some(8));
    let d = t
        .all_diagnostics()
        .find(|d| d.message.contains("update_shlf"))
        .expect("alias note");
    assert_eq!((d.line, d.level), (2, Level::Info));
}

#[test]
fn bsm_bpermute_reverses_with_index_63_minus_n_times_4() {
    let index: Vec<String> = (0..64).map(|n| ((63 - n) * 4).to_string()).collect();
    let t = maca(
        include_str!("../../examples_kernels/maca_3_4_3_bsm_bpermute.cpp"),
        &[("index", &index.join(","))],
    );
    no_errors(&t);
    let expected: Vec<Option<i128>> = (0..64).map(|n| Some(63 - n)).collect();
    assert_eq!(returned(&t), expected);
}

#[test]
fn byte_perm_reverses_bytes() {
    let t = maca(
        include_str!("../../examples_kernels/maca_3_4_5_byte_perm.cpp"),
        &[("data", "0x11223344")],
    );
    no_errors(&t);
    assert_eq!(returned(&t)[5], Some(0x4433_2211));
}

#[test]
fn readfirstlane_reads_lane_32_and_reports_the_uninitialized_tmp() {
    let t = maca(
        include_str!("../../examples_kernels/maca_3_8_3_readfirstlane.cpp"),
        &[],
    );
    // Lanes 32-63 take the branch; the first of them is 32, so tmp = input[32] = 32 there.
    assert_eq!(
        t.value_of("tmp", 0, 40)
            .unwrap()
            .as_ref()
            .ok()
            .and_then(KVal::as_int),
        Some(32)
    );
    // Lanes 0-31 store their uninitialized tmp (semantics.md: a seed fault the playground shows).
    let d = t
        .all_diagnostics()
        .find(|d| d.message.contains("`tmp` is read uninitialized"))
        .expect("uninitialized read");
    assert_eq!(d.line, 9);
    assert!(d.message.contains("lanes 0-31"), "{}", d.message);
    // output[0] is written by all 64 lanes; the last writer (lane 63) holds input[32].
    assert_eq!(ints(t.buffer("output").unwrap())[0], Some(32));
}

#[test]
fn alignbit_in_divergent_branches() {
    let t = maca(
        include_str!("../../examples_kernels/maca_3_7_6_alignbit.cpp"),
        &[],
    );
    no_errors(&t);
    // ({2, 1} >> 8) and ({2, 1} >> 4) as 32-bit results (seed 002 §3.7.6 算法).
    let res = ints(t.buffer("res").unwrap());
    assert_eq!(res.len(), 64);
    for (n, got) in res.iter().enumerate() {
        let expected = if n & 1 == 1 { 0x0200_0000 } else { 0x2000_0000 };
        assert_eq!(*got, Some(expected), "lane {n}");
    }
}

fn maca_block(src: &str, block: usize, args: &[(&str, &str)]) -> KernelTrace {
    let mut config = LaunchConfig {
        dialect: Some(Dialect::Maca),
        block_dim: Some([block, 1, 1]),
        ..LaunchConfig::default()
    };
    for (k, v) in args {
        config.args.insert((*k).to_string(), (*v).to_string());
    }
    run_kernel(src, config).expect("kernel parses and launches")
}

fn floats(cells: &[Option<KVal>]) -> Vec<Option<f64>> {
    cells
        .iter()
        .map(|c| c.as_ref().and_then(KVal::as_f64))
        .collect()
}

fn components(cell: &Option<KVal>) -> Vec<f64> {
    match cell {
        Some(KVal::Vector { items, .. }) => items.iter().filter_map(KVal::as_f64).collect(),
        _ => Vec::new(),
    }
}

#[test]
fn pk_fma_f32_runs_per_component() {
    // Values of tests/maca_examples.json "maca-3.5.1-pk-fma-f32": (3, 1.5)·(2, 2) + (0.5, −1).
    let t = maca_block(
        include_str!("../../examples_kernels/maca_3_5_1_pk_fma_f32.cpp"),
        1,
        &[("a", "3:1.5"), ("b", "2:2"), ("c", "0.5:-1")],
    );
    no_errors(&t);
    assert_eq!(components(&t.buffer("d").unwrap()[0]), vec![6.5, 2.0]);
    assert_eq!(t.steps[0].ops.len(), 2, "one op step per component");
}

#[test]
fn pk_mul_f32_per_thread() {
    let t = maca_block(
        include_str!("../../examples_kernels/maca_3_7_2_pk_mul_f32.cpp"),
        4,
        &[("output", "0.5:2")],
    );
    no_errors(&t);
    let out = t.buffer("output").unwrap();
    for (i, cell) in out.iter().enumerate() {
        assert_eq!(components(cell), vec![i as f64 * 0.5, i as f64 * 2.0]);
    }
}

#[test]
fn bf16_builtins_take_the_seeds_f16_typed_values() {
    let t = maca_block(
        include_str!("../../examples_kernels/maca_3_5_2_pk_fma_bf16.cpp"),
        1,
        &[("a", "1.5:-2"), ("b", "2:3"), ("c", "0.25:1")],
    );
    assert_eq!(components(&t.buffer("d").unwrap()[0]), vec![3.25, -5.0]);
    assert!(t
        .all_diagnostics()
        .any(|d| d.level == Level::Info && d.message.contains("converted by value")));
    let t = maca_block(
        include_str!("../../examples_kernels/maca_3_5_4_fma_bf16.cpp"),
        1,
        &[("a", "3"), ("b", "3"), ("c", "0.5")],
    );
    assert_eq!(floats(t.buffer("d").unwrap()), vec![Some(9.5)]);
}

#[test]
fn mad_wide_log_clamp_and_compares() {
    let t = maca_block(
        include_str!("../../examples_kernels/maca_3_7_1_mad_wide_i32_u32.cpp"),
        1,
        &[("a", "-2147483648"), ("b", "2"), ("c", "5")],
    );
    assert_eq!(ints(t.buffer("d").unwrap()), vec![Some(-4_294_967_291)]);
    let t = maca_block(
        include_str!("../../examples_kernels/maca_3_7_12_log_clampf.cpp"),
        1,
        &[("f1", "8")],
    );
    assert_eq!(floats(t.buffer("fres").unwrap()), vec![Some(1.0)]);
    // uicmp (a == b) and uicmpl (x != y) in all 64 lanes: every bit set.
    let t = maca_block(
        include_str!("../../examples_kernels/maca_3_2_1_uicmp.cpp"),
        64,
        &[("a", "7"), ("b", "7"), ("x", "1"), ("y", "2")],
    );
    no_errors(&t);
    assert_eq!(ints(t.buffer("res").unwrap()), vec![Some(u64::MAX as i128)]);
    assert_eq!(
        ints(t.buffer("lres").unwrap()),
        vec![Some(u64::MAX as i128)]
    );
}

#[test]
fn conversions_write_the_documented_bits() {
    let t = maca_block(
        include_str!("../../examples_kernels/maca_3_3_2_cvt_pk_f32tou8.cpp"),
        1,
        &[
            ("out", "0xdeadbeef"),
            ("a", "1.0"),
            ("b", "2.4"),
            ("c", "3.5"),
            ("d", "300.0"),
        ],
    );
    no_errors(&t);
    // 4278452737 = 0xff040201 as the int it is stored in.
    assert_eq!(
        ints(t.buffer("out").unwrap()),
        vec![Some(0xff04_0201u32 as i32 as i128)]
    );
    let mut config = LaunchConfig {
        dialect: Some(Dialect::Maca),
        block_dim: Some([1, 1, 1]),
        ..LaunchConfig::default()
    };
    config.args.insert("in".into(), "80216577".into());
    config.buffer_len.insert("out".into(), 4);
    let t = run_kernel(
        include_str!("../../examples_kernels/maca_3_3_3_b_cast_to_f32.cpp"),
        config,
    )
    .unwrap();
    no_errors(&t);
    assert_eq!(
        floats(t.buffer("out").unwrap()),
        vec![Some(1.0), Some(2.0), Some(200.0), Some(4.0)]
    );
}

/// The seed's MMA examples (§3.6.1-3.6.7) leave their matrix registers unset: the scalar
/// operands take each lane's index, the vector ones (`v4f16 a`, `v4f32 c`) are undefined,
/// and every D element read from an undefined one is undefined with that reason, not an
/// argument error.
#[test]
fn mma_seed_examples_run_with_undefined_registers_shown_as_such() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/examples_kernels");
    for name in [
        "maca_3_6_1_mma_16x16x16f16.cpp",
        "maca_3_6_2_mma_16x16x4f32.cpp",
        "maca_3_6_3_mma_16x16x16i8.cpp",
        "maca_3_6_4_mma_16x16x32i8.cpp",
        "maca_3_6_5_mma_16x16x16bf16.cpp",
        "maca_3_6_6_mma_16x16x4f64.cpp",
        "maca_3_6_7_mma_16x16x8tf32.cpp",
    ] {
        let src = std::fs::read_to_string(format!("{dir}/{name}")).expect("seed example");
        let t = maca(&src, &[]);
        assert_eq!(t.outcome, Some(Outcome::Finished), "{name}");
        assert!(
            !t.all_diagnostics().any(|d| d.level == Level::Error),
            "{name}"
        );
        for l in [0, 37, 63] {
            let why = match t.value_of("return", 0, l) {
                Some(Err(u)) => u.why.clone(),
                other => panic!("{name}: lane {l} should be undefined, got {other:?}"),
            };
            assert!(
                why.contains("is undefined") && why.contains("is not set"),
                "{why}"
            );
        }
    }
}

#[test]
fn mma_from_lane_registers_follows_the_layout() {
    // Independent model, from the layout mma_layout.rs documents for 16x16x4f32 (e = 1):
    // A[i][k] is lane 16k + i's `a`, B[k][j] lane 16k + j's `b`, C[i][j] register i mod 4 of
    // lane 16 floor(i / 4) + j; D[i][j] = C[i][j] + sum_k A[i][k] B[k][j], every product and
    // sum exact here (small multiples of 1/2). Lane 5 skips the call: A[5][*], B[*][5] and
    // C[0..3][5] are undefined, so D[i][j] is undefined where i = 5 or j = 5; a lane whose
    // four registers include one undefined element gets an undefined vector.
    let src = "\
using v4f32 = __NATIVE_VECTOR__(4, float);
__global__ void k(float* out) {
  int l = threadIdx.x;
  float a = (float)(l % 7) - 3.0f;
  float b = (float)(l % 5) * 0.5f;
  v4f32 c;
  c[0] = 1.0f; c[1] = 2.0f; c[2] = 3.0f; c[3] = (float)l;
  if (l != 5) {
    v4f32 d = __builtin_mxc_mma_16x16x4f32(a, b, c);
    for (int r = 0; r < 4; ++r) out[4 * l + r] = d[r];
  }
}";
    let mut config = LaunchConfig {
        dialect: Some(Dialect::Maca),
        ..LaunchConfig::default()
    };
    config.buffer_len.insert("out".into(), 256);
    config.args.insert("out".into(), "-1000".into());
    let t = run_kernel(src, config).expect("runs");
    let a = |l: usize| (l % 7) as f64 - 3.0;
    let b = |l: usize| (l % 5) as f64 * 0.5;
    let c = |l: usize, r: usize| [1.0, 2.0, 3.0, l as f64][r];
    let out = t.buffer("out").expect("out");
    for l in 0..64 {
        for r in 0..4 {
            let (i, j) = (4 * (l / 16) + r, l % 16);
            let cell = out[4 * l + r].as_ref().and_then(KVal::as_f64);
            let want = if l == 5 {
                Some(-1000.0)
            } else if (4 * (l / 16)..4 * (l / 16) + 4).contains(&5) || j == 5 {
                None
            } else {
                let cij = c(16 * (i / 4) + j, i % 4);
                Some(cij + (0..4).map(|k| a(16 * k + i) * b(16 * k + j)).sum::<f64>())
            };
            assert_eq!(cell, want, "lane {l} register {r} (D[{i}][{j}])");
        }
    }
}

/// MACA's `*_sync` functions take a 64-bit mask over the 64-thread warp (seed 002 §3.4.1: a
/// warp is 64 threads), as HIP's do on a wave64: a butterfly over offsets 32, 16, …, 1 sums
/// all 64 lanes (0 + 1 + … + 63 = 2016), and a ballot names all 64 lanes.
#[test]
fn sync_functions_span_the_64_thread_warp() {
    let t = maca(
        "__global__ void k(int *o, unsigned long long *b) {\n\
           int v = threadIdx.x;\n\
           for (int m = 32; m > 0; m >>= 1) v += __shfl_xor_sync(0xffffffffffffffffull, v, m);\n\
           o[threadIdx.x] = v;\n\
           b[threadIdx.x] = __ballot_sync(~0ull, threadIdx.x >= 60);\n\
         }\n",
        &[],
    );
    no_errors(&t);
    assert_eq!(t.launch.lanes, 64);
    assert_eq!(ints(t.buffer("o").unwrap()), vec![Some(2016); 64]);
    // Lanes 60..63: bits 60-63, 0xF000000000000000.
    assert_eq!(
        ints(t.buffer("b").unwrap()),
        vec![Some(0xF000_0000_0000_0000); 64]
    );
}

/// mxcc predefines `__MACA__` (and `__MACACC__`, `__MACA_ARCH__` = 1000 in a device compile for
/// xcore1000; `kernel/pp/predefined.rs`), so MACA code's own branch runs: WARP_SIZE 64, and
/// the xor butterfly 32, 16, …, 1 over 64 lanes of ones sums to 64 in every lane (the CUDA
/// branch, 32 wide, would give 32).
#[test]
fn maca_code_takes_its_own_branch_of_maca_macros() {
    let src = "\
#if defined(__MACA__) && defined(__MACACC__) && __MACA_ARCH__ == 1000
#define WARP_SIZE 64
#else
#define WARP_SIZE 32
#endif
__global__ void k(float* x, float* o) {
  float v = x[threadIdx.x];
  for (int m = WARP_SIZE / 2; m > 0; m >>= 1) v += __shfl_xor_sync(0xffffffffffffffffull, v, m, WARP_SIZE);
  o[threadIdx.x] = v;
}";
    let mut config = crate::support::launch(Dialect::Maca, 64, &[("x", 64, "1"), ("o", 64, "0")]);
    config.lanes = Some(64);
    let t = crate::support::run_finished(src, config);
    assert_eq!(crate::support::floats(&t, "o"), vec![Some(64.0); 64]);
}

/// MACA's host runtime (`mcMalloc`, `mcMemcpy`, `mcDeviceSynchronize`, `mcFree`) is read as
/// CUDA's: A gets the host's 64 ones, so the butterfly over 64 lanes gives B = 64 everywhere;
/// `mcMemset(C, 0, …)` makes C's 64 ints zero, and the kernel adds lane + 1: C[i] = i + 1.
#[test]
fn maca_host_runtime_calls_fill_the_buffers() {
    let src = "\
#include <mc_runtime.h>
__global__ void k(float* A, float* B, int* C) {
  float v = A[threadIdx.x];
  for (int o = 32; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffffffffffull, v, o, 64);
  B[threadIdx.x] = v;
  C[threadIdx.x] += threadIdx.x + 1;
}
int main() {
  float *A, *B;
  int *C;
  float hA[64];
  for (int i = 0; i < 64; ++i) hA[i] = 1.0f;
  mcMalloc((void**)&A, 64 * sizeof(float));
  mcMalloc((void**)&B, 64 * sizeof(float));
  mcMalloc((void**)&C, 64 * sizeof(int));
  mcMemcpy(A, hA, sizeof(hA), mcMemcpyHostToDevice);
  mcMemset(C, 0, 64 * sizeof(int));
  k<<<1, 64>>>(A, B, C);
  mcDeviceSynchronize();
  mcFree(A);
  mcFree(B);
  mcFree(C);
}";
    let t = crate::support::run_finished(src, LaunchConfig::default());
    assert_eq!(t.launch.block_dim, [64, 1, 1]);
    assert_eq!(crate::support::floats(&t, "B"), vec![Some(64.0); 64]);
    let want: Vec<Option<i128>> = (1..=64).map(Some).collect();
    assert_eq!(crate::support::ints(&t, "C"), want);
}
