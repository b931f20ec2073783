//! The MetaX cases of tests/vectors/seed-examples.json that give one result: scalar builtins
//! (`scalar: true`, `expected`) and warp-uniform results (`expected_scalar`, e.g. readfirstlane),
//! run through the same request path as the CLI and the page.

use crate::common;

use common::{request_of, SEED};
use crosslane_core::{OpRequest, Source};
use serde_json::Value as J;

fn cases(pick: impl Fn(&J) -> bool) -> Vec<J> {
    common::cases(&[SEED])
        .into_iter()
        .filter(|c| c["dialect"] == "maca" && pick(c))
        .collect()
}

#[test]
fn scalar_builtins_match_the_seed_vectors() {
    let cases = cases(|c| c["scalar"] == true);
    assert!(
        cases.len() >= 7,
        "expected the scalar vectors, got {}",
        cases.len()
    );
    let mut failures = Vec::new();
    for case in &cases {
        let id = case["id"].as_str().unwrap_or("?");
        match request_of(case).run() {
            Err(e) => failures.push(format!("{id}: input error {e}")),
            Ok(step) => {
                let got: Vec<J> = step
                    .results
                    .iter()
                    .map(|r| r.value.map_or(J::Null, |v| v.to_json()))
                    .collect();
                if !step.scalar || got != [case["expected"].clone()] {
                    failures.push(format!(
                        "{id}: expected {} got {got:?} (scalar {})",
                        case["expected"], step.scalar
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn uniform_results_match_the_seed_vectors() {
    let cases = cases(|c| c.get("expected_scalar").is_some() && c["scalar"] != true);
    assert!(!cases.is_empty(), "expected the readfirstlane vector");
    for case in &cases {
        let id = case["id"].as_str().unwrap_or("?");
        let step = request_of(case)
            .run()
            .unwrap_or_else(|e| panic!("{id}: {e}"));
        let active = step.active;
        for (lane, r) in step.results.iter().enumerate() {
            if active.contains(lane) {
                assert_eq!(
                    r.value.map(|v| v.to_json()),
                    Some(case["expected_scalar"].clone()),
                    "{id} lane {lane}"
                );
            } else {
                assert_eq!(r.value, None, "{id} lane {lane}");
            }
        }
    }
}

#[test]
fn readfirstlane_example_inactive_lanes_are_undefined() {
    // Seed 002 §3.8.3: lanes 0..31 never assign `tmp`, so what they store is uninitialized.
    let step = OpRequest {
        dialect: "maca".into(),
        op: "__builtin_mxc_readfirstlane".into(),
        active: "0xffffffff00000000".into(),
        values: "lane".into(),
        ..Default::default()
    }
    .run()
    .unwrap();
    assert_eq!(step.results[0].source, Source::Undefined);
    assert!(step.results[0].why.as_deref().unwrap_or("").contains("tmp"));
    assert_eq!(step.results[32].from, Some(32));
}
