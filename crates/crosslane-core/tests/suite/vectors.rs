//! Data-driven tests: every per-lane case of `tests/vectors/*.json` (copied from the shared
//! reference vectors: the seeds' own examples and small cases derived from semantics.md) runs
//! through the same request path as the CLI and the page, and must match lane for lane.
//! Cases with a `kind` (kernels, networks) or `scalar` field are covered by their own tests;
//! `edge-examples.json` is checked whole by [`every_edge_vector_matches`] (per-lane and scalar
//! results, raw bits, diagnostics and the rules they cite, input errors).

use crate::common;

use common::{cases, request_of, EDGE, PER_LANE, RULE, SEED};
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

/// One edge case against its run: `expected` (per lane, or one value for `scalar`),
/// `expected_bits` (raw bits per lane, null = undefined), `expect_error` ({field, contains}),
/// `expect_diagnostic` (a message containing the text) and `expect_rule` (a diagnostic citing it).
fn check_edge(case: &J) -> Result<(), String> {
    let run = request_of(case).run();
    if let Some(want) = case.get("expect_error") {
        let err = match run {
            Ok(_) => return Err("ran, expected an input error".into()),
            Err(e) => e,
        };
        let field = want["field"].as_str().unwrap_or_default();
        let text = want["contains"].as_str().unwrap_or_default();
        if err.field != field || !err.message.contains(text) {
            return Err(format!(
                "error {}: {} (expected field {field}, `{text}`)",
                err.field, err.message
            ));
        }
        return Ok(());
    }
    let step = run.map_err(|e| format!("input error {e}"))?;
    if let Some(bits) = case.get("expected_bits").and_then(J::as_array) {
        let got: Vec<J> = step
            .results
            .iter()
            .map(|r| r.value.map_or(J::Null, |v| J::String(v.bits_hex())))
            .collect();
        if &got != bits {
            return Err(format!("bits: expected {bits:?}\n  got {got:?}"));
        }
    }
    if let Some(expected) = case.get("expected") {
        let got: Vec<J> = step
            .results
            .iter()
            .map(|r| r.value.map_or(J::Null, |v| v.to_json()))
            .collect();
        let want = if case["scalar"] == true {
            vec![expected.clone()]
        } else {
            expected.as_array().cloned().unwrap_or_default()
        };
        if got != want {
            return Err(format!("expected {want:?}\n  got      {got:?}"));
        }
    }
    if let Some(needle) = case.get("expect_diagnostic").and_then(J::as_str) {
        if !step.diagnostics.iter().any(|d| d.message.contains(needle)) {
            return Err(format!(
                "no diagnostic containing `{needle}`: {:?}",
                step.diagnostics
            ));
        }
    }
    if let Some(rule) = case.get("expect_rule").and_then(J::as_str) {
        if !step.diagnostics.iter().any(|d| d.rule.contains(rule)) {
            return Err(format!(
                "no diagnostic citing `{rule}`: {:?}",
                step.diagnostics
            ));
        }
    }
    Ok(())
}

#[test]
fn every_edge_vector_matches() {
    let cases = cases(&[EDGE]);
    assert!(
        cases.len() >= 30,
        "expected the edge vectors, got {}",
        cases.len()
    );
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|c| {
            assert!(
                c["source"].as_str().is_some_and(|s| !s.is_empty()),
                "{}: every edge case names its document and section",
                c["id"]
            );
            check_edge(c)
                .err()
                .map(|e| format!("{}: {e}", c["id"].as_str().unwrap_or("?")))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} edge vectors fail:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
