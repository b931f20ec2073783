//! WGSL subgroup and quad built-ins run as themselves on the device and agree with crosslane-core's
//! WGSL dialect (the emulator, `dialect/wgsl.rs`, semantics.md "WGSL subgroup built-ins") on every
//! lane the spec defines, over active masks, parameters and value types. The lane count of every
//! step is the subgroup size the device reports (never a constant): a WGSL built-in runs on one
//! whole subgroup. Lanes the emulator calls undefined are `indeterminate` (any GPU value allowed).

use crate::common;

use std::collections::BTreeMap;

use crosslane_core::{dialect_ops, Dialect, OpRequest, ParamKind, Step, ValueType};
use crosslane_gpu::wgsl::{builtin, Lowering};
use crosslane_gpu::{LoweringChoice, Verdict};

/// Inputs with zeros, negatives and repeats, so predicates, min/max and products all vary.
fn values(lanes: usize) -> String {
    (0..lanes)
        .map(|i| (((i * 7 + 3) % 11) as i64 - 4).to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// The emulator's step for `op` on a `lanes`-lane subgroup.
fn emulate(op: &str, lanes: usize, active: u128, ty: &str, params: &[(&str, i64)]) -> Step {
    let request = OpRequest {
        dialect: "wgsl".into(),
        op: op.into(),
        lanes: lanes.to_string(),
        active: format!("{active:#x}"),
        exited: String::new(),
        values: values(lanes),
        ty: ty.into(),
        params: params
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect::<BTreeMap<_, _>>(),
    };
    request
        .run()
        .unwrap_or_else(|e| panic!("emulator refused {op} {params:?} active {active:#x}: {e}"))
}

/// Parameter values worth trying for an Int parameter on a `lanes`-lane subgroup: the ends of
/// the range, small values, the last lane and (for ids) the first id past the subgroup.
fn tries(kind: &ParamKind, lanes: usize) -> Vec<i64> {
    let last = lanes as i64 - 1;
    let mut v = vec![0, 1, 2, 3, 5, last, lanes as i64];
    if let ParamKind::Int { min, max } = *kind {
        v.retain(|&x| x >= min && x <= max);
    }
    v.sort_unstable();
    v.dedup();
    v
}

#[test]
fn builtins_agree_with_the_emulator_on_every_defined_lane() {
    let Some(gpu) = common::gpu() else { return };
    let caps = gpu.caps();
    assert!(caps.supported, "the device has no subgroups");
    // A WGSL built-in runs on the device's own subgroup: the lane count is the size it reports.
    let lanes = caps.min_size as usize;
    let all: u128 = if lanes >= 128 {
        u128::MAX
    } else {
        (1u128 << lanes) - 1
    };
    let masks = [all, all & 0x5555_5555, all & !1, 0b100 & all];
    let (mut ops, mut matched, mut indeterminate) = (0, 0, 0);
    for spec in dialect_ops(Dialect::Wgsl) {
        let Some(b) = builtin(spec.name) else {
            continue;
        };
        if !b.naga {
            continue;
        }
        ops += 1;
        let int_params: Vec<_> = spec
            .params()
            .filter(|p| matches!(p.kind, ParamKind::Int { .. }))
            .collect();
        let param_sets: Vec<Vec<(&str, i64)>> = match int_params.first() {
            None => vec![vec![]],
            Some(p) => tries(&p.kind, lanes)
                .into_iter()
                .map(|v| vec![(p.name, v)])
                .collect(),
        };
        let types: Vec<&str> = [ValueType::I32, ValueType::U32]
            .into_iter()
            .filter(|t| spec.types.contains(t))
            .map(|t| if t == ValueType::I32 { "i32" } else { "u32" })
            .collect();
        let types = if types.is_empty() { vec![""] } else { types };
        for ty in &types {
            for params in &param_sets {
                for &active in &masks {
                    let step = emulate(spec.name, lanes, active, ty, params);
                    let (cmp, run) = gpu
                        .compare_step(&step, LoweringChoice::Auto)
                        .unwrap_or_else(|e| panic!("{} {params:?}: {e}", spec.name));
                    assert_eq!(run.lowering, Lowering::Builtin, "{}", spec.name);
                    assert_eq!(run.observed_subgroup_size, Some(lanes as u32));
                    assert!(
                        cmp.agrees(),
                        "{} {ty} {params:?} active {active:#x}:\n{}\n{}",
                        spec.name,
                        run.wgsl,
                        cmp.to_table()
                    );
                    matched += cmp.count(Verdict::Match);
                    indeterminate += cmp.count(Verdict::Indeterminate);
                }
            }
        }
    }
    eprintln!("{ops} built-ins: {matched} lanes matched, {indeterminate} indeterminate");
    // Every naga-compiled built-in that core has ran (shuffles, broadcasts, ballot, all/any,
    // reductions, scans, quads), and out-of-range ids gave indeterminate lanes.
    assert!(ops >= 20, "only {ops} WGSL built-ins found in the emulator");
    assert!(matched > 1000, "{matched}");
    assert!(indeterminate > 0);
}

#[test]
fn subgroup_xor_one_swaps_neighbours_on_the_device() {
    let Some(gpu) = common::gpu() else { return };
    let lanes = gpu.caps().min_size as usize;
    let step = emulate(
        "subgroupShuffleXor",
        lanes,
        (1u128 << lanes) - 1,
        "i32",
        &[("mask", 1)],
    );
    let (cmp, run) = gpu.compare_step(&step, LoweringChoice::Auto).unwrap();
    assert!(run.wgsl.contains("subgroupShuffleXor("), "{}", run.wgsl);
    assert_eq!(cmp.count(Verdict::Match), lanes, "{}", cmp.to_table());
    // values(): lane 0 holds -1, lane 1 holds 6; after xor 1 they are swapped.
    let gpu0 = cmp.lanes[0].gpu.map(|v| v.bits as u32 as i32);
    let gpu1 = cmp.lanes[1].gpu.map(|v| v.bits as u32 as i32);
    assert_eq!((gpu0, gpu1), (Some(6), Some(-1)));
}

#[test]
fn elect_is_browser_only_and_lane_count_must_be_the_device_subgroup() {
    let Some(gpu) = common::gpu() else { return };
    let lanes = gpu.caps().min_size as usize;
    let elect = emulate("subgroupElect", lanes, (1u128 << lanes) - 1, "", &[]);
    assert!(builtin("subgroupElect").is_some());
    let err = gpu.run_step(&elect, LoweringChoice::Auto).unwrap_err();
    assert!(err.to_string().contains("runs in a browser"), "{err}");
    let wide = emulate(
        "subgroupAdd",
        lanes * 2,
        (1u128 << (lanes * 2)) - 1,
        "i32",
        &[],
    );
    let err = gpu.run_step(&wide, LoweringChoice::Auto).unwrap_err();
    assert!(err.to_string().starts_with("lanes:"), "{err}");
}
