//! WGSL subgroupShuffle* beyond the reference vectors: out-of-range and inactive invocations are
//! indeterminate (WGSL spec, Subgroup Built-in Functions), never a value.

use crate::common::{self, lane_ints as ints};
use crosslane_core::{OpRequest, Source, Step};

fn run(op: &str, lanes: &str, active: &str, params: &[(&str, &str)]) -> Step {
    OpRequest {
        lanes: lanes.into(),
        active: active.into(),
        values: "lane*10".into(),
        ..common::request("wgsl", op, params)
    }
    .run()
    .expect("request is valid")
}

#[test]
fn id_out_of_range_is_indeterminate() {
    let s = run("subgroupShuffle", "4", "", &[("id", "4")]);
    assert_eq!(ints(&s), vec![None; 4]);
    assert!(s.results.iter().all(|r| r.source == Source::Undefined
        && r.from.is_none()
        && r.why
            .as_deref()
            .is_some_and(|w| w.contains("indeterminate"))));
    let s = run("subgroupShuffle", "4", "", &[("id", "-1")]);
    assert_eq!(ints(&s), vec![None; 4]);
}

#[test]
fn inactive_invocation_is_indeterminate() {
    // Lanes 0..4 active of 8; xor 4 reads lanes 4..8, all inactive.
    let s = run("subgroupShuffleXor", "8", "0x0f", &[("mask", "4")]);
    assert_eq!(ints(&s), vec![None; 8]);
    assert_eq!(s.results[0].from, Some(4));
    assert_eq!(s.results[0].source, Source::Undefined);
    assert_eq!(s.results[5].source, Source::Inactive);
    let s = run("subgroupShuffleXor", "8", "0x0f", &[("mask", "1")]);
    assert_eq!(
        ints(&s),
        vec![
            Some(10),
            Some(0),
            Some(30),
            Some(20),
            None,
            None,
            None,
            None
        ]
    );
}

#[test]
fn up_and_down_never_wrap_on_wide_subgroups() {
    let s = run("subgroupShuffleDown", "128", "", &[("delta", "100")]);
    let got = ints(&s);
    assert_eq!(got[27], Some(1270));
    assert_eq!(got[28], None);
    let s = run("subgroupShuffleUp", "64", "", &[("delta", "70")]);
    assert_eq!(ints(&s), vec![None; 64]);
}

#[test]
fn subgroup_size_must_be_a_power_of_two_in_range() {
    let err = OpRequest {
        dialect: "wgsl".into(),
        op: "subgroupShuffle".into(),
        lanes: "2".into(),
        ..OpRequest::default()
    }
    .run()
    .unwrap_err();
    assert_eq!(err.field, "lanes");
}
