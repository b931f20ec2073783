//! The library's operation request: `{dialect, op, lanes?, active?, values?, type?, params?}`
//! with numbers or text where the CLI takes text, turned into the core's
//! [`crosslane_core::OpRequest`] (all text) so that every field is validated by the same code as
//! `crosslane op` and reports the same [`InputError`].

use std::collections::BTreeMap;

use crosslane_core::{InputError, OpRequest};
use serde::Deserialize;

/// A field given as a JavaScript number or as the text the CLI would take.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(untagged)]
pub enum Text {
    /// An integer (lane counts, parameter values).
    Int(i64),
    /// A number with a fraction (an `f32` operand given as one value).
    Float(f64),
    /// Text exactly as the CLI takes it (`0x10`, `lane+3`, `1,2,3`).
    Str(String),
}

impl Text {
    /// The CLI's text for this field: integers in decimal, other numbers in their shortest form.
    fn decimal(&self) -> String {
        match self {
            Text::Int(i) => i.to_string(),
            Text::Float(f) => f.to_string(),
            Text::Str(s) => s.clone(),
        }
    }

    /// The text of an active mask: a number is the mask itself, written in hex as the CLI's
    /// `--active` takes it; text is passed on as typed.
    fn mask(&self) -> String {
        match self {
            Text::Int(i) if *i >= 0 => format!("0x{i:x}"),
            other => other.decimal(),
        }
    }
}

/// One operation call from JavaScript (`runOp`'s argument, the `<crosslane-op>` attributes).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ApiOpRequest {
    /// `cuda`, `hip`, `ascend`, `amdgcn`, `maca` or `wgsl`.
    pub dialect: String,
    /// The vendor's op name or an alias.
    pub op: String,
    /// Lanes in the warp; default: the dialect's.
    #[serde(default)]
    pub lanes: Option<Text>,
    /// Active (exec) mask: a number, or hex text (`"0xffff"`); default all lanes.
    #[serde(default)]
    pub active: Option<Text>,
    /// CUDA only: lanes whose threads have exited (a number or hex text), as `--exited`.
    #[serde(default)]
    pub exited: Option<Text>,
    /// `lane`, `lane+K`, `lane*K` or a comma list of N items; default `lane`.
    #[serde(default)]
    pub values: Option<Text>,
    /// Value type (`i32` default, `u32`, `f32`, `i64`, `u64`, `f64`, `f16`, `bf16`, `f16x2`,
    /// `bf16x2`).
    #[serde(default, rename = "type")]
    pub ty: Option<String>,
    /// Parameters by vendor name (`lane_mask`, `width`, `dpp_ctrl`, …); a missing one takes its
    /// default.
    #[serde(default)]
    pub params: BTreeMap<String, Text>,
}

impl ApiOpRequest {
    /// The core request with every field as the CLI would pass it.
    ///
    /// # Errors
    /// None yet (all validation is the core's, in [`OpRequest::run`]); the `Result` keeps room
    /// for fields only the library has.
    pub fn to_core(&self) -> Result<OpRequest, InputError> {
        let text = |t: &Option<Text>| t.as_ref().map(Text::decimal).unwrap_or_default();
        Ok(OpRequest {
            dialect: self.dialect.clone(),
            op: self.op.clone(),
            lanes: text(&self.lanes),
            active: self.active.as_ref().map(Text::mask).unwrap_or_default(),
            exited: self.exited.as_ref().map(Text::mask).unwrap_or_default(),
            values: text(&self.values),
            ty: self.ty.clone().unwrap_or_default(),
            params: self
                .params
                .iter()
                .map(|(k, v)| (k.clone(), v.decimal()))
                .collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(json: &str) -> ApiOpRequest {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn numbers_become_the_cli_text() {
        let r = req(
            r#"{"dialect":"ascend","op":"asc_shfl_xor","lanes":32,"active":65535,"params":{"lane_mask":1,"width":"16"}}"#,
        )
        .to_core()
        .unwrap();
        assert_eq!(r.lanes, "32");
        assert_eq!(r.active, "0xffff");
        assert_eq!(r.params["lane_mask"], "1");
        assert_eq!(r.params["width"], "16");
    }

    #[test]
    fn xor_one_within_sixteen_swaps_neighbours() {
        // Ascend C asc_shfl_xor (seed 001): lane i reads lane i ^ lane_mask within its width
        // segment, so lane_mask 1 swaps each even lane with the odd one after it.
        let r =
            req(r#"{"dialect":"ascend","op":"asc_shfl_xor","params":{"lane_mask":1,"width":16}}"#);
        let out = crate::api::run_op(&r).unwrap();
        assert_eq!(out["results"][0]["value"], 1);
        assert_eq!(out["results"][1]["value"], 0);
        assert_eq!(out["results"][6]["from"], 7);
        assert_eq!(out["active"], "0xffffffff");
    }

    #[test]
    fn a_bad_field_is_an_input_error_naming_it() {
        let r = req(r#"{"dialect":"ascend","op":"asc_shfl_xor","params":{"width":0}}"#);
        let e = crate::api::run_op(&r).unwrap_err();
        assert_eq!(e.field, "width");
        assert!(e.message.contains("1..="), "{}", e.message);
        assert!(
            serde_json::from_str::<ApiOpRequest>(r#"{"dialect":"cuda","op":"x","lane":3}"#)
                .is_err()
        );
    }
}
