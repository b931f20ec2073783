//! `ds_permute_b32` (push) and `ds_bpermute_b32` (pull): any-lane exchange through the LDS
//! crossbar, addressed in bytes (lane = address / 4).
//!
//! Source: AMD ISA (GCN3/Vega/RDNA "DS_PERMUTE_B32", "DS_BPERMUTE_B32") as summarised in
//! SEMANTICS.md "AMD ds_permute_b32 / ds_bpermute_b32":
//! * bpermute: `s = ((addr_i + offset) >> 2) % W`; active lane i gets `EXEC[s] ? data[s] : 0`;
//! * permute: `tmp[*] = 0`; each active lane i writes `tmp[((addr_i + offset) >> 2) % W] = data_i`
//!   in lane order, so the highest writer wins; active lanes receive `tmp[i]`.
//!
//! The address is a 32-bit VGPR and the sum wraps at 32 bits; W is the wave size (the ISA's `% 64`
//! on wave64; wave32 keeps address bits [6:2]). The same engine serves MetaX
//! `__builtin_mxc_bsm_bpermute` / `bsm_permute` (seed 002 §3.4.3–3.4.4) with offset 0.

use crate::args::{Arg, Role, PER_LANE};
use crate::error::InputError;
use crate::gather::{gather, Pick};
use crate::op::{Dialect, OpInput, OpKind, OpOutput, OpSpec};
use crate::params::{ParamDefault, ParamKind, ParamSpec};
use crate::result::{Diagnostic, LaneResult};
use crate::value::Value;

use super::{TYPES_B32, TYPE_NOTE_B32};

const ISA: &str = "AMD ISA DS_PERMUTE_B32 / DS_BPERMUTE_B32 (SEMANTICS.md)";

const ADDR: ParamSpec = ParamSpec {
    name: "addr",
    kind: ParamKind::PerLaneInt {
        min: i32::MIN as i64,
        max: u32::MAX as i64,
    },
    default: ParamDefault::Int(0),
    doc: "per-lane byte address (a 32-bit VGPR): lane = ((addr + offset) >> 2) mod W",
};

const OFFSET: ParamSpec = ParamSpec {
    name: "offset",
    kind: ParamKind::Int {
        min: 0,
        max: 0xffff,
    },
    default: ParamDefault::Int(0),
    doc: "instruction byte offset added to every addr, 0..=0xffff",
};

/// The AMD ds_permute family.
pub const OPS: &[OpSpec] = &[
    OpSpec {
        dialect: Dialect::Amdgcn,
        name: "ds_bpermute_b32",
        aliases: &["ds_bpermute", "__builtin_amdgcn_ds_bpermute"],
        signature: "ds_bpermute_b32 vdst, vaddr, vdata offset:offset16   (int __builtin_amdgcn_ds_bpermute(int addr, int data))",
        args: &[Arg::per_thread("addr", "int", Role::Address, "addr", PER_LANE), Arg::operand("data", "int")],
        rule: "Pull: active lane i reads lane s = ((addr_i + offset) >> 2) mod W and gets \
               EXEC[s] ? data[s] : 0 (an inactive source gives 0). Inactive lanes are not written.",
        source: ISA,
        params: &[ADDR, OFFSET],
        types: TYPES_B32,
        type_note: TYPE_NOTE_B32,
        kind: OpKind::Lanes,
        run: run_bpermute,
    },
    OpSpec {
        dialect: Dialect::Amdgcn,
        name: "ds_permute_b32",
        aliases: &["ds_permute", "__builtin_amdgcn_ds_permute"],
        signature: "ds_permute_b32 vdst, vaddr, vdata offset:offset16   (int __builtin_amdgcn_ds_permute(int addr, int data))",
        args: &[Arg::per_thread("addr", "int", Role::Address, "addr", PER_LANE), Arg::operand("data", "int")],
        rule: "Push: tmp starts as 0 in every lane; each active lane i, in lane order, writes data_i \
               to tmp[((addr_i + offset) >> 2) mod W], so when several lanes write one lane the \
               highest lane wins; each active lane then receives tmp[i] (0 when no active lane wrote \
               it). Inactive lanes neither write nor receive.",
        source: ISA,
        params: &[ADDR, OFFSET],
        types: TYPES_B32,
        type_note: TYPE_NOTE_B32,
        kind: OpKind::Lanes,
        run: run_permute,
    },
];

/// The lane a byte address names: `((addr + offset) mod 2^32) >> 2`, taken mod `lanes`.
pub fn lane_of(addr: i64, offset: i64, lanes: usize) -> usize {
    let byte = (addr as u32).wrapping_add(offset as u32);
    (byte >> 2) as usize % lanes.max(1)
}

/// The per-lane `addr` / `index` list of `input`, checked to hold one entry per lane.
///
/// # Errors
/// [`InputError`] on `name` when the list is missing or of the wrong length.
pub(crate) fn per_lane_addrs<'a>(input: &'a OpInput, name: &str) -> Result<&'a [i64], InputError> {
    let a = input.params.ints(name)?;
    if a.len() != input.lanes {
        return Err(InputError::new(
            name,
            format!(
                "needs exactly {} values (one per lane), got {}",
                input.lanes,
                a.len()
            ),
        ));
    }
    Ok(a)
}

/// Pull engine: lane i reads lane `lane_of(addr[i], offset)`; an inactive source gives 0.
/// `rule` names the document for the why texts.
pub(crate) fn bpermute(input: &OpInput, addr: &[i64], offset: i64, rule: &str) -> Vec<LaneResult> {
    gather(
        input,
        |i| match addr.get(i) {
            Some(a) => Pick::Lane(lane_of(*a, offset, input.lanes)),
            None => Pick::Undefined("no address for this lane".into(), None),
        },
        |_, j| {
            Pick::Zero(format!(
                "source lane {j} is inactive: EXEC[{j}] = 0 gives 0 ({rule})"
            ))
        },
    )
}

/// Push engine: every active lane writes its value to lane `lane_of(addr[i], offset)` in lane
/// order (the highest writer wins); lanes nobody wrote read 0. `rule` names the document.
pub(crate) fn permute(input: &OpInput, addr: &[i64], offset: i64, rule: &str) -> Vec<LaneResult> {
    let mut writers: Vec<Vec<usize>> = vec![Vec::new(); input.lanes];
    for i in input.active.iter().take_while(|i| *i < input.lanes) {
        if let Some(a) = addr.get(i) {
            if let Some(w) = writers.get_mut(lane_of(*a, offset, input.lanes)) {
                w.push(i);
            }
        }
    }
    let zero = Value::from_bits(input.ty, 0);
    writers
        .iter()
        .enumerate()
        .map(|(i, w)| {
            if !input.active.contains(i) {
                return LaneResult::inactive();
            }
            match (w.last(), w.last().and_then(|j| input.values.get(*j))) {
                (Some(j), Some(v)) => {
                    let mut r = LaneResult::lane(*v, *j);
                    if w.len() > 1 {
                        let all: Vec<String> = w.iter().map(usize::to_string).collect();
                        r.why = Some(format!(
                            "lanes {} all wrote lane {i}; the highest, lane {j}, wins ({rule})",
                            all.join(", ")
                        ));
                    }
                    r
                }
                _ => LaneResult::zero(
                    zero,
                    format!("no active lane wrote lane {i}: it keeps the initial 0 ({rule})"),
                ),
            }
        })
        .collect()
}

fn offset_of(input: &OpInput) -> Result<i64, InputError> {
    let offset = input.params.int("offset")?;
    if !(0..=0xffff).contains(&offset) {
        return Err(InputError::out_of_range("offset", offset, 0, 0xffff));
    }
    Ok(offset)
}

fn collisions(results: &[LaneResult]) -> Vec<Diagnostic> {
    let n = results
        .iter()
        .filter(|r| r.why.as_deref().is_some_and(|w| w.contains("wins")))
        .count();
    if n == 0 {
        return Vec::new();
    }
    vec![Diagnostic::info(
        format!("{n} lane(s) were written by several lanes: the highest writer wins"),
        ISA,
    )]
}

fn run_bpermute(input: &OpInput) -> Result<OpOutput, InputError> {
    let addr = per_lane_addrs(input, "addr")?;
    let offset = offset_of(input)?;
    Ok(OpOutput {
        results: bpermute(input, addr, offset, ISA),
        diagnostics: Vec::new(),
    })
}

fn run_permute(input: &OpInput) -> Result<OpOutput, InputError> {
    let addr = per_lane_addrs(input, "addr")?;
    let offset = offset_of(input)?;
    let results = permute(input, addr, offset, ISA);
    let diagnostics = collisions(&results);
    Ok(OpOutput {
        results,
        diagnostics,
    })
}
