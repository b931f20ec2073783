//! The device computes every vendor rule itself (docs/semantics.md, "What the GPU check proves"): with per-lane operands, each
//! vendor family's WGSL formula agrees with the emulator on every lane (native, lavapipe in CI), and
//! a deliberately wrong formula is caught by the diff.
//!
//! A per-lane operand is given as a comma list, which the emulator keeps as a
//! `ParamValue::Ints` (semantics.md "Per-thread and uniform operands").

use crate::common;

use crosslane_core::params::ParamValue;
use crosslane_core::{OpRequest, Source, Step, Value, ValueType};
use crosslane_gpu::wgsl::{lower_step, ShaderTarget};
use crosslane_gpu::{Comparison, LoweringChoice, Verdict};

/// A request with `params` (name, text).
fn request(
    dialect: &str,
    op: &str,
    active: &str,
    values: &str,
    params: &[(&str, String)],
) -> OpRequest {
    OpRequest {
        dialect: dialect.into(),
        op: op.into(),
        active: active.into(),
        values: values.into(),
        params: params
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect(),
        ..Default::default()
    }
}

/// The step of `op` where lane i passes `per_lane[i]` as `name`.
fn per_lane_step(
    dialect: &str,
    op: &str,
    active: &str,
    name: &str,
    per_lane: &[i64],
    fixed: &[(&str, String)],
) -> Step {
    // One value where every lane passes the same one: a uniform (scalar) operand takes no list.
    let distinct = per_lane.iter().any(|&v| v != per_lane[0]);
    let text = if distinct {
        let list: Vec<String> = per_lane.iter().map(i64::to_string).collect();
        list.join(",")
    } else {
        per_lane[0].to_string()
    };
    let mut params = fixed.to_vec();
    params.push((name, text));
    let step = request(dialect, op, active, "lane+100", &params)
        .run()
        .unwrap_or_else(|e| panic!("{op} {name}: {e}"));
    let kept = step.params.0.get(name);
    assert!(
        !distinct || matches!(kept, Some(ParamValue::Ints(_))),
        "{op} keeps {name} per lane: {kept:?}"
    );
    step
}

/// Runs `step` under every lowering the device allows for it and checks that no lane mismatches
/// and every lane the emulator defines was judged. Returns the last comparison.
fn check(step: &Step) -> Comparison {
    let gpu = common::gpu().expect("a GPU");
    let mut last = None;
    for choice in [LoweringChoice::Auto, LoweringChoice::WorkgroupMemory] {
        let (cmp, run) = gpu
            .compare_step(step, choice)
            .unwrap_or_else(|e| panic!("{} {}: {e}", step.dialect.name(), step.op));
        assert!(
            cmp.agrees(),
            "{} {} ({}):\n{}",
            step.dialect.name(),
            step.op,
            run.lowering.name(),
            cmp.to_table()
        );
        let defined = step.results.iter().filter(|r| r.value.is_some()).count();
        assert_eq!(cmp.count(Verdict::Match), defined, "{}", cmp.to_table());
        // The device's formula classified every defined lane as the emulator did.
        for l in cmp.lanes.iter().filter(|l| l.verdict == Verdict::Match) {
            assert_eq!(l.gpu_source, Some(l.source), "lane {}", l.lane);
        }
        last = Some(cmp);
    }
    last.unwrap()
}

fn gpu_values(cmp: &Comparison) -> Vec<Option<u64>> {
    cmp.lanes
        .iter()
        .map(|l| match l.verdict {
            Verdict::Match => l.gpu.map(|v| v.bits),
            _ => None,
        })
        .collect()
}

#[test]
fn cuda_rotation_reads_the_next_lane_on_the_device() {
    // __shfl_sync(0xffffffff, lane + 100, (lane + 1) % 32): lane i gets 100 + (i + 1) % 32.
    if common::gpu().is_none() {
        return;
    }
    let src: Vec<i64> = (0..32).map(|i| (i + 1) % 32).collect();
    let step = per_lane_step("cuda", "__shfl_sync", "", "src_lane", &src, &[]);
    let cmp = check(&step);
    let want: Vec<Option<u64>> = (0..32u64).map(|i| Some(100 + (i + 1) % 32)).collect();
    assert_eq!(gpu_values(&cmp), want);
}

#[test]
fn cuda_per_lane_operands_agree() {
    if common::gpu().is_none() {
        return;
    }
    // Negative and ≥ width srcLane per lane (only srcLane & 31, mod width 16): lane 0 passes −1
    // → lane 15 of its segment; lane 1 passes 33 → 33 & 31 = 1 → lane 1.
    let src: Vec<i64> = (0..32).map(|i| [-1, 33, 17, -16, 5][i % 5]).collect();
    let step = per_lane_step(
        "cuda",
        "__shfl_sync",
        "",
        "src_lane",
        &src,
        &[("width", "16".into())],
    );
    let cmp = check(&step);
    assert_eq!(cmp.lanes[0].gpu_from, Some(15));
    assert_eq!(cmp.lanes[1].gpu_from, Some(1));
    assert_eq!(cmp.lanes[20].gpu_from, Some(31)); // −1 & 31 = 31 → (20 & 16) | 15
                                                  // Mixed deltas within one segment, some leaving it (own value), with an inactive source.
    let delta: Vec<i64> = (0..32).map(|i| [0, 1, 3, 9, 40][i % 5]).collect();
    for op in ["__shfl_up_sync", "__shfl_down_sync"] {
        let step = per_lane_step(
            "cuda",
            op,
            "0xfffffdff",
            "delta",
            &delta,
            &[("width", "8".into()), ("mask", "0xfffffdff".into())],
        );
        let cmp = check(&step);
        // delta 9 & 31 = 9 ≥ width 8 leaves the segment: own value.
        assert_eq!(cmp.lanes[3].source, Source::Own);
        if op == "__shfl_up_sync" {
            // Lane 12 reads 12 − 3 = 9, which is inactive: undefined.
            assert_eq!(cmp.lanes[12].verdict, Verdict::Indeterminate);
        }
    }
    // Xor masks that leave the segment for some lanes only, and per-lane widths (one invalid).
    let masks: Vec<i64> = (0..32).map(|i| if i % 3 == 0 { 16 } else { 1 }).collect();
    let step = per_lane_step(
        "cuda",
        "__shfl_xor_sync",
        "",
        "lane_mask",
        &masks,
        &[("width", "16".into())],
    );
    let cmp = check(&step);
    assert_eq!(cmp.lanes[0].source, Source::Own); // 0 ^ 16 = 16 is past lane 0's segment
    assert_eq!(cmp.lanes[18].gpu_from, Some(2)); // 18 ^ 16 = 2, an earlier segment
    let widths: Vec<i64> = (0..32).map(|i| [32, 16, 4, 3][i % 4]).collect();
    let step = per_lane_step(
        "cuda",
        "__shfl_down_sync",
        "",
        "width",
        &widths,
        &[("delta", "2".into())],
    );
    let cmp = check(&step);
    assert_eq!(cmp.lanes[3].verdict, Verdict::Indeterminate); // width 3: undefined
    assert_eq!(cmp.lanes[2].source, Source::Own); // lane 2 + 2 leaves its width-4 segment
}

#[test]
fn hip_wave64_per_lane_indices_across_halves_agree() {
    if common::gpu().is_none() {
        return;
    }
    // __shfl(v, 63 − lane) on wave64 reverses across both halves.
    let src: Vec<i64> = (0..64).map(|i| 63 - i).collect();
    let step = per_lane_step("hip", "__shfl", "", "src_lane", &src, &[]);
    let cmp = check(&step);
    let want: Vec<Option<u64>> = (0..64u64).map(|i| Some(100 + 63 - i)).collect();
    assert_eq!(gpu_values(&cmp), want);
    // Xor 32 for even lanes, a negative mask (wraps mod 64) for odd ones.
    let masks: Vec<i64> = (0..64).map(|i| if i % 2 == 0 { 32 } else { -2 }).collect();
    let step = per_lane_step("hip", "__shfl_xor", "", "lane_mask", &masks, &[]);
    let cmp = check(&step);
    assert_eq!(cmp.lanes[0].gpu_from, Some(32));
    // Lane 1 ^ −2 = −1: passes the check, index mod 64 = 63.
    assert_eq!(cmp.lanes[1].gpu_from, Some(63));
    let delta: Vec<i64> = (0..64).map(|i| [1, 3, 33, 64][i % 4]).collect();
    for op in ["__shfl_up", "__shfl_down"] {
        let step = per_lane_step("hip", op, "0x7fffffffffffffff", "delta", &delta, &[]);
        check(&step);
    }
    // HIP __shfl_up(v, 3) reads lane − 3, the own value below 3.
    let step = per_lane_step("hip", "__shfl_up", "", "delta", &[3; 64], &[]);
    let cmp = check(&step);
    let want: Vec<Option<u64>> = (0..64u64)
        .map(|i| Some(100 + if i < 3 { i } else { i - 3 }))
        .collect();
    assert_eq!(gpu_values(&cmp), want);
}

#[test]
fn ascend_per_lane_operands_agree() {
    if common::gpu().is_none() {
        return;
    }
    let fixed = [("width", "8".to_string())];
    let src: Vec<i64> = (0..32).map(|i| [-3, 9, 7, 0][i % 4]).collect();
    let cmp = check(&per_lane_step(
        "ascend", "asc_shfl", "", "src_lane", &src, &fixed,
    ));
    assert_eq!(cmp.lanes[0].verdict, Verdict::Indeterminate); // srcLane −3 names no lane
    assert_eq!(cmp.lanes[1].gpu_from, Some(1)); // 9 mod 8 = 1 of segment 0
    let delta: Vec<i64> = (0..32).map(|i| [1, 2, 8, 5][i % 4]).collect();
    for op in ["asc_shfl_up", "asc_shfl_down"] {
        let cmp = check(&per_lane_step(
            "ascend",
            op,
            "0xffff7fff",
            "delta",
            &delta,
            &fixed,
        ));
        assert_eq!(cmp.lanes[2].source, Source::Own); // delta 8 ≥ width 8
    }
    let masks: Vec<i64> = (0..32).map(|i| [1, 8, -1, 4][i % 4]).collect();
    let cmp = check(&per_lane_step(
        "ascend",
        "asc_shfl_xor",
        "",
        "lane_mask",
        &masks,
        &fixed,
    ));
    assert_eq!(cmp.lanes[9].gpu_from, Some(1)); // 9 ^ 8 = 1: an earlier group
    assert_eq!(cmp.lanes[1].source, Source::Own); // 1 ^ 8 = 9: past the group's end
}

#[test]
fn amd_swizzle_permute_dpp_and_lane_reads_agree() {
    if common::gpu().is_none() {
        return;
    }
    // ds_swizzle_b32's offset is an immediate: one value for the wave, every mode of seed 003.
    for offset in ["0x041f", "0x801b", "0xc03f", "0xe010", "0x00e0"] {
        for lanes_active in ["", "0x0000ffffffff00ff"] {
            let step = request(
                "amdgcn",
                "ds_swizzle_b32",
                lanes_active,
                "lane+100",
                &[("offset", offset.into())],
            )
            .run()
            .unwrap();
            check(&step);
        }
    }
    // Per-lane byte addresses, some past the wave and not multiples of 4, with an offset.
    let addr: Vec<String> = (0..64)
        .map(|i: i64| ((i * 13) % 300 - 7).to_string())
        .collect();
    for op in ["ds_bpermute_b32", "ds_permute_b32"] {
        let step = request(
            "amdgcn",
            op,
            "0xf0f0f0f0ffffffff",
            "lane+100",
            &[("addr", addr.join(",")), ("offset", "8".into())],
        )
        .run()
        .unwrap();
        check(&step);
    }
    // DPP with a per-lane old value, masked rows and banks, both bound_ctrl settings.
    let old: Vec<String> = (0..64).map(|i| (1000 + i).to_string()).collect();
    // Each control on a target that has it (LLVM AMDGPUModifierSyntax, DPP Modifiers): row_bcast
    // and the wave rotates are GFX9/CDNA only, row_xmask and dpp8 GFX10+.
    for (ctrl, arch) in [
        ("row_shr:3", "gfx1030"),
        ("quad_perm:[3,0,2,1]", "gfx942"),
        ("row_bcast:15", "gfx900"),
        ("row_xmask:5", "gfx1100"),
        ("dpp8:[1,0,3,2,5,4,7,6]", "gfx1200"),
        ("wave_ror:1", "gfx90a"),
    ] {
        for bound in ["0", "1"] {
            let step = request(
                "amdgcn",
                "update_dpp",
                "0xffffffff7fffffff",
                "lane+100",
                &[
                    ("old", old.join(",")),
                    ("dpp_ctrl", ctrl.into()),
                    ("row_mask", "0xb".into()),
                    ("bank_mask", "0xd".into()),
                    ("bound_ctrl", bound.into()),
                    ("arch", arch.into()),
                ],
            )
            .run()
            .unwrap();
            let cmp = check(&step);
            if !ctrl.starts_with("dpp8") {
                // Row 2 is disabled by row_mask 0xb: lane 32 keeps its old value 1032 (dpp8 has
                // no mask fields).
                assert_eq!(cmp.lanes[32].gpu.map(|v| v.bits), Some(1032), "{ctrl}");
                assert_eq!(cmp.lanes[32].gpu_source, Some(Source::Old));
            }
        }
    }
    // v_readlane_b32's lane_sel is an SGPR (uniform): 69 & 63 = lane 5, read although inactive.
    let step = per_lane_step(
        "amdgcn",
        "v_readlane_b32",
        "0xff00",
        "lane_sel",
        &[69; 64],
        &[],
    );
    let cmp = check(&step);
    assert_eq!(cmp.lanes[0].gpu_from, Some(5));
    let step = request("amdgcn", "v_readfirstlane_b32", "0xff00", "lane+100", &[])
        .run()
        .unwrap();
    let cmp = check(&step);
    assert_eq!(cmp.lanes[0].gpu_from, Some(8)); // every lane shows the SGPR read from lane 8
}

#[test]
fn maca_shuffle_modes_and_permutes_agree() {
    if common::gpu().is_none() {
        return;
    }
    let old: Vec<String> = (0..64).map(|i| (-(i as i64)).to_string()).collect();
    // Seed 002 §3.4.1 modes: quad perm, row shl/shr/ror, row mirror, row broadcast.
    for mode in ["0x1b", "0x104", "0x11f", "0x123", "0x140", "0x153"] {
        for bc in ["0", "1"] {
            let params = [
                ("mode", mode.to_string()),
                ("rmsk", "0x7".to_string()),
                ("bmsk", "0xe".to_string()),
                ("bc", bc.to_string()),
            ];
            let step = request(
                "maca",
                "mov_shfl",
                "0xfffffffffffeffff",
                "lane+100",
                &params,
            )
            .run()
            .unwrap();
            check(&step);
            let mut with_old = params.to_vec();
            with_old.push(("old_val", old.join(",")));
            let step = request(
                "maca",
                "update_shfl",
                "0xfffffffffffeffff",
                "lane+100",
                &with_old,
            )
            .run()
            .unwrap();
            let cmp = check(&step);
            // Row 3 is disabled by rmsk 0x7: lane 50 returns old_val −50.
            assert_eq!(
                cmp.lanes[50].gpu.map(|v| v.bits as u32 as i32),
                Some(-50),
                "{mode}"
            );
        }
    }
    // bsm_(b)permute per-lane indices: the reverse the seed means, index[n] = (63 − n)·4, and
    // collisions (two lanes write lane 0: the higher wins).
    let reverse: Vec<String> = (0..64).map(|n| ((63 - n) * 4).to_string()).collect();
    let step = request(
        "maca",
        "bsm_bpermute",
        "",
        "lane+100",
        &[("index", reverse.join(","))],
    )
    .run()
    .unwrap();
    let cmp = check(&step);
    let want: Vec<Option<u64>> = (0..64u64).map(|n| Some(100 + 63 - n)).collect();
    assert_eq!(gpu_values(&cmp), want);
    let collide: Vec<String> = (0..64).map(|n| ((n / 2) * 4).to_string()).collect();
    let step = request(
        "maca",
        "bsm_permute",
        "0xfffffffffffffffd",
        "lane+100",
        &[("index", collide.join(","))],
    )
    .run()
    .unwrap();
    let cmp = check(&step);
    // Lanes 0 and 1 write lane 0, lane 1 is inactive: lane 0 gets lane 0's value. Lanes 2 and 3
    // write lane 1 (inactive, nothing to receive); lanes 4 and 5 write lane 2: lane 5 wins.
    assert_eq!(cmp.lanes[0].gpu_from, Some(0));
    assert_eq!(cmp.lanes[2].gpu_from, Some(5));
    assert_eq!(cmp.lanes[40].gpu_source, Some(Source::Zero)); // nobody writes lane 40
    let step = per_lane_step(
        "maca",
        "__builtin_mxc_readlane",
        "0xffff",
        "thread",
        &[66; 64],
        &[],
    );
    let cmp = check(&step);
    assert_eq!(cmp.lanes[0].gpu_from, Some(2)); // 66 & 63
}

#[test]
fn wgsl_per_invocation_ids_agree_as_formula_and_as_builtin() {
    let Some(gpu) = common::gpu() else { return };
    let lanes = gpu.caps().min_size.max(4) as usize;
    // Per-invocation ids: some out of range, some naming inactive invocations.
    let ids: Vec<i64> = (0..lanes as i64)
        .map(|i| (i * 3 + 1) % (lanes as i64 + 2))
        .collect();
    let list: Vec<String> = ids.iter().map(i64::to_string).collect();
    let req = OpRequest {
        dialect: "wgsl".into(),
        op: "subgroupShuffle".into(),
        lanes: lanes.to_string(),
        active: "0xfd".into(),
        values: "lane+100".into(),
        ty: "u32".into(),
        params: [("id".to_string(), list.join(","))].into(),
        ..OpRequest::default()
    };
    let step = req
        .run()
        .expect("subgroupShuffle takes a per-invocation id");
    assert!(matches!(step.params.0.get("id"), Some(ParamValue::Ints(_))));
    for choice in [
        LoweringChoice::Auto,
        LoweringChoice::WorkgroupMemory,
        LoweringChoice::SubgroupShuffle,
    ] {
        let (cmp, run) = gpu.compare_step(&step, choice).unwrap();
        assert!(cmp.agrees(), "{}:\n{}", run.lowering.name(), cmp.to_table());
        assert!(cmp.count(Verdict::Indeterminate) > 0);
    }
}

#[test]
fn a_wrong_formula_is_caught_by_the_diff() {
    // The PTX formula with `param & 15` instead of `param & 31`: __shfl_xor_sync(…, 16) then reads
    // the lane itself. The device's values and sources differ from the emulator's: mismatches.
    let Some(gpu) = common::gpu() else { return };
    let step = request(
        "cuda",
        "__shfl_xor_sync",
        "",
        "lane+100",
        &[("lane_mask", "16".into())],
    )
    .run()
    .unwrap();
    let mut kernel = lower_step(
        &step,
        &gpu.caps(),
        LoweringChoice::Auto,
        ShaderTarget::Naga,
        &gpu.facts().adapter,
    )
    .unwrap();
    let right = "let b = param & 31;";
    assert!(kernel.wgsl.contains(right), "{}", kernel.wgsl);
    let good = gpu.run_kernel(kernel.clone()).unwrap();
    assert!(crosslane_gpu::compare(&step, gpu.facts(), &good).agrees());
    kernel.wgsl = kernel.wgsl.replace(right, "let b = param & 15;");
    let bad = gpu.run_kernel(kernel).unwrap();
    let cmp = crosslane_gpu::compare(&step, gpu.facts(), &bad);
    assert!(!cmp.agrees());
    assert_eq!(cmp.count(Verdict::Mismatch), 32, "{}", cmp.to_table());
    // Lane 3: the emulator reads lane 19 (103 ^ 16 → 119); the wrong formula reads lane 3.
    assert_eq!(
        cmp.lanes[3].emulator,
        Some(Value::from_bits(ValueType::I32, 119))
    );
    assert_eq!(cmp.lanes[3].gpu_from, Some(3));
}

#[test]
fn amd_target_rules_agree_on_the_device() {
    // The target-dependent rules (docs/semantics.md, AMD targets) computed by the device's formula:
    // * RDNA3 ISA, DS_BPERMUTE_B32: on gfx1100 wave64 the lane index is MOD 32 in each half, so
    //   lane i asking for lane 63 - i reads (i & 32) | (31 - (i & 31)); RDNA4 (gfx1200) reads 63 - i;
    // * ROCm clr amd_warp_functions.h: HIP __shfl goes through that ds_bpermute, same lanes;
    // * LLVM AMDGPUModifierSyntax, DPP8 Modifiers: fi:0 fetches 0 from an inactive source, whatever
    //   bound_ctrl says (lane 7 reads lane 0, which is off).
    if common::gpu().is_none() {
        return;
    }
    let mirror: Vec<i64> = (0..64).map(|i| 4 * (63 - i)).collect();
    let halves = |i: u64| 100 + ((i & 32) | (31 - (i & 31)));
    for (arch, want) in [
        (
            "gfx1100",
            (0..64u64).map(|i| Some(halves(i))).collect::<Vec<_>>(),
        ),
        ("gfx1200", (0..64u64).map(|i| Some(100 + 63 - i)).collect()),
    ] {
        let step = per_lane_step(
            "amdgcn",
            "ds_bpermute_b32",
            "",
            "addr",
            &mirror,
            &[("arch", arch.into())],
        );
        assert_eq!(gpu_values(&check(&step)), want, "ds_bpermute_b32 on {arch}");
    }
    let src: Vec<i64> = (0..64).map(|i| 63 - i).collect();
    let step = per_lane_step(
        "hip",
        "__shfl",
        "",
        "src_lane",
        &src,
        &[("arch", "gfx1100".into())],
    );
    let want: Vec<Option<u64>> = (0..64u64).map(|i| Some(halves(i))).collect();
    assert_eq!(
        gpu_values(&check(&step)),
        want,
        "HIP __shfl on gfx1100 wave64"
    );

    let step = request(
        "amdgcn",
        "update_dpp",
        "0xfffffffffffffffe",
        "lane+100",
        &[
            ("dpp_ctrl", "dpp8:[7,6,5,4,3,2,1,0]".into()),
            ("old", "1000".into()),
            ("bound_ctrl", "false".into()),
            ("arch", "gfx1100".into()),
        ],
    )
    .run()
    .unwrap();
    let cmp = check(&step);
    let got = gpu_values(&cmp);
    assert_eq!(
        got[7],
        Some(0),
        "dpp8 fi:0: lane 7 reads inactive lane 0 as 0"
    );
    assert_eq!(got[6], Some(101), "lane 6 reads lane 1");
    assert_eq!(got[8], Some(115), "lane 8 reads lane 15");
}
