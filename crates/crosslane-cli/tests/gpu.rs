//! `crosslane gpu` on the machine's Vulkan device (lavapipe in CI): the Ascend C `asc_shfl_xor`
//! with lane mask 1 in 16-lane segments runs on the GPU and every lane matches the emulator; no
//! Vulkan driver is exit status 3; `gpu info` reports the adapter.

use std::process::Command;

fn crosslane(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_crosslane"))
        .args(args)
        .output()
        .expect("the crosslane binary runs")
}

#[test]
fn ascend_shfl_xor_matches_on_the_gpu() {
    let out = crosslane(&[
        "gpu",
        "ascend",
        "asc_shfl_xor",
        "--lane-mask",
        "1",
        "--width",
        "16",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "stdout:\n{stdout}\nstderr:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("32 match, 0 mismatch, 0 indeterminate, 0 inactive"),
        "{stdout}"
    );
    // lane 0 received lane 1's value and lane 1 lane 0's (values default to `lane`).
    assert!(
        stdout.contains("   0               1               1  match"),
        "{stdout}"
    );
}

#[test]
fn json_lanes_swap_pairs_on_the_gpu() {
    let out = crosslane(&[
        "gpu",
        "ascend",
        "asc_shfl_xor",
        "--lane-mask",
        "1",
        "--width",
        "16",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    let lanes = v["lanes"].as_array().expect("lanes");
    assert_eq!(lanes.len(), 32);
    for l in lanes {
        assert_eq!(l["verdict"], "match", "{l}");
    }
    // values default to `lane`: lane 0 reads lane 1, lane 5 reads lane 4 (xor 1).
    assert_eq!(lanes[0]["gpu"], 1);
    assert_eq!(lanes[5]["gpu"], 4);
}

#[test]
fn bad_op_is_refused_with_status_2() {
    let out = crosslane(&["gpu", "ascend", "no_such_op"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn no_vulkan_driver_is_exit_status_3_with_the_reason() {
    let out = Command::new(env!("CARGO_BIN_EXE_crosslane"))
        .args(["gpu", "ascend", "asc_shfl_xor"])
        .env("VK_ICD_FILENAMES", "/nonexistent/icd.json")
        .env("VK_DRIVER_FILES", "/nonexistent/icd.json")
        .output()
        .expect("the crosslane binary runs");
    assert_eq!(out.status.code(), Some(3));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("no GPU adapter found"), "{stderr}");
}

#[test]
fn info_names_the_adapter_and_its_subgroup_sizes() {
    let out = crosslane(&["gpu", "info", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert!(v["adapter"].as_str().is_some_and(|a| !a.is_empty()), "{v}");
    let (min, max) = (
        v["subgroup_min_size"].as_u64(),
        v["subgroup_max_size"].as_u64(),
    );
    assert!(
        matches!((min, max), (Some(a), Some(b)) if a >= 1 && a <= b),
        "{v}"
    );
}
