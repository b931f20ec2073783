//! CUDA warp vote, match and reduce functions (CUDA C++ Programming Guide, Warp Vote / Match /
//! Reduce Functions), with the sync-mask rule.

use crate::common;
use crosslane_core::{Level, OpRequest, Source, Step};

fn run(op: &str, active: &str, values: &str, ty: &str, params: &[(&str, &str)]) -> Step {
    OpRequest {
        active: active.into(),
        values: values.into(),
        ty: ty.into(),
        ..common::request("cuda", op, params)
    }
    .run()
    .expect("request is valid")
}

fn list(f: impl Fn(usize) -> String) -> String {
    (0..32).map(f).collect::<Vec<_>>().join(",")
}

#[test]
fn ballot_any_all_over_the_mask() {
    let pred = list(|i| (i % 2).to_string());
    let s = run("__ballot_sync", "", &pred, "", &[]);
    assert_eq!(s.results[0].value.map(|v| v.bits), Some(0xaaaa_aaaa));
    assert_eq!(s.results[0].source, Source::Computed);
    let s = run("__ballot_sync", "0x0000ffff", &pred, "", &[]);
    assert_eq!(s.results[3].value.map(|v| v.bits), Some(0x0000_aaaa));
    assert_eq!(s.results[16].source, Source::Inactive);
    let s = run("__any_sync", "0x55555555", &pred, "", &[]);
    assert_eq!(s.results[0].value.and_then(|v| v.as_i64()), Some(0));
    let s = run("__all_sync", "0xaaaaaaaa", &pred, "", &[]);
    assert_eq!(s.results[1].value.and_then(|v| v.as_i64()), Some(1));
    let s = run("__all_sync", "", &pred, "", &[]);
    assert_eq!(s.results[1].value.and_then(|v| v.as_i64()), Some(0));
}

#[test]
fn activemask_reports_the_calling_lanes() {
    let s = run("__activemask", "0x00f0000f", "lane", "", &[]);
    assert_eq!(s.results[0].value.map(|v| v.bits), Some(0x00f0_000f));
    assert_eq!(s.results[4].source, Source::Inactive);
}

#[test]
fn match_any_groups_equal_bits() {
    // value = lane / 8: four groups of 8 lanes.
    let values = list(|i| (i / 8).to_string());
    let s = run("__match_any_sync", "", &values, "", &[]);
    assert_eq!(s.results[0].value.map(|v| v.bits), Some(0x0000_00ff));
    assert_eq!(s.results[9].value.map(|v| v.bits), Some(0x0000_ff00));
    assert_eq!(s.results[31].value.map(|v| v.bits), Some(0xff00_0000));
    // +0 and -0 are different bits.
    let values = list(|i| if i == 0 { "-0".into() } else { "0".into() });
    let s = run("__match_any_sync", "", &values, "float", &[]);
    assert_eq!(s.results[0].value.map(|v| v.bits), Some(1));
    assert_eq!(s.results[1].value.map(|v| v.bits), Some(0xffff_fffe));
}

#[test]
fn match_all_same_and_different() {
    let same = list(|_| "7".into());
    let s = run("__match_all_sync", "0x0000ffff", &same, "", &[]);
    assert_eq!(s.results[0].value.map(|v| v.bits), Some(0x0000_ffff));
    assert!(s
        .diagnostics
        .iter()
        .any(|d| d.level == Level::Info && d.message.starts_with("pred = 1")));
    let s = run("__match_all_sync", "", "lane", "", &[]);
    assert_eq!(s.results[5].value.map(|v| v.bits), Some(0));
    assert!(s
        .diagnostics
        .iter()
        .any(|d| d.message.starts_with("pred = 0")));
}

#[test]
fn reductions() {
    let s = run("__reduce_add_sync", "", "lane", "", &[]);
    assert_eq!(s.results[0].value.and_then(|v| v.as_i64()), Some(496));
    let s = run("__reduce_add_sync", "", "lane-16", "int", &[]);
    assert_eq!(s.results[0].value.and_then(|v| v.as_i64()), Some(-16));
    let s = run("__reduce_min_sync", "", "lane-16", "int", &[]);
    assert_eq!(s.results[0].value.and_then(|v| v.as_i64()), Some(-16));
    // unsigned: -16 wraps to a large value, so the minimum is 0.
    let s = run("__reduce_min_sync", "", "lane-16", "unsigned", &[]);
    assert_eq!(s.results[0].value.and_then(|v| v.as_i64()), Some(0));
    let s = run("__reduce_max_sync", "0x000000ff", "lane*3", "", &[]);
    assert_eq!(s.results[0].value.and_then(|v| v.as_i64()), Some(21));
    let s = run("__reduce_or_sync", "", "lane", "", &[]);
    assert_eq!(s.results[0].value.map(|v| v.bits), Some(31));
    let s = run("__reduce_and_sync", "0xfffffffe", "lane", "", &[]);
    assert_eq!(s.results[1].value.map(|v| v.bits), Some(0));
    let s = run("__reduce_xor_sync", "0x0000000f", "lane", "", &[]);
    assert_eq!(s.results[0].value.map(|v| v.bits), Some(0));
}

#[test]
fn reduce_with_a_missing_mask_lane_is_undefined() {
    let s = run(
        "__reduce_add_sync",
        "0x0000ffff",
        "lane",
        "",
        &[("mask", "0xffffffff")],
    );
    assert!(s.results[..16]
        .iter()
        .all(|r| r.value.is_none() && r.source == Source::Undefined));
    let s = run(
        "__reduce_add_sync",
        "",
        "lane",
        "",
        &[("mask", "0x0000ffff")],
    );
    assert_eq!(s.results[0].value.and_then(|v| v.as_i64()), Some(120));
    assert_eq!(s.results[16].value, None);
    assert_eq!(s.results[16].source, Source::Undefined);
}

#[test]
fn reduce_rejects_types_the_guide_does_not_list() {
    let err = OpRequest {
        dialect: "cuda".into(),
        op: "__reduce_and_sync".into(),
        ty: "int".into(),
        ..OpRequest::default()
    }
    .run()
    .unwrap_err();
    assert_eq!(err.field, "type");
}
