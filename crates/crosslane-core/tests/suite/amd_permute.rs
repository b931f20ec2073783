//! ds_permute_b32 / ds_bpermute_b32 (AMD ISA; semantics.md): the ISA's worked example for
//! EXEC = 0xF and EXEC = 0xA, provenance of colliding writes, the offset and the wrap.

use crosslane_core::{OpRequest, Source, Step};
use proptest::prelude::*;

/// data {A, B, C, D} = {10, 11, 12, 13} in lanes 0..3 (other lanes hold 100 + lane).
const DATA: [i64; 4] = [10, 11, 12, 13];
/// addr {0, 0, 12, 4} in lanes 0..3 (other lanes read themselves).
const ADDR: [i64; 4] = [0, 0, 12, 4];

fn run(op: &str, active: &str, addr: &str, offset: &str, values: &str) -> Step {
    OpRequest {
        dialect: "amdgcn".into(),
        op: op.into(),
        lanes: "64".into(),
        active: active.into(),
        values: values.into(),
        params: [
            ("addr".to_string(), addr.to_string()),
            ("offset".to_string(), offset.to_string()),
        ]
        .into(),
        ..Default::default()
    }
    .run()
    .expect("valid request")
}

fn isa_example(op: &str, active: &str) -> Vec<Option<i64>> {
    let values: Vec<String> = (0..64)
        .map(|i| DATA.get(i).copied().unwrap_or(100 + i as i64).to_string())
        .collect();
    let addr: Vec<String> = (0..64)
        .map(|i| ADDR.get(i).copied().unwrap_or(4 * i as i64).to_string())
        .collect();
    let step = run(op, active, &addr.join(","), "0", &values.join(","));
    step.results[..4]
        .iter()
        .map(|r| r.value.and_then(|v| v.as_i64()))
        .collect()
}

#[test]
fn isa_example_bpermute_exec_f() {
    // {A, A, D, B}
    assert_eq!(
        isa_example("ds_bpermute_b32", "0xf"),
        vec![Some(10), Some(10), Some(13), Some(11)]
    );
}

#[test]
fn isa_example_permute_exec_f() {
    // {B, D, 0, C}
    assert_eq!(
        isa_example("ds_permute_b32", "0xf"),
        vec![Some(11), Some(13), Some(0), Some(12)]
    );
}

#[test]
fn isa_example_bpermute_exec_a() {
    // {–, 0, –, B}: lane 1 reads lane 0, which is not in EXEC → 0.
    assert_eq!(
        isa_example("ds_bpermute_b32", "0xa"),
        vec![None, Some(0), None, Some(11)]
    );
}

#[test]
fn isa_example_permute_exec_a() {
    // {–, D, –, 0}: only lanes 1 and 3 write (to lanes 0 and 1).
    assert_eq!(
        isa_example("ds_permute_b32", "0xa"),
        vec![None, Some(13), None, Some(0)]
    );
}

#[test]
fn permute_collision_highest_lane_wins_with_provenance() {
    let step = run("ds_permute_b32", "", "8", "0", "lane");
    assert_eq!(step.results[2].value.and_then(|v| v.as_i64()), Some(63));
    assert_eq!(step.results[2].from, Some(63));
    assert!(step.results[2]
        .why
        .as_deref()
        .unwrap_or("")
        .contains("highest, lane 63"));
    assert_eq!(step.results[0].source, Source::Zero);
    assert!(step
        .diagnostics
        .iter()
        .any(|d| d.message.contains("highest writer wins")));
}

#[test]
fn offset_and_wrap() {
    // bpermute with addr = 4·lane and offset 8: lane i reads lane (i + 2) mod 64.
    let addr: Vec<String> = (0..64).map(|i| (4 * i).to_string()).collect();
    let step = run("ds_bpermute_b32", "", &addr.join(","), "8", "lane");
    assert_eq!(step.results[0].from, Some(2));
    assert_eq!(step.results[63].from, Some(1));
    // Address 256 wraps to lane 0; a negative address is the VGPR's 32-bit pattern (−4 → lane 63).
    let step = run("ds_bpermute_b32", "", "256", "0", "lane");
    assert_eq!(step.results[7].from, Some(0));
    let step = run("ds_bpermute_b32", "", "-4", "0", "lane");
    assert_eq!(step.results[7].from, Some(63));
    let err = OpRequest {
        dialect: "amdgcn".into(),
        op: "ds_bpermute_b32".into(),
        params: [("offset".to_string(), "65536".to_string())].into(),
        ..Default::default()
    }
    .run()
    .unwrap_err();
    assert_eq!(err.field, "offset");
    assert!(err.message.contains("0..=65535"));
}

fn list(items: &[i64]) -> String {
    items
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

proptest! {
    /// With a permutation as addresses, permute (push to p(i)) then bpermute (pull from p(i))
    /// returns every lane's own value.
    #[test]
    fn bpermute_undoes_permute(
        perm in Just((0..64i64).collect::<Vec<_>>()).prop_shuffle(),
        values in proptest::collection::vec(-1000i64..1000, 64),
    ) {
        let addr: Vec<i64> = perm.iter().map(|p| p * 4).collect();
        let pushed = run("ds_permute_b32", "", &list(&addr), "0", &list(&values));
        let mid: Vec<i64> = pushed.results.iter().map(|r| r.value.and_then(|v| v.as_i64()).unwrap()).collect();
        let back = run("ds_bpermute_b32", "", &list(&addr), "0", &list(&mid));
        let got: Vec<i64> = back.results.iter().map(|r| r.value.and_then(|v| v.as_i64()).unwrap()).collect();
        prop_assert_eq!(got, values);
    }
}
