//! JSON export of the trace: the steps on screen, each in the CLI `--json` contract
//! (docs/cli.md, "Command-line contract"), so a file exported here reads like `crosslane op --json`.

use crosslane_core::Step;

/// File name of the JSON export.
pub const FILE: &str = "crosslane-trace.json";

/// `{"steps": [<step contract>…]}`, pretty-printed.
pub fn export(steps: &[&Step]) -> String {
    let steps: Vec<serde_json::Value> = steps.iter().map(|s| s.contract_json()).collect();
    serde_json::to_string_pretty(&serde_json::json!({ "steps": steps })).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crosslane_core::OpRequest;

    #[test]
    fn trace_json_has_the_cli_contract_per_step() {
        let step = OpRequest {
            dialect: "ascend".into(),
            op: "asc_shfl_xor".into(),
            ..OpRequest::default()
        }
        .run()
        .unwrap();
        let v: serde_json::Value = serde_json::from_str(&export(&[&step])).unwrap();
        let s = &v["steps"][0];
        assert_eq!(s["op"], "asc_shfl_xor");
        assert_eq!(s["lanes"], 32);
        // lane_mask defaults to 1: lane 0 reads lane 1.
        assert_eq!(s["results"][0]["value"], 1);
        assert_eq!(s["results"][0]["from"], 1);
    }
}
