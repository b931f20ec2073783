//! Every vendor op with a GPU lowering, over a grid of parameters, active masks and value types,
//! agrees with the emulator on every lane the emulator defines (native, lavapipe in CI).

mod common;

use crosslane_core::params::ParamKind;
use crosslane_core::result::LaneResult;
use crosslane_core::{
    all_ops, Dialect, LaneMask, OpKind, OpRequest, Source, Step, Value, ValueType,
};
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
    for p in spec.params {
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
    for spec in all_ops().filter(|s| s.dialect != Dialect::Wgsl && s.kind == OpKind::Lanes) {
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
    for name in ["asc_shfl", "asc_shfl_up", "asc_shfl_down", "asc_shfl_xor"] {
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

/// A step of `lanes` lanes whose route table exercises every provenance: reads of other lanes
/// (a fixed permutation), own value, zero, old value, undefined with a hint, inactive.
fn synthetic_step(lanes: usize, ty: ValueType, seed: u64) -> Step {
    let value = |i: usize| {
        Value::from_bits(
            ty,
            (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15 ^ seed),
        )
    };
    let inputs: Vec<Option<Value>> = (0..lanes).map(|i| Some(value(i))).collect();
    let kind = |i: usize| (i + seed as usize) % 7;
    let active = (0..lanes)
        .filter(|&i| kind(i) != 4)
        .fold(LaneMask::none(), LaneMask::with);
    let results: Vec<LaneResult> = (0..lanes)
        .map(|i| {
            // A read of another lane only names an active lane (reading an inactive one is
            // undefined, kind 3).
            let mut j = (i * 5 + 3 + seed as usize) % lanes;
            while kind(j) == 4 {
                j = (j + 1) % lanes;
            }
            match kind(i) {
                0 => LaneResult::own(value(i), i, "fallback"),
                1 => LaneResult::zero(Value::from_bits(ty, 0), "zero"),
                2 => LaneResult::old(Value::from_bits(ty, 0xABCD_EF01_2345_6789), "old"),
                3 => LaneResult::undefined("inactive source", Some(j)),
                4 => LaneResult::inactive(),
                _ => LaneResult::lane(value(j), j),
            }
        })
        .collect();
    Step {
        dialect: Dialect::Ascend,
        op: "synthetic route table".into(),
        lanes,
        active,
        ty,
        inputs,
        params: Default::default(),
        results,
        diagnostics: vec![],
        scalar: false,
        label: None,
    }
}

#[test]
fn subgroup_shuffle_lowering_moves_values_as_the_route_table_says() {
    // Vendor warps (32, 64) are wider than lavapipe's subgroups, so the subgroup-shuffle lowering
    // is exercised on a route table as wide as the device's subgroup (read from the device).
    let Some(gpu) = common::gpu() else { return };
    let caps = gpu.caps();
    assert!(
        caps.supported,
        "lavapipe has subgroups; this device does not"
    );
    let lanes = caps.min_size as usize;
    for ty in [ValueType::U32, ValueType::U64, ValueType::F16] {
        for seed in 0..7 {
            let step = synthetic_step(lanes, ty, seed);
            for choice in [
                LoweringChoice::Auto,
                LoweringChoice::SubgroupShuffle,
                LoweringChoice::WorkgroupMemory,
            ] {
                let (cmp, run) = gpu.compare_step(&step, choice).unwrap();
                if choice != LoweringChoice::WorkgroupMemory {
                    assert_eq!(run.lowering, Lowering::SubgroupShuffle);
                    assert_eq!(run.observed_subgroup_size, Some(lanes as u32));
                }
                assert!(
                    cmp.agrees(),
                    "{ty} seed {seed} {}:\n{}",
                    run.lowering.name(),
                    cmp.to_table()
                );
                assert!(cmp.count(Verdict::Match) > 0);
                assert!(cmp.count(Verdict::Indeterminate) > 0);
                // An undefined lane still shows what the GPU gave: the hinted lane's value.
                for l in cmp
                    .lanes
                    .iter()
                    .filter(|l| l.verdict == Verdict::Indeterminate)
                {
                    let hint = step.results[l.lane].from.unwrap();
                    if choice != LoweringChoice::WorkgroupMemory || step.active.contains(hint) {
                        assert_eq!(l.gpu.map(|v| v.bits), step.inputs[hint].map(|v| v.bits));
                    }
                }
            }
        }
    }
}

#[test]
fn forced_subgroup_lowering_on_a_wider_warp_is_an_error() {
    let Some(gpu) = common::gpu() else { return };
    let caps = gpu.caps();
    let step = synthetic_step((caps.max_size as usize * 2).max(8), ValueType::U32, 1);
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
fn invalid_wgsl_is_a_validation_error_not_a_panic() {
    let Some(gpu) = common::gpu() else { return };
    let err = gpu
        .validate_wgsl("@compute @workgroup_size(1) fn main() { let x: u32 = 1.5; }")
        .unwrap_err();
    let text = err.to_string();
    assert!(text.starts_with("validation error:"), "{text}");
    assert!(!text.contains('\n'), "one line: {text}");
}
