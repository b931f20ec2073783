//! Every vendor op with a GPU formula, over a grid of parameters, active masks and value types,
//! agrees with the emulator on every lane the emulator defines — the value, and the kind and source
//! lane the device's formula computed (native, lavapipe in CI).

use crate::common;

use crosslane_core::params::ParamKind;
use crosslane_core::{all_ops, Dialect, LaneMask, OpKind, OpRequest, Source, ValueType};
use crosslane_gpu::formula::formula;
use crosslane_gpu::wgsl::Lowering;
use crosslane_gpu::{LoweringChoice, Verdict};

/// Integer parameter samples: the edges every vendor rule cares about (0, 1, powers of two, the
/// warp size and one past it, negatives), clipped to the encodable range.
const INT_SAMPLES: &[i64] = &[0, 1, 2, 3, 5, 8, 16, 31, 32, 33, 63, 64, -1, -2];

fn masks(lanes: usize) -> Vec<String> {
    let all = LaneMask::all(lanes).0;
    let alternate = all & 0x5555_5555_5555_5555_5555_5555_5555_5555;
    let high = all & !0xf;
    vec![
        format!("{all:#x}"),
        format!("{alternate:#x}"),
        format!("{high:#x}"),
        "0x1".to_string(),
    ]
}

/// Every (param name, value) combination of the op's integer parameters; other parameters keep
/// their defaults.
fn param_grid(spec: &crosslane_core::OpSpec) -> Vec<Vec<(String, String)>> {
    let mut grid: Vec<Vec<(String, String)>> = vec![vec![]];
    for p in spec.params() {
        let samples: Vec<String> = match p.kind {
            ParamKind::Int { min, max } => INT_SAMPLES
                .iter()
                .filter(|v| (min..=max).contains(v))
                .map(|v| v.to_string())
                .collect(),
            ParamKind::Flag => vec!["0".into(), "1".into()],
            _ => vec![String::new()],
        };
        grid = grid
            .into_iter()
            .flat_map(|combo| {
                samples.iter().map(move |s| {
                    let mut c = combo.clone();
                    if !s.is_empty() {
                        c.push((p.name.to_string(), s.clone()));
                    }
                    c
                })
            })
            .collect();
    }
    grid
}

#[test]
fn vendor_ops_agree_with_emulator_on_every_defined_lane() {
    let Some(gpu) = common::gpu() else { return };
    let mut runs = 0;
    let mut ops_seen = Vec::new();
    let with_formula = all_ops().filter(|s| {
        s.dialect != Dialect::Wgsl
            && s.kind == OpKind::Lanes
            && formula(s.dialect, s.name).is_some()
    });
    for spec in with_formula {
        let lanes = spec.dialect.default_lanes();
        // One 32-bit, one 64-bit (two shuffles) and one 16-bit type where the op takes them.
        let types: Vec<ValueType> = [ValueType::I32, ValueType::I64, ValueType::F16]
            .into_iter()
            .filter(|t| spec.types.contains(t))
            .collect();
        let mut lowered = 0;
        for params in param_grid(spec) {
            for active in masks(lanes) {
                for ty in &types {
                    let req = OpRequest {
                        dialect: spec.dialect.name().into(),
                        op: spec.name.into(),
                        lanes: lanes.to_string(),
                        active: active.clone(),
                        exited: String::new(),
                        values: "lane+100".into(),
                        ty: ty.name().into(),
                        params: params.iter().cloned().collect(),
                    };
                    let Ok(step) = req.run() else { continue };
                    if step.results.iter().any(|r| r.source == Source::Computed) {
                        continue;
                    }
                    for choice in [LoweringChoice::Auto, LoweringChoice::WorkgroupMemory] {
                        let (cmp, run) = gpu
                            .compare_step(&step, choice)
                            .unwrap_or_else(|e| panic!("{} {params:?} {active}: {e}", spec.name));
                        assert!(
                            cmp.agrees(),
                            "{} {params:?} active {active} type {ty} ({}):\n{}",
                            spec.name,
                            run.lowering.name(),
                            cmp.to_table()
                        );
                        // Every active lane the emulator defines was judged, none skipped.
                        let defined = step.results.iter().filter(|r| r.value.is_some()).count();
                        assert_eq!(cmp.count(Verdict::Match), defined);
                        runs += 1;
                        lowered += 1;
                    }
                }
            }
        }
        if lowered > 0 {
            ops_seen.push(spec.name);
        }
    }
    eprintln!("{runs} GPU runs over {ops_seen:?}");
    // Every vendor family's formula ran.
    for name in [
        "asc_shfl",
        "asc_shfl_up",
        "asc_shfl_down",
        "asc_shfl_xor",
        "__shfl_sync",
        "__shfl_up_sync",
        "__shfl_down_sync",
        "__shfl_xor_sync",
        "__shfl",
        "__shfl_up",
        "__shfl_down",
        "__shfl_xor",
        "ds_swizzle_b32",
        "ds_bpermute_b32",
        "ds_permute_b32",
        "update_dpp",
        "mov_dpp",
        "v_readlane_b32",
        "v_readfirstlane_b32",
        "__builtin_mxc_mov_shfl",
        "__builtin_mxc_update_shfl",
        "__builtin_mxc_bsm_bpermute",
        "__builtin_mxc_bsm_permute",
        "__builtin_mxc_readlane",
        "__builtin_mxc_readfirstlane",
    ] {
        assert!(ops_seen.contains(&name), "{name} was not run on the GPU");
    }
}

#[test]
fn ascend_xor_seed_example_on_gpu() {
    // Seed 000: asc_shfl_xor(lane, 1) swaps neighbours: lane 0 gets 1, lane 1 gets 0, …
    let Some(gpu) = common::gpu() else { return };
    let req = OpRequest {
        dialect: "ascend".into(),
        op: "asc_shfl_xor".into(),
        params: [("lane_mask".to_string(), "1".to_string())].into(),
        ..Default::default()
    };
    let step = req.run().unwrap();
    let run = gpu.run_step(&step, LoweringChoice::Auto).unwrap();
    let got: Vec<u64> = run.lanes.iter().map(|l| l.bits()).collect();
    let want: Vec<u64> = (0..32u64).map(|i| i ^ 1).collect();
    assert_eq!(got, want);
    // lavapipe's subgroups (8) are narrower than the 32-lane warp: workgroup memory ran.
    let facts = gpu.facts();
    if facts.subgroup_min_size < 32 {
        assert_eq!(run.lowering, Lowering::WorkgroupMemory);
    } else {
        assert_eq!(run.lowering, Lowering::SubgroupShuffle);
    }
    if facts.subgroups {
        let observed = run.observed_subgroup_size.unwrap();
        assert!((facts.subgroup_min_size..=facts.subgroup_max_size).contains(&observed));
    }
}

#[test]
fn subgroup_shuffle_lowering_moves_values_the_formula_chose() {
    // Vendor warps (32, 64) are wider than lavapipe's subgroups, so the subgroup-shuffle lowering
    // (formula in WGSL, value moved by subgroupShuffle) is exercised with the WGSL shuffles' formulas
    // at the device's subgroup width (read from the device).
    let Some(gpu) = common::gpu() else { return };
    let caps = gpu.caps();
    assert!(
        caps.supported,
        "lavapipe has subgroups; this device does not"
    );
    let lanes = caps.min_size as usize;
    let all = LaneMask::all(lanes).0;
    let cases: &[(&str, &str, i64)] = &[
        ("subgroupShuffleXor", "mask", 3),
        ("subgroupShuffleUp", "delta", 2),
        ("subgroupShuffleDown", "delta", 1),
        ("subgroupBroadcast", "id", 1),
        ("quadSwapDiagonal", "", 0),
    ];
    for (op, param, value) in cases {
        for active in [all, all & !0b10, all & 0x5555] {
            for ty in [ValueType::U32, ValueType::F32] {
                let params = if param.is_empty() {
                    Default::default()
                } else {
                    [(param.to_string(), value.to_string())].into()
                };
                let step = OpRequest {
                    dialect: "wgsl".into(),
                    op: op.to_string(),
                    lanes: lanes.to_string(),
                    active: format!("{active:#x}"),
                    values: "lane*3".into(),
                    ty: ty.name().into(),
                    params,
                    ..OpRequest::default()
                }
                .run()
                .unwrap();
                for choice in [
                    LoweringChoice::SubgroupShuffle,
                    LoweringChoice::WorkgroupMemory,
                ] {
                    let (cmp, run) = gpu.compare_step(&step, choice).unwrap();
                    if choice == LoweringChoice::SubgroupShuffle {
                        assert_eq!(run.lowering, Lowering::SubgroupShuffle);
                        assert_eq!(run.observed_subgroup_size, Some(lanes as u32));
                        assert!(run.wgsl.contains("subgroupShuffle(own_value.x, src)"));
                    }
                    assert!(run.wgsl.contains("fn rule(i: u32) -> Pick"));
                    assert!(
                        cmp.agrees(),
                        "{op} {active:#x} {ty} {}:\n{}",
                        run.lowering.name(),
                        cmp.to_table()
                    );
                    let defined = step.results.iter().filter(|r| r.value.is_some()).count();
                    assert_eq!(cmp.count(Verdict::Match), defined);
                }
            }
        }
    }
}

#[test]
fn forced_subgroup_lowering_on_a_wider_warp_is_an_error() {
    let Some(gpu) = common::gpu() else { return };
    let caps = gpu.caps();
    if caps.min_size >= 64 {
        return; // every warp fits this device's subgroups
    }
    let step = OpRequest {
        dialect: "hip".into(),
        op: "__shfl_xor".into(),
        ..Default::default()
    }
    .run()
    .unwrap();
    let err = gpu
        .run_step(&step, LoweringChoice::SubgroupShuffle)
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("subgroup-shuffle needs subgroups of at least"),
        "{err}"
    );
}

#[test]
fn an_op_without_a_formula_is_refused_with_its_reason() {
    // MACA writelane with an inactive target has no computed lane, but no formula either: the GPU
    // path says so instead of replaying the emulator's routes.
    let Some(gpu) = common::gpu() else { return };
    let step = OpRequest {
        dialect: "maca".into(),
        op: "__builtin_mxc_writelane".into(),
        active: "0xfffffffffffffffe".into(),
        params: [("lane".to_string(), "0".to_string())].into(),
        ..Default::default()
    }
    .run()
    .unwrap();
    assert!(step.results.iter().all(|r| r.source != Source::Computed));
    let err = gpu.run_step(&step, LoweringChoice::Auto).unwrap_err();
    assert!(err.to_string().contains("no GPU lowering"), "{err}");
}

#[test]
fn invalid_wgsl_is_a_validation_error_not_a_panic() {
    let Some(gpu) = common::gpu() else { return };
    let err = gpu
        .validate_wgsl("@compute @workgroup_size(1) fn main() { let x: u32 = 1.5; }")
        .unwrap_err();
    let text = err.to_string();
    assert!(text.starts_with("validation error:"), "{text}");
    assert!(!text.contains('\n'), "one line: {text}");
}
