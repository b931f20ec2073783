//! MetaX 混洗函数 (shuffles): `__builtin_mxc_mov_shfl`, `__builtin_mxc_update_shfl`,
//! `__builtin_mxc_bsm_bpermute`, `__builtin_mxc_bsm_permute` on the 64-lane warp.
//!
//! Sources: seed 002 §3.4.1–3.4.4, and semantics.md "MetaX mov_shfl / update_shfl" for what the
//! seed leaves unsaid. `mov_shfl` / `update_shfl` are DPP row operations and run on the shared
//! [`crate::dpp`] machinery; their `mode` numbers are AMD's `dpp_ctrl` encoding for the subset
//! the seed lists, and "Row Broadcast" (`src.thread[(n&0x30) + mode[3:0]]`) is DPP `row_share`.
//!
//! Readings (inferences, stated in the ops' rules):
//! * `bc` has the opposite sense of AMD's `bound_ctrl`: bc = 0 writes 0, bc = 1 leaves the lane
//!   unchanged (`old_val` for update_shfl; for mov_shfl, which has no old operand, the
//!   destination is not written: undefined).
//! * Lanes of rows / banks disabled by `rmsk` / `bmsk` are not written (old_val / undefined), as
//!   in AMD `update_dpp`; an inactive source lane counts as an out-of-range source.
//! * `bsm_bpermute` / `bsm_permute` follow `ds_bpermute_b32` / `ds_permute_b32`: an inactive
//!   source reads 0; a lane nobody writes reads 0; of several writers the highest lane wins
//!   (the seed's loop runs n upwards).
//!
//! Seed defects: the pseudo-code loops `for n in (1..64)`; lanes are 0..63 (lane 0 is shuffled
//! too, as the mirror example needs). The bsm examples' index list `{256, 254, … 4, 0}` does not
//! reverse under the stated rule `dest[n] = data[floor(index[n]/4) % 64]`; `index[n] = (63 − n)·4`
//! does.

use crate::args::{Arg, Role, PER_LANE};
use crate::dpp::{apply, undefined_warning, DppCall, DppCtrl, OnInvalid};
use crate::error::InputError;
use crate::op::{Dialect, OpInput, OpKind, OpOutput, OpSpec, Proto};
use crate::params::{ParamDefault, ParamKind, ParamSpec};
use crate::permute::{bpermute, per_lane_addrs, permute};
use crate::result::Diagnostic;

use super::{TYPES_INT, TYPE_NOTE_INT};

const SHFL_RULE: &str = "seed 002 §3.4.1 __builtin_mxc_mov_shfl";
const UPDATE_RULE: &str = "seed 002 §3.4.2 __builtin_mxc_update_shfl";
const BPERMUTE_RULE: &str = "seed 002 §3.4.3 __builtin_mxc_bsm_bpermute";
const PERMUTE_RULE: &str = "seed 002 §3.4.4 __builtin_mxc_bsm_permute";

/// The mode ranges the seed lists (§3.4.1 参数 mode).
pub const MODE_RANGES: &str = "0x000-0x0FF quad permutation, 0x101-0x10F row shift left, \
     0x111-0x11F row shift right, 0x121-0x12F row rotate right, 0x140 row mirror, \
     0x150-0x15F row broadcast";

const MODE: ParamSpec = ParamSpec {
    name: "mode",
    kind: ParamKind::Int {
        min: i32::MIN as i64,
        max: i32::MAX as i64,
    },
    default: ParamDefault::Int(0x140),
    doc: "shuffle mode: 0x000-0x0FF quad perm, 0x101-0x10F row shl, 0x111-0x11F row shr, \
          0x121-0x12F row ror, 0x140 row mirror, 0x150-0x15F row bcast",
};
const RMSK: ParamSpec = ParamSpec {
    name: "rmsk",
    kind: ParamKind::Int { min: 0, max: 15 },
    default: ParamDefault::Int(15),
    doc: "row mask, 0..=15: bit r enables row r (lanes 16r..16r+15)",
};
const BMSK: ParamSpec = ParamSpec {
    name: "bmsk",
    kind: ParamKind::Int { min: 0, max: 15 },
    default: ParamDefault::Int(15),
    doc: "bank mask, 0..=15: bit b enables lanes 4b..4b+3 of every row",
};
const BC: ParamSpec = ParamSpec {
    name: "bc",
    kind: ParamKind::Flag,
    default: ParamDefault::Flag(false),
    doc: "out-of-range source: 0 = write 0, 1 = leave unchanged (old_val)",
};
const INDEX: ParamSpec = ParamSpec {
    name: "index",
    kind: ParamKind::PerLaneInt {
        min: i32::MIN as i64,
        max: u32::MAX as i64,
    },
    default: ParamDefault::Int(0),
    doc: "per-lane byte index: lane = floor(index / 4) mod 64",
};

/// The MetaX shuffle builtins.
pub const OPS: &[OpSpec] = &[
    OpSpec {
        dialect: Dialect::Maca,
        name: "__builtin_mxc_mov_shfl",
        aliases: &["mov_shfl"],
        proto: Proto::returns("int"),
        args: &[Arg::operand("val", "int"), Arg::immediate("mode", "int", Role::Control, MODE), Arg::immediate("rmsk", "int", Role::Control, RMSK), Arg::immediate("bmsk", "int", Role::Control, BMSK), Arg::immediate("bc", "int", Role::Control, BC)],
        rule: "Within each row of 16 lanes, lane n reads: quad permutation (0x000-0x0FF) lane \
               (n & 0x3c) + mode[2(n%4)+1 : 2(n%4)]; row shift left (0x101-0x10F) n + mode[3:0] while \
               (n & 0xf) < 16 − mode[3:0]; row shift right (0x111-0x11F) n − mode[3:0] while \
               (n & 0xf) ≥ mode[3:0]; row rotate right (0x121-0x12F) within the row; row mirror \
               (0x140) n ^ 0xf; row broadcast (0x150-0x15F) lane (n & 0x30) + mode[3:0]. A shifted-out \
               or inactive source writes 0 when bc = 0 and leaves the lane unchanged when bc = 1 — \
               mov_shfl has no old operand, so that lane is undefined (destination not written), as \
               are lanes of rows/banks disabled by rmsk/bmsk (the AMD update_dpp rule; the seed is \
               silent). The seed's `for n in (1..64)` means lanes 0..63. Any other mode is an input \
               error.",
        source: "seed 002 §3.4.1; semantics.md \"MetaX mov_shfl / update_shfl\"",
        settings: &[],
        types: TYPES_INT,
        type_note: TYPE_NOTE_INT,
        kind: OpKind::Lanes,
        run: run_mov_shfl,
    },
    OpSpec {
        dialect: Dialect::Maca,
        name: "__builtin_mxc_update_shfl",
        aliases: &["__builtin_mxc_update_shlf", "update_shfl", "update_shlf"],
        proto: Proto::returns("int").call("__builtin_mxc_update_shlf"),
        args: &[Arg::per_thread("old_val", "int", Role::Old, ParamSpec {
                name: "old_val",
                kind: ParamKind::PerLaneValue,
                default: ParamDefault::Int(0),
                doc: "per-lane value returned where the lane is not written",
            }, PER_LANE), Arg::operand("src", "int"), Arg::immediate("mode", "int", Role::Control, MODE), Arg::immediate("rmsk", "int", Role::Control, RMSK), Arg::immediate("bmsk", "int", Role::Control, BMSK), Arg::immediate("bc", "int", Role::Control, BC)],
        rule: "As __builtin_mxc_mov_shfl, except that a lane that is not written returns old_val: a \
               shifted-out or inactive source with bc = 1, and every lane of a row or bank disabled \
               by rmsk/bmsk (the AMD update_dpp rule; the seed is silent on masked lanes). bc = 0 \
               writes 0 for an out-of-range source. The seed's prototype spells the name \
               __builtin_mxc_update_shlf (accepted as an alias).",
        source: "seed 002 §3.4.2 (and §3.4.1 for the modes); semantics.md \"MetaX mov_shfl / update_shfl\"",
        settings: &[],
        types: TYPES_INT,
        type_note: TYPE_NOTE_INT,
        kind: OpKind::Lanes,
        run: run_update_shfl,
    },
    OpSpec {
        dialect: Dialect::Maca,
        name: "__builtin_mxc_bsm_bpermute",
        aliases: &["bsm_bpermute"],
        proto: Proto::returns("int"),
        args: &[Arg::per_thread("index", "int", Role::Address, INDEX, PER_LANE), Arg::operand("data", "int")],
        rule: "Pull: dest[n] = data[floor(index[n] / 4) % 64] for lanes 0..63. An inactive source \
               lane reads 0 (ds_bpermute_b32 rule; the seed is silent). The seed's reverse example \
               lists index {256, 254, … 4, 0}, which does not reverse under this rule; \
               index[n] = (63 − n)·4 does.",
        source: "seed 002 §3.4.3; semantics.md \"AMD ds_permute_b32 / ds_bpermute_b32\"",
        settings: &[],
        types: TYPES_INT,
        type_note: TYPE_NOTE_INT,
        kind: OpKind::Lanes,
        run: run_bsm_bpermute,
    },
    OpSpec {
        dialect: Dialect::Maca,
        name: "__builtin_mxc_bsm_permute",
        aliases: &["bsm_permute"],
        proto: Proto::returns("int"),
        args: &[Arg::per_thread("index", "int", Role::Address, INDEX, PER_LANE), Arg::operand("data", "int")],
        rule: "Push: for n in 0..63, dest[floor(index[n] / 4) % 64] = data[n]; the loop runs upwards, \
               so of several writers the highest lane wins. Only active lanes write; a lane nobody \
               writes reads 0 (ds_permute_b32 rule; the seed is silent).",
        source: "seed 002 §3.4.4; semantics.md \"AMD ds_permute_b32 / ds_bpermute_b32\"",
        settings: &[],
        types: TYPES_INT,
        type_note: TYPE_NOTE_INT,
        kind: OpKind::Lanes,
        run: run_bsm_permute,
    },
];

/// Decodes a MetaX shuffle `mode` (seed 002 §3.4.1).
///
/// # Errors
/// [`InputError`] on field `mode` listing [`MODE_RANGES`] for any number outside them.
pub fn decode_mode(mode: i64) -> Result<DppCtrl, InputError> {
    let listed = matches!(
        mode,
        0x000..=0x0ff | 0x101..=0x10f | 0x111..=0x11f | 0x121..=0x12f | 0x140 | 0x150..=0x15f
    );
    let ctrl = if listed {
        u32::try_from(mode).ok().and_then(DppCtrl::from_encoding)
    } else {
        None
    };
    ctrl.ok_or_else(|| {
        InputError::new(
            "mode",
            format!("0x{mode:x} is not a documented shuffle mode; allowed: {MODE_RANGES}"),
        )
    })
}

fn masks(input: &OpInput) -> Result<(u32, u32), InputError> {
    let get = |name: &str| -> Result<u32, InputError> {
        let v = input.params.int(name)?;
        u32::try_from(v)
            .ok()
            .filter(|v| *v <= 15)
            .ok_or_else(|| InputError::out_of_range(name, v, 0, 15))
    };
    Ok((get("rmsk")?, get("bmsk")?))
}

fn run_shfl(input: &OpInput, update: bool) -> Result<OpOutput, InputError> {
    let ctrl = decode_mode(input.params.int("mode")?)?;
    let (row_mask, bank_mask) = masks(input)?;
    let bc = input.params.flag("bc")?;
    let old = if update {
        Some(input.params.values("old_val")?)
    } else {
        None
    };
    let call = DppCall {
        ctrl,
        row_mask,
        bank_mask,
        // MetaX bc has the opposite sense of AMD bound_ctrl (semantics.md "AMD DPP").
        on_invalid: if bc { OnInvalid::Keep } else { OnInvalid::Zero },
        old,
        old_name: "old_val",
        zero_setting: "bc = 0",
        keep_setting: "bc = 1 leaves the lane unchanged",
        rule: if update { UPDATE_RULE } else { SHFL_RULE },
    };
    let results = apply(input, &call);
    let mut diagnostics = vec![Diagnostic::info(
        format!("mode 0x{:03x} is DPP {ctrl}", input.params.int("mode")?),
        "seed 002 §3.4.1 mode table; LLVM SIDefines.h DppCtrl encoding",
    )];
    diagnostics.extend(undefined_warning(
        &results,
        "semantics.md \"MetaX mov_shfl / update_shfl\"",
    ));
    Ok(OpOutput {
        results,
        diagnostics,
    })
}

fn run_mov_shfl(input: &OpInput) -> Result<OpOutput, InputError> {
    run_shfl(input, false)
}

fn run_update_shfl(input: &OpInput) -> Result<OpOutput, InputError> {
    run_shfl(input, true)
}

fn run_bsm_bpermute(input: &OpInput) -> Result<OpOutput, InputError> {
    let index = per_lane_addrs(input, "index")?;
    Ok(OpOutput {
        results: bpermute(input, index, 0, BPERMUTE_RULE),
        diagnostics: Vec::new(),
    })
}

fn run_bsm_permute(input: &OpInput) -> Result<OpOutput, InputError> {
    let index = per_lane_addrs(input, "index")?;
    Ok(OpOutput {
        results: permute(input, index, 0, PERMUTE_RULE),
        diagnostics: Vec::new(),
    })
}
