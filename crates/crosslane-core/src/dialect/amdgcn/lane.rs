//! Lane reads and writes between VGPRs and SGPRs: `v_readlane_b32`, `v_readfirstlane_b32`,
//! `v_writelane_b32`.
//!
//! Source: AMD ISA (VOP2/VOP3 V_READLANE_B32, V_WRITELANE_B32, VOP1 V_READFIRSTLANE_B32) as
//! summarised in semantics.md "AMD ds_permute_b32 / ds_bpermute_b32":
//! * v_readlane: `V[sel & (W-1)]`, EXEC ignored;
//! * v_writelane: lane `sel & (W-1)` of the destination gets the value, the other lanes keep the
//!   destination, EXEC ignored;
//! * v_readfirstlane: lane `ctz(EXEC)`, lane 0 when EXEC = 0.
//!
//! The read results are SGPRs: one value for the whole wave, so every lane shows it (EXEC does
//! not mask an SGPR write). The operand row is the VGPR's content in every lane, inactive ones
//! included.

use crate::args::{Arg, Role, Thread, SGPR};
use crate::error::InputError;
use crate::op::{Dialect, OpInput, OpKind, OpOutput, OpSpec, Proto};
use crate::params::{ParamDefault, ParamKind, ParamSpec};
use crate::result::{Diagnostic, LaneResult, Source};
use crate::value::Value;

use super::{TYPES_B32, TYPE_NOTE_B32};

const ISA: &str = "AMD ISA V_READLANE_B32 / V_READFIRSTLANE_B32 / V_WRITELANE_B32 (semantics.md)";

const LANE_SEL: ParamSpec = ParamSpec {
    name: "lane_sel",
    kind: ParamKind::Int {
        min: i32::MIN as i64,
        max: u32::MAX as i64,
    },
    default: ParamDefault::Int(0),
    doc: "lane select (SGPR or constant); only the low log2(W) bits are used",
};

/// The AMD lane read/write instructions.
pub const OPS: &[OpSpec] = &[
    OpSpec {
        dialect: Dialect::Amdgcn,
        name: "v_readlane_b32",
        aliases: &["readlane", "__builtin_amdgcn_readlane"],
        proto: Proto::returns("int")
            .call("__builtin_amdgcn_readlane")
            .note("v_readlane_b32 sdst, vsrc0, ssrc1"),
        args: &[
            Arg::operand("src", "int"),
            Arg::param(
                "lane_sel",
                "int",
                Role::SourceLane,
                LANE_SEL,
                Thread::Scalar(SGPR),
            ),
        ],
        rule:
            "sdst = src[lane_sel & (W − 1)], read whether or not that lane is in EXEC. The result \
               is an SGPR: the same value for every lane.",
        source: ISA,
        settings: &[super::arch::ARCH],
        types: TYPES_B32,
        type_note: TYPE_NOTE_B32,
        kind: OpKind::Lanes,
        run: run_readlane,
    },
    OpSpec {
        dialect: Dialect::Amdgcn,
        name: "v_readfirstlane_b32",
        aliases: &["readfirstlane", "__builtin_amdgcn_readfirstlane"],
        proto: Proto::returns("int")
            .call("__builtin_amdgcn_readfirstlane")
            .note("v_readfirstlane_b32 sdst, vsrc0"),
        args: &[Arg::operand("src", "int")],
        rule:
            "sdst = src of the lowest lane in EXEC (ctz(EXEC)); lane 0 when EXEC = 0. The result \
               is an SGPR: the same value for every lane.",
        source: ISA,
        settings: &[super::arch::ARCH],
        types: TYPES_B32,
        type_note: TYPE_NOTE_B32,
        kind: OpKind::Lanes,
        run: run_readfirstlane,
    },
    OpSpec {
        dialect: Dialect::Amdgcn,
        name: "v_writelane_b32",
        aliases: &["writelane", "__builtin_amdgcn_writelane"],
        proto: Proto::returns("int")
            .call("__builtin_amdgcn_writelane")
            .note("v_writelane_b32 vdst, ssrc0, ssrc1"),
        args: &[
            Arg::param(
                "value",
                "int",
                Role::Data,
                ParamSpec {
                    name: "value",
                    kind: ParamKind::Text,
                    default: ParamDefault::Text("0"),
                    doc: "the SGPR value written, in the op's type",
                },
                Thread::Scalar(SGPR),
            ),
            Arg::param(
                "lane_sel",
                "int",
                Role::SourceLane,
                LANE_SEL,
                Thread::Scalar(SGPR),
            ),
            Arg::operand("old", "int"),
        ],
        rule: "The operand row is vdst's old content. Lane lane_sel & (W − 1) receives value, \
               whether or not it is in EXEC; every other lane keeps its old content.",
        source: ISA,
        settings: &[super::arch::ARCH],
        types: TYPES_B32,
        type_note: TYPE_NOTE_B32,
        kind: OpKind::Lanes,
        run: run_writelane,
    },
];

/// `sel & (W − 1)`, with a note when high bits were dropped.
fn select(input: &OpInput, diagnostics: &mut Vec<Diagnostic>) -> Result<usize, InputError> {
    let sel = input.params.int("lane_sel")?;
    let lane = (sel as u32 as usize) & (input.lanes.max(1) - 1);
    if sel < 0 || sel as usize >= input.lanes {
        diagnostics.push(Diagnostic::info(
            format!(
                "lane_sel {sel}: only the low bits are used, so lane {lane} of the {}-lane wave",
                input.lanes
            ),
            ISA,
        ));
    }
    Ok(lane)
}

/// Every lane shows the SGPR read from lane `src`.
fn broadcast(input: &OpInput, src: usize, why: &str) -> Result<Vec<LaneResult>, InputError> {
    let v = *input
        .values
        .get(src)
        .ok_or_else(|| InputError::new("lane_sel", format!("lane {src} has no value")))?;
    Ok((0..input.lanes)
        .map(|_| LaneResult {
            why: Some(why.to_string()),
            ..LaneResult::lane(v, src)
        })
        .collect())
}

fn inactive_note(input: &OpInput, src: usize, diagnostics: &mut Vec<Diagnostic>) {
    if !input.active.contains(src) {
        diagnostics.push(Diagnostic::info(
            format!("lane {src} is not in EXEC: v_readlane_b32 reads its VGPR anyway"),
            ISA,
        ));
    }
}

fn run_readlane(input: &OpInput) -> Result<OpOutput, InputError> {
    super::arch::target(input)?;
    let mut diagnostics = Vec::new();
    let src = select(input, &mut diagnostics)?;
    inactive_note(input, src, &mut diagnostics);
    let results = broadcast(
        input,
        src,
        "SGPR result: the same in every lane, written regardless of EXEC",
    )?;
    Ok(OpOutput {
        results,
        diagnostics,
    })
}

fn run_readfirstlane(input: &OpInput) -> Result<OpOutput, InputError> {
    super::arch::target(input)?;
    let mut diagnostics = Vec::new();
    let src = match input.active.truncate(input.lanes).first() {
        Some(lane) => lane,
        None => {
            diagnostics.push(Diagnostic::info(
                "EXEC = 0: v_readfirstlane_b32 reads lane 0",
                ISA,
            ));
            0
        }
    };
    let results = broadcast(
        input,
        src,
        "SGPR result: the first lane in EXEC, the same in every lane",
    )?;
    Ok(OpOutput {
        results,
        diagnostics,
    })
}

fn run_writelane(input: &OpInput) -> Result<OpOutput, InputError> {
    super::arch::target(input)?;
    let mut diagnostics = Vec::new();
    let target = select(input, &mut diagnostics)?;
    let value = Value::parse(input.ty, input.params.text("value")?, "value")?;
    let results = input
        .values
        .iter()
        .enumerate()
        .map(|(i, old)| {
            if i == target {
                LaneResult {
                    value: Some(value),
                    source: Source::Computed,
                    from: None,
                    why: Some(format!(
                        "v_writelane_b32 writes value into lane {target}, EXEC ignored"
                    )),
                }
            } else {
                LaneResult::old(*old, "not the selected lane: keeps vdst's old content")
            }
        })
        .collect();
    Ok(OpOutput {
        results,
        diagnostics,
    })
}
