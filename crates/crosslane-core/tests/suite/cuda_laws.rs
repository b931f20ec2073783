//! Laws of the CUDA shuffles (PTX ISA shfl.sync; semantics.md "CUDA"), all 32 lanes active.

use std::collections::BTreeMap;

use crosslane_core::{OpRequest, Source, Step};
use proptest::prelude::*;

fn run(op: &str, values: &[u64], ty: &str, params: &[(&str, String)]) -> Step {
    let values: Vec<String> = values.iter().map(|b| format!("0x{b:x}")).collect();
    OpRequest {
        dialect: "cuda".into(),
        op: op.into(),
        lanes: String::new(),
        active: String::new(),
        exited: String::new(),
        values: values.join(","),
        ty: ty.into(),
        params: params
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect::<BTreeMap<_, _>>(),
    }
    .run()
    .expect("request is valid")
}

fn widths() -> impl Strategy<Value = i64> {
    (0u32..=5).prop_map(|k| 1i64 << k)
}

proptest! {
    /// Within a segment the butterfly is an involution: xor twice with the same lane_mask gives
    /// every lane its own value back, for every power-of-two width and lane_mask & 31 < width.
    #[test]
    fn xor_twice_is_identity_within_the_segment(
        width in widths(),
        high in any::<i32>(),
        low in 0i64..32,
        values in prop::collection::vec(any::<u32>().prop_map(u64::from), 32),
    ) {
        // Any bits above bit 4 are ignored (only lane_mask & 31 is used).
        let lane_mask = ((high as i64) & !31) | (low % width);
        let p = [("lane_mask", lane_mask.to_string()), ("width", width.to_string())];
        let once = run("__shfl_xor_sync", &values, "u32", &p);
        let moved: Vec<u64> = once.results.iter().map(|r| r.value.unwrap().bits).collect();
        let twice = run("__shfl_xor_sync", &moved, "u32", &p);
        let back: Vec<u64> = twice.results.iter().map(|r| r.value.unwrap().bits).collect();
        prop_assert_eq!(back, values);
    }

    /// `__shfl_sync` reads only within the caller's segment, for any src_lane.
    #[test]
    fn idx_reads_only_the_callers_segment(width in widths(), src_lane in any::<i32>()) {
        let values: Vec<u64> = (0..32).collect();
        let s = run(
            "__shfl_sync",
            &values,
            "u32",
            &[("src_lane", src_lane.to_string()), ("width", width.to_string())],
        );
        for (i, r) in s.results.iter().enumerate() {
            let from = r.from.unwrap();
            let start = i & !(width as usize - 1);
            prop_assert!(from >= start && from < start + width as usize, "lane {} read {}", i, from);
            prop_assert_eq!(r.source, Source::Lane);
            prop_assert_eq!(from as i64, start as i64 + (src_lane as i64).rem_euclid(width));
        }
    }
}

/// The involution law does not extend to lane_mask ≥ width: xor may read an earlier segment but
/// not a later one, so the pair is one-sided (width 8, lane_mask 8: lane 9 reads lane 1, lane 1
/// keeps its own value, and the second round gives lane 9 lane 1's value).
#[test]
fn xor_across_segments_is_not_an_involution() {
    let values: Vec<u64> = (0..32).collect();
    let p = [("lane_mask", "8".to_string()), ("width", "8".to_string())];
    let once = run("__shfl_xor_sync", &values, "u32", &p);
    let moved: Vec<u64> = once.results.iter().map(|r| r.value.unwrap().bits).collect();
    let twice = run("__shfl_xor_sync", &moved, "u32", &p);
    assert_eq!(twice.results[9].value.map(|v| v.bits), Some(1));
    assert_eq!(twice.results[1].value.map(|v| v.bits), Some(1));
}
