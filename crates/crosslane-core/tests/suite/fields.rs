//! Every field error of an operation request at once, and the number messages: an
//! integer too large says its range, a type takes its article as read aloud.

use crosslane_core::fields::check_fields;
use crosslane_core::{Value, ValueType};

// The suite's request builder.
use super::common::request as req;

fn fields(errors: &[crosslane_core::InputError]) -> Vec<&str> {
    errors.iter().map(|e| e.field.as_str()).collect()
}

/// A bad delta, a value list of the wrong length and a width that is not a power of two: both
/// errors are reported, and the width is still applied — CUDA calls width 3 undefined (width is
/// a power of two in 1..=32, CUDA "Warp Shuffle Functions"), a result the drawing shows, not an
/// input error.
#[test]
fn every_wrong_field_gets_its_own_error() {
    let mut r = req(
        "cuda",
        "__shfl_down_sync",
        &[("delta", "x"), ("width", "3")],
    );
    r.values = "1,2,3".into();
    let check = check_fields(&r, None);
    assert_eq!(
        fields(&check.errors),
        ["delta", "values"],
        "{:?}",
        check.errors
    );
    let step = check.step.expect("the valid width runs");
    assert!(
        step.results
            .iter()
            .all(|l| l.source == crosslane_core::Source::Undefined),
        "{:?}",
        step.results
    );
}

/// The fields that are right are applied: lanes 16 and values `lane*2` run while delta is
/// wrong; delta keeps its last valid text (2), so lane 0 reads lane 2's value 4.
#[test]
fn valid_fields_apply_while_another_is_wrong() {
    let last = req("cuda", "__shfl_down_sync", &[("delta", "2")]);
    let mut r = req("cuda", "__shfl_down_sync", &[("delta", "-")]);
    r.lanes = "32".into();
    r.values = "lane*2".into();
    let check = check_fields(&r, Some(&last));
    assert_eq!(fields(&check.errors), ["delta"]);
    let step = check.step.expect("runs with the last valid delta");
    // __shfl_down_sync: lane i reads lane i + delta (CUDA "Warp Shuffle Functions").
    assert_eq!(step.results[0].from, Some(2));
    assert_eq!(
        step.results[0].value,
        Some(Value::from_i64(ValueType::I32, 4))
    );
}

/// A request that is right has no errors; a wrong op stops at once.
#[test]
fn a_right_request_has_no_errors_and_a_wrong_op_stops() {
    let ok = check_fields(&req("cuda", "__shfl_xor_sync", &[("laneMask", "1")]), None);
    assert!(ok.errors.is_empty() && ok.step.is_some());
    let bad = check_fields(&req("cuda", "__no_such_op", &[]), None);
    assert_eq!(fields(&bad.errors), ["op"]);
    assert!(bad.step.is_none());
}

/// 99999999999999999999 is an integer, too large for i64: the message gives the range.
#[test]
fn a_huge_integer_is_out_of_range_not_a_non_integer() {
    let e = req(
        "cuda",
        "__shfl_down_sync",
        &[("delta", "99999999999999999999")],
    )
    .run()
    .unwrap_err();
    assert_eq!(e.field, "delta");
    assert!(
        e.message.contains("is out of range: allowed"),
        "{}",
        e.message
    );
    assert!(!e.message.contains("not an integer"), "{}", e.message);
    let e = req("cuda", "__shfl_down_sync", &[("delta", "x")])
        .run()
        .unwrap_err();
    assert!(e.message.contains("`x` is not an integer"), "{}", e.message);
}

/// "an i32", "a u32", "an f16", "a bf16": the article as the type name is read aloud.
#[test]
fn value_errors_use_the_right_article() {
    let mut r = req("cuda", "__shfl_xor_sync", &[("laneMask", "1")]);
    r.values = format!("x{}", ",0".repeat(31));
    let e = r.run().unwrap_err();
    assert!(
        e.message.starts_with("`x` is not an i32 value"),
        "{}",
        e.message
    );
    for (name, phrase) in [
        ("u32", "a u32"),
        ("f16", "an f16"),
        ("bf16", "a bf16"),
        ("int", "an int"),
        ("unsigned int", "an unsigned int"),
        ("float", "a float"),
    ] {
        assert_eq!(crosslane_core::error::with_article(name), phrase);
    }
}
