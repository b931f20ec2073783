//! MetaX lane builtins on the 64-lane warp: `__builtin_mxc_readfirstlane` (seed 002 §3.8.3),
//! `__builtin_mxc_readlane` (§3.8.4), `__builtin_mxc_writelane` (§3.8.5),
//! `__builtin_mxc_read_xmsk` (§3.8.2).
//!
//! The builtins return a value to each calling (active) lane. Where the seed is silent — a lane
//! number outside 0..63, reading a lane that is not active — they follow the AMD instructions
//! they mirror (semantics.md: the MetaX builtins are the same family): the lane number's low 6
//! bits select the lane, and the selected lane's register is read whether or not it is active.
//!
//! Seed defect: the readfirstlane example assigns `tmp` only in lanes 32..63 and then stores
//! `tmp` from every lane, so lanes outside the call read an uninitialized variable: those lanes
//! are undefined here, with that reason.

use crate::args::{Arg, Role, Thread, MACA_SCALAR};
use crate::error::InputError;
use crate::op::{Dialect, OpInput, OpKind, OpOutput, OpSpec, Proto};
use crate::params::{ParamDefault, ParamKind, ParamSpec};
use crate::result::{Diagnostic, LaneResult, Source};
use crate::value::{Value, ValueType};

use super::{TYPES_INT, TYPE_NOTE_INT};

const READFIRSTLANE: &str = "seed 002 §3.8.3 __builtin_mxc_readfirstlane";
const READLANE: &str = "seed 002 §3.8.4 __builtin_mxc_readlane";
const WRITELANE: &str = "seed 002 §3.8.5 __builtin_mxc_writelane";
const READ_XMSK: &str = "seed 002 §3.8.2 __builtin_mxc_read_xmsk";

const LANE_NUMBER: ParamKind = ParamKind::Int {
    min: i32::MIN as i64,
    max: i32::MAX as i64,
};

/// The MetaX lane builtins.
pub const OPS: &[OpSpec] = &[
    OpSpec {
        dialect: Dialect::Maca,
        name: "__builtin_mxc_readfirstlane",
        aliases: &["readfirstlane"],
        proto: Proto::returns("int"),
        args: &[Arg::operand("data", "int")],
        rule: "Every active lane gets data of the first (lowest) active lane; with no active lane the \
               builtin returns lane 0's data (seed: 0xffffffff00000000 → lane 32). Lanes outside the \
               call get nothing: the seed's example then reads its uninitialized `tmp` there, so \
               those lanes are undefined.",
        source: READFIRSTLANE,
        settings: &[],
        types: TYPES_INT,
        type_note: TYPE_NOTE_INT,
        kind: OpKind::Lanes,
        run: run_readfirstlane,
    },
    OpSpec {
        dialect: Dialect::Maca,
        name: "__builtin_mxc_readlane",
        aliases: &["readlane"],
        proto: Proto::returns("int"),
        args: &[Arg::operand("data", "int"), Arg::param("thread", "int", Role::SourceLane, ParamSpec {
            name: "thread",
            kind: LANE_NUMBER,
            default: ParamDefault::Int(0),
            doc: "lane to read, 0..63 (low 6 bits used)",
        }, Thread::Scalar(MACA_SCALAR))],
        rule: "Every active lane gets data of lane `thread`. The seed names no rule for a thread \
               outside 0..63 or an inactive one: as v_readlane_b32, thread & 63 is read, active or \
               not (a note says so).",
        source: READLANE,
        settings: &[],
        types: TYPES_INT,
        type_note: TYPE_NOTE_INT,
        kind: OpKind::Lanes,
        run: run_readlane,
    },
    OpSpec {
        dialect: Dialect::Maca,
        name: "__builtin_mxc_writelane",
        aliases: &["writelane"],
        proto: Proto::returns("int"),
        args: &[Arg::param("val", "int", Role::Data, ParamSpec {
                name: "val",
                kind: ParamKind::Int {
                    min: i32::MIN as i64,
                    max: i32::MAX as i64,
                },
                default: ParamDefault::Int(10),
                doc: "the value written (int)",
            }, Thread::Scalar(MACA_SCALAR)), Arg::param("lane", "int", Role::SourceLane, ParamSpec {
                name: "lane",
                kind: LANE_NUMBER,
                default: ParamDefault::Int(0),
                doc: "lane that receives val, 0..63 (low 6 bits used)",
            }, Thread::Scalar(MACA_SCALAR)), Arg::operand("old_data", "int")],
        rule: "The operand row is old_data. Lane `lane` gets val; every other active lane gets its \
               old_data. The seed names no rule for a lane outside 0..63: as v_writelane_b32, \
               lane & 63 is written.",
        source: WRITELANE,
        settings: &[],
        types: TYPES_INT,
        type_note: TYPE_NOTE_INT,
        kind: OpKind::Lanes,
        run: run_writelane,
    },
    OpSpec {
        dialect: Dialect::Maca,
        name: "__builtin_mxc_read_xmsk",
        aliases: &["read_xmsk"],
        proto: Proto::returns("int64_t"),
        args: &[],
        rule: "Every active lane gets the warp's active mask (bit i = lane i) as int64_t. The operand \
               row is not read.",
        source: READ_XMSK,
        settings: &[],
        types: &[ValueType::I64],
        type_note: "seed 002 declares __builtin_mxc_read_xmsk to return int64_t",
        kind: OpKind::Lanes,
        run: run_read_xmsk,
    },
];

/// `n & 63`, with a note citing `rule` when `n` is outside the warp.
fn lane_number(
    input: &OpInput,
    name: &str,
    rule: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<usize, InputError> {
    let n = input.params.int(name)?;
    let lane = (n as u32 as usize) & (input.lanes.max(1) - 1);
    if n < 0 || n as usize >= input.lanes {
        diagnostics.push(Diagnostic::info(
            format!(
                "{name} = {n} is outside 0..{}: the seed names no rule; the low bits give lane {lane}, as the AMD lane instructions do",
                input.lanes.saturating_sub(1)
            ),
            rule,
        ));
    }
    Ok(lane)
}

/// Active lanes get `value` read from lane `src`; `inactive` builds the other lanes' results.
fn to_active(
    input: &OpInput,
    src: usize,
    inactive: impl Fn() -> LaneResult,
) -> Result<Vec<LaneResult>, InputError> {
    let v = *input
        .values
        .get(src)
        .ok_or_else(|| InputError::new("values", format!("lane {src} has no value")))?;
    Ok((0..input.lanes)
        .map(|i| {
            if input.active.contains(i) {
                LaneResult::lane(v, src)
            } else {
                inactive()
            }
        })
        .collect())
}

fn run_readfirstlane(input: &OpInput) -> Result<OpOutput, InputError> {
    let mut diagnostics = Vec::new();
    let src = match input.active.truncate(input.lanes).first() {
        Some(lane) => lane,
        None => {
            diagnostics.push(Diagnostic::info(
                "no active lane: the builtin returns lane 0's data, but no lane receives it",
                READFIRSTLANE,
            ));
            0
        }
    };
    let results = to_active(input, src, || {
        LaneResult::undefined(
            "lane did not execute the call: its result variable is never assigned (the seed's \
             example then reads `tmp` uninitialized here)",
            None,
        )
    })?;
    Ok(OpOutput {
        results,
        diagnostics,
    })
}

fn run_readlane(input: &OpInput) -> Result<OpOutput, InputError> {
    let mut diagnostics = Vec::new();
    let src = lane_number(input, "thread", READLANE, &mut diagnostics)?;
    if !input.active.contains(src) {
        diagnostics.push(Diagnostic::info(
            format!("lane {src} is not active: its register is read anyway, as v_readlane_b32 does (the seed is silent)"),
            READLANE,
        ));
    }
    let results = to_active(input, src, LaneResult::inactive)?;
    Ok(OpOutput {
        results,
        diagnostics,
    })
}

fn run_writelane(input: &OpInput) -> Result<OpOutput, InputError> {
    let mut diagnostics = Vec::new();
    let target = lane_number(input, "lane", WRITELANE, &mut diagnostics)?;
    let val = Value::from_i64(input.ty, input.params.int("val")?);
    if !input.active.contains(target) {
        diagnostics.push(Diagnostic::info(
            format!("lane {target} is not active: no calling lane receives val"),
            WRITELANE,
        ));
    }
    let results = input
        .values
        .iter()
        .enumerate()
        .map(|(i, old)| {
            if !input.active.contains(i) {
                LaneResult::inactive()
            } else if i == target {
                LaneResult {
                    value: Some(val),
                    source: Source::Computed,
                    from: None,
                    why: Some(format!(
                        "writelane writes val into lane {target} ({WRITELANE})"
                    )),
                }
            } else {
                LaneResult::old(*old, "not the selected lane: returns old_data")
            }
        })
        .collect();
    Ok(OpOutput {
        results,
        diagnostics,
    })
}

fn run_read_xmsk(input: &OpInput) -> Result<OpOutput, InputError> {
    let mask = input.active.truncate(input.lanes).0 as u64;
    let value = Value::from_bits(ValueType::I64, mask);
    let results = (0..input.lanes)
        .map(|i| {
            if input.active.contains(i) {
                LaneResult {
                    why: Some(format!(
                        "the active mask {}",
                        input.active.to_hex(input.lanes)
                    )),
                    ..LaneResult::computed(value)
                }
            } else {
                LaneResult::inactive()
            }
        })
        .collect();
    Ok(OpOutput {
        results,
        diagnostics: Vec::new(),
    })
}
