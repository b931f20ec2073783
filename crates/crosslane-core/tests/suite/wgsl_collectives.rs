//! WGSL broadcasts, elect, ballot, votes, reductions, scans and quad operations (WGSL spec,
//! Subgroup / Quad Built-in Functions), with concrete values.

use std::collections::BTreeMap;

use crate::common::lane_ints as ints;
use crosslane_core::{Level, OpRequest, Source, Step};

fn run(
    op: &str,
    lanes: &str,
    active: &str,
    values: &str,
    ty: &str,
    params: &[(&str, &str)],
) -> Step {
    OpRequest {
        dialect: "wgsl".into(),
        op: op.into(),
        lanes: lanes.into(),
        active: active.into(),
        exited: String::new(),
        values: values.into(),
        ty: ty.into(),
        params: params
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect::<BTreeMap<_, _>>(),
    }
    .run()
    .expect("request is valid")
}

#[test]
fn broadcast_id_beyond_the_subgroup_is_indeterminate() {
    let s = run("subgroupBroadcast", "8", "", "lane*10", "", &[("id", "3")]);
    assert_eq!(ints(&s), vec![Some(30); 8]);
    let s = run("subgroupBroadcast", "8", "", "lane*10", "", &[("id", "8")]);
    assert_eq!(ints(&s), vec![None; 8]);
    let s = run(
        "subgroupBroadcast",
        "8",
        "0xf7",
        "lane*10",
        "",
        &[("id", "3")],
    );
    assert_eq!(s.results[0].source, Source::Undefined);
    assert_eq!(s.results[0].from, Some(3));
    // The spec's dynamic error, reported as such; every active invocation is undefined.
    assert!(s.results[0]
        .why
        .as_deref()
        .unwrap_or("")
        .contains("dynamic error"));
    assert!(s.diagnostics.iter().any(|d| d
        .message
        .starts_with("dynamic error: invocation 3 is inactive")));
    assert_eq!(ints(&s), vec![None; 8]);
    let err = OpRequest {
        dialect: "wgsl".into(),
        op: "subgroupBroadcast".into(),
        params: [("id".to_string(), "128".to_string())]
            .into_iter()
            .collect(),
        ..OpRequest::default()
    }
    .run()
    .unwrap_err();
    assert_eq!(err.field, "id");
}

#[test]
fn broadcast_first_and_elect_use_the_lowest_active_invocation() {
    let s = run("subgroupBroadcastFirst", "8", "0xe4", "lane*10", "", &[]);
    assert_eq!(ints(&s)[2], Some(20));
    assert_eq!(ints(&s)[7], Some(20));
    assert_eq!(s.results[0].source, Source::Inactive);
    let s = run("subgroupElect", "8", "0xe4", "lane", "", &[]);
    assert_eq!(
        ints(&s),
        vec![None, None, Some(1), None, None, Some(0), Some(0), Some(0)]
    );
}

#[test]
fn ballot_bit_layout() {
    let s = run("subgroupBallot", "64", "", "lane", "", &[]);
    // Every lane but 0 is true.
    assert_eq!(s.results[0].value.map(|v| v.bits), Some(!1u64));
    let s = run("subgroupBallot", "128", "", "lane", "", &[]);
    let note = s
        .diagnostics
        .iter()
        .find(|d| d.level == Level::Info)
        .expect("vec4 note");
    assert!(
        note.message
            .contains("vec4<u32>(0xfffffffe, 0xffffffff, 0xffffffff, 0xffffffff)"),
        "{}",
        note.message
    );
    let values: Vec<&str> = (0..8).map(|i| if i == 5 { "1" } else { "0" }).collect();
    let s = run("subgroupBallot", "8", "", &values.join(","), "", &[]);
    assert_eq!(s.results[3].value.map(|v| v.bits), Some(1 << 5));
}

#[test]
fn all_and_any_over_active_invocations() {
    let s = run("subgroupAll", "4", "0x06", "0,1,1,0", "", &[]);
    assert_eq!(ints(&s)[1], Some(1));
    let s = run("subgroupAll", "4", "", "0,1,1,0", "", &[]);
    assert_eq!(ints(&s)[1], Some(0));
    let s = run("subgroupAny", "4", "0x09", "0,1,1,0", "", &[]);
    assert_eq!(ints(&s)[0], Some(0));
}

#[test]
fn reductions_over_active_invocations() {
    let s = run("subgroupAdd", "8", "0x55", "lane", "", &[]);
    assert_eq!(ints(&s)[0], Some(12));
    assert_eq!(s.results[1].source, Source::Inactive);
    let s = run("subgroupMul", "4", "", "lane+1", "", &[]);
    assert_eq!(ints(&s)[3], Some(24));
    let s = run("subgroupMin", "4", "", "3,-1,7,2", "", &[]);
    assert_eq!(ints(&s)[0], Some(-1));
    let s = run("subgroupMax", "4", "", "3,-1,7,2", "u32", &[]);
    assert_eq!(s.results[0].value.map(|v| v.bits), Some(0xffff_ffff));
    // WGSL min has no NaN rule and floats may be assumed finite (WGSL spec, Floating Point
    // Evaluation): a NaN operand makes the result indeterminate, not "the other operand".
    let s = run("subgroupMin", "4", "", "nan,2,nan,1.5", "f32", &[]);
    assert!(s.results.iter().all(|r| r.source == Source::Undefined));
    assert!(s.results[0]
        .why
        .as_deref()
        .unwrap_or("")
        .contains("finite math"));
    let s = run("subgroupMax", "4", "0x6", "nan,2,1.5,nan", "f32", &[]);
    assert_eq!(
        s.results[1].value.and_then(|v| v.as_f64()),
        Some(2.0),
        "NaN lanes inactive"
    );
    // ±0 tie: the value shown is a zero, with the note that its sign is not guaranteed.
    let s = run("subgroupMin", "4", "", "0,-0,1,2", "f32", &[]);
    assert_eq!(s.results[0].value.and_then(|v| v.as_f64()), Some(0.0));
    assert!(s
        .diagnostics
        .iter()
        .any(|d| d.message.contains("sign of the result is not guaranteed")));
    let s = run("subgroupAnd", "4", "", "7,6,14,15", "", &[]);
    assert_eq!(ints(&s)[0], Some(6));
    let s = run("subgroupOr", "4", "", "1,2,4,8", "", &[]);
    assert_eq!(ints(&s)[0], Some(15));
    let s = run("subgroupXor", "4", "", "1,3,4,4", "", &[]);
    assert_eq!(ints(&s)[0], Some(2));
}

#[test]
fn scans_skip_inactive_invocations() {
    let s = run("subgroupInclusiveAdd", "8", "0xdb", "lane", "", &[]);
    assert_eq!(
        ints(&s),
        vec![
            Some(0),
            Some(1),
            None,
            Some(4),
            Some(8),
            None,
            Some(14),
            Some(21)
        ]
    );
    let s = run("subgroupExclusiveAdd", "8", "0xda", "lane", "", &[]);
    assert_eq!(
        ints(&s),
        vec![
            None,
            Some(0),
            None,
            Some(1),
            Some(4),
            None,
            Some(8),
            Some(14)
        ]
    );
    let s = run("subgroupExclusiveMul", "4", "", "lane+2", "", &[]);
    assert_eq!(ints(&s), vec![Some(1), Some(2), Some(6), Some(24)]);
    let s = run("subgroupInclusiveMul", "4", "0x0e", "lane+2", "", &[]);
    assert_eq!(ints(&s), vec![None, Some(3), Some(12), Some(60)]);
}

#[test]
fn bitwise_reductions_refuse_floats() {
    let err = OpRequest {
        dialect: "wgsl".into(),
        op: "subgroupXor".into(),
        ty: "f32".into(),
        ..OpRequest::default()
    }
    .run()
    .unwrap_err();
    assert_eq!(err.field, "type");
}

#[test]
fn quad_operations() {
    let s = run("quadSwapX", "8", "", "lane*10", "", &[]);
    assert_eq!(ints(&s), [10, 0, 30, 20, 50, 40, 70, 60].map(Some).to_vec());
    let s = run("quadSwapY", "8", "", "lane*10", "", &[]);
    assert_eq!(ints(&s), [20, 30, 0, 10, 60, 70, 40, 50].map(Some).to_vec());
    let s = run("quadSwapDiagonal", "8", "", "lane*10", "", &[]);
    assert_eq!(ints(&s), [30, 20, 10, 0, 70, 60, 50, 40].map(Some).to_vec());
    let s = run("quadBroadcast", "8", "", "lane*10", "", &[("id", "2")]);
    assert_eq!(
        ints(&s),
        [20, 20, 20, 20, 60, 60, 60, 60].map(Some).to_vec()
    );
    let s = run("quadSwapX", "4", "0x07", "lane", "", &[]);
    assert_eq!(s.results[2].value, None);
    assert_eq!(s.results[2].from, Some(3));
}
