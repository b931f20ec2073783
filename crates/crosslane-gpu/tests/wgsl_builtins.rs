//! WGSL subgroup and quad built-ins run as themselves on the device and agree with the WGSL spec's
//! rules (SEMANTICS.md "WGSL subgroup built-ins") on every lane the spec defines, over active masks.
//!
//! crosslane-core's WGSL dialect lands on another branch; until then the expected lanes come from
//! the small spec reference below, packed into a `Step` exactly as the emulator would produce one.

mod common;

use crosslane_core::params::{ParamValue, Params};
use crosslane_core::result::LaneResult;
use crosslane_core::{Dialect, LaneMask, Step, Value, ValueType};
use crosslane_gpu::wgsl::{builtin, Lowering, BUILTINS};
use crosslane_gpu::{LoweringChoice, Verdict};

fn input(i: usize) -> i32 {
    ((i * 7 + 3) % 11) as i32 - 4
}

/// The spec's answer for lane `i`; `None` = indeterminate (inactive or out-of-range source).
fn reference(op: &str, param: i64, lanes: usize, active: LaneMask, i: usize) -> Option<Value> {
    let v = |j: usize| input(j);
    let read = |j: i64| -> Option<Value> {
        let j = usize::try_from(j)
            .ok()
            .filter(|&j| j < lanes && active.contains(j))?;
        Some(Value::from_bits(ValueType::I32, v(j) as u32 as u64))
    };
    let act: Vec<usize> = active.iter().filter(|&j| j < lanes).collect();
    let i32v = |n: i32| Some(Value::from_bits(ValueType::I32, n as u32 as u64));
    let fold = |lanes: &[usize], id: i32, f: fn(i32, i32) -> i32| {
        lanes.iter().fold(id, |acc, &j| f(acc, v(j)))
    };
    let add: fn(i32, i32) -> i32 = i32::wrapping_add;
    let mul: fn(i32, i32) -> i32 = i32::wrapping_mul;
    let below: Vec<usize> = act.iter().copied().filter(|&j| j < i).collect();
    let upto: Vec<usize> = act.iter().copied().filter(|&j| j <= i).collect();
    let i = i as i64;
    match op {
        "subgroupShuffle" | "subgroupBroadcast" => read(param),
        "subgroupShuffleUp" => read(i - param),
        "subgroupShuffleDown" => read(i + param),
        "subgroupShuffleXor" => read(i ^ param),
        "subgroupBroadcastFirst" => read(*act.first()? as i64),
        "subgroupBallot" => {
            let bits = act
                .iter()
                .filter(|&&j| v(j) != 0)
                .fold(0u64, |b, &j| b | (1 << j));
            Some(Value::from_bits(ValueType::U64, bits))
        }
        "subgroupAll" => Some(Value::from_bits(
            ValueType::U32,
            act.iter().all(|&j| v(j) != 0) as u64,
        )),
        "subgroupAny" => Some(Value::from_bits(
            ValueType::U32,
            act.iter().any(|&j| v(j) != 0) as u64,
        )),
        "subgroupAdd" => i32v(fold(&act, 0, add)),
        "subgroupMul" => i32v(fold(&act, 1, mul)),
        "subgroupMin" => i32v(fold(&act, i32::MAX, std::cmp::min)),
        "subgroupMax" => i32v(fold(&act, i32::MIN, std::cmp::max)),
        "subgroupAnd" => i32v(fold(&act, -1, |a, b| a & b)),
        "subgroupOr" => i32v(fold(&act, 0, |a, b| a | b)),
        "subgroupXor" => i32v(fold(&act, 0, |a, b| a ^ b)),
        "subgroupExclusiveAdd" => i32v(fold(&below, 0, add)),
        "subgroupExclusiveMul" => i32v(fold(&below, 1, mul)),
        "subgroupInclusiveAdd" => i32v(fold(&upto, 0, add)),
        "subgroupInclusiveMul" => i32v(fold(&upto, 1, mul)),
        "quadBroadcast" => read((i & !3) + param),
        "quadSwapX" => read(i ^ 1),
        "quadSwapY" => read(i ^ 2),
        "quadSwapDiagonal" => read(i ^ 3),
        other => panic!("no reference for {other}"),
    }
}

fn step_for(
    op: &str,
    param_name: Option<&str>,
    param: i64,
    lanes: usize,
    active: LaneMask,
) -> Step {
    let mut params = Params::default();
    if let Some(name) = param_name {
        params.0.insert(name.to_string(), ParamValue::Int(param));
    }
    let results = (0..lanes)
        .map(|i| {
            if !active.contains(i) {
                LaneResult::inactive()
            } else {
                match reference(op, param, lanes, active, i) {
                    Some(v) => LaneResult::computed(v),
                    None => {
                        LaneResult::undefined("source lane inactive or outside the subgroup", None)
                    }
                }
            }
        })
        .collect();
    Step {
        dialect: Dialect::Wgsl,
        op: op.to_string(),
        lanes,
        active,
        ty: ValueType::I32,
        inputs: (0..lanes)
            .map(|i| Some(Value::from_bits(ValueType::I32, input(i) as u32 as u64)))
            .collect(),
        params,
        results,
        diagnostics: vec![],
        scalar: false,
        label: None,
    }
}

#[test]
fn builtins_agree_with_the_spec_on_every_defined_lane() {
    let Some(gpu) = common::gpu() else { return };
    let caps = gpu.caps();
    assert!(caps.supported, "the device has no subgroups");
    // A WGSL built-in runs on the device's own subgroup: the lane count is the size it reports.
    let lanes = caps.min_size as usize;
    let all = LaneMask::all(lanes);
    let masks = [
        all,
        LaneMask(all.0 & 0x5555_5555),
        LaneMask(all.0 & !1),
        LaneMask(0b100),
    ];
    let mut checked = 0;
    for spec in BUILTINS.iter().filter(|b| b.naga) {
        use crosslane_gpu::wgsl::BuiltinArg as A;
        let (name, params): (Option<&str>, Vec<i64>) = match spec.arg {
            A::None => (None, vec![0]),
            A::ConstId | A::DynamicId if spec.name.starts_with("quad") => {
                (Some("id"), vec![0, 1, 2, 3])
            }
            A::ConstId | A::DynamicId => (Some("id"), vec![0, 1, 2, (lanes - 1) as i64]),
            A::Uniform(n) => (Some(n), vec![0, 1, 2, 3, 5, (lanes - 1) as i64]),
        };
        for &p in &params {
            for active in masks {
                let step = step_for(spec.name, name, p, lanes, active);
                let (cmp, run) = gpu
                    .compare_step(&step, LoweringChoice::Auto)
                    .unwrap_or_else(|e| panic!("{} {p}: {e}", spec.name));
                assert_eq!(run.lowering, Lowering::Builtin);
                assert_eq!(run.observed_subgroup_size, Some(lanes as u32));
                assert!(
                    cmp.agrees(),
                    "{} param {p} active {:#x}:\n{}\n{}",
                    spec.name,
                    active.0,
                    run.wgsl,
                    cmp.to_table()
                );
                checked += cmp.count(Verdict::Match);
            }
        }
    }
    eprintln!("{checked} lanes matched");
    assert!(checked > 500);
}

#[test]
fn shuffle_with_a_per_lane_id() {
    let Some(gpu) = common::gpu() else { return };
    let lanes = gpu.caps().min_size as usize;
    let ids: Vec<i64> = (0..lanes).map(|i| ((i * 3 + 1) % lanes) as i64).collect();
    let mut step = step_for("subgroupShuffle", None, 0, lanes, LaneMask::all(lanes));
    step.params
        .0
        .insert("id".into(), ParamValue::Ints(ids.clone()));
    for (i, r) in step.results.iter_mut().enumerate() {
        let j = ids[i] as usize;
        *r = LaneResult::lane(Value::from_bits(ValueType::I32, input(j) as u32 as u64), j);
    }
    let (cmp, run) = gpu.compare_step(&step, LoweringChoice::Auto).unwrap();
    assert!(run
        .wgsl
        .contains("subgroupShuffle(bitcast<i32>(values[lane].x), route.y)"));
    assert!(cmp.agrees(), "{}", cmp.to_table());
    assert_eq!(cmp.count(Verdict::Match), lanes);
}

#[test]
fn elect_is_browser_only_and_lane_count_must_be_the_device_subgroup() {
    let Some(gpu) = common::gpu() else { return };
    let lanes = gpu.caps().min_size as usize;
    let step = step_for("subgroupAdd", None, 0, lanes, LaneMask::all(lanes));
    let mut elect = step.clone();
    elect.op = "subgroupElect".into();
    assert!(builtin("subgroupElect").is_some());
    let err = gpu.run_step(&elect, LoweringChoice::Auto).unwrap_err();
    assert!(err.to_string().contains("runs in a browser"), "{err}");
    let wide = step_for(
        "subgroupAdd",
        None,
        0,
        lanes * 32,
        LaneMask::all(lanes * 32),
    );
    let err = gpu.run_step(&wide, LoweringChoice::Auto).unwrap_err();
    assert!(err.to_string().starts_with("lanes:"), "{err}");
}
