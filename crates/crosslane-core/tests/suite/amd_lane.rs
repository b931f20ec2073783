//! v_readlane_b32, v_readfirstlane_b32, v_writelane_b32 (AMD ISA; semantics.md).

use crate::common;
use crosslane_core::{OpRequest, Source, Step};

fn run(op: &str, lanes: &str, active: &str, params: &[(&str, &str)]) -> Step {
    OpRequest {
        lanes: lanes.into(),
        active: active.into(),
        values: "lane*3".into(),
        ..common::request("amdgcn", op, params)
    }
    .run()
    .expect("valid request")
}

fn vals(step: &Step) -> Vec<Option<i64>> {
    step.results
        .iter()
        .map(|r| r.value.and_then(|v| v.as_i64()))
        .collect()
}

#[test]
fn readlane_masks_the_selector_and_ignores_exec() {
    let step = run("v_readlane_b32", "64", "0x1", &[("lane_sel", "70")]);
    // 70 & 63 = 6; lane 6 is not in EXEC but is read anyway; every lane sees the SGPR.
    assert!(vals(&step).iter().all(|v| *v == Some(18)));
    assert_eq!(step.results[40].from, Some(6));
    assert!(step
        .diagnostics
        .iter()
        .any(|d| d.message.contains("lane 6")));
    let step = run("v_readlane_b32", "32", "", &[("lane_sel", "33")]);
    assert_eq!(vals(&step)[0], Some(3));
}

#[test]
fn readfirstlane_takes_the_lowest_exec_lane_or_lane_0() {
    let step = run("v_readfirstlane_b32", "64", "0xffff000000000000", &[]);
    assert!(vals(&step).iter().all(|v| *v == Some(48 * 3)));
    let step = run("v_readfirstlane_b32", "64", "0x0", &[]);
    assert!(vals(&step).iter().all(|v| *v == Some(0)));
    assert_eq!(step.results[5].from, Some(0));
}

#[test]
fn writelane_writes_one_lane_and_keeps_the_rest() {
    let step = run(
        "v_writelane_b32",
        "32",
        "0x1",
        &[("value", "-9"), ("lane_sel", "37")],
    );
    let got = vals(&step);
    assert_eq!(
        got[5],
        Some(-9),
        "37 & 31 = 5, written though lane 5 is not in EXEC"
    );
    assert_eq!(step.results[5].source, Source::Computed);
    assert_eq!(got[4], Some(12));
    assert_eq!(step.results[4].source, Source::Old);
    assert_eq!(got.len(), 32);
}
