//! AMD's RDNA lane permutes called from HIP kernels: `__builtin_amdgcn_permlane16`,
//! `__builtin_amdgcn_permlanex16` (GFX10+) and `__builtin_amdgcn_permlane64` (GFX11+), run by
//! the registry's `v_permlane*_b32` ops. Every expected value is derived by hand from the AMD
//! RDNA3 ISA's pseudo-code (16.12 VOP3, V_PERMLANE16_B32 / V_PERMLANEX16_B32; RDNA3.5 ISA 16.8 VOP1,
//! V_PERMLANE64_B32) in the comment beside it, never from crosslane's output.

use crate::cells::cell_ints as ints;
use crosslane_core::op::Dialect;
use crosslane_kernel::{run_kernel, KernelTrace, LaunchConfig, Outcome};

fn launch(arch: Option<&str>, lanes: Option<usize>, threads: usize) -> LaunchConfig {
    let mut c = LaunchConfig {
        dialect: Some(Dialect::Hip),
        lanes,
        block_dim: Some([threads, 1, 1]),
        ..LaunchConfig::default()
    };
    c.preprocess.arch = arch.map(str::to_string);
    c.buffer_len.insert("o".into(), threads);
    c.args.insert("o".into(), "0".into());
    c
}

fn run(src: &str, config: LaunchConfig) -> KernelTrace {
    let t = run_kernel(src, config).expect("kernel parses and launches");
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    t
}

/// The ISA's own example for V_PERMLANE16_B32: `s0 = 0x87654321, s1 = 0x0fedcba9` rotates each
/// row by one: "v1.lane[0] <- v0.lane[1] … v1.lane[15] <- v0.lane[0]", row 1 the same
/// (lane 16 <- 17 … lane 31 <- 16). With src = lane id the result is
/// `16 * (i / 16) + (i % 16 + 1) % 16`.
#[test]
fn permlane16_rotates_each_row_as_the_isa_example() {
    let src = "__global__ void k(unsigned *o) {
  unsigned t = threadIdx.x;
  o[t] = __builtin_amdgcn_permlane16(0u, t, 0x87654321u, 0x0fedcba9u, false, false);
}
";
    let t = run(src, launch(Some("gfx1100"), None, 32));
    let want: Vec<Option<i128>> = (0..32)
        .map(|i| Some(16 * (i / 16) + (i % 16 + 1) % 16))
        .collect();
    assert_eq!(ints(t.buffer("o").unwrap()), want);
}

/// V_PERMLANEX16_B32 reads the other row of the pair (`altrow = { row[1], ~row[0] }`): with
/// the identity selects `0x76543210, 0xfedcba98` lane i reads lane `i ^ 16`. On wave64 rows
/// 2 and 3 pair up, so lane 33 reads 49 and lane 63 reads 47; src = 100 + lane.
#[test]
fn permlanex16_swaps_the_rows_of_each_pair_on_wave64() {
    let src = "__global__ void k(unsigned *o) {
  unsigned t = threadIdx.x;
  o[t] = __builtin_amdgcn_permlanex16(0u, 100u + t, 0x76543210u, 0xfedcba98u, false, false);
}
";
    let t = run(src, launch(Some("gfx1030"), Some(64), 64));
    let want: Vec<Option<i128>> = (0..64).map(|i| Some(100 + (i ^ 16))).collect();
    assert_eq!(ints(t.buffer("o").unwrap()), want);
}

/// Inactive sources, with lanes 8..15 of row 0 off (`if (t < 8 || t >= 16)`) and the swap
/// selects of lane i ^ 8 (sel_lo = 0xfedcba98, sel_hi = 0x76543210: nibble i is (i + 8) & 15).
/// Lanes 0..7 read lanes 8..15, which are inactive:
/// * fi = 0, bound_ctrl = 0: the lane keeps `old` (here 7);
/// * fi = 0, bound_ctrl = 1: 0;
/// * fi = 1: the inactive lane's register is read, which the kernel never set in those lanes
///   (they did not evaluate `100 + t`): undefined, never a picked number.
///
/// Lanes 16..31 read active lanes 24..31, 16..23: 100 + (i ^ 8). Lanes 8..15 store nothing (o
/// keeps its fill 0).
#[test]
fn permlane16_inactive_source_follows_fi_and_bound_ctrl() {
    let body = |fi: &str, bc: &str| {
        format!(
            "__global__ void k(unsigned *o) {{
  unsigned t = threadIdx.x;
  if (t < 8 || t >= 16)
    o[t] = __builtin_amdgcn_permlane16(7u, 100u + t, 0xfedcba98u, 0x76543210u, {fi}, {bc});
}}
"
        )
    };
    let expect = |low: Option<i128>| -> Vec<Option<i128>> {
        (0..32)
            .map(|i| match i {
                0..=7 => low,
                8..=15 => Some(0),
                _ => Some(100 + (i ^ 8)),
            })
            .collect()
    };
    let cfg = || launch(Some("gfx1030"), None, 32);
    let keep = run(&body("false", "false"), cfg());
    assert_eq!(ints(keep.buffer("o").unwrap()), expect(Some(7)));
    let zero = run(&body("false", "true"), cfg());
    assert_eq!(ints(zero.buffer("o").unwrap()), expect(Some(0)));
    let fetched = run(&body("true", "false"), cfg());
    assert_eq!(ints(fetched.buffer("o").unwrap()), expect(None));
}

/// V_PERMLANE64_B32 on wave64: lane i reads `{ ~lane[5], lane[4:0] }` = i ^ 32. On wave32 the
/// ISA makes it a V_NOP with no writes: undefined.
#[test]
fn permlane64_swaps_halves_on_wave64_and_is_undefined_on_wave32() {
    let src = "__global__ void k(unsigned *o) {
  unsigned t = threadIdx.x;
  o[t] = __builtin_amdgcn_permlane64(t * 3u);
}
";
    let t = run(src, launch(Some("gfx1100"), Some(64), 64));
    let want: Vec<Option<i128>> = (0..64).map(|i| Some(3 * (i ^ 32))).collect();
    assert_eq!(ints(t.buffer("o").unwrap()), want);
    let t = run(src, launch(Some("gfx1100"), None, 32));
    assert_eq!(ints(t.buffer("o").unwrap()), vec![None; 32]);
}

/// The instructions do not exist on GFX9 / CDNA (clang: "needs target feature gfx10-insts"),
/// and permlane64 not on RDNA2 ("gfx11-insts"): the run stops with an error naming the target
/// and those that have it.
#[test]
fn permlanes_are_refused_where_the_target_lacks_them() {
    let src = "__global__ void k(unsigned *o) {
  o[threadIdx.x] = __builtin_amdgcn_permlane16(0u, 1u, 0u, 0u, false, false);
}
";
    let t = run_kernel(src, launch(Some("gfx942"), None, 64)).expect("launches");
    assert!(
        matches!(t.outcome, Some(Outcome::Error(_))),
        "{:?}",
        t.outcome
    );
    let text = format!("{:?}", t.merged_diagnostics);
    assert!(
        text.contains("v_permlane16_b32 does not exist on gfx942")
            && text.contains("gfx1030, gfx1100, gfx1150, gfx1200"),
        "{text}"
    );
    let src64 =
        "__global__ void k(unsigned *o) { o[threadIdx.x] = __builtin_amdgcn_permlane64(1u); }\n";
    let t = run_kernel(src64, launch(Some("gfx1030"), None, 32)).expect("launches");
    let text = format!("{:?}", t.merged_diagnostics);
    assert!(text.contains("gfx11-insts"), "{text}");
}

/// `__builtin_amdgcn_fmed3f` is V_MED3_F32 (RDNA3 ISA, 16.12 VOP3): the median of three, and
/// with any NaN operand `v_min3_f32`, whose V_MIN_F32 (IEEE mode) returns the other operand of
/// a quiet NaN. By hand: med3(3, 1, 2) = 2; med3(-1, 5, 0.5) = 0.5; med3(NaN, 5, -1) =
/// min(min(NaN, 5), -1) = min(5, -1) = -1; med3(4, NaN, 7) = min(4, 7) = 4; med3(NaN, NaN, 2) =
/// 2; med3(-inf, inf, 0) = 0; med3(NaN, NaN, NaN) = NaN (read back as a NaN: `x != x` is 1).
#[test]
fn fmed3f_is_the_median_with_the_isa_nan_rule() {
    let src = "__global__ void k(float *o, int *n) {
  float nan = __int_as_float(0x7fc00000);
  o[0] = __builtin_amdgcn_fmed3f(3.0f, 1.0f, 2.0f);
  o[1] = __builtin_amdgcn_fmed3f(-1.0f, 5.0f, 0.5f);
  o[2] = __builtin_amdgcn_fmed3f(nan, 5.0f, -1.0f);
  o[3] = __builtin_amdgcn_fmed3f(4.0f, nan, 7.0f);
  o[4] = __builtin_amdgcn_fmed3f(nan, nan, 2.0f);
  o[5] = __builtin_amdgcn_fmed3f(-INFINITY, INFINITY, 0.0f);
  float m = __builtin_amdgcn_fmed3f(nan, nan, nan);
  n[0] = m != m;
}
";
    let mut c = launch(None, None, 1);
    c.buffer_len.insert("o".into(), 6);
    c.buffer_len.insert("n".into(), 1);
    c.args.insert("n".into(), "0".into());
    let t = run(src, c);
    let o: Vec<Option<f64>> = t
        .buffer("o")
        .unwrap()
        .iter()
        .map(|c| c.as_ref().and_then(crosslane_kernel::KVal::as_f64))
        .collect();
    assert_eq!(
        o,
        vec![
            Some(2.0),
            Some(0.5),
            Some(-1.0),
            Some(4.0),
            Some(2.0),
            Some(0.0)
        ]
    );
    assert_eq!(ints(t.buffer("n").unwrap()), vec![Some(1)]);
}

/// `__builtin_amdgcn_s_barrier()` is a block barrier: a value one wave writes to shared memory
/// before it is read by the other wave after it (128 threads, two wave64s: lane t reads
/// s[127 − t], written by the other wave for t < 64). The note says it is no memory fence.
#[test]
fn s_barrier_is_a_block_barrier_without_a_fence() {
    let src = "__global__ void k(int *o) {
  __shared__ int s[128];
  int t = threadIdx.x;
  s[t] = 2 * t;
  __builtin_amdgcn_s_barrier();
  o[t] = s[127 - t];
}
";
    let t = run(src, launch(None, None, 128));
    let want: Vec<Option<i128>> = (0..128).map(|t| Some(2 * (127 - t))).collect();
    assert_eq!(ints(t.buffer("o").unwrap()), want);
    let notes = format!("{:?}", t.merged_diagnostics);
    assert!(notes.contains("no memory fence"), "{notes}");
}

/// A HIP run without `--arch` runs 64 lanes and its AMD builtins as gfx942 (CDNA3, wave64), and
/// says so: `row_bcast:15` (GFX9/CDNA DPP, AMDGPUModifierSyntax `dpp_ctrl` 0x142) runs there —
/// lane i of rows 1..3 reads lane 16·(i/16) − 1; row 0 has no source, and with bound_ctrl
/// true gets 0 — while `row_xmask` (GFX10+) is refused. With `--lanes 32` and no `--arch` the
/// target is gfx1030, which runs wave32.
#[test]
fn a_hip_run_without_arch_runs_as_a_wave64_target_and_names_it() {
    let src = "__global__ void k(int *o) {
  int t = threadIdx.x;
  o[t] = __builtin_amdgcn_update_dpp(0, t, 0x142, 0xf, 0xf, true);
}
";
    let t = run(src, launch(None, None, 64));
    assert_eq!(t.launch.lanes, 64);
    assert_eq!(t.launch.target.as_deref(), Some("gfx942"));
    assert_eq!(
        t.launch.target_from.as_deref(),
        Some("the default for 64 lanes without --arch")
    );
    let want: Vec<Option<i128>> = (0..64)
        .map(|i| Some(if i < 16 { 0 } else { 16 * (i / 16) - 1 }))
        .collect();
    assert_eq!(ints(t.buffer("o").unwrap()), want);
    let text = crosslane_kernel::report::render_text(&t, 0);
    assert!(
        text.starts_with("kernel k (hip as gfx942, 64 lanes per warp"),
        "{text}"
    );
    // row_xmask:1 (0x161) is GFX10+: refused on the default wave64 target, naming it.
    let xmask = src.replace("0x142", "0x161");
    let t = run_kernel(&xmask, launch(None, None, 64)).expect("launches");
    let notes = format!("{:?}", t.merged_diagnostics);
    assert!(notes.contains("does not exist on gfx942"), "{notes}");
    // 32 lanes, no --arch: gfx1030.
    let t = run_kernel(&xmask, launch(None, Some(32), 32)).expect("launches");
    assert_eq!(t.launch.target.as_deref(), Some("gfx1030"));
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
}

/// A run that names its target defines that target's macros (`kernel/pp/predefined.rs`):
/// without `--arch` a 64-lane HIP run is gfx942, so `__GFX9__` (1), `__gfx942__` (2) and
/// `__AMDGCN_WAVEFRONT_SIZE` (4) are all defined: 7, as with `--arch gfx942`. On 32 lanes
/// the target is gfx1030: `__GFX10__` (8) and `__gfx1030__` (16) with the wave size: 28.
#[test]
fn the_default_target_defines_its_macros() {
    let src = "__global__ void k(int* o) {
  int v = 0;
#if defined(__GFX9__)
  v |= 1;
#endif
#ifdef __gfx942__
  v |= 2;
#endif
#if defined(__AMDGCN_WAVEFRONT_SIZE)
  v |= 4;
#endif
#if defined(__GFX10__)
  v |= 8;
#endif
#ifdef __gfx1030__
  v |= 16;
#endif
  o[threadIdx.x] = v;
}
";
    for (arch, lanes, want) in [
        (None, None, 7),
        (Some("gfx942"), None, 7),
        (None, Some(32), 28),
    ] {
        let t = run(src, launch(arch, lanes, 1));
        assert_eq!(
            ints(t.buffer("o").unwrap()),
            vec![Some(want)],
            "{arch:?} {lanes:?}"
        );
    }
}

#[test]
fn int_declared_lane_builtins_convert_a_float_argument_to_int() {
    // clang declares readfirstlane `int(int)`, readlane `int(int, int)`, ds_bpermute
    // `int(int, int)` and ds_swizzle `int(int, _Constant int)` (BuiltinsAMDGPU.def): the
    // float t + 2.75 becomes the int t + 2 (truncation, [conv.fpint]/1) before the call, and
    // the int result converts back to float. Four lanes, in = 2.75 3.75 4.75 5.75:
    //   readfirstlane → lane 0's 2; readlane(·, 1) → lane 1's 3; bpermute(0, ·) reads lane
    //   0 (byte address 0) → 2; swizzle 0x801b is QDMode with lanes [3 2 1 0] per quad
    //   (offset bits 7:0 = 0b00011011) → 5 4 3 2.
    let src = r#"
__global__ void k(const float* in, float* a, float* b, float* c, float* d) {
    const int t = threadIdx.x;
    float v = in[t];
    a[t] = __builtin_amdgcn_readfirstlane(v);
    b[t] = __builtin_amdgcn_readlane(v, 1);
    c[t] = __builtin_amdgcn_ds_bpermute(0, v);
    d[t] = __builtin_amdgcn_ds_swizzle(v, 0x801b);
}
"#;
    let mut c = crate::support::launch(
        Dialect::Hip,
        4,
        &[
            ("in", 4, "i+2.75"),
            ("a", 4, "0"),
            ("b", 4, "0"),
            ("c", 4, "0"),
            ("d", 4, "0"),
        ],
    );
    c.preprocess.arch = Some("gfx942".into());
    let t = crate::support::run_finished(src, c);
    let f = |n: &str| crate::support::floats(&t, n);
    let all = |v: f64| vec![Some(v); 4];
    assert_eq!(f("a"), all(2.0));
    assert_eq!(f("b"), all(3.0));
    assert_eq!(f("c"), all(2.0));
    assert_eq!(f("d"), vec![Some(5.0), Some(4.0), Some(3.0), Some(2.0)]);
}
