//! The reference vectors (`tests/vectors/*.json`, copied from the shared vectors: the seeds' own
//! examples and small cases derived from semantics.md) and the request each case describes.
//! Shared by the data-driven tests so every one reads the cases the same way.

// Not every helper is used by the suite at every moment.
#![allow(dead_code)]

use std::collections::BTreeMap;

use crosslane_core::OpRequest;
use serde_json::Value as J;

/// The seed documents' own examples.
pub const SEED: &str = include_str!("../../../../tests/vectors/seed-examples.json");
/// Cases derived from the rules in semantics.md.
pub const RULE: &str = include_str!("../../../../tests/vectors/rule-examples.json");
/// Per-target and edge cases (AMD targets, DPP8, permute collisions, WGSL floats, CUDA exited
/// lanes, MACA sbfe, canonical NaN), each naming its document and section.
pub const EDGE: &str = include_str!("../../../../tests/vectors/edge-examples.json");
/// Per-lane operands (each lane's own source lane, delta, mask, id), from the vendors' formulas.
pub const PER_LANE: &str = include_str!("../../../../tests/vectors/per-lane.json");

/// Every case of the given vector files.
pub fn cases(files: &[&str]) -> Vec<J> {
    files
        .iter()
        .flat_map(|text| {
            let doc: J = serde_json::from_str(text).expect("vector file is JSON");
            doc["cases"].as_array().cloned().unwrap_or_default()
        })
        .collect()
}

/// A vector parameter as the text a user would type (lists become comma lists).
fn param_text(v: &J) -> String {
    match v {
        J::Array(items) => items.iter().map(param_text).collect::<Vec<_>>().join(","),
        J::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The request a vector case describes.
pub fn request_of(case: &J) -> OpRequest {
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
        exited: case["exited"].as_str().unwrap_or_default().to_string(),
        values: case["values"].as_str().unwrap_or_default().to_string(),
        ty: case["type"].as_str().unwrap_or_default().to_string(),
        params,
    }
}

/// The parameters as a request holds them, from `(vendor name, text)` pairs.
pub fn params(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// The shared request builder: `dialect`'s `op` with the parameters given as pairs and every
/// other field empty (the op's defaults); tests set `lanes`, `active`, `values` or `ty` with
/// struct update syntax, `OpRequest { active: "0xff".into(), ..request("cuda", op, &[]) }`.
pub fn request(dialect: &str, op: &str, pairs: &[(&str, &str)]) -> OpRequest {
    OpRequest {
        dialect: dialect.into(),
        op: op.into(),
        params: params(pairs),
        ..OpRequest::default()
    }
}

/// A MetaX MACA request (64 lanes). A `values` that is one plain item is repeated for every lane
/// (the operand row needs one item per lane or a `lane` form); empty means the default (`lane`).
pub fn maca(op: &str, values: &str, ty: &str, active: &str, params: &[(&str, &str)]) -> OpRequest {
    let values = if values.is_empty() || values.starts_with("lane") || values.contains(',') {
        values.to_string()
    } else {
        vec![values; 64].join(",")
    };
    OpRequest {
        active: active.into(),
        values,
        ty: ty.into(),
        ..request("maca", op, params)
    }
}

/// Each lane's result as an integer (`None` where undefined or not an integer): how the shuffle
/// tests compare a step with the values a vendor document gives.
pub fn lane_ints(step: &crosslane_core::Step) -> Vec<Option<i64>> {
    step.results
        .iter()
        .map(|r| r.value.and_then(|v| v.as_i64()))
        .collect()
}
