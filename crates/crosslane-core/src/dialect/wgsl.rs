//! WGSL subgroup and quad built-in functions (`enable subgroups;`): shuffles, broadcasts, elect,
//! ballot, all/any, reductions, inclusive/exclusive scans, quad broadcast and swaps.
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

use crate::args::{Arg, Role, Thread, WGSL_CONST_ID};
use crate::arith::{binary_opt, fold, identity, BinOp};
use crate::error::InputError;
use crate::gather::{gather, Pick};
use crate::op::{Dialect, OpInput, OpKind, OpOutput, OpSpec, Proto};
use crate::params::{ParamDefault, ParamKind, ParamSpec};
use crate::result::{Diagnostic, LaneResult};
use crate::value::{Value, ValueType};

use crate::gather::note_undefined;

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
        Shuffle::Up => i.wrapping_sub(param),
        Shuffle::Down => i.wrapping_add(param),
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

/// The rule that `delta` / `mask` of ShuffleUp / Down / Xor be subgroup-uniform.
pub(crate) const UNIFORM_RULE: &str = "WGSL spec, Subgroup Built-in Functions: the delta of \
     subgroupShuffleUp / subgroupShuffleDown and the mask of subgroupShuffleXor must be \
     subgroup-uniform";
/// The source for subgroupShuffle's per-invocation `id`.
pub(crate) const ID_PER_INVOCATION: &str =
    "WGSL spec, Subgroup Built-in Functions: subgroupShuffle (id may differ per invocation)";

/// Runs a shuffle with each invocation's own `param`. For Up / Down / Xor the parameter must be
/// subgroup-uniform: when the active invocations disagree, every active invocation is
/// indeterminate and a warning cites [`UNIFORM_RULE`] (semantics.md "Per-thread and uniform
/// operands").
fn run_shuffle(
    input: &OpInput,
    rule: Shuffle,
    name: &'static str,
    param_name: &str,
) -> Result<OpOutput, InputError> {
    let active: Vec<usize> = input.active.iter().filter(|&i| i < input.lanes).collect();
    let mut own = Vec::with_capacity(input.lanes);
    for i in 0..input.lanes {
        own.push(input.params.lane_int(param_name, i)?);
    }
    if rule != Shuffle::Idx {
        if let Some(&first) = active.first() {
            let differ: Vec<usize> = active
                .iter()
                .copied()
                .filter(|&i| own[i] != own[first])
                .collect();
            if !differ.is_empty() {
                let why = format!(
                    "{param_name} is not subgroup-uniform (invocation {first} passes {}, \
                     invocation(s) {} pass other values): {name} returns indeterminate values \
                     ({UNIFORM_RULE})",
                    own[first],
                    crate::lanes::list_lanes(&differ)
                );
                let results = (0..input.lanes)
                    .map(|i| {
                        if input.active.contains(i) {
                            LaneResult::undefined(why.clone(), None)
                        } else {
                            LaneResult::inactive()
                        }
                    })
                    .collect();
                let mut out = output(results);
                out.diagnostics
                    .insert(0, Diagnostic::warning(why, UNIFORM_RULE));
                return Ok(out);
            }
        }
    }
    run_read(input, name, SUBGROUP_SOURCE, |i| {
        shuffle_source(rule, i, own[i])
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
    kind: ParamKind::PerLaneInt {
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
        proto: Proto::returns("T").note("I is i32 or u32"),
        args: &[Arg::operand("e", "T"), Arg::per_thread("id", "I", Role::SourceLane, ParamSpec {
            name: "id",
            kind: ParamKind::PerLaneInt {
                min: i32::MIN as i64,
                max: u32::MAX as i64,
            },
            default: ParamDefault::Int(0),
            doc: "subgroup invocation id to read (i32 or u32)",
        }, ID_PER_INVOCATION)],
        rule:
            "Invocation i returns e from invocation id (id may differ per invocation: one \
               value, a list, or a lane expression). id outside [0, subgroup size) or an inactive invocation: the \
               result is indeterminate (undefined here, never a value).",
        source: "WGSL spec, Subgroup Built-in Functions: subgroupShuffle",
        settings: &[],
        types: SHUFFLE_TYPES,
        type_note: SHUFFLE_TYPE_NOTE,
        kind: OpKind::Lanes,
        run: run_idx,
    },
    OpSpec {
        dialect: Dialect::Wgsl,
        name: "subgroupShuffleUp",
        aliases: &["shuffleUp"],
        proto: Proto::returns("T"),
        args: &[Arg::operand("e", "T"), Arg::param("delta", "u32", Role::DeltaUp, DELTA, Thread::Uniform(UNIFORM_RULE))],
        rule: "Invocation i returns e from invocation i - delta; delta must be subgroup-uniform \
               (a varying delta: every invocation indeterminate, with a warning). A negative id (no wrap) or an inactive invocation: indeterminate.",
        source: "WGSL spec, Subgroup Built-in Functions: subgroupShuffleUp",
        settings: &[],
        types: SHUFFLE_TYPES,
        type_note: SHUFFLE_TYPE_NOTE,
        kind: OpKind::Lanes,
        run: run_up,
    },
    OpSpec {
        dialect: Dialect::Wgsl,
        name: "subgroupShuffleDown",
        aliases: &["shuffleDown"],
        proto: Proto::returns("T"),
        args: &[Arg::operand("e", "T"), Arg::param("delta", "u32", Role::DeltaDown, DELTA, Thread::Uniform(UNIFORM_RULE))],
        rule: "Invocation i returns e from invocation i + delta; delta must be subgroup-uniform \
               (a varying delta: every invocation indeterminate, with a warning). An id at or past the subgroup size (no wrap) or an inactive invocation: \
               indeterminate.",
        source: "WGSL spec, Subgroup Built-in Functions: subgroupShuffleDown",
        settings: &[],
        types: SHUFFLE_TYPES,
        type_note: SHUFFLE_TYPE_NOTE,
        kind: OpKind::Lanes,
        run: run_down,
    },
    OpSpec {
        dialect: Dialect::Wgsl,
        name: "subgroupShuffleXor",
        aliases: &["shuffleXor"],
        proto: Proto::returns("T"),
        args: &[Arg::operand("e", "T"), Arg::param("mask", "u32", Role::LaneMask, ParamSpec {
            name: "mask",
            kind: ParamKind::PerLaneInt {
                min: 0,
                max: u32::MAX as i64,
            },
            default: ParamDefault::Int(1),
            doc: "xor-ed with the invocation id (u32, subgroup-uniform)",
        }, Thread::Uniform(UNIFORM_RULE))],
        rule: "Invocation i returns e from invocation i ^ mask; mask must be subgroup-uniform \
               (a varying mask: every invocation indeterminate, with a warning). An \
               id at or past the subgroup size or an inactive invocation: indeterminate.",
        source: "WGSL spec, Subgroup Built-in Functions: subgroupShuffleXor",
        settings: &[],
        types: SHUFFLE_TYPES,
        type_note: SHUFFLE_TYPE_NOTE,
        kind: OpKind::Lanes,
        run: run_xor,
    },
    OpSpec {
        dialect: Dialect::Wgsl,
        name: "subgroupBroadcast",
        aliases: &["broadcast"],
        proto: Proto::returns("T").note("id: const-expression in [0, 128)"),
        args: &[Arg::operand("e", "T"), Arg::param("id", "I", Role::SourceLane, ParamSpec {
            name: "id",
            kind: ParamKind::Int { min: 0, max: 127 },
            default: ParamDefault::Int(0),
            doc: "invocation to read: a const-expression in [0, 128)",
        }, Thread::ConstExpr(WGSL_CONST_ID))],
        rule: "Every invocation returns e from invocation id. id must be a const-expression in \
               [0, 128) (a value outside is a shader-creation error, here an input error); here it \
               is always a constant. id ≥ subgroup size, or an inactive invocation id: the spec's \
               dynamic error, so every active invocation's result is undefined.",
        source: "WGSL spec, Subgroup Built-in Functions: subgroupBroadcast",
        settings: &[],
        types: SHUFFLE_TYPES,
        type_note: SHUFFLE_TYPE_NOTE,
        kind: OpKind::Lanes,
        run: run_broadcast,
    },
    OpSpec {
        dialect: Dialect::Wgsl,
        name: "subgroupBroadcastFirst",
        aliases: &["broadcastFirst"],
        proto: Proto::returns("T"),
        args: &[Arg::operand("e", "T")],
        rule: "Every active invocation returns e from the active invocation with the lowest id.",
        source: "WGSL spec, Subgroup Built-in Functions: subgroupBroadcastFirst",
        settings: &[],
        types: SHUFFLE_TYPES,
        type_note: SHUFFLE_TYPE_NOTE,
        kind: OpKind::Lanes,
        run: run_broadcast_first,
    },
    collective(
        "subgroupElect",
        Proto::returns("bool"),
        &[],
        "Returns true (shown as u32 1) on the active invocation with the lowest id, false (0) on \
         the others. The operand is not used.",
        "WGSL spec, Subgroup Built-in Functions: subgroupElect",
        BOOL_TYPES,
        "subgroupElect takes no operand",
        run_elect,
    ),
    collective(
        "subgroupBallot",
        Proto::returns("vec4<u32>"),
        &[Arg::operand("pred", "bool")],
        "Bit id % 32 of component id / 32 is set when invocation id is active and pred is true. \
         Representation chosen here: each lane's value is a u64 holding components x (bits \
         0..32) and y (bits 32..64), which is the whole ballot for subgroups of up to 64; the \
         full vec4<u32>(x, y, z, w) is always given in an info diagnostic (and is the only place \
         invocations 64..128 of a 128-wide subgroup appear). pred is shown as u32, non-zero = \
         true.",
        "WGSL spec, Subgroup Built-in Functions: subgroupBallot",
        BOOL_TYPES,
        BOOL_NOTE,
        run_ballot,
    ),
    collective(
        "subgroupAll",
        Proto::returns("bool"),
        &[Arg::operand("e", "bool")],
        "true (u32 1) when e is true on every active invocation, else false (0).",
        "WGSL spec, Subgroup Built-in Functions: subgroupAll",
        BOOL_TYPES,
        BOOL_NOTE,
        run_all,
    ),
    collective(
        "subgroupAny",
        Proto::returns("bool"),
        &[Arg::operand("e", "bool")],
        "true (u32 1) when e is true on any active invocation, else false (0).",
        "WGSL spec, Subgroup Built-in Functions: subgroupAny",
        BOOL_TYPES,
        BOOL_NOTE,
        run_any,
    ),
    collective(
        "subgroupAdd",
        Proto::returns("T"),
        &[Arg::operand("e", "T")],
        "Every active invocation returns the sum of e over the active invocations (integers \
         wrap). Floats are combined in increasing invocation order here; the spec does not fix \
         the order, so a GPU may differ in the last bits.",
        "WGSL spec, Subgroup Built-in Functions: subgroupAdd",
        NUMERIC_TYPES,
        NUMERIC_NOTE,
        run_add,
    ),
    collective(
        "subgroupMul",
        Proto::returns("T"),
        &[Arg::operand("e", "T")],
        "Every active invocation returns the product of e over the active invocations (integers \
         wrap). Floats are combined in increasing invocation order here; the spec does not fix \
         the order, so a GPU may differ in the last bits.",
        "WGSL spec, Subgroup Built-in Functions: subgroupMul",
        NUMERIC_TYPES,
        NUMERIC_NOTE,
        run_mul,
    ),
    collective(
        "subgroupMin",
        Proto::returns("T"),
        &[Arg::operand("e", "T")],
        "Every active invocation returns the minimum of e over the active invocations (WGSL min). \
         WGSL's min has no NaN rule and implementations may assume floats are finite, so a NaN \
         operand makes the result indeterminate; when the minimum is a zero and both +0 and -0 \
         take part, the sign of the result is not guaranteed.",
        "WGSL spec, Subgroup Built-in Functions: subgroupMin",
        NUMERIC_TYPES,
        NUMERIC_NOTE,
        run_min,
    ),
    collective(
        "subgroupMax",
        Proto::returns("T"),
        &[Arg::operand("e", "T")],
        "Every active invocation returns the maximum of e over the active invocations (WGSL max). \
         WGSL's max has no NaN rule and implementations may assume floats are finite, so a NaN \
         operand makes the result indeterminate; when the maximum is a zero and both +0 and -0 \
         take part, the sign of the result is not guaranteed.",
        "WGSL spec, Subgroup Built-in Functions: subgroupMax",
        NUMERIC_TYPES,
        NUMERIC_NOTE,
        run_max,
    ),
    collective(
        "subgroupAnd",
        Proto::returns("T"),
        &[Arg::operand("e", "T")],
        "Every active invocation returns the bitwise AND of e over the active invocations.",
        "WGSL spec, Subgroup Built-in Functions: subgroupAnd",
        INT_TYPES,
        INT_NOTE,
        run_and,
    ),
    collective(
        "subgroupOr",
        Proto::returns("T"),
        &[Arg::operand("e", "T")],
        "Every active invocation returns the bitwise OR of e over the active invocations.",
        "WGSL spec, Subgroup Built-in Functions: subgroupOr",
        INT_TYPES,
        INT_NOTE,
        run_or,
    ),
    collective(
        "subgroupXor",
        Proto::returns("T"),
        &[Arg::operand("e", "T")],
        "Every active invocation returns the bitwise XOR of e over the active invocations.",
        "WGSL spec, Subgroup Built-in Functions: subgroupXor",
        INT_TYPES,
        INT_NOTE,
        run_bxor,
    ),
    collective(
        "subgroupInclusiveAdd",
        Proto::returns("T"),
        &[Arg::operand("e", "T")],
        "Invocation i returns the sum of e over the active invocations with id ≤ i (= exclusive \
         sum + e).",
        "WGSL spec, Subgroup Built-in Functions: subgroupInclusiveAdd",
        NUMERIC_TYPES,
        NUMERIC_NOTE,
        run_inclusive_add,
    ),
    collective(
        "subgroupInclusiveMul",
        Proto::returns("T"),
        &[Arg::operand("e", "T")],
        "Invocation i returns the product of e over the active invocations with id ≤ i (= \
         exclusive product * e).",
        "WGSL spec, Subgroup Built-in Functions: subgroupInclusiveMul",
        NUMERIC_TYPES,
        NUMERIC_NOTE,
        run_inclusive_mul,
    ),
    collective(
        "subgroupExclusiveAdd",
        Proto::returns("T"),
        &[Arg::operand("e", "T")],
        "Invocation i returns the sum of e over the active invocations with id < i; the lowest \
         active invocation gets the identity 0.",
        "WGSL spec, Subgroup Built-in Functions: subgroupExclusiveAdd",
        NUMERIC_TYPES,
        NUMERIC_NOTE,
        run_exclusive_add,
    ),
    collective(
        "subgroupExclusiveMul",
        Proto::returns("T"),
        &[Arg::operand("e", "T")],
        "Invocation i returns the product of e over the active invocations with id < i; the \
         lowest active invocation gets the identity 1.",
        "WGSL spec, Subgroup Built-in Functions: subgroupExclusiveMul",
        NUMERIC_TYPES,
        NUMERIC_NOTE,
        run_exclusive_mul,
    ),
    OpSpec {
        dialect: Dialect::Wgsl,
        name: "quadBroadcast",
        aliases: &[],
        proto: Proto::returns("T").note("id: const-expression in [0, 4)"),
        args: &[Arg::operand("e", "T"), Arg::param("id", "I", Role::SourceLane, ParamSpec {
            name: "id",
            kind: ParamKind::Int { min: 0, max: 3 },
            default: ParamDefault::Int(0),
            doc: "invocation within the quad: a const-expression in [0, 4)",
        }, Thread::ConstExpr(WGSL_CONST_ID))],
        rule:
            "Invocation i returns e from invocation id of its quad ((i & ~3) + id). id must be a \
               const-expression in [0, 4). An inactive source: indeterminate (our inference, see \
               quadSwapX).",
        source: "WGSL spec, Quad Built-in Functions: quadBroadcast",
        settings: &[],
        types: SHUFFLE_TYPES,
        type_note: SHUFFLE_TYPE_NOTE,
        kind: OpKind::Lanes,
        run: run_quad_broadcast,
    },
    collective(
        "quadSwapX",
        Proto::returns("T"),
        &[Arg::operand("e", "T")],
        "Swaps within each quad horizontally: 0↔1, 2↔3 (invocation i reads i ^ 1). An inactive \
         partner: indeterminate. That is our inference (the subgroup functions' rule for an \
         inactive invocation), not a quote: the quad section states no inactive-partner rule.",
        "WGSL spec, Quad Built-in Functions: quadSwapX",
        SHUFFLE_TYPES,
        SHUFFLE_TYPE_NOTE,
        run_quad_swap_x,
    ),
    collective(
        "quadSwapY",
        Proto::returns("T"),
        &[Arg::operand("e", "T")],
        "Swaps within each quad vertically: 0↔2, 1↔3 (invocation i reads i ^ 2). An inactive \
         partner: indeterminate. That is our inference (the subgroup functions' rule for an \
         inactive invocation), not a quote: the quad section states no inactive-partner rule.",
        "WGSL spec, Quad Built-in Functions: quadSwapY",
        SHUFFLE_TYPES,
        SHUFFLE_TYPE_NOTE,
        run_quad_swap_y,
    ),
    collective(
        "quadSwapDiagonal",
        Proto::returns("T"),
        &[Arg::operand("e", "T")],
        "Swaps within each quad diagonally: 0↔3, 1↔2 (invocation i reads i ^ 3). An inactive \
         partner: indeterminate. That is our inference (the subgroup functions' rule for an \
         inactive invocation), not a quote: the quad section states no inactive-partner rule.",
        "WGSL spec, Quad Built-in Functions: quadSwapDiagonal",
        SHUFFLE_TYPES,
        SHUFFLE_TYPE_NOTE,
        run_quad_swap_diagonal,
    ),
];

/// Where the quad rules come from.
const QUAD_SOURCE: &str = "WGSL spec, Quad Built-in Functions";

const NUMERIC_TYPES: &[ValueType] = SHUFFLE_TYPES;
const NUMERIC_NOTE: &str = "WGSL reductions and scans take a concrete numeric scalar or vector \
     (i32, u32, f32, f16; vec2<f16> is shown as f16x2)";
const INT_TYPES: &[ValueType] = &[ValueType::I32, ValueType::U32];
const INT_NOTE: &str = "subgroupAnd/Or/Xor take a concrete integer scalar or vector (i32, u32)";
/// WGSL `bool` has no ValueType: it is shown as u32 1 (true) / 0 (false); an operand is true
/// when non-zero.
const BOOL_TYPES: &[ValueType] = &[ValueType::U32];
const BOOL_NOTE: &str = "the operand is a WGSL bool, shown as u32 (non-zero = true)";

/// Every active lane gets `value` (computed).
fn every_active(input: &OpInput, value: Value) -> Vec<LaneResult> {
    (0..input.lanes)
        .map(|i| {
            if input.active.contains(i) {
                LaneResult::computed(value)
            } else {
                LaneResult::inactive()
            }
        })
        .collect()
}

fn bool_value(b: bool) -> Value {
    Value::from_bits(ValueType::U32, b as u64)
}

fn output(results: Vec<LaneResult>) -> OpOutput {
    let mut diagnostics = Vec::new();
    note_undefined(&results, &mut diagnostics);
    OpOutput {
        results,
        diagnostics,
    }
}

/// Reads lane `pick(i)` with WGSL's indeterminate rules: a source outside the subgroup or inactive
/// is indeterminate (undefined), citing `source`.
fn run_read(
    input: &OpInput,
    name: &'static str,
    source: &str,
    pick: impl Fn(usize) -> i64,
) -> Result<OpOutput, InputError> {
    run_read_with(input, name, source, pick, inactive_indeterminate(name))
}

/// [`run_read`] with the dialect's rule for an inactive source given.
fn run_read_with(
    input: &OpInput,
    name: &'static str,
    source: &str,
    pick: impl Fn(usize) -> i64,
    on_inactive: impl Fn(usize, usize) -> Pick,
) -> Result<OpOutput, InputError> {
    let size = input.lanes as i64;
    let results = gather(
        input,
        |i| {
            let j = pick(i);
            if (0..size).contains(&j) {
                Pick::Lane(j as usize)
            } else {
                Pick::Undefined(
                    format!(
                        "invocation {j} is outside the subgroup [0, {size}): {name} returns an \
                         indeterminate value ({source}, {name})"
                    ),
                    None,
                )
            }
        },
        on_inactive,
    );
    Ok(output(results))
}

/// Where the broadcast's dynamic-error rule comes from.
const BROADCAST_SOURCE: &str = "WGSL spec, Subgroup Built-in Functions: subgroupBroadcast \
     (dynamic error); WGSL spec, Dynamic Errors";

fn run_broadcast(input: &OpInput) -> Result<OpOutput, InputError> {
    let id = input.params.int("id")?;
    let problem = if !(0..input.lanes as i64).contains(&id) {
        Some(format!(
            "id {id} is outside the subgroup [0, {})",
            input.lanes
        ))
    } else if !input.active.contains(id as usize) {
        Some(format!("invocation {id} is inactive"))
    } else {
        None
    };
    let Some(problem) = problem else {
        return run_read(input, "subgroupBroadcast", SUBGROUP_SOURCE, |_| id);
    };
    // A dynamic error: no invocation's result is defined, not only the ones reading the bad id
    // (they all read it).
    let why = format!(
        "{problem}: subgroupBroadcast is a dynamic error, the result is undefined \
         ({BROADCAST_SOURCE})"
    );
    let results: Vec<LaneResult> = (0..input.lanes)
        .map(|i| {
            if input.active.contains(i) {
                let hint = usize::try_from(id).ok().filter(|j| *j < input.lanes);
                LaneResult::undefined(why.clone(), hint)
            } else {
                LaneResult::inactive()
            }
        })
        .collect();
    let mut out = output(results);
    out.diagnostics.insert(
        0,
        Diagnostic::error(
            format!("dynamic error: {problem}; every active invocation's result is undefined"),
            BROADCAST_SOURCE,
        ),
    );
    Ok(out)
}

fn run_broadcast_first(input: &OpInput) -> Result<OpOutput, InputError> {
    let first = input.active.truncate(input.lanes).first().unwrap_or(0) as i64;
    run_read(input, "subgroupBroadcastFirst", SUBGROUP_SOURCE, |_| first)
}

fn run_elect(input: &OpInput) -> Result<OpOutput, InputError> {
    let first = input.active.truncate(input.lanes).first();
    let results = (0..input.lanes)
        .map(|i| {
            if input.active.contains(i) {
                LaneResult::computed(bool_value(Some(i) == first))
            } else {
                LaneResult::inactive()
            }
        })
        .collect();
    Ok(output(results))
}

/// Bit `id` set for every active invocation whose operand is non-zero (up to 128 bits).
fn ballot_bits(input: &OpInput) -> u128 {
    input
        .values
        .iter()
        .enumerate()
        .filter(|(i, v)| input.active.contains(*i) && v.bits != 0)
        .fold(0u128, |m, (i, _)| m | (1u128 << i))
}

fn run_ballot(input: &OpInput) -> Result<OpOutput, InputError> {
    let bits = ballot_bits(input);
    let component = |k: u32| (bits >> (32 * k)) as u32;
    let mut out = output(every_active(
        input,
        Value::from_bits(ValueType::U64, bits as u64),
    ));
    out.diagnostics.push(Diagnostic::info(
        format!(
            "subgroupBallot = vec4<u32>(0x{:08x}, 0x{:08x}, 0x{:08x}, 0x{:08x}); each lane's value \
             shows components x | y << 32 (invocations 0..64){}",
            component(0),
            component(1),
            component(2),
            component(3),
            if input.lanes > 64 {
                "; invocations 64..128 are in components z and w above"
            } else {
                ""
            }
        ),
        "WGSL spec, Subgroup Built-in Functions: subgroupBallot (bit id % 32 of component id / 32)",
    ));
    Ok(out)
}

fn run_all(input: &OpInput) -> Result<OpOutput, InputError> {
    let active = input.active.truncate(input.lanes).0;
    Ok(output(every_active(
        input,
        bool_value(ballot_bits(input) == active),
    )))
}

fn run_any(input: &OpInput) -> Result<OpOutput, InputError> {
    Ok(output(every_active(
        input,
        bool_value(ballot_bits(input) != 0),
    )))
}

/// The operand of every active invocation in increasing id order.
fn active_values(input: &OpInput) -> impl Iterator<Item = (usize, Option<Value>)> + '_ {
    input
        .active
        .truncate(input.lanes)
        .iter()
        .map(|j| (j, input.values.get(j).copied()))
}

fn run_reduce(input: &OpInput, op: BinOp) -> Result<OpOutput, InputError> {
    let total = fold(op, input.ty, active_values(input).map(|(_, v)| v))?;
    let results = (0..input.lanes)
        .map(|i| match (input.active.contains(i), total) {
            (false, _) => LaneResult::inactive(),
            (true, Some(v)) => LaneResult::computed(v),
            (true, None) => {
                LaneResult::undefined("an active invocation's operand is undefined", None)
            }
        })
        .collect();
    Ok(output(results))
}

/// Inclusive or exclusive scan over the active invocations in increasing id order. The lowest
/// active invocation gets the identity (exclusive) or its own operand (inclusive); after that
/// inclusive = exclusive op x. Starting from the operand rather than `identity op x0` keeps a
/// lone -0.0 or NaN payload as it is, the same as the reductions ([`fold`]).
fn run_scan(input: &OpInput, op: BinOp, inclusive: bool) -> Result<OpOutput, InputError> {
    let mut results = vec![LaneResult::inactive(); input.lanes];
    let mut prefix: Option<Option<Value>> = None;
    for (j, v) in active_values(input).collect::<Vec<_>>() {
        let exclusive = match prefix {
            None => Some(identity(op, input.ty)?),
            Some(p) => p,
        };
        let next = match prefix {
            None => v,
            Some(p) => binary_opt(op, p, v)?,
        };
        let shown = if inclusive { next } else { exclusive };
        if let Some(slot) = results.get_mut(j) {
            *slot = match shown {
                Some(x) => LaneResult::computed(x),
                None => LaneResult::undefined(
                    "an active invocation's operand up to here is undefined",
                    None,
                ),
            };
        }
        prefix = Some(next);
    }
    Ok(output(results))
}

fn run_add(input: &OpInput) -> Result<OpOutput, InputError> {
    run_reduce(input, BinOp::Add)
}
fn run_mul(input: &OpInput) -> Result<OpOutput, InputError> {
    run_reduce(input, BinOp::Mul)
}
fn run_min(input: &OpInput) -> Result<OpOutput, InputError> {
    run_min_max(input, BinOp::Min, "subgroupMin")
}
fn run_max(input: &OpInput) -> Result<OpOutput, InputError> {
    run_min_max(input, BinOp::Max, "subgroupMax")
}

/// The finite-math rule a NaN min/max operand falls under.
const FINITE_MATH: &str = "WGSL spec, Floating Point Evaluation: finite math assumption \
     (implementations may assume NaNs and infinities are absent; min/max state no NaN rule)";
/// The rule that the sign of a zero result may be ignored.
const SIGNED_ZERO: &str = "WGSL spec, Floating Point Evaluation: implementations may ignore the \
     sign of a zero";

/// Whether a float value (or either half of a packed pair) is a NaN / a zero of each sign.
fn float_class(v: Value) -> (bool, bool, bool) {
    let halves = |(lo, hi): (u16, u16), f16: bool| -> Vec<f64> {
        [lo, hi]
            .into_iter()
            .map(|h| {
                if f16 {
                    half::f16::from_bits(h).to_f64()
                } else {
                    half::bf16::from_bits(h).to_f64()
                }
            })
            .collect()
    };
    let xs = match v.ty {
        ValueType::F16x2 => halves(v.halves(), true),
        ValueType::Bf16x2 => halves(v.halves(), false),
        t if t.is_float() => v.as_f64().into_iter().collect(),
        _ => Vec::new(),
    };
    (
        xs.iter().any(|x| x.is_nan()),
        xs.iter().any(|x| *x == 0.0 && x.is_sign_positive()),
        xs.iter().any(|x| *x == 0.0 && x.is_sign_negative()),
    )
}

/// subgroupMin / subgroupMax: a NaN operand makes the result indeterminate (finite-math rule);
/// a zero result with both signs of zero among the operands carries a note.
fn run_min_max(input: &OpInput, op: BinOp, name: &str) -> Result<OpOutput, InputError> {
    let classes: Vec<(usize, (bool, bool, bool))> = active_values(input)
        .filter_map(|(j, v)| v.map(|v| (j, float_class(v))))
        .collect();
    if let Some((nan_lane, _)) = classes.iter().find(|(_, c)| c.0) {
        let why = format!(
            "invocation {nan_lane}'s operand is NaN: {name} is indeterminate ({FINITE_MATH})"
        );
        let results: Vec<LaneResult> = (0..input.lanes)
            .map(|i| {
                if input.active.contains(i) {
                    LaneResult::undefined(why.clone(), None)
                } else {
                    LaneResult::inactive()
                }
            })
            .collect();
        let mut out = output(results);
        out.diagnostics.insert(
            0,
            Diagnostic::warning(
                format!(
                    "a NaN operand (invocation {nan_lane}): {name} returns an indeterminate value"
                ),
                FINITE_MATH,
            ),
        );
        return Ok(out);
    }
    let mut out = run_reduce(input, op)?;
    let both_zeros = classes.iter().any(|(_, c)| c.1) && classes.iter().any(|(_, c)| c.2);
    let zero_result = out.results.iter().find_map(|r| r.value).is_some_and(|v| {
        let (_, p, n) = float_class(v);
        p || n
    });
    if both_zeros && zero_result {
        out.diagnostics.push(Diagnostic::info(
            format!(
                "+0 and -0 both take part and {name} is a zero: the sign shown follows the \
                 first operand in invocation order, but the sign of the result is not guaranteed"
            ),
            SIGNED_ZERO,
        ));
    }
    Ok(out)
}
fn run_and(input: &OpInput) -> Result<OpOutput, InputError> {
    run_reduce(input, BinOp::And)
}
fn run_or(input: &OpInput) -> Result<OpOutput, InputError> {
    run_reduce(input, BinOp::Or)
}
fn run_bxor(input: &OpInput) -> Result<OpOutput, InputError> {
    run_reduce(input, BinOp::Xor)
}
fn run_inclusive_add(input: &OpInput) -> Result<OpOutput, InputError> {
    run_scan(input, BinOp::Add, true)
}
fn run_inclusive_mul(input: &OpInput) -> Result<OpOutput, InputError> {
    run_scan(input, BinOp::Mul, true)
}
fn run_exclusive_add(input: &OpInput) -> Result<OpOutput, InputError> {
    run_scan(input, BinOp::Add, false)
}
fn run_exclusive_mul(input: &OpInput) -> Result<OpOutput, InputError> {
    run_scan(input, BinOp::Mul, false)
}

/// A quad op reading partner `pick(i)`: an inactive partner is indeterminate by our inference
/// (the quad section states no rule for it; the subgroup functions' rule is applied), said in
/// every such lane's reason and once as a note.
fn run_quad(
    input: &OpInput,
    name: &'static str,
    pick: impl Fn(usize) -> i64,
) -> Result<OpOutput, InputError> {
    let mut out = run_read_with(input, name, QUAD_SOURCE, pick, move |_, src| {
        Pick::Undefined(
            format!(
                "partner invocation {src} is inactive: indeterminate — our inference, applying \
                 the subgroup functions' inactive-invocation rule; {QUAD_SOURCE} states no rule \
                 for an inactive partner ({name})"
            ),
            Some(src),
        )
    })?;
    if out.results.iter().any(|r| {
        r.why
            .as_deref()
            .is_some_and(|w| w.contains("our inference"))
    }) {
        out.diagnostics.push(Diagnostic::info(
            format!(
                "{name} with an inactive partner: shown as indeterminate by our inference, not \
                 by a rule the quad section states"
            ),
            QUAD_SOURCE,
        ));
    }
    Ok(out)
}

fn run_quad_broadcast(input: &OpInput) -> Result<OpOutput, InputError> {
    let id = input.params.int("id")?;
    run_quad(input, "quadBroadcast", |i| ((i & !3) as i64) + id)
}
fn run_quad_swap_x(input: &OpInput) -> Result<OpOutput, InputError> {
    run_quad(input, "quadSwapX", |i| (i ^ 1) as i64)
}
fn run_quad_swap_y(input: &OpInput) -> Result<OpOutput, InputError> {
    run_quad(input, "quadSwapY", |i| (i ^ 2) as i64)
}
fn run_quad_swap_diagonal(input: &OpInput) -> Result<OpOutput, InputError> {
    run_quad(input, "quadSwapDiagonal", |i| (i ^ 3) as i64)
}

/// A subgroup reduction / scan spec. (One argument per `OpSpec` field it fills: a struct of
/// them would only repeat `OpSpec`.)
#[allow(clippy::too_many_arguments)]
const fn collective(
    name: &'static str,
    proto: Proto,
    args: &'static [Arg],
    rule: &'static str,
    source: &'static str,
    types: &'static [ValueType],
    type_note: &'static str,
    run: fn(&OpInput) -> Result<OpOutput, InputError>,
) -> OpSpec {
    OpSpec {
        dialect: Dialect::Wgsl,
        name,
        aliases: &[],
        proto,
        args,
        rule,
        source,
        settings: &[],
        types,
        type_note,
        kind: OpKind::Lanes,
        run,
    }
}
