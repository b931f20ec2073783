//! `crosslane sort`: the report's figures for n = 10 (semantics.md: 32 comparators, 10 stages),
//! the given keys sorted, and bad input refused with exit status 2.

use crate::common::crosslane;

#[test]
fn ten_given_keys_sort_with_32_comparators_in_10_stages() {
    let out = crosslane(&["sort", "--values", "9,-3,7,7,0,12,5,1,8,2", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(report["figures"]["comparators"], 32);
    assert_eq!(report["figures"]["stages"], 10);
    assert_eq!(report["ok"], true);
    let sorted: Vec<i64> = report["output"]
        .as_array()
        .expect("output list")
        .iter()
        .filter_map(serde_json::Value::as_i64)
        .collect();
    assert_eq!(sorted, vec![-3, 0, 1, 2, 5, 7, 7, 8, 9, 12]);
}

#[test]
fn zero_length_and_bad_keys_exit_2_naming_the_flag() {
    let out = crosslane(&["sort", "--len", "0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("len"));
    let out = crosslane(&["sort", "--values", "1,x,3"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("values"));
}
