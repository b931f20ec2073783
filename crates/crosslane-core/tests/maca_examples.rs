//! The seed 002 code examples of this part (tests/maca_examples.json): every case names
//! registered builtins and states its expected behaviour; the single-builtin cases (`request`)
//! run now through the request path. Kernel cases wait for the kernel interpreter.

use std::collections::BTreeMap;

use crosslane_core::{find_op, Dialect, OpRequest};
use serde_json::Value as J;

const EXAMPLES: &str = include_str!("maca_examples.json");

fn cases() -> Vec<J> {
    let doc: J = serde_json::from_str(EXAMPLES).expect("maca_examples.json is JSON");
    doc["cases"].as_array().cloned().expect("cases array")
}

#[test]
fn every_case_names_registered_builtins_and_an_expectation() {
    let cases = cases();
    assert!(cases.len() >= 40, "{} cases", cases.len());
    for c in &cases {
        let id = c["id"].as_str().expect("id");
        assert!(
            c["source"].as_str().is_some_and(|s| !s.is_empty()),
            "{id}: source"
        );
        assert!(c["expected"].is_object(), "{id}: expected");
        for op in c["ops"].as_array().expect("ops") {
            let name = op.as_str().expect("op name");
            find_op(Dialect::Maca, name).unwrap_or_else(|e| panic!("{id}: {e}"));
            assert!(
                c["source"].as_str().unwrap_or_default().contains(name) || c["kind"] == "device",
                "{id}: {name} not in source"
            );
        }
    }
}

/// The seed's faulty examples carry the fault the playground must report.
#[test]
fn faulty_examples_state_their_fault() {
    let cases = cases();
    let fault_of = |id: &str| -> String {
        let c = cases
            .iter()
            .find(|c| c["id"] == id)
            .unwrap_or_else(|| panic!("{id}"));
        c["expected"]["faults"].to_string()
    };
    assert!(fault_of("maca-3.1.9-barrier-ex-swap").contains("out-of-bounds index"));
    assert!(fault_of("maca-3.5.3-pk-fma-f16").contains("f2f16"));
    assert!(fault_of("maca-3.1.6-arrive-shared").contains("uninitialized read"));
    assert!(fault_of("maca-3.1.8-arrive-bsmcnt").contains("extern"));
}

#[test]
fn single_builtin_examples_run() {
    let mut ran = 0;
    for c in cases() {
        let Some(req) = c.get("request") else {
            continue;
        };
        let id = c["id"].as_str().unwrap_or_default();
        let params: BTreeMap<String, String> = req["params"]
            .as_object()
            .map(|m| {
                m.iter()
                    .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string()))
                    .collect()
            })
            .unwrap_or_default();
        let values = req["values"].as_str().unwrap_or_default();
        let values = if values.is_empty() || values.starts_with("lane") {
            values.to_string()
        } else {
            vec![values; 64].join(",")
        };
        let result = OpRequest {
            dialect: "maca".into(),
            op: req["op"].as_str().unwrap_or_default().into(),
            values,
            ty: req["ty"].as_str().unwrap_or_default().into(),
            params,
            ..Default::default()
        }
        .run();
        if let Some(field) = req["error_field"].as_str() {
            assert_eq!(result.expect_err(id).field, field, "{id}");
        } else {
            let step = result.unwrap_or_else(|e| panic!("{id}: {e}"));
            for (lane, want) in req["expected"].as_object().expect("expected lanes") {
                let lane: usize = lane.parse().expect("lane number");
                let got = step.results[lane]
                    .value
                    .map(|v| v.to_json())
                    .unwrap_or(J::Null);
                assert_eq!(&got, want, "{id} lane {lane}");
            }
        }
        ran += 1;
    }
    assert!(ran >= 12, "{ran} request cases");
}
