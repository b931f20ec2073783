//! MetaX lane builtins (seed 002 §3.8.2–3.8.5): readlane, writelane, read_xmsk, readfirstlane.

use crate::common;
use crosslane_core::{OpRequest, Source, Step};

fn run(op: &str, active: &str, params: &[(&str, &str)]) -> Step {
    OpRequest {
        active: active.into(),
        values: "lane*3".into(),
        ..common::request("maca", op, params)
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
fn readlane_reads_one_lane_into_every_active_lane() {
    let step = run(
        "__builtin_mxc_readlane",
        "0x00000000ffffffff",
        &[("thread", "40")],
    );
    let got = vals(&step);
    assert_eq!(got[0], Some(120));
    assert_eq!(got[31], Some(120));
    assert_eq!(step.results[40].source, Source::Inactive);
    assert!(step
        .diagnostics
        .iter()
        .any(|d| d.message.contains("lane 40 is not active")));
    let step = run("readlane", "", &[("thread", "65")]);
    assert_eq!(vals(&step)[9], Some(3), "65 & 63 = 1");
}

#[test]
fn writelane_replaces_one_lane() {
    // Seed example: __builtin_mxc_writelane(10, 0, old_data).
    let step = run(
        "__builtin_mxc_writelane",
        "",
        &[("val", "10"), ("lane", "0")],
    );
    let got = vals(&step);
    assert_eq!(got[0], Some(10));
    assert_eq!(got[1], Some(3));
    assert_eq!(step.results[1].source, Source::Old);
    assert_eq!(got[63], Some(189));
}

#[test]
fn read_xmsk_returns_the_active_mask() {
    let step = run("__builtin_mxc_read_xmsk", "0x8000000000000003", &[]);
    assert_eq!(step.results[0].value.unwrap().bits, 0x8000_0000_0000_0003);
    assert_eq!(step.results[63].value.unwrap().as_i64(), Some(i64::MIN + 3));
    assert_eq!(step.results[5].source, Source::Inactive);
}

#[test]
fn readfirstlane_with_no_active_lane() {
    let step = run("readfirstlane", "0x0", &[]);
    assert!(step.results.iter().all(|r| r.value.is_none()));
    assert!(step
        .diagnostics
        .iter()
        .any(|d| d.message.contains("lane 0")));
}
