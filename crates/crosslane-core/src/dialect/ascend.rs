//! Ascend C SIMT warp shuffles: `asc_shfl`, `asc_shfl_up`, `asc_shfl_down`, `asc_shfl_xor`.
//!
//! 32-lane warps. Sources: seed 000 (asc_shfl_xor, "Function Usage"), seed 001 (asc_shfl_down,
//! 功能说明 and 约束说明), and SEMANTICS.md "Ascend C" for the readings where the pages are silent:
//! * `width` groups the warp into segments; valid widths are powers of two in 1..=32 (001 约束说明:
//!   "width不是2的倍数或者超出32，返回值异常" — "a multiple of 2" read as a power of two, the only
//!   reading under which the group rule works). Any other width runs with every lane undefined
//!   and a warning; width ≤ 0 is an input error (it cannot be divided by).
//! * A source lane that is inactive yields "the uninitialized value in the register" (000, 001):
//!   undefined.
//! * A lane number that would fall outside the warp (negative `lane_mask` / `srcLane`) is never
//!   read: undefined with a diagnostic.

use crate::error::InputError;
use crate::gather::{gather, inactive_is_undefined, note_undefined, Pick};
use crate::op::{Dialect, OpInput, OpKind, OpOutput, OpSpec};
use crate::params::{ParamDefault, ParamKind, ParamSpec};
use crate::result::LaneResult;
use crate::segment::{segment_end, segment_start, width_warning};
use crate::value::ValueType;

const WARP: usize = 32;
const WIDTH_RULE: &str =
    "Ascend asc_shfl_down (seed 001), 约束说明: width must be a power of two, at most 32";
const FAMILY: &str = "asc_shfl_*";

const WIDTH: ParamSpec = ParamSpec {
    name: "width",
    kind: ParamKind::Int {
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
        signature: "T asc_shfl(T var, int32_t srcLane, int32_t width = warpSize)",
        rule: "Lane i reads lane (srcLane mod width) of its own width-segment. A negative srcLane would \
               name a lane outside the warp: undefined. An inactive source is undefined (uninitialized \
               register). Width must be a power of two ≤ 32, else every lane is undefined.",
        source: "cann asc-devkit asc_shfl (same family as seeds 000/001); SEMANTICS.md \"Ascend C\"",
        params: &[
            ParamSpec {
                name: "src_lane",
                kind: ParamKind::Int { min: i32::MIN as i64, max: i32::MAX as i64 },
                default: ParamDefault::Int(0),
                doc: "source lane within the caller's segment (taken mod width)",
            },
            WIDTH,
        ],
        types: TYPES_DOWN,
        type_note: "the asc_shfl family lists int32_t, uint32_t, float, int64_t, uint64_t, half, half2, bfloat16_t, bfloat16x2_t",
        kind: OpKind::Lanes,
        run: run_shfl,
    },
    OpSpec {
        dialect: Dialect::Ascend,
        name: "asc_shfl_up",
        aliases: &["shfl_up"],
        signature: "T asc_shfl_up(T var, uint32_t delta, int32_t width = warpSize)",
        rule: "Lane i reads lane i − delta when that lane is in its own segment; otherwise (and whenever \
               delta ≥ width) it returns its own var. An inactive source is undefined.",
        source: "cann asc-devkit asc_shfl_up, mirroring asc_shfl_down (seed 001) downwards; SEMANTICS.md \"Ascend C\"",
        params: &[DELTA, WIDTH],
        types: TYPES_DOWN,
        type_note: "the asc_shfl family lists int32_t, uint32_t, float, int64_t, uint64_t, half, half2, bfloat16_t, bfloat16x2_t",
        kind: OpKind::Lanes,
        run: run_up,
    },
    OpSpec {
        dialect: Dialect::Ascend,
        name: "asc_shfl_down",
        aliases: &["shfl_down"],
        signature: "T asc_shfl_down(T var, uint32_t delta, int32_t width = warpSize)",
        rule: "Lane i reads lane i + delta when that lane is at or below the end of its segment; \
               otherwise it returns its own var. If delta ≥ width every lane returns its own var. An \
               inactive source is undefined (uninitialized register).",
        source: "seed 001 asc_shfl_down, 功能说明 and 约束说明",
        params: &[DELTA, WIDTH],
        types: TYPES_DOWN,
        type_note: "seed 001 lists int32_t, uint32_t, float, int64_t, uint64_t, half, half2, bfloat16_t, bfloat16x2_t",
        kind: OpKind::Lanes,
        run: run_down,
    },
    OpSpec {
        dialect: Dialect::Ascend,
        name: "asc_shfl_xor",
        aliases: &["shfl_xor"],
        signature: "T asc_shfl_xor(T var, int32_t lane_mask, int32_t width = warpSize)",
        rule: "Lane i reads lane i ^ lane_mask when that lane is at or below the end of its own segment \
               (an earlier segment is allowed); a later lane returns its own var. A negative result \
               would be outside the warp: undefined. An inactive source is undefined.",
        source: "seed 000 asc_shfl_xor, Function Usage",
        params: &[
            ParamSpec {
                name: "lane_mask",
                kind: ParamKind::Int { min: i32::MIN as i64, max: i32::MAX as i64 },
                default: ParamDefault::Int(1),
                doc: "xor-ed with the caller's lane id to give the source lane",
            },
            WIDTH,
        ],
        types: TYPES_XOR,
        type_note: "seed 000's prototypes are int32_t, uint32_t, float, int64_t, uint64_t, half, half2 (no bfloat16)",
        kind: OpKind::Lanes,
        run: run_xor,
    },
];

const DELTA: ParamSpec = ParamSpec {
    name: "delta",
    kind: ParamKind::Int {
        min: 0,
        max: u32::MAX as i64,
    },
    default: ParamDefault::Int(1),
    doc: "lane offset (uint32_t)",
};

/// Shared frame: check the width, then gather with the dialect's pick rule.
fn run_with(input: &OpInput, pick: impl Fn(usize, usize) -> Pick) -> Result<OpOutput, InputError> {
    let width = input.params.int("width")?;
    let mut diagnostics = Vec::new();
    if let Some(w) = width_warning(width, WARP as i64, FAMILY, WIDTH_RULE) {
        let why = w.message.clone();
        diagnostics.push(w);
        let results = (0..input.lanes)
            .map(|i| {
                if input.active.contains(i) {
                    LaneResult::undefined(why.clone(), None)
                } else {
                    LaneResult::inactive()
                }
            })
            .collect();
        return Ok(OpOutput {
            results,
            diagnostics,
        });
    }
    let width = width as usize;
    let results = gather(input, |i| pick(i, width), inactive_is_undefined);
    note_undefined(&results, &mut diagnostics);
    Ok(OpOutput {
        results,
        diagnostics,
    })
}

fn run_shfl(input: &OpInput) -> Result<OpOutput, InputError> {
    let src = input.params.int("src_lane")?;
    run_with(input, |i, width| {
        if src < 0 {
            return Pick::Undefined(
                format!("srcLane {src} is negative: it names no lane of the warp"),
                None,
            );
        }
        Pick::Lane(segment_start(i, width) + (src as usize % width))
    })
}

fn run_up(input: &OpInput) -> Result<OpOutput, InputError> {
    let delta = input.params.int("delta")? as usize;
    run_with(input, |i, width| {
        if delta >= width {
            return Pick::Own(format!(
                "delta {delta} ≥ width {width}: own value (seed 001 约束说明)"
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
    let delta = input.params.int("delta")? as usize;
    run_with(input, |i, width| {
        if delta >= width {
            return Pick::Own(format!(
                "delta {delta} ≥ width {width}: own value (seed 001 约束说明)"
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
    let mask = input.params.int("lane_mask")?;
    run_with(input, |i, width| {
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
