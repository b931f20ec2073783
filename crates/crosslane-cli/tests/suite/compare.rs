//! `crosslane op … --compare` (the portability view) and `crosslane ops` (the reference) through
//! the built binary.

use crate::common::{crosslane, stderr, stdout};

use serde_json::Value as J;

/// The table row of `lane`, split into cells (the `why` text is the tail after the `≠` cell).
fn row(text: &str, lane: usize) -> Vec<String> {
    text.lines()
        .map(|l| l.split_whitespace().map(String::from).collect::<Vec<_>>())
        .find(|cells| cells.first().map(String::as_str) == Some(&lane.to_string()))
        .unwrap_or_else(|| panic!("no row for lane {lane} in\n{text}"))
}

/// delta 33, width 16: CUDA keeps only the low 5 bits (delta 1, lane i reads i+1 inside its
/// segment), HIP and Ascend C use 33 whole (≥ width: every lane keeps its own value), WGSL reads
/// invocation i+33 of a 16-invocation subgroup (indeterminate).
#[test]
fn down_by_33_in_width_16_cuda_reads_lane_plus_one_others_keep_their_own() {
    let out = crosslane(&[
        "op",
        "cuda",
        "__shfl_down_sync",
        "--delta",
        "33",
        "--width",
        "16",
        "--compare",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let header = row_header(&text);
    assert_eq!(
        header,
        "lane input CUDA HIP wave32 HIP wave64 Ascend C WGSL ≠ why"
    );
    // lane input CUDA HIP32 (v own) HIP64 (v own) Ascend (v own) WGSL ≠ why…
    let r = row(&text, 0);
    assert_eq!(
        &r[..10],
        [
            "0",
            "0",
            "1←1",
            "0",
            "own",
            "0",
            "own",
            "0",
            "own",
            "undefined"
        ]
    );
    assert_eq!(r[10], "≠");
    let why = r[11..].join(" ");
    assert!(why.contains("CUDA uses only param & 31 = 1"), "{why}");
    assert!(
        why.contains("Ascend C returns the own value for delta ≥ width"),
        "{why}"
    );
    assert!(why.contains("WGSL makes invocation 33"), "{why}");
    let r = row(&text, 20);
    assert_eq!(&r[..4], ["20", "20", "21←21", "20"]);
    // Lane 15 ends its segment: CUDA keeps its own too, only WGSL differs.
    let r = row(&text, 15);
    assert_eq!(
        &r[..10],
        ["15", "15", "15", "own", "15", "own", "15", "own", "15", "own"]
    );
    assert_eq!(r[10..13], ["undefined", "≠", "WGSL"]);
    // HIP wave64 alone has lanes 32..63; they agree with nothing to differ from.
    let r = row(&text, 40);
    assert_eq!(r, ["40", "40", "40", "own"]);
    assert!(text.contains("32 of 64 lanes disagree"), "{text}");
}

fn row_header(text: &str) -> String {
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("lane "))
        .expect("a header row");
    line.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn compare_json_is_the_comparison() {
    let out = crosslane(&[
        "op",
        "cuda",
        "__shfl_down_sync",
        "--delta",
        "33",
        "--width",
        "16",
        "--compare",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let doc: J = serde_json::from_str(stdout(&out).trim()).expect("one JSON object");
    assert_eq!(doc["param"], 33);
    assert_eq!(doc["width"], 16);
    let labels: Vec<&str> = doc["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["label"].as_str().unwrap())
        .collect();
    assert_eq!(
        labels,
        ["CUDA", "HIP wave32", "HIP wave64", "Ascend C", "WGSL"]
    );
    assert_eq!(doc["family"], "down");
    // Each run's step is in the `--json` contract of a single op (docs/cli.md).
    assert_eq!(doc["runs"][0]["step"]["results"][0]["from"], 1);
    assert_eq!(doc["runs"][0]["step"]["active"], "0xffffffff");
    let lane0 = &doc["lanes"][0];
    assert_eq!(lane0["agree"], false);
    assert_eq!(lane0["outcomes"][0], serde_json::json!(["CUDA", "lane 1"]));
    assert_eq!(
        lane0["outcomes"][1],
        serde_json::json!(["HIP wave32", "own"])
    );
    assert_eq!(lane0["outcomes"][3], serde_json::json!(["Ascend C", "own"]));
    assert!(lane0["explanation"]
        .as_str()
        .unwrap()
        .contains("CUDA uses only param & 31 = 1"));
    assert_eq!(doc["lanes"].as_array().unwrap().len(), 64);
}

/// Any family op of any of the four dialects starts the same comparison: here HIP's `__shfl` with
/// src_lane 40, where HIP wave64 reads lane 40 and CUDA reads 40 & 31 = 8.
#[test]
fn a_hip_op_names_the_same_family() {
    let out = crosslane(&["op", "hip", "__shfl", "--src-lane", "40", "--compare"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with("compare idx: src_lane=40 width=default"),
        "{text}"
    );
    let r = row(&text, 0);
    assert_eq!(&r[..6], ["0", "0", "8←8", "8←8", "40←40", "8←8"]);
    assert!(text.contains("default widths differ"), "{text}");
}

#[test]
fn compare_outside_the_shuffle_family_exits_2_naming_the_supported_ops() {
    let cases: [&[&str]; 3] = [
        &["op", "cuda", "__ballot_sync", "--compare"],
        &["op", "amdgcn", "ds_swizzle_b32", "--compare"],
        &["op", "cuda", "__ballot_sync", "--delta", "3", "--compare"],
    ];
    for args in cases {
        let out = crosslane(args);
        assert_eq!(out.status.code(), Some(2));
        let err = stderr(&out);
        assert!(err.contains("--compare"), "{err}");
        assert!(
            err.contains("__shfl_down_sync") && err.contains("asc_shfl_xor"),
            "{err}"
        );
        assert!(err.contains("subgroupShuffleXor"), "{err}");
        assert!(stdout(&out).is_empty());
    }
    let out = crosslane(&["op", "cuda", "__shfl_sync", "--compare", "--lanes", "32"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--lanes does not apply"));
}

#[test]
fn ops_prints_each_example_as_a_command_with_its_first_lanes() {
    let out = crosslane(&["ops", "ascend"]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    assert!(
        text.contains("  example: crosslane op ascend asc_shfl_xor --lane-mask 1 --width 16\n"),
        "{text}"
    );
    assert!(text.contains("    → 0:1←1 1:0←0 2:3←3 3:2←2"), "{text}");
    let examples = text
        .lines()
        .filter(|l| l.starts_with("  example: "))
        .count();
    assert_eq!(
        examples,
        crosslane_core::dialect_ops(crosslane_core::Dialect::Ascend).count()
    );
    assert!(!text.contains("refused"));
}

#[test]
fn ops_json_is_the_reference_entries() {
    let out = crosslane(&["ops", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let doc: J = serde_json::from_str(&stdout(&out)).expect("a JSON array");
    let list = doc.as_array().unwrap();
    assert_eq!(list.len(), crosslane_core::all_ops().count());
    let xor = list
        .iter()
        .find(|e| e["name"] == "asc_shfl_xor")
        .expect("asc_shfl_xor");
    assert_eq!(xor["dialect"], "ascend");
    assert_eq!(xor["example"]["step"]["results"][2]["from"], 3);
    let only: J = serde_json::from_str(&stdout(&crosslane(&["ops", "wgsl", "--json"]))).unwrap();
    assert!(only
        .as_array()
        .unwrap()
        .iter()
        .all(|e| e["dialect"] == "wgsl"));
}
