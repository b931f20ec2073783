//! Data-driven tests: every per-lane case of `tests/vectors/*.json` (copied from the shared
//! reference vectors: the seeds' own examples and small cases derived from SEMANTICS.md) runs
//! through the same request path as the CLI and the page, and must match lane for lane.
//! Cases with a `kind` (kernels, networks) or `scalar` field are covered by their own tests.

mod common;

use common::{cases, request_of, PER_LANE, RULE, SEED};
use serde_json::Value as J;

fn lane_cases() -> Vec<J> {
    cases(&[SEED, RULE, PER_LANE])
        .into_iter()
        .filter(|c| {
            c.get("kind").is_none()
                && c.get("scalar").is_none()
                && c.get("expected_scalar").is_none()
        })
        .collect()
}

#[test]
fn every_lane_vector_matches() {
    let cases = lane_cases();
    assert!(
        cases.len() >= 40,
        "expected the full vector set, got {}",
        cases.len()
    );
    let mut failures = Vec::new();
    for case in &cases {
        let id = case["id"].as_str().unwrap_or("?");
        let step = match request_of(case).run() {
            Ok(s) => s,
            Err(e) => {
                failures.push(format!("{id}: input error {e}"));
                continue;
            }
        };
        let expected = case["expected"].as_array().expect("expected is a list");
        let got: Vec<J> = step
            .results
            .iter()
            .map(|r| r.value.map_or(J::Null, |v| v.to_json()))
            .collect();
        if &got != expected {
            failures.push(format!(
                "{id}:\n  expected {expected:?}\n  got      {got:?}"
            ));
        }
        if let Some(needle) = case.get("expect_diagnostic").and_then(J::as_str) {
            if !step.diagnostics.iter().any(|d| d.message.contains(needle)) {
                failures.push(format!(
                    "{id}: no diagnostic containing `{needle}`: {:?}",
                    step.diagnostics
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} vectors fail:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
