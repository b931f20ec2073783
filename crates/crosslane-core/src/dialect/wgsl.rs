//! WGSL subgroup and quad built-in functions (`enable subgroups;`).
//!
//! Source: WGSL specification, "Subgroup Built-in Functions" and "Quad Built-in Functions"
//! (W3C WGSL, the `subgroups` extension). Geometry: a subgroup has a power-of-two size in 4..=128
//! (the lane count of the request); a subgroup may be partly filled — missing invocations count
//! as inactive.
//!
//! Indeterminate values: the spec calls the result of reading an inactive invocation, or an
//! invocation id outside `[0, subgroup_size)`, *indeterminate* (any value, possibly different per
//! evaluation). This module never invents a value for them: they are undefined lanes whose `why`
//! says "indeterminate" and cites the function's section. There is no wrap-around anywhere.

use crate::error::InputError;
use crate::gather::{gather, Pick};
use crate::op::{Dialect, OpInput, OpKind, OpOutput, OpSpec};
use crate::params::{ParamDefault, ParamKind, ParamSpec};
use crate::value::ValueType;

use super::ascend::note_undefined;

/// Where the subgroup rules come from.
const SUBGROUP_SOURCE: &str = "WGSL spec, Subgroup Built-in Functions";

/// The scalar element types WGSL allows for `e` that this crate models: f32, f16, i32, u32, and
/// vec2<f16> (shown as the packed pair f16x2; a vector moves component-wise, bit-exact).
const SHUFFLE_TYPES: &[ValueType] = &[
    ValueType::I32,
    ValueType::U32,
    ValueType::F32,
    ValueType::F16,
    ValueType::F16x2,
];
const SHUFFLE_TYPE_NOTE: &str = "WGSL subgroup functions take a concrete numeric scalar or \
     vector: i32, u32, f32, f16 (vec2<f16> is shown as f16x2); WGSL has no 64-bit or bfloat16 types";

/// The four shuffle rules of the spec (subgroupShuffle / Up / Down / Xor).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shuffle {
    /// `subgroupShuffle(e, id)`: invocation `id`.
    Idx,
    /// `subgroupShuffleUp(e, delta)`: invocation `id - delta`.
    Up,
    /// `subgroupShuffleDown(e, delta)`: invocation `id + delta`.
    Down,
    /// `subgroupShuffleXor(e, mask)`: invocation `id ^ mask`.
    Xor,
}

/// The invocation lane `lane` reads under `rule` with parameter `param`, before range checks
/// (may be negative or ≥ the subgroup size).
pub(crate) fn shuffle_source(rule: Shuffle, lane: usize, param: i64) -> i64 {
    let i = lane as i64;
    match rule {
        Shuffle::Idx => param,
        Shuffle::Up => i - param,
        Shuffle::Down => i + param,
        Shuffle::Xor => i ^ param,
    }
}

/// A lane whose source is inactive: indeterminate per the spec.
fn inactive_indeterminate(name: &'static str) -> impl Fn(usize, usize) -> Pick {
    move |_dst, src| {
        Pick::Undefined(
            format!(
                "invocation {src} is inactive: {name} returns an indeterminate value \
                 ({SUBGROUP_SOURCE}, {name})"
            ),
            Some(src),
        )
    }
}

fn run_shuffle(
    input: &OpInput,
    rule: Shuffle,
    name: &'static str,
    param_name: &str,
) -> Result<OpOutput, InputError> {
    let param = input.params.int(param_name)?;
    let size = input.lanes as i64;
    let results = gather(
        input,
        |i| {
            let j = shuffle_source(rule, i, param);
            if (0..size).contains(&j) {
                Pick::Lane(j as usize)
            } else {
                Pick::Undefined(
                    format!(
                        "invocation {j} is outside the subgroup [0, {size}): {name} returns an \
                         indeterminate value ({SUBGROUP_SOURCE}, {name})"
                    ),
                    None,
                )
            }
        },
        inactive_indeterminate(name),
    );
    let mut diagnostics = Vec::new();
    note_undefined(&results, &mut diagnostics);
    Ok(OpOutput {
        results,
        diagnostics,
    })
}

fn run_idx(input: &OpInput) -> Result<OpOutput, InputError> {
    run_shuffle(input, Shuffle::Idx, "subgroupShuffle", "id")
}

fn run_up(input: &OpInput) -> Result<OpOutput, InputError> {
    run_shuffle(input, Shuffle::Up, "subgroupShuffleUp", "delta")
}

fn run_down(input: &OpInput) -> Result<OpOutput, InputError> {
    run_shuffle(input, Shuffle::Down, "subgroupShuffleDown", "delta")
}

fn run_xor(input: &OpInput) -> Result<OpOutput, InputError> {
    run_shuffle(input, Shuffle::Xor, "subgroupShuffleXor", "mask")
}

const DELTA: ParamSpec = ParamSpec {
    name: "delta",
    kind: ParamKind::Int {
        min: 0,
        max: u32::MAX as i64,
    },
    default: ParamDefault::Int(1),
    doc: "invocation offset (u32, subgroup-uniform)",
};

/// The WGSL operations.
pub const OPS: &[OpSpec] = &[
    OpSpec {
        dialect: Dialect::Wgsl,
        name: "subgroupShuffle",
        aliases: &["shuffle"],
        signature: "fn subgroupShuffle(e: T, id: I) -> T   // I is i32 or u32",
        rule:
            "Invocation i returns e from invocation id (id may differ per invocation; here it is \
               one value for all). id outside [0, subgroup size) or an inactive invocation: the \
               result is indeterminate (undefined here, never a value).",
        source: "WGSL spec, Subgroup Built-in Functions: subgroupShuffle",
        params: &[ParamSpec {
            name: "id",
            kind: ParamKind::Int {
                min: i32::MIN as i64,
                max: u32::MAX as i64,
            },
            default: ParamDefault::Int(0),
            doc: "subgroup invocation id to read (i32 or u32)",
        }],
        types: SHUFFLE_TYPES,
        type_note: SHUFFLE_TYPE_NOTE,
        kind: OpKind::Lanes,
        run: run_idx,
    },
    OpSpec {
        dialect: Dialect::Wgsl,
        name: "subgroupShuffleUp",
        aliases: &["shuffleUp"],
        signature: "fn subgroupShuffleUp(e: T, delta: u32) -> T",
        rule: "Invocation i returns e from invocation i - delta; delta must be subgroup-uniform. \
               A negative id (no wrap) or an inactive invocation: indeterminate.",
        source: "WGSL spec, Subgroup Built-in Functions: subgroupShuffleUp",
        params: &[DELTA],
        types: SHUFFLE_TYPES,
        type_note: SHUFFLE_TYPE_NOTE,
        kind: OpKind::Lanes,
        run: run_up,
    },
    OpSpec {
        dialect: Dialect::Wgsl,
        name: "subgroupShuffleDown",
        aliases: &["shuffleDown"],
        signature: "fn subgroupShuffleDown(e: T, delta: u32) -> T",
        rule: "Invocation i returns e from invocation i + delta; delta must be subgroup-uniform. \
               An id at or past the subgroup size (no wrap) or an inactive invocation: \
               indeterminate.",
        source: "WGSL spec, Subgroup Built-in Functions: subgroupShuffleDown",
        params: &[DELTA],
        types: SHUFFLE_TYPES,
        type_note: SHUFFLE_TYPE_NOTE,
        kind: OpKind::Lanes,
        run: run_down,
    },
    OpSpec {
        dialect: Dialect::Wgsl,
        name: "subgroupShuffleXor",
        aliases: &["shuffleXor"],
        signature: "fn subgroupShuffleXor(e: T, mask: u32) -> T",
        rule: "Invocation i returns e from invocation i ^ mask; mask must be subgroup-uniform. An \
               id at or past the subgroup size or an inactive invocation: indeterminate.",
        source: "WGSL spec, Subgroup Built-in Functions: subgroupShuffleXor",
        params: &[ParamSpec {
            name: "mask",
            kind: ParamKind::Int {
                min: 0,
                max: u32::MAX as i64,
            },
            default: ParamDefault::Int(1),
            doc: "xor-ed with the invocation id (u32, subgroup-uniform)",
        }],
        types: SHUFFLE_TYPES,
        type_note: SHUFFLE_TYPE_NOTE,
        kind: OpKind::Lanes,
        run: run_xor,
    },
];
