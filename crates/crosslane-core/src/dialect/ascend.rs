//! Ascend C SIMT warp shuffles: `asc_shfl`, `asc_shfl_up`, `asc_shfl_down`, `asc_shfl_xor`.
//!
//! 32-lane warps. Sources: seed 000 (asc_shfl_xor, "Function Usage"), seed 001 (asc_shfl_down,
//! 功能说明 and 约束说明), and semantics.md "Ascend C" for the readings where the pages are silent:
//! * `width` groups the warp into segments; valid widths are powers of two in 1..=32 (001 约束说明:
//!   "width不是2的倍数或者超出32，返回值异常" — "a multiple of 2" read as a power of two, the only
//!   reading under which the group rule works). Any other width runs with every lane undefined
//!   and a warning; width ≤ 0 is an input error (it cannot be divided by).
//! * A source lane that is inactive yields "the uninitialized value in the register" (000, 001):
//!   undefined.
//! * A lane number that would fall outside the warp (negative `lane_mask` / `srcLane`) is never
//!   read: undefined with a diagnostic.

use crate::args::{Arg, Role, ASCEND_PER_THREAD};
use crate::error::InputError;
use crate::gather::{gather, inactive_is_undefined, note_undefined, Pick};
use crate::op::{Dialect, OpInput, OpKind, OpOutput, OpSpec, Proto};
use crate::params::{ParamDefault, ParamKind, ParamSpec};
use crate::segment::{segment_end, segment_start, width_warning};
use crate::value::ValueType;

const WARP: usize = 32;
const WIDTH_RULE: &str =
    "Ascend asc_shfl_down (seed 001), 约束说明: width must be a power of two, at most 32";
const FAMILY: &str = "asc_shfl_*";

const WIDTH: ParamSpec = ParamSpec {
    name: "width",
    kind: ParamKind::PerLaneInt {
        min: 1,
        max: i32::MAX as i64,
    },
    default: ParamDefault::Lanes,
    doc: "segment width in lanes; a power of two in 1..=32 (default warpSize = 32)",
};

/// Types on the asc_shfl_down page (seed 001, 函数原型).
const TYPES_DOWN: &[ValueType] = &[
    ValueType::I32,
    ValueType::U32,
    ValueType::F32,
    ValueType::I64,
    ValueType::U64,
    ValueType::F16,
    ValueType::F16x2,
    ValueType::Bf16,
    ValueType::Bf16x2,
];

/// Types on the asc_shfl_xor page (seed 000, Prototype): no bfloat16_t / bfloat16x2_t.
const TYPES_XOR: &[ValueType] = &[
    ValueType::I32,
    ValueType::U32,
    ValueType::F32,
    ValueType::I64,
    ValueType::U64,
    ValueType::F16,
    ValueType::F16x2,
];

/// The Ascend C operations.
pub const OPS: &[OpSpec] = &[
    OpSpec {
        dialect: Dialect::Ascend,
        name: "asc_shfl",
        aliases: &["shfl"],
        proto: Proto::returns("T"),
        args: &[Arg::operand("var", "T"), Arg::per_thread("srcLane", "int32_t", Role::SourceLane, ParamSpec {
                name: "src_lane",
                kind: ParamKind::PerLaneInt { min: i32::MIN as i64, max: i32::MAX as i64 },
                default: ParamDefault::Int(0),
                doc: "source lane within the caller's segment (taken mod width)",
            }, ASCEND_PER_THREAD), Arg::per_thread("width", "int32_t", Role::Width, WIDTH, ASCEND_PER_THREAD)],
        rule: "Lane i reads lane (srcLane mod width) of its own width-segment. A negative srcLane would \
               name a lane outside the warp: undefined. An inactive source is undefined (uninitialized \
               register). Width must be a power of two ≤ 32, else every lane is undefined.",
        source: "cann asc-devkit asc_shfl (same family as seeds 000/001); semantics.md \"Ascend C\"",
        settings: &[],
        types: TYPES_DOWN,
        type_note: "the asc_shfl family lists int32_t, uint32_t, float, int64_t, uint64_t, half, half2, bfloat16_t, bfloat16x2_t",
        kind: OpKind::Lanes,
        run: run_shfl,
    },
    OpSpec {
        dialect: Dialect::Ascend,
        name: "asc_shfl_up",
        aliases: &["shfl_up"],
        proto: Proto::returns("T"),
        args: &[Arg::operand("var", "T"), Arg::per_thread("delta", "uint32_t", Role::DeltaUp, DELTA, ASCEND_PER_THREAD), Arg::per_thread("width", "int32_t", Role::Width, WIDTH, ASCEND_PER_THREAD)],
        rule: "Lane i reads lane i − delta when that lane is in its own segment; otherwise (and whenever \
               delta ≥ width) it returns its own var. An inactive source is undefined.",
        source: "cann asc-devkit asc_shfl_up, mirroring asc_shfl_down (seed 001) downwards; semantics.md \"Ascend C\"",
        settings: &[],
        types: TYPES_DOWN,
        type_note: "the asc_shfl family lists int32_t, uint32_t, float, int64_t, uint64_t, half, half2, bfloat16_t, bfloat16x2_t",
        kind: OpKind::Lanes,
        run: run_up,
    },
    OpSpec {
        dialect: Dialect::Ascend,
        name: "asc_shfl_down",
        aliases: &["shfl_down"],
        proto: Proto::returns("T"),
        args: &[Arg::operand("var", "T"), Arg::per_thread("delta", "uint32_t", Role::DeltaDown, DELTA, ASCEND_PER_THREAD), Arg::per_thread("width", "int32_t", Role::Width, WIDTH, ASCEND_PER_THREAD)],
        rule: "Lane i reads lane i + delta when that lane is at or below the end of its segment; \
               otherwise it returns its own var. If delta ≥ width every lane returns its own var. An \
               inactive source is undefined (uninitialized register).",
        source: "seed 001 asc_shfl_down, 功能说明 and 约束说明",
        settings: &[],
        types: TYPES_DOWN,
        type_note: "seed 001 lists int32_t, uint32_t, float, int64_t, uint64_t, half, half2, bfloat16_t, bfloat16x2_t",
        kind: OpKind::Lanes,
        run: run_down,
    },
    OpSpec {
        dialect: Dialect::Ascend,
        name: "asc_shfl_xor",
        aliases: &["shfl_xor"],
        proto: Proto::returns("T"),
        args: &[Arg::operand("var", "T"), Arg::per_thread("lane_mask", "int32_t", Role::LaneMask, ParamSpec {
                name: "lane_mask",
                kind: ParamKind::PerLaneInt { min: i32::MIN as i64, max: i32::MAX as i64 },
                default: ParamDefault::Int(1),
                doc: "xor-ed with the caller's lane id to give the source lane",
            }, ASCEND_PER_THREAD), Arg::per_thread("width", "int32_t", Role::Width, WIDTH, ASCEND_PER_THREAD)],
        rule: "Lane i reads lane i ^ lane_mask when that lane is at or below the end of its own segment \
               (an earlier segment is allowed); a later lane returns its own var. A negative result \
               would be outside the warp: undefined. An inactive source is undefined.",
        source: "seed 000 asc_shfl_xor, Function Usage",
        settings: &[],
        types: TYPES_XOR,
        type_note: "seed 000's prototypes are int32_t, uint32_t, float, int64_t, uint64_t, half, half2 (no bfloat16)",
        kind: OpKind::Lanes,
        run: run_xor,
    },
];

const DELTA: ParamSpec = ParamSpec {
    name: "delta",
    kind: ParamKind::PerLaneInt {
        min: 0,
        max: u32::MAX as i64,
    },
    default: ParamDefault::Int(1),
    doc: "lane offset (uint32_t)",
};

/// Shared frame: each lane checks its own width, then picks by the dialect's rule with its own
/// parameter `param` (semantics.md "Per-thread and uniform operands").
fn run_with(
    input: &OpInput,
    param: &str,
    pick: impl Fn(usize, usize, i64) -> Pick,
) -> Result<OpOutput, InputError> {
    let mut diagnostics = Vec::new();
    let mut bad: Vec<(i64, String)> = Vec::new();
    for i in input.active.iter().filter(|&i| i < input.lanes) {
        let width = input.params.lane_int("width", i)?;
        if bad.iter().any(|(w, _)| *w == width) {
            continue;
        }
        if let Some(w) = width_warning(width, WARP as i64, FAMILY, WIDTH_RULE) {
            bad.push((width, w.message.clone()));
            diagnostics.push(w);
        }
    }
    let results = gather(
        input,
        |i| {
            let (Ok(width), Ok(p)) = (
                input.params.lane_int("width", i),
                input.params.lane_int(param, i),
            ) else {
                return Pick::Undefined(format!("lane {i} has no {param} or width"), None);
            };
            if let Some((_, why)) = bad.iter().find(|(w, _)| *w == width) {
                return Pick::Undefined(why.clone(), None);
            }
            pick(i, width as usize, p)
        },
        inactive_is_undefined,
    );
    note_undefined(&results, &mut diagnostics);
    Ok(OpOutput {
        results,
        diagnostics,
    })
}

fn run_shfl(input: &OpInput) -> Result<OpOutput, InputError> {
    run_with(input, "src_lane", |i, width, src| {
        if src < 0 {
            return Pick::Undefined(
                format!("lane {i}'s srcLane {src} is negative: it names no lane of the warp"),
                None,
            );
        }
        Pick::Lane(segment_start(i, width) + (src as usize % width))
    })
}

fn run_up(input: &OpInput) -> Result<OpOutput, InputError> {
    run_with(input, "delta", |i, width, delta| {
        let delta = delta as usize;
        if delta >= width {
            return Pick::Own(format!(
                "lane {i}'s delta {delta} ≥ width {width}: own value (seed 001 约束说明)"
            ));
        }
        match i.checked_sub(delta) {
            Some(j) if j >= segment_start(i, width) => Pick::Lane(j),
            _ => Pick::Own(format!(
                "lane {i} − {delta} is before its segment: own value"
            )),
        }
    })
}

fn run_down(input: &OpInput) -> Result<OpOutput, InputError> {
    run_with(input, "delta", |i, width, delta| {
        let delta = delta as usize;
        if delta >= width {
            return Pick::Own(format!(
                "lane {i}'s delta {delta} ≥ width {width}: own value (seed 001 约束说明)"
            ));
        }
        let j = i + delta;
        if j <= segment_end(i, width) {
            Pick::Lane(j)
        } else {
            Pick::Own(format!(
                "lane {i} + {delta} is past its segment: own value (seed 001 功能说明)"
            ))
        }
    })
}

fn run_xor(input: &OpInput) -> Result<OpOutput, InputError> {
    run_with(input, "lane_mask", |i, width, mask| {
        let j = (i as i64) ^ mask;
        if j < 0 {
            Pick::Undefined(
                format!("lane {i} ^ {mask} = {j} names no lane of the warp"),
                None,
            )
        } else if j as usize <= segment_end(i, width) {
            Pick::Lane(j as usize)
        } else {
            Pick::Own(format!(
                "lane {i} ^ {mask} = {j} is past the end of its segment: own value (seed 000 Function Usage)"
            ))
        }
    })
}
