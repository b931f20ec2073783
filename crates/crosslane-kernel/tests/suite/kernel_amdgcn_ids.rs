//! clang's AMDGPU launch-reading and ordering builtins and DPP8 in HIP kernels
//! (`parser::amdgcn_ids`): `__builtin_amdgcn_wavefrontsize`, `workitem_id_{x,y,z}`,
//! `workgroup_id_{x,y,z}` (clang `AMDGPUBuiltins.rst`, "Work-Item and Workgroup
//! Identification"), `__builtin_amdgcn_fence`, `s_waitcnt`, `s_barrier`, `wave_barrier`,
//! `s_sleep` (AMD ISA S_WAITCNT / S_BARRIER / S_SLEEP) and `__builtin_amdgcn_mov_dpp8` (AMD RDNA3
//! ISA, DPP8: lane i of each group of eight reads lane `(sel >> 3i) & 7` of its group; fi = 0
//! reads 0 from an inactive lane). Every expected value is worked out by hand in the comment
//! beside it, never taken from crosslane's output.

use crate::cells::cell_ints as ints;
use crosslane_core::op::Dialect;
use crosslane_kernel::{run_kernel, KernelTrace, LaunchConfig, Outcome};

fn launch(arch: &str, lanes: Option<usize>, grid: [usize; 3], block: [usize; 3]) -> LaunchConfig {
    let mut c = LaunchConfig {
        dialect: Some(Dialect::Hip),
        lanes,
        block_dim: Some(block),
        grid_dim: Some(grid),
        ..LaunchConfig::default()
    };
    c.preprocess.arch = Some(arch.to_string());
    let n = grid.iter().product::<usize>() * block.iter().product::<usize>();
    c.buffer_len.insert("o".into(), n);
    c.args.insert("o".into(), "9".into());
    c
}

fn run(src: &str, config: LaunchConfig) -> KernelTrace {
    let t = run_kernel(src, config).expect("kernel parses and launches");
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    t
}

fn refused(src: &str, config: LaunchConfig) -> String {
    run_kernel(src, config).expect_err("refused").to_string()
}

const IDS: &str = "__global__ void k(unsigned *o) {
  unsigned wx = __builtin_amdgcn_workitem_id_x(), wy = __builtin_amdgcn_workitem_id_y(),
           wz = __builtin_amdgcn_workitem_id_z();
  unsigned gx = __builtin_amdgcn_workgroup_id_x(), gy = __builtin_amdgcn_workgroup_id_y(),
           gz = __builtin_amdgcn_workgroup_id_z();
  unsigned b = (gz * 2 + gy) * 2 + gx;
  unsigned t = (wz * 2 + wy) * 2 + wx;
  o[b * 8 + t] = __builtin_amdgcn_wavefrontsize() * 1000000u
      + gz * 100000u + gy * 10000u + gx * 1000u + wz * 100u + wy * 10u + wx;
}
";

/// A 2×2×2 grid of 2×2×2 blocks: cell `b·8 + t` (b = (gz·2 + gy)·2 + gx, t likewise) holds
/// `wave·10⁶ + gz·10⁵ + gy·10⁴ + gx·10³ + wz·100 + wy·10 + wx`, the builtins being
/// blockIdx / threadIdx; the wave is 64 on gfx942 and gfx90a (CDNA) and 32 on gfx1100 (RDNA3,
/// hipcc's default wave32).
#[test]
fn ids_and_wavefrontsize_read_the_launch() {
    for (arch, wave) in [("gfx942", 64), ("gfx90a", 64), ("gfx1100", 32)] {
        let t = run(IDS, launch(arch, None, [2, 2, 2], [2, 2, 2]));
        let mut want = vec![None; 64];
        for (gz, gy, gx, wz, wy, wx) in (0..64).map(|k| {
            let b = k / 8;
            let t = k % 8;
            (b / 4, (b / 2) % 2, b % 2, t / 4, (t / 2) % 2, t % 2)
        }) {
            let b = (gz * 2 + gy) * 2 + gx;
            let t = (wz * 2 + wy) * 2 + wx;
            want[b * 8 + t] = Some(
                wave * 1_000_000
                    + gz as i128 * 100_000
                    + gy as i128 * 10_000
                    + gx as i128 * 1000
                    + wz as i128 * 100
                    + wy as i128 * 10
                    + wx as i128,
            );
        }
        assert_eq!(ints(t.buffer("o").unwrap()), want, "{arch}");
    }
}

/// Two waves of 64 on gfx942 exchange through shared memory across the fences, the wait, the
/// barrier, the wave barrier and the sleep: thread t reads what thread (t + 1) mod 128 wrote,
/// 3·((t + 1) mod 128). The fence and the wait say in a note that they change no value here.
#[test]
fn fence_waitcnt_and_barriers_order_a_shared_exchange() {
    let src = "__global__ void k(int *o) {
  __shared__ int s[128];
  int t = threadIdx.x;
  s[t] = 3 * t;
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, \"workgroup\");
  __builtin_amdgcn_s_waitcnt(0);
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, \"workgroup\");
  __builtin_amdgcn_wave_barrier();
  __builtin_amdgcn_s_sleep(1);
  o[t] = s[(t + 1) % 128];
}
";
    let t = run(src, launch("gfx942", None, [1, 1, 1], [128, 1, 1]));
    let want: Vec<Option<i128>> = (0..128).map(|t| Some(3 * ((t + 1) % 128))).collect();
    assert_eq!(ints(t.buffer("o").unwrap()), want);
    let notes: Vec<String> = t.all_diagnostics().map(|d| d.message.clone()).collect();
    for name in ["__builtin_amdgcn_fence", "__builtin_amdgcn_s_waitcnt"] {
        assert!(
            notes
                .iter()
                .any(|m| m.contains(name) && m.contains("completes at once")),
            "{name}: {notes:?}"
        );
    }
}

/// What clang refuses is refused before the run, at the argument: a relaxed fence (clang
/// SemaAMDGPU), a scope that is no AMDGPU synchronization scope (LLVM AMDGPUUsage, Memory
/// Scopes), a non-constant `s_waitcnt` count or `mov_dpp8` selector (`_Constant`).
#[test]
fn wrong_immediates_are_refused() {
    let cfg = || launch("gfx1100", None, [1, 1, 1], [32, 1, 1]);
    let body =
        |s: &str| format!("__global__ void k(int *o) {{\n  int t = threadIdx.x;\n  {s}\n}}\n");
    let e = refused(
        &body("__builtin_amdgcn_fence(__ATOMIC_RELAXED, \"workgroup\");"),
        cfg(),
    );
    assert!(e.contains("3:26") && e.contains("__ATOMIC_RELEASE"), "{e}");
    let e = refused(
        &body("__builtin_amdgcn_fence(__ATOMIC_SEQ_CST, \"cluster\");"),
        cfg(),
    );
    assert!(
        e.contains("3:44") && e.contains("synchronization scope"),
        "{e}"
    );
    let e = refused(&body("__builtin_amdgcn_s_waitcnt(t);"), cfg());
    assert!(e.contains("3:30") && e.contains("constant"), "{e}");
    let e = refused(&body("o[t] = __builtin_amdgcn_mov_dpp8(t, t);"), cfg());
    assert!(e.contains("3:39") && e.contains("constant"), "{e}");
}

/// DPP8 on gfx1100 (wave32): sel 0x053977 holds the selectors 7,6,5,4,3,2,1,0 (7 + 6·8 +
/// 5·64 + 4·512 + 3·4096 + 2·32768 + 1·262144 = 342391 = 0x53977), so lane i reads lane
/// (i & ~7) + 7 − (i & 7); sel 0x1f58d1 holds 1,2,3,4,5,6,7,0 (a rotate: lane i reads
/// (i & ~7) + ((i + 1) & 7)). src = 100 + lane.
#[test]
fn mov_dpp8_selects_within_each_group_of_eight() {
    let src = "__global__ void k(unsigned *o) {
  unsigned t = threadIdx.x;
  o[t] = __builtin_amdgcn_mov_dpp8(100u + t, 0x053977);
  o[32 + t] = __builtin_amdgcn_mov_dpp8(100u + t, 0x1f58d1);
}
";
    let mut cfg = launch("gfx1100", None, [1, 1, 1], [32, 1, 1]);
    cfg.buffer_len.insert("o".into(), 64);
    let t = run(src, cfg);
    let mut want: Vec<Option<i128>> = (0..32)
        .map(|i| Some(100 + (i & !7) + 7 - (i & 7)))
        .collect();
    want.extend((0..32).map(|i| Some(100 + (i & !7) + ((i + 1) & 7))));
    assert_eq!(ints(t.buffer("o").unwrap()), want);
}

/// On wave64 RDNA (gfx1100 with 64 lanes) the groups of eight run to lane 63: the reverse
/// selector sends lane 40 to lane 47. An inactive source reads 0 (the builtin emits fi:0,
/// LLVM AMDGPUModifierSyntax "DPP8 Modifiers": "fetch zero when accessing data from inactive
/// lanes"): with lane 0 of
/// each group off, sel 0 (every lane reads lane 0 of its group) gives 0 in the active lanes,
/// and the inactive lanes keep the fill 9.
#[test]
fn mov_dpp8_on_wave64_and_from_inactive_lanes() {
    let src = "__global__ void k(unsigned *o) {
  unsigned t = threadIdx.x;
  o[t] = __builtin_amdgcn_mov_dpp8(100u + t, 0x053977);
  if ((t & 7) != 0) o[64 + t] = __builtin_amdgcn_mov_dpp8(100u + t, 0);
}
";
    let mut cfg = launch("gfx1100", Some(64), [1, 1, 1], [64, 1, 1]);
    cfg.buffer_len.insert("o".into(), 128);
    let t = run(src, cfg);
    let mut want: Vec<Option<i128>> = (0..64)
        .map(|i| Some(100 + (i & !7) + 7 - (i & 7)))
        .collect();
    want.extend((0..64).map(|i| Some(if i & 7 == 0 { 9 } else { 0 })));
    assert_eq!(want[40], Some(147));
    assert_eq!(ints(t.buffer("o").unwrap()), want);
}

/// DPP8 needs gfx10-insts (clang `BuiltinsAMDGPU.def`): CDNA's gfx90a and gfx942 lack it, and
/// the call is refused before the run, naming the targets that have it.
#[test]
fn mov_dpp8_is_refused_on_cdna() {
    let src = "__global__ void k(unsigned *o) {
  o[threadIdx.x] = __builtin_amdgcn_mov_dpp8(threadIdx.x, 0x053977);
}
";
    for arch in ["gfx90a", "gfx942"] {
        let e = refused(src, launch(arch, None, [1, 1, 1], [64, 1, 1]));
        assert!(
            e.contains("gfx10-insts") && e.contains("gfx1100") && e.contains(arch),
            "{e}"
        );
    }
}

/// The MFMA builtins most common in composable_kernel and rocWMMA are refused before the run,
/// naming the builtin: their lane↔matrix layout is not confirmed from the documents cited.
#[test]
fn mfma_builtins_are_refused_naming_the_builtin() {
    let src = |call: &str| {
        format!(
            "typedef float floatx4 __attribute__((ext_vector_type(4)));
typedef float floatx16 __attribute__((ext_vector_type(16)));
typedef _Float16 halfx4 __attribute__((ext_vector_type(4)));
__global__ void k(float *o) {{
  floatx4 c4 = 0.0f;
  floatx16 c16 = 0.0f;
  halfx4 a = (_Float16)1.0f;
  {call};
  o[threadIdx.x] = c4.x + c16.x;
}}
"
        )
    };
    for call in [
        "c16 = __builtin_amdgcn_mfma_f32_32x32x8f16(a, a, c16, 0, 0, 0)",
        "c4 = __builtin_amdgcn_mfma_f32_16x16x16f16(a, a, c4, 0, 0, 0)",
        "c4 = __builtin_amdgcn_mfma_f32_16x16x4f32(1.0f, 2.0f, c4, 0, 0, 0)",
    ] {
        let e = refused(&src(call), launch("gfx942", None, [1, 1, 1], [64, 1, 1]));
        let name = &call[call.find("__builtin").unwrap()..call.find('(').unwrap()];
        assert!(
            e.contains(name) && e.contains("not modelled") && e.contains("8:"),
            "{e}"
        );
    }
}
