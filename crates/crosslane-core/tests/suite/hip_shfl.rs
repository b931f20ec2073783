//! HIP shuffles and votes beyond the reference vectors: the amd_warp_functions.h index formulas
//! with ds_bpermute's `index mod warpSize`, on wave64 and wave32 (semantics.md "HIP").

use crate::common::{self, lane_ints as ints};
use crosslane_core::{OpRequest, Source, Step};

fn run(op: &str, lanes: &str, active: &str, values: &str, params: &[(&str, &str)]) -> Step {
    OpRequest {
        lanes: lanes.into(),
        active: active.into(),
        values: values.into(),
        ..common::request("hip", op, params)
    }
    .run()
    .expect("request is valid")
}

#[test]
fn default_width_is_the_wave_size() {
    let s = run("__shfl_down", "", "", "lane", &[("delta", "40")]);
    assert_eq!(s.lanes, 64);
    assert_eq!(ints(&s)[0], Some(40));
    assert_eq!(ints(&s)[23], Some(63));
    assert_eq!(ints(&s)[24], Some(24));
    assert_eq!(s.results[24].source, Source::Own);
    let s = run("__shfl_down", "32", "", "lane", &[("delta", "40")]);
    assert!(s.results.iter().all(|r| r.source == Source::Own));
}

#[test]
fn negative_xor_mask_wraps_through_bpermute() {
    // wave64: index = i ^ -1 = -1 - i, below the segment end, read mod 64 → lane 63 - i.
    let s = run("__shfl_xor", "64", "", "lane", &[("lane_mask", "-1")]);
    let got = ints(&s);
    for (i, v) in got.iter().enumerate() {
        assert_eq!(*v, Some(63 - i as i64), "lane {i}");
    }
    // wave32: mod 32 → lane 31 - i.
    let s = run("__shfl_xor", "32", "", "lane", &[("lane_mask", "-1")]);
    let got = ints(&s);
    for (i, v) in got.iter().enumerate() {
        assert_eq!(*v, Some(31 - i as i64), "lane {i}");
    }
}

#[test]
fn down_by_33_with_width_16_keeps_own_value() {
    let s = run(
        "__shfl_down",
        "64",
        "",
        "lane",
        &[("delta", "33"), ("width", "16")],
    );
    assert!(s.results.iter().all(|r| r.source == Source::Own));
    assert_eq!(ints(&s)[5], Some(5));
}

#[test]
fn src_lane_is_taken_mod_width() {
    let s = run(
        "__shfl",
        "32",
        "",
        "lane",
        &[("src_lane", "-3"), ("width", "8")],
    );
    // -3 & 7 = 5.
    assert_eq!(ints(&s)[0], Some(5));
    assert_eq!(ints(&s)[9], Some(13));
}

#[test]
fn invalid_width_and_inactive_source_are_undefined() {
    let s = run(
        "__shfl",
        "64",
        "",
        "lane",
        &[("src_lane", "1"), ("width", "48")],
    );
    assert!(s.results.iter().all(|r| r.value.is_none()));
    assert!(s.results.iter().all(|r| r.from.is_some_and(|f| f < 64)));
    assert!(s
        .diagnostics
        .iter()
        .any(|d| d.message.contains("not a power of two")));
    let s = run(
        "__shfl",
        "64",
        "",
        "lane",
        &[("src_lane", "1"), ("width", "128")],
    );
    assert!(s.results.iter().all(|r| r.value.is_none()));
    let s = run(
        "__shfl_up",
        "64",
        "0xfffffffffffffffe",
        "lane",
        &[("delta", "1")],
    );
    assert_eq!(s.results[1].value, None);
    assert_eq!(s.results[1].from, Some(0));
    assert_eq!(ints(&s)[2], Some(1));
}

#[test]
fn votes() {
    // predicate = lane % 3 (non-zero except lanes 0, 3, 6, …); lanes 0..8 active on wave32.
    let values: Vec<String> = (0..32).map(|i| (i % 3).to_string()).collect();
    let values = values.join(",");
    let s = run("__ballot", "32", "0xff", &values, &[]);
    assert_eq!(s.results[0].value.map(|v| v.bits), Some(0b1011_0110));
    assert_eq!(s.results[0].source, Source::Computed);
    assert_eq!(s.results[9].source, Source::Inactive);
    let s = run("__any", "32", "0x09", &values, &[]);
    assert_eq!(ints(&s)[0], Some(0));
    let s = run("__all", "32", "0x06", &values, &[]);
    assert_eq!(ints(&s)[1], Some(1));
    let s = run("__all", "64", "", "lane+1", &[]);
    assert_eq!(ints(&s)[63], Some(1));
    let s = run("__ballot", "64", "", "lane", &[]);
    assert_eq!(s.results[0].value.map(|v| v.bits), Some(!1u64));
}
