//! `gpu_command`, the logic behind `crosslane gpu …`.

mod common;

use crosslane_gpu::cli::gpu_command;

fn args(s: &str) -> Vec<String> {
    s.split_whitespace().map(str::to_string).collect()
}

#[test]
fn op_diff_table_and_json() {
    if common::gpu().is_none() {
        return;
    }
    let (out, code) = gpu_command(&args(
        "ascend asc_shfl_down --delta 3 --width 8 --active 0xfffffffe",
    ));
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("lowering: "), "{out}");
    assert!(out.contains("observed "), "{out}");
    // Which part ran as hardware subgroup operations and which part is the vendor's formula.
    assert!(out.contains("hardware subgroup operations: "), "{out}");
    assert!(
        out.contains("formula (WGSL): every lane's source lane and kind, computed on the device from the asc_shfl* page rules"),
        "{out}"
    );
    // Lane 4 reads lane 7 within its 8-lane group: value 7.
    let row4 = out
        .lines()
        .find(|l| l.trim_start().starts_with("4 "))
        .unwrap();
    assert!(
        row4.split_whitespace().collect::<Vec<_>>()[1..4] == ["7", "7", "match"],
        "{row4}"
    );
    // Lane 0 is inactive.
    assert!(out
        .lines()
        .any(|l| l.trim_start().starts_with("0 ") && l.contains("inactive")));
    let (json, code) = gpu_command(&args("ascend asc_shfl_xor --lane-mask 1 --json"));
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["lanes"][0]["verdict"], "match");
    assert_eq!(v["lanes"][0]["gpu"], 1);
    assert_eq!(v["lanes"][0]["gpu_bits"], "0x00000001");
    assert_eq!(v["summary"]["mismatch"], 0);
    assert!(v["wgsl"].as_str().unwrap().contains("@compute"));
    assert!(v["wgsl"]
        .as_str()
        .unwrap()
        .contains("fn rule(i: u32) -> Pick"));
    assert!(v["formula"].as_str().unwrap().contains("asc_shfl*"), "{v}");
    // Lane 0 ^ 1 = lane 1, computed by the device's formula.
    assert_eq!(v["lanes"][0]["gpu_source"], "lane");
    assert_eq!(v["lanes"][0]["gpu_from"], 1);
}

#[test]
fn wgsl_op_defaults_to_the_device_subgroup() {
    let Some(gpu) = common::gpu() else { return };
    let n = gpu.caps().min_size;
    // crosslane-core's WGSL dialect lands on another branch: until then the op is an input error.
    let in_core =
        crosslane_core::find_op(crosslane_core::Dialect::Wgsl, "subgroupShuffleXor").is_ok();
    let (out, code) = gpu_command(&args("wgsl subgroupShuffleXor --mask 1"));
    if !in_core {
        assert_eq!(code, 2, "{out}");
        assert!(
            out.starts_with("error: op: `subgroupShuffleXor` is not an operation of WGSL"),
            "{out}"
        );
    } else {
        assert_eq!(code, 0, "{out}");
        assert!(out.contains(&format!("observed {n}")), "{out}");
    }
}

#[test]
fn input_errors_exit_2_and_sort_checks_itself() {
    if common::gpu().is_none() {
        return;
    }
    let (out, code) = gpu_command(&args("ascend asc_shfl_xor --lanes 64"));
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("lanes"), "{out}");
    let (out, code) = gpu_command(&args("ascend asc_shfl_xor --lowering sideways"));
    assert_eq!(code, 2, "{out}");
    let (out, code) = gpu_command(&args("sort --len 5000 --seed 3"));
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("matches sort_unstable"), "{out}");
    let (_, code) = gpu_command(&args("sort --len -4"));
    assert_eq!(code, 2);
}
