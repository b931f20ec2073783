//! The reference: one entry per registry operation (signature, rule, source, parameter ranges,
//! value types) plus a live example, the op actually run.
//!
//! What it is for: the page's "Reference" view and `crosslane ops` both render [`entries`], so the
//! two cannot say different things, and neither can drift from the semantics: every field is read
//! from the [`OpSpec`] that runs the operation, and the example's result is computed by that op's
//! `run` through the ordinary [`OpRequest`] path at the moment the entry is built.
//!
//! The example is the op run with every default, except for the ops listed in `CURATED`, where
//! the defaults do not show what the op does (a shuffle by 0 lanes) or where a seed gives the
//! canonical example (seed 000: `asc_shfl_xor(LaneId, 1, 16)`).

use serde::Serialize;

use crate::error::InputError;
use crate::op::{all_ops, Dialect, OpKind, OpSpec};
use crate::params::{ParamDefault, ParamKind, ParamSpec};
use crate::request::OpRequest;
use crate::trace::Step;
use crate::value::ValueType;

/// One operation's reference entry.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RefEntry {
    /// Dialect.
    pub dialect: Dialect,
    /// The vendor's name.
    pub name: &'static str,
    /// Other accepted names.
    pub aliases: &'static [&'static str],
    /// The prototype, derived from the op's typed argument list ([`OpSpec::signature`]).
    pub signature: String,
    /// What the vendor writes beside the prototype (assembly form, other overloads, a
    /// constraint), shown beside it; empty when there is none ([`crate::op::Proto::note`]).
    pub signature_note: &'static str,
    /// The rule as one paragraph (the spec's text with its line breaks collapsed).
    pub rule: String,
    /// Document and section the rule comes from.
    pub source: &'static str,
    /// Whether the op computes one scalar (reported for lane 0) instead of one result per lane.
    pub scalar: bool,
    /// The parameters besides the operand: the arguments' in the call's order, then the
    /// settings ([`OpSpec::params`]).
    pub params: Vec<RefParam>,
    /// Value types the vendor lists; the first is the default.
    pub types: Vec<ValueType>,
    /// Why a type outside `types` is refused.
    pub type_note: &'static str,
    /// The op run on its example request.
    pub example: RefExample,
}

impl RefEntry {
    /// The signature with the vendor's note beside it (`… // note`), as the CLI, the operation
    /// view and the reference show it ([`OpSpec::signature_line`]).
    pub fn signature_line(&self) -> String {
        if self.signature_note.is_empty() {
            self.signature.clone()
        } else {
            format!("{}   // {}", self.signature, self.signature_note)
        }
    }
}

/// One parameter of a [`RefEntry`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RefParam {
    /// Vendor name, snake_case (`lane_mask`).
    pub name: &'static str,
    /// The CLI flag (`--lane-mask`).
    pub flag: String,
    /// Kind and encodable range, as data.
    pub kind: ParamKind,
    /// The accepted values in words, e.g. `integer in 1..=2147483647`.
    pub range: String,
    /// The default, as data.
    pub default: ParamDefault,
    /// The default in words, e.g. `default the lane count`.
    pub default_text: String,
    /// Meaning and units.
    pub doc: &'static str,
    /// The call argument that holds it, as the vendor declares it (`unsigned int lane_delta`);
    /// `None` for a parameter the call does not pass (the memory, the element shown).
    pub arg: Option<String>,
    /// Whether each lane passes its own value: `per thread`, `uniform`, `const-expression`,
    /// `scalar (uniform)` or `immediate` (from the op's typed argument list).
    pub lanes: Option<&'static str>,
    /// The rule or source for `lanes`.
    pub lanes_source: Option<&'static str>,
}

/// The live example of a [`RefEntry`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RefExample {
    /// The request run (empty fields = defaults).
    pub request: OpRequest,
    /// The request as a `crosslane op …` command line.
    pub command: String,
    /// Why this example was chosen over the defaults; `None` when it is the defaults.
    pub note: Option<&'static str>,
    /// The executed step; `None` when the request was refused (see `error`).
    pub step: Option<Step>,
    /// Why the request was refused; `None` when it ran. The tests keep this `None` for every op.
    pub error: Option<InputError>,
}

/// A hand-picked example request for an op whose defaults are not illustrative.
struct Curated {
    dialect: Dialect,
    op: &'static str,
    values: &'static str,
    params: &'static [(&'static str, &'static str)],
    note: &'static str,
}

/// The curated examples, one table for every dialect. Every other op's example is its defaults.
const CURATED: &[Curated] = &[
    Curated {
        dialect: Dialect::Ascend,
        op: "asc_shfl_xor",
        values: "",
        params: &[("lane_mask", "1"), ("width", "16")],
        note: "seed 000: asc_shfl_xor(LaneId, 1, 16) swaps neighbouring lanes",
    },
    Curated {
        dialect: Dialect::Maca,
        op: "__builtin_mxc_mma_16x16x16i8",
        values: "",
        params: &[("a", "2"), ("b", "3"), ("c", "1")],
        note: "constant matrices make D checkable by hand: 2·3·16 + 1 = 97 everywhere",
    },
    Curated {
        dialect: Dialect::Maca,
        op: "__builtin_mxc_mma_16x16x32i8",
        values: "",
        params: &[("a", "2"), ("b", "3"), ("c", "1")],
        note: "constant matrices make D checkable by hand: 2·3·32 + 1 = 193 everywhere",
    },
    Curated {
        dialect: Dialect::Amdgcn,
        op: "v_permlane16_b32",
        values: "",
        params: &[("sel_lo", "0x87654321"), ("sel_hi", "0x0fedcba9")],
        note: "the RDNA3 ISA's V_PERMLANE16_B32 example: each row of 16 rotates by one (lane i \
               reads lane 16·(i / 16) + (i + 1) mod 16)",
    },
    Curated {
        dialect: Dialect::Amdgcn,
        op: "v_permlanex16_b32",
        values: "",
        params: &[("sel_lo", "0x76543210"), ("sel_hi", "0xfedcba98")],
        note: "the identity selects: lane i reads lane i XOR 16, the other row of its pair",
    },
];

/// Every operation of the registry, in registry order, with its example run.
pub fn entries() -> Vec<RefEntry> {
    all_ops().map(entry).collect()
}

/// The entry of one op.
pub fn entry(spec: &OpSpec) -> RefEntry {
    RefEntry {
        dialect: spec.dialect,
        name: spec.name,
        aliases: spec.aliases,
        signature: spec.signature(),
        signature_note: spec.proto.note,
        rule: squash(spec.rule),
        source: spec.source,
        scalar: spec.kind == OpKind::Scalar,
        params: spec.params().map(|p| ref_param(spec, p)).collect(),
        types: spec.types.to_vec(),
        type_note: spec.type_note,
        example: example(spec),
    }
}

fn ref_param(spec: &OpSpec, p: &ParamSpec) -> RefParam {
    let arg = spec.arg_of(p.name);
    RefParam {
        arg: arg.map(|a| a.declared()),
        lanes: arg.map(|a| a.thread.word()),
        lanes_source: arg.map(|a| a.thread.source()),
        name: p.name,
        flag: p.flag(),
        kind: p.kind,
        range: param_range(p),
        default: p.default,
        default_text: param_default(p),
        doc: p.doc,
    }
}

/// The example request of `spec`: its `CURATED` row, or every field at its default.
pub fn example_request(spec: &OpSpec) -> (OpRequest, Option<&'static str>) {
    let mut request = OpRequest {
        dialect: spec.dialect.name().to_string(),
        op: spec.name.to_string(),
        ..OpRequest::default()
    };
    let curated = CURATED
        .iter()
        .find(|c| c.dialect == spec.dialect && c.op == spec.name);
    let note = curated.map(|c| {
        request.values = c.values.to_string();
        request.params = c
            .params
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        c.note
    });
    (request, note)
}

fn example(spec: &OpSpec) -> RefExample {
    let (request, note) = example_request(spec);
    run_example(request, note)
}

/// The example of `spec` run for the AMD target `arch` (LLVM processor name, see
/// [`crate::dialect::amdgcn::arch`]): the reference view's target picker. An op without an
/// `arch` parameter gets its ordinary example.
pub fn example_for_arch(spec: &OpSpec, arch: &str) -> RefExample {
    let (mut request, note) = example_request(spec);
    if spec.param("arch").is_some() {
        request.params.insert("arch".to_string(), arch.to_string());
    }
    run_example(request, note)
}

fn run_example(request: OpRequest, note: Option<&'static str>) -> RefExample {
    let (step, error) = match request.run() {
        Ok(step) => (Some(step), None),
        Err(e) => (None, Some(e)),
    };
    RefExample {
        command: command_line(&request),
        request,
        note,
        step,
        error,
    }
}

/// `request` as the `crosslane op` command line that runs it (docs/cli.md, "Command-line
/// contract"): empty fields are left out, parameters are spelled as kebab-case flags, and values
/// that a shell would split are single-quoted.
pub fn command_line(request: &OpRequest) -> String {
    let mut words = vec![
        "crosslane".to_string(),
        "op".to_string(),
        request.dialect.clone(),
        shell_word(&request.op),
    ];
    for (flag, value) in [
        ("lanes", &request.lanes),
        ("active", &request.active),
        ("exited", &request.exited),
        ("values", &request.values),
        ("type", &request.ty),
    ] {
        if !value.trim().is_empty() {
            words.push(format!("--{flag}"));
            words.push(shell_word(value));
        }
    }
    for (name, value) in &request.params {
        words.push(format!("--{}", name.replace('_', "-")));
        words.push(shell_word(value));
    }
    words.join(" ")
}

fn shell_word(text: &str) -> String {
    let plain = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-+.,:/=".contains(c));
    if plain {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

/// The accepted values of a parameter in words, e.g. `integer in 1..=2147483647`.
pub fn param_range(p: &ParamSpec) -> String {
    match p.kind {
        ParamKind::Int { min, max } => format!("integer in {min}..={max}"),
        ParamKind::PerLaneInt { min, max } => format!(
            "integer in {min}..={max}: one for all lanes, a comma list of one per lane, or a lane \
             expression such as (lane+1)%32"
        ),
        ParamKind::PerLaneValue => "value of the op's type: one for all lanes, a comma list of \
                                    one per lane, or a lane expression"
            .to_string(),
        ParamKind::Mask => "lane mask (hex)".to_string(),
        ParamKind::Flag => "true or false".to_string(),
        ParamKind::Text => "text".to_string(),
    }
}

/// The default of a parameter in words, e.g. `default the lane count`.
pub fn param_default(p: &ParamSpec) -> String {
    match p.default {
        ParamDefault::Required => "required".to_string(),
        ParamDefault::Int(v) => format!("default {v}"),
        ParamDefault::Lanes => "default the lane count".to_string(),
        ParamDefault::Active => "default --active".to_string(),
        ParamDefault::Text(t) => format!("default {t}"),
        ParamDefault::Flag(b) => format!("default {b}"),
    }
}

/// The rule paragraphs are written across source lines with `\` continuations; collapse runs of
/// whitespace so the rule reads as one paragraph.
fn squash(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
