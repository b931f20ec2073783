//! CUDA `__shfl*_sync` beyond the reference vectors: the sync-mask rule, invalid widths, negative
//! and large parameters, 64-bit and packed types (PTX ISA shfl.sync; semantics.md "CUDA").

use crate::common::{self, lane_ints as ints};
use crosslane_core::{OpRequest, Source, Step};

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

#[test]
fn negative_src_lane_reads_modulo_width() {
    // srcLane -1 & 31 = 31; with width 8, b & ~seg = 7: the last lane of each segment.
    let s = run(
        "__shfl_sync",
        "",
        "lane",
        "",
        &[("src_lane", "-1"), ("width", "8")],
    );
    let got = ints(&s);
    for (i, v) in got.iter().enumerate() {
        assert_eq!(*v, Some(((i & !7) + 7) as i64), "lane {i}");
    }
}

#[test]
fn xor_reads_an_earlier_segment_but_not_a_later_one() {
    // width 8, lane_mask 8: lane 9 ^ 8 = 1 (earlier segment) is read; lane 1 ^ 8 = 9 is later → own.
    let s = run(
        "__shfl_xor_sync",
        "",
        "lane",
        "",
        &[("lane_mask", "8"), ("width", "8")],
    );
    assert_eq!(s.results[9].value.and_then(|v| v.as_i64()), Some(1));
    assert_eq!(s.results[9].source, Source::Lane);
    assert_eq!(s.results[1].value.and_then(|v| v.as_i64()), Some(1));
    assert_eq!(s.results[1].source, Source::Own);
}

#[test]
fn width_not_power_of_two_is_undefined_with_hint_and_warning() {
    let s = run(
        "__shfl_down_sync",
        "",
        "lane",
        "",
        &[("delta", "1"), ("width", "12")],
    );
    assert!(s
        .results
        .iter()
        .all(|r| r.value.is_none() && r.source == Source::Undefined));
    // The formula with c = (20 << 8) | 31: seg = 20, lane 0 → maxL = 11, j = 1.
    assert_eq!(s.results[0].from, Some(1));
    assert!(s
        .diagnostics
        .iter()
        .any(|d| d.message.contains("not a power of two")
            && d.rule.contains("Warp Shuffle Functions")));
    let s = run(
        "__shfl_sync",
        "",
        "lane",
        "",
        &[("src_lane", "1"), ("width", "64")],
    );
    assert!(s.results.iter().all(|r| r.value.is_none()));
    assert!(s
        .diagnostics
        .iter()
        .any(|d| d.message.contains("larger than")));
}

#[test]
fn width_zero_is_an_input_error() {
    let err = OpRequest {
        dialect: "cuda".into(),
        op: "__shfl_sync".into(),
        params: [("width".to_string(), "0".to_string())]
            .into_iter()
            .collect(),
        ..OpRequest::default()
    }
    .run()
    .unwrap_err();
    assert_eq!(err.field, "width");
    assert!(err.message.contains("1..="), "{}", err.message);
}

#[test]
fn active_lane_outside_mask_is_undefined() {
    // All 32 lanes call, mask names only the low 16: lanes 16..32 are undefined; lane 0 reading
    // lane 16 (outside mask) is undefined too.
    let s = run(
        "__shfl_xor_sync",
        "",
        "lane",
        "",
        &[("mask", "0x0000ffff"), ("lane_mask", "16")],
    );
    assert!(s.results[16..].iter().all(|r| r.value.is_none()));
    assert_eq!(s.results[0].value, None);
    assert_eq!(s.results[0].from, Some(16));
    assert!(s
        .diagnostics
        .iter()
        .any(|d| d.message.contains("not in mask")));
    let s = run(
        "__shfl_xor_sync",
        "",
        "lane",
        "",
        &[("mask", "0x0000ffff"), ("lane_mask", "1")],
    );
    assert_eq!(s.results[0].value.and_then(|v| v.as_i64()), Some(1));
}

#[test]
fn mask_lane_that_does_not_call_makes_every_lane_undefined() {
    let s = run(
        "__shfl_sync",
        "0x000000ff",
        "lane",
        "",
        &[("mask", "0xffffffff"), ("src_lane", "0")],
    );
    assert!(s.results[..8]
        .iter()
        .all(|r| r.value.is_none() && r.source == Source::Undefined));
    assert!(s.results[8..].iter().all(|r| r.source == Source::Inactive));
    assert!(s
        .diagnostics
        .iter()
        .any(|d| d.message.contains("are not active")));
}

#[test]
fn sixty_four_bit_values_move_whole() {
    let s = run(
        "__shfl_down_sync",
        "",
        "lane*4294967296",
        "unsigned long long",
        &[("delta", "2")],
    );
    assert_eq!(s.results[3].value.map(|v| v.bits), Some(5u64 << 32));
    assert_eq!(s.results[31].value.map(|v| v.bits), Some(31u64 << 32));
    let s = run("__shfl_sync", "", "lane", "double", &[("src_lane", "3")]);
    assert_eq!(s.results[20].value.and_then(|v| v.as_f64()), Some(3.0));
}

#[test]
fn packed_half2_moves_both_halves() {
    let s = run("__shfl_up_sync", "", "lane", "__half2", &[("delta", "1")]);
    // lane k holds (k, -k); lane 5 reads lane 4.
    assert_eq!(
        s.results[5].value.map(|v| v.to_string()),
        Some("4:-4".into())
    );
}

#[test]
fn delta_uses_only_low_five_bits() {
    // delta 34 & 31 = 2.
    let s = run("__shfl_up_sync", "", "lane", "", &[("delta", "34")]);
    assert_eq!(ints(&s)[10], Some(8));
    assert_eq!(ints(&s)[1], Some(1));
}
