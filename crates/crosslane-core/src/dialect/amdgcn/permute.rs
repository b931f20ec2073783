//! `ds_permute_b32` (push) and `ds_bpermute_b32` (pull): any-lane exchange through the LDS
//! crossbar, addressed in bytes (lane = address / 4).
//!
//! Source: AMD ISA (GCN3/Vega/RDNA "DS_PERMUTE_B32", "DS_BPERMUTE_B32") as summarised in
//! semantics.md "AMD ds_permute_b32 / ds_bpermute_b32":
//! * bpermute: `s = ((addr_i + offset) >> 2) % W`; active lane i gets `EXEC[s] ? data[s] : 0`;
//! * permute: `tmp[*] = 0`; each active lane i writes `tmp[((addr_i + offset) >> 2) % W] = data_i`
//!   in lane order (the pseudo-code: the highest writer wins); active lanes receive `tmp[i]`.
//!
//! Per target ([`super::arch`]): RDNA3/3.5 wave64 takes the index MOD 32 within each half, and
//! where a guide's prose calls the collision winner not deterministic (RDNA3, RDNA3.5, RDNA4,
//! CDNA4) a lane written by several lanes is undefined.
//!
//! The address is a 32-bit VGPR and the sum wraps at 32 bits; W is the wave size (the ISA's `% 64`
//! on wave64; wave32 keeps address bits \[6:2\]). The same engine serves MetaX
//! `__builtin_mxc_bsm_bpermute` / `bsm_permute` (seed 002 §3.4.3–3.4.4) with offset 0.

use crate::args::{Arg, Role, PER_LANE};
use crate::error::InputError;
use crate::op::{Dialect, OpInput, OpKind, OpOutput, OpSpec, Proto};
use crate::params::{ParamDefault, ParamKind, ParamSpec};
use crate::result::{Diagnostic, LaneResult};

pub use crate::permute::lane_of;
use crate::permute::{bpermute_routed, per_lane_addrs, permute_routed, Routing};

use super::arch::{self, Collision, Target};
use super::{TYPES_B32, TYPE_NOTE_B32};

const ISA: &str = "AMD ISA DS_PERMUTE_B32 / DS_BPERMUTE_B32 (semantics.md)";

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
        // HIP's wrappers (ROCm amd_warp_functions.h: `__hip_ds_bpermute(index, src)` passes both to
        // the builtin unchanged; the `f` form bit-casts a float through it).
        aliases: &[
            "ds_bpermute",
            "__builtin_amdgcn_ds_bpermute",
            "__hip_ds_bpermute",
            "__hip_ds_bpermutef",
        ],
        proto: Proto::returns("int")
            .call("__builtin_amdgcn_ds_bpermute")
            .note("ds_bpermute_b32 vdst, vaddr, vdata offset:offset16"),
        args: &[
            Arg::per_thread("addr", "int", Role::Address, ADDR, PER_LANE),
            Arg::operand("data", "int"),
        ],
        rule: "Pull: active lane i reads lane s = ((addr_i + offset) >> 2) mod W and gets \
               EXEC[s] ? data[s] : 0 (an inactive source gives 0). Inactive lanes are not written. \
               On RDNA3/3.5 (gfx1100, gfx1150) wave64 the index is MOD 32 and each 32-lane half \
               reads its own half (our reading of the guide, see the diagnostic).",
        source: ISA,
        settings: &[OFFSET, super::arch::ARCH],
        types: TYPES_B32,
        type_note: TYPE_NOTE_B32,
        kind: OpKind::Lanes,
        run: run_bpermute,
    },
    OpSpec {
        dialect: Dialect::Amdgcn,
        name: "ds_permute_b32",
        aliases: &[
            "ds_permute",
            "__builtin_amdgcn_ds_permute",
            "__hip_ds_permute",
            "__hip_ds_permutef",
        ],
        proto: Proto::returns("int")
            .call("__builtin_amdgcn_ds_permute")
            .note("ds_permute_b32 vdst, vaddr, vdata offset:offset16"),
        args: &[
            Arg::per_thread("addr", "int", Role::Address, ADDR, PER_LANE),
            Arg::operand("data", "int"),
        ],
        rule:
            "Push: tmp starts as 0 in every lane; each active lane i, in lane order, writes data_i \
               to tmp[((addr_i + offset) >> 2) mod W]; each active lane then receives tmp[i] (0 \
               when no active lane wrote it). Inactive lanes neither write nor receive. When \
               several lanes write one lane: on gfx900, gfx90a, gfx942 and gfx1030 the guide's \
               pseudo-code order lets the highest lane win; on gfx950 (LDS arbitration) and \
               gfx1100, gfx1150, gfx1200 (\"not deterministic which source lane writes\") the \
               lane is undefined, the pseudo-code's winner only a hint. RDNA3/3.5 wave64: index \
               MOD 32 within each half.",
        source: ISA,
        settings: &[OFFSET, super::arch::ARCH],
        types: TYPES_B32,
        type_note: TYPE_NOTE_B32,
        kind: OpKind::Lanes,
        run: run_permute,
    },
];

fn offset_of(input: &OpInput) -> Result<i64, InputError> {
    let offset = input.params.int("offset")?;
    if !(0..=0xffff).contains(&offset) {
        return Err(InputError::out_of_range("offset", offset, 0, 0xffff));
    }
    Ok(offset)
}

/// The target's routing and the guide it cites.
fn routing(t: Target) -> Routing {
    Routing {
        mod32: t.permute_mod32(),
        collision: match t.collision() {
            Collision::PseudoCode => None,
            Collision::NotDeterministic(why) => Some(why),
        },
    }
}

/// The rule text for a target: the guide's DS_PERMUTE_B32 / DS_BPERMUTE_B32 section.
fn guide_rule(t: Target) -> String {
    format!("{}, DS_PERMUTE_B32 / DS_BPERMUTE_B32 ({})", t.guide, t.name)
}

fn mod32_note(t: Target, input: &OpInput, diagnostics: &mut Vec<Diagnostic>) {
    if t.permute_mod32() && input.lanes > 32 {
        diagnostics.push(Diagnostic::info(
            format!(
                "{} wave64: the lane index is taken MOD 32 (\"destination lane is MOD 32 \
                 regardless of wave size\"); shown: each 32-lane half permutes within itself \
                 (lanes 32..63 reach lanes 32..63), since RDNA3 runs wave64 as two wave32 passes \
                 and a full-wave gfx11 bpermute needs v_permlane64 plus two ds_bpermutes (LLPC)",
                t.name
            ),
            guide_rule(t),
        ));
    }
}

fn collisions(t: Target, results: &[LaneResult], diagnostics: &mut Vec<Diagnostic>) {
    let rule = guide_rule(t);
    match t.collision() {
        Collision::PseudoCode => {
            let n = results
                .iter()
                .filter(|r| r.why.as_deref().is_some_and(|w| w.contains("wins")))
                .count();
            if n > 0 {
                diagnostics.push(Diagnostic::info(
                    format!(
                        "{n} lane(s) were written by several lanes: the highest writer wins (the \
                         pseudo-code writes in lane order)"
                    ),
                    rule,
                ));
            }
        }
        Collision::NotDeterministic(why) => {
            let n = results
                .iter()
                .filter(|r| {
                    r.why
                        .as_deref()
                        .is_some_and(|w| w.contains("not deterministic"))
                })
                .count();
            if n > 0 {
                diagnostics.push(Diagnostic::warning(
                    format!(
                        "{n} lane(s) were written by several lanes and are undefined on {}: {why}; \
                         the pseudo-code and the prose disagree, so the pseudo-code's winner is \
                         shown only as the from hint",
                        t.name
                    ),
                    rule,
                ));
            }
        }
    }
}

fn run_bpermute(input: &OpInput) -> Result<OpOutput, InputError> {
    let t = arch::target(input)?;
    let addr = per_lane_addrs(input, "addr")?;
    let offset = offset_of(input)?;
    let mut diagnostics = Vec::new();
    mod32_note(t, input, &mut diagnostics);
    Ok(OpOutput {
        results: bpermute_routed(input, addr, offset, routing(t), &guide_rule(t)),
        diagnostics,
    })
}

fn run_permute(input: &OpInput) -> Result<OpOutput, InputError> {
    let t = arch::target(input)?;
    let addr = per_lane_addrs(input, "addr")?;
    let offset = offset_of(input)?;
    let mut diagnostics = Vec::new();
    mod32_note(t, input, &mut diagnostics);
    let results = permute_routed(input, addr, offset, routing(t), &guide_rule(t));
    collisions(t, &results, &mut diagnostics);
    Ok(OpOutput {
        results,
        diagnostics,
    })
}
