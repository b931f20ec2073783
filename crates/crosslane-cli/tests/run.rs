//! `crosslane run`: a scenario file, stdin or a permalink replays to the same JSON as the
//! equivalent `crosslane op … --json`.

use std::collections::BTreeMap;
use std::io::Write;
use std::process::{Command, Output, Stdio};

use crosslane_core::permalink;
use crosslane_core::scenario::{Scenario, View};
use crosslane_core::OpRequest;

fn crosslane(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_crosslane"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the crosslane binary runs");
    if let Some(text) = stdin {
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(text.as_bytes())
            .expect("write stdin");
    }
    drop(child.stdin.take());
    child.wait_with_output().expect("exits")
}

fn json(out: &Output) -> serde_json::Value {
    assert_eq!(
        out.status.code(),
        Some(0),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

fn xor_scenario() -> Scenario {
    Scenario::new(View::Op(OpRequest {
        dialect: "ascend".into(),
        op: "asc_shfl_xor".into(),
        active: "0x0000ffff".into(),
        params: BTreeMap::from([
            ("lane_mask".to_string(), "1".to_string()),
            ("width".to_string(), "16".to_string()),
        ]),
        ..OpRequest::default()
    }))
}

fn op_json() -> serde_json::Value {
    json(&crosslane(
        &[
            "op",
            "ascend",
            "asc_shfl_xor",
            "--active",
            "0x0000ffff",
            "--lane-mask",
            "1",
            "--width",
            "16",
            "--json",
        ],
        None,
    ))
}

#[test]
fn a_scenario_file_replays_like_the_op_command() {
    let path = std::env::temp_dir().join(format!("crosslane-run-{}.json", std::process::id()));
    std::fs::write(&path, xor_scenario().to_json()).expect("write scenario");
    let out = crosslane(&["run", path.to_str().expect("utf-8 path")], None);
    let _ = std::fs::remove_file(&path);
    let got = json(&out);
    assert_eq!(got, op_json());
    assert_eq!(got["results"][0]["value"], 1);
    assert_eq!(got["results"][16]["source"], "inactive");
}

#[test]
fn stdin_and_permalinks_replay_the_same() {
    let want = op_json();
    let s = xor_scenario();
    assert_eq!(json(&crosslane(&["run", "-"], Some(&s.to_json()))), want);
    let link = permalink::encode(&s);
    assert_eq!(json(&crosslane(&["run", &link], None)), want);
    assert_eq!(json(&crosslane(&["run", "-"], Some(&link))), want);
    let url = format!("http://127.0.0.1:8080/#s={link}");
    assert_eq!(json(&crosslane(&["run", &url, "--json"], None)), want);
}

#[test]
fn bad_scenarios_exit_2_with_one_line() {
    for (input, needle) in [
        ("v9.eNoDAAAAAAE", "v9."),
        ("v1.eNo", "truncated"),
        (r#"{"version":2,"view":{}}"#, "version 2"),
        (
            r#"{"version":1,"view":{"op":{"dialect":"ascend","op":"asc_shfl_xor","params":{"width":"0"}}}}"#,
            "width",
        ),
    ] {
        let out = crosslane(&["run", "-"], Some(input));
        assert_eq!(out.status.code(), Some(2), "{input}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{input}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    }
    let out = crosslane(&["run", "/nonexistent/crosslane.json"], None);
    assert_eq!(out.status.code(), Some(1));
}
