//! Every amdgcn case of the shared reference vectors (tests/vectors/*.json) must match lane for
//! lane. The all-dialect harness (`vectors.rs`) runs them too; this file keeps the AMD cases
//! green on their own while other dialects are still being written.

use std::collections::BTreeMap;

use crosslane_core::OpRequest;
use serde_json::Value as J;

const SEED: &str = include_str!("../../../tests/vectors/seed-examples.json");
const RULE: &str = include_str!("../../../tests/vectors/rule-examples.json");

fn param_text(v: &J) -> String {
    match v {
        J::Array(items) => items.iter().map(param_text).collect::<Vec<_>>().join(","),
        J::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn request_of(case: &J) -> OpRequest {
    let params: BTreeMap<String, String> = case["params"]
        .as_object()
        .map(|m| m.iter().map(|(k, v)| (k.clone(), param_text(v))).collect())
        .unwrap_or_default();
    OpRequest {
        dialect: case["dialect"].as_str().unwrap_or_default().to_string(),
        op: case["op"].as_str().unwrap_or_default().to_string(),
        lanes: case["lanes"]
            .as_u64()
            .map(|n| n.to_string())
            .unwrap_or_default(),
        active: case["active"].as_str().unwrap_or_default().to_string(),
        values: case["values"].as_str().unwrap_or_default().to_string(),
        ty: String::new(),
        params,
    }
}

#[test]
fn every_amdgcn_vector_matches() {
    let cases: Vec<J> = [SEED, RULE]
        .iter()
        .flat_map(|text| {
            let doc: J = serde_json::from_str(text).expect("vector file is JSON");
            doc["cases"].as_array().cloned().unwrap_or_default()
        })
        .filter(|c| c["dialect"] == "amdgcn" && c.get("kind").is_none())
        .collect();
    assert!(
        cases.len() >= 16,
        "expected the amdgcn vectors, got {}",
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
                if Some(&got) != case["expected"].as_array() {
                    failures.push(format!(
                        "{id}:\n  expected {}\n  got      {got:?}",
                        case["expected"]
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
