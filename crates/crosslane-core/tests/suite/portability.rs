//! The portability view (src/application/portability.rs): concrete lanes where CUDA, HIP, Ascend C and WGSL
//! disagree, and the rule each disagreement names.

use crosslane_core::portability::{compare, parse_width, ShuffleFamily};
use crosslane_core::Comparison;

fn value(c: &Comparison, label: &str, lane: usize) -> Option<i64> {
    let run = c
        .runs
        .iter()
        .find(|r| r.label == label)
        .expect("run exists");
    run.step.as_ref().ok()?.results.get(lane)?.value?.as_i64()
}

#[test]
fn down_by_33_with_width_16() {
    let c = compare(ShuffleFamily::Down, 33, Some(16), "lane", "").unwrap();
    // CUDA: 33 & 31 = 1, lane 0 reads lane 1; HIP: 33 used whole → own; Ascend: delta ≥ width →
    // own; WGSL (subgroups of 16): invocation 33 does not exist → indeterminate.
    assert_eq!(value(&c, "CUDA", 0), Some(1));
    assert_eq!(value(&c, "HIP wave32", 0), Some(0));
    assert_eq!(value(&c, "HIP wave64", 0), Some(0));
    assert_eq!(value(&c, "Ascend C", 0), Some(0));
    assert_eq!(value(&c, "WGSL", 0), None);
    let v = &c.lanes[0];
    assert!(!v.agree);
    let why = v.explanation.as_deref().unwrap();
    assert!(why.contains("param & 31 = 1"), "{why}");
    assert!(why.contains("Ascend C returns the own value"), "{why}");
    assert!(why.contains("WGSL makes invocation 33"), "{why}");
    // Lane 15: CUDA 15 + 1 leaves the segment → own, like HIP and Ascend; only WGSL differs.
    assert_eq!(value(&c, "CUDA", 15), Some(15));
    let v = &c.lanes[15];
    assert!(!v.agree);
    assert!(!v.explanation.as_deref().unwrap().contains("Ascend"));
    // HIP wave64 has lanes 32..64; there it is alone and agrees with itself.
    assert_eq!(c.lanes.len(), 64);
    assert!(c.lanes[40].agree);
}

#[test]
fn xor_within_the_segment_agrees_everywhere() {
    let c = compare(ShuffleFamily::Xor, 3, Some(8), "lane", "").unwrap();
    assert_eq!(c.disagreeing().count(), 0);
    assert_eq!(value(&c, "WGSL", 9), Some(10));
}

#[test]
fn negative_xor_mask_wraps_on_hip_only() {
    let c = compare(ShuffleFamily::Xor, -1, None, "lane", "").unwrap();
    // CUDA: -1 & 31 = 31 → lane 31 - i; HIP wave32: wraps mod 32 → lane 31 - i;
    // HIP wave64: wraps mod 64 → lane 63 - i; Ascend: negative lane → undefined;
    // WGSL: the u32 mask cannot be negative → refused, noted.
    assert_eq!(value(&c, "CUDA", 0), Some(31));
    assert_eq!(value(&c, "HIP wave32", 0), Some(31));
    assert_eq!(value(&c, "HIP wave64", 0), Some(63));
    assert_eq!(value(&c, "Ascend C", 0), None);
    assert!(c.notes.iter().any(|n| n.starts_with("WGSL refuses")));
    let why = c.lanes[0].explanation.as_deref().unwrap();
    assert!(why.contains("wraps index -1 mod 64"), "{why}");
    assert!(why.contains("default widths differ"), "{why}");
}

#[test]
fn idx_beyond_the_segment() {
    let c = compare(ShuffleFamily::Idx, 20, Some(16), "lane", "").unwrap();
    // CUDA, HIP and Ascend take srcLane mod width (4 of the caller's segment); WGSL reads
    // invocation 20 of a 16-invocation subgroup: indeterminate.
    assert_eq!(value(&c, "CUDA", 17), Some(20));
    assert_eq!(value(&c, "HIP wave64", 17), Some(20));
    assert_eq!(value(&c, "Ascend C", 17), Some(20));
    assert_eq!(value(&c, "WGSL", 17), None);
}

#[test]
fn up_by_40_without_width() {
    let c = compare(ShuffleFamily::Up, 40, None, "lane", "").unwrap();
    // CUDA: 40 & 31 = 8 → lane 9 reads lane 1; HIP wave32 / Ascend: 40 ≥ 32 → own; HIP wave64:
    // warpSize 64 → lane 49 reads lane 9; WGSL: invocation -31 → indeterminate.
    assert_eq!(value(&c, "CUDA", 9), Some(1));
    assert_eq!(value(&c, "HIP wave32", 9), Some(9));
    assert_eq!(value(&c, "Ascend C", 9), Some(9));
    assert_eq!(value(&c, "HIP wave64", 49), Some(9));
    assert_eq!(value(&c, "WGSL", 9), None);
}

#[test]
fn input_errors() {
    assert_eq!(
        compare(ShuffleFamily::Down, 1, Some(0), "lane", "")
            .unwrap_err()
            .field,
        "width"
    );
    assert_eq!(
        compare(ShuffleFamily::Down, 1, None, "lane*", "")
            .unwrap_err()
            .field,
        "values"
    );
    assert_eq!(
        ShuffleFamily::parse("sideways").unwrap_err().field,
        "family"
    );
    assert_eq!(ShuffleFamily::parse("xor").unwrap(), ShuffleFamily::Xor);
}

#[test]
fn a_per_lane_source_lane_runs_in_every_dialect() {
    use crosslane_core::{compare_lanes, LaneParam};
    // srcLane = 31 - lane (a reversal) with the default widths: CUDA, HIP wave32 and Ascend C
    // read lane 31 - i (PTX: b & 31 = 31 - i; HIP: index (31 - i) & 31; Ascend: (31 - i) mod 32),
    // HIP wave64 reads (31 - i) & 63 in its 64-lane segment: lane 31 - i for i < 32 too.
    let param = LaneParam::parse("31 - lane").unwrap();
    let c = compare_lanes(ShuffleFamily::Idx, &param, None, "lane", "").unwrap();
    assert_eq!(c.param_text, "31 - lane");
    for run in &c.runs {
        let step = run.step.as_ref().unwrap();
        for i in 0..32 {
            assert_eq!(step.results[i].from, Some(31 - i), "{} lane {i}", run.label);
        }
    }
    assert!(c.lanes.iter().take(32).all(|l| l.agree));
    // A varying xor mask: WGSL requires it uniform, so every WGSL lane is indeterminate there
    // while CUDA / HIP / Ascend read lane ^ mask per lane.
    let param = LaneParam::parse("(lane & 1) + 1").unwrap();
    let c = compare_lanes(ShuffleFamily::Xor, &param, Some(32), "lane", "").unwrap();
    let wgsl = c.runs.iter().find(|r| r.label == "WGSL").unwrap();
    assert!(wgsl
        .step
        .as_ref()
        .unwrap()
        .results
        .iter()
        .all(|r| r.value.is_none()));
    let cuda = c.runs.iter().find(|r| r.label == "CUDA").unwrap();
    let from: Vec<Option<usize>> = cuda.step.as_ref().unwrap().results[..4]
        .iter()
        .map(|r| r.from)
        .collect();
    assert_eq!(from, [Some(1), Some(3), Some(3), Some(1)]);
}

/// The width field as typed: blank is the warp's own width; a number too large for any width
/// says "out of range" with the widths allowed, not "not an integer"; words say what they are.
#[test]
fn width_text_blank_number_too_large_and_words() {
    assert_eq!(parse_width("  "), Ok(None));
    assert_eq!(parse_width("16"), Ok(Some(16)));
    assert_eq!(parse_width("0x10"), Ok(Some(16)));
    let huge = parse_width("99999999999999999999").unwrap_err();
    assert_eq!(huge.field, "width");
    assert_eq!(
        huge.message,
        "`99999999999999999999` is out of range: allowed 1..=2147483647"
    );
    let words = parse_width("sixteen").unwrap_err();
    assert_eq!(
        words.message,
        "`sixteen` is not an integer (decimal, 0x hex, or negative)"
    );
}
