//! AMD DPP moves: `mov_dpp` and `update_dpp` (LLVM `llvm.amdgcn.mov.dpp` /
//! `llvm.amdgcn.update.dpp`, i.e. `v_mov_b32_dpp`).
//!
//! Sources: LLVM AMDGPUModifierSyntax (the `dpp_ctrl`, `row_mask`, `bank_mask`, `bound_ctrl`
//! modifiers), the AMD ISA DPP description, and semantics.md "AMD DPP" (the control table and the
//! per-lane rule). The lane selection and masking live in [`crate::dpp`], shared with MetaX.
//!
//! `bound_ctrl` is LLVM's intrinsic argument: true writes 0 for an invalid source (MetaX's `bc`
//! has the opposite sense). `mov_dpp` has no old operand: LLVM passes `undef` as old, so a lane
//! that is not written is undefined.

use crate::args::{Arg, Role, PER_LANE};
use crate::dpp::{apply, undefined_warning, DppCall, DppCtrl, OnInvalid};
use crate::error::InputError;
use crate::op::{Dialect, OpInput, OpKind, OpOutput, OpSpec, Proto};
use crate::params::{ParamDefault, ParamKind, ParamSpec};
use crate::result::Diagnostic;

use super::{arch, TYPES_B32, TYPE_NOTE_B32};

const RULE: &str = "LLVM AMDGPUModifierSyntax DPP; AMD ISA DPP (semantics.md \"AMD DPP\")";

const DPP_CTRL: ParamSpec = ParamSpec {
    name: "dpp_ctrl",
    kind: ParamKind::Text,
    default: ParamDefault::Text("row_shr:1"),
    doc: "DPP control in LLVM syntax: quad_perm:[a,b,c,d], row_shl:n, row_shr:n, row_ror:n, \
          wave_shl:1, wave_shr:1, wave_rol:1, wave_ror:1, row_mirror, row_half_mirror, \
          row_bcast:15, row_bcast:31, row_share:n, row_xmask:n, dpp8:[s0,…,s7]",
};
const ROW_MASK: ParamSpec = ParamSpec {
    name: "row_mask",
    kind: ParamKind::Int { min: 0, max: 15 },
    default: ParamDefault::Int(15),
    doc: "0..=15: bit r enables row r (lanes 16r..16r+15)",
};
const BANK_MASK: ParamSpec = ParamSpec {
    name: "bank_mask",
    kind: ParamKind::Int { min: 0, max: 15 },
    default: ParamDefault::Int(15),
    doc: "0..=15: bit b enables lanes 4b..4b+3 of every row",
};
const BOUND_CTRL: ParamSpec = ParamSpec {
    name: "bound_ctrl",
    kind: ParamKind::Flag,
    default: ParamDefault::Flag(false),
    doc: "invalid (out-of-range or inactive) source: true = write 0, false = keep old",
};

/// The AMD DPP operations.
pub const OPS: &[OpSpec] = &[
    OpSpec {
        dialect: Dialect::Amdgcn,
        name: "update_dpp",
        aliases: &["__builtin_amdgcn_update_dpp", "llvm.amdgcn.update.dpp"],
        proto: Proto::returns("int").call("__builtin_amdgcn_update_dpp"),
        args: &[Arg::per_thread("old", "int", Role::Old, ParamSpec {
                name: "old",
                kind: ParamKind::PerLaneValue,
                default: ParamDefault::Int(0),
                doc: "per-lane destination value kept where the lane is not written",
            }, PER_LANE), Arg::operand("src", "int"), Arg::immediate("dpp_ctrl", "int", Role::Control, DPP_CTRL), Arg::immediate("row_mask", "int", Role::Control, ROW_MASK), Arg::immediate("bank_mask", "int", Role::Control, BANK_MASK), Arg::immediate("bound_ctrl", "bool", Role::Control, BOUND_CTRL)],
        rule: "Lane i reads the lane the control selects (row = 16 lanes, bank = 4). A lane of a row \
               or bank disabled by row_mask/bank_mask is not written: old. A source that is out of \
               range for the control or inactive gives 0 when bound_ctrl is true, old otherwise. \
               Otherwise src of the selected lane. dpp8 has no mask fields (they are ignored) and \
               no bound_ctrl: its fi field is 0 (the builtin has no fi argument), which fetches 0 \
               from an inactive source lane. The controls follow the target (arch): wave \
               shifts and row_bcast GFX9/CDNA only, row_share/row_xmask/dpp8 GFX10+, \
               row_share:1..15 also CDNA as row_newbcast.",
        source: RULE,
        settings: &[super::arch::ARCH],
        types: TYPES_B32,
        type_note: TYPE_NOTE_B32,
        kind: OpKind::Lanes,
        run: run_update_dpp,
    },
    OpSpec {
        dialect: Dialect::Amdgcn,
        name: "mov_dpp",
        aliases: &["__builtin_amdgcn_mov_dpp", "llvm.amdgcn.mov.dpp", "__hip_move_dpp"],
        proto: Proto::returns("int").call("__builtin_amdgcn_mov_dpp"),
        args: &[Arg::operand("src", "int"), Arg::immediate("dpp_ctrl", "int", Role::Control, DPP_CTRL), Arg::immediate("row_mask", "int", Role::Control, ROW_MASK), Arg::immediate("bank_mask", "int", Role::Control, BANK_MASK), Arg::immediate("bound_ctrl", "bool", Role::Control, BOUND_CTRL)],
        rule: "As update_dpp with old = undef: a lane that is not written (row/bank disabled, or an \
               invalid source with bound_ctrl false) is undefined; an invalid source with bound_ctrl \
               true gives 0. dpp8 reads 0 from an inactive source whatever bound_ctrl says (fi:0).",
        source: RULE,
        settings: &[super::arch::ARCH],
        types: TYPES_B32,
        type_note: TYPE_NOTE_B32,
        kind: OpKind::Lanes,
        run: run_mov_dpp,
    },
];

fn mask(input: &OpInput, name: &str) -> Result<u32, InputError> {
    let v = input.params.int(name)?;
    u32::try_from(v)
        .ok()
        .filter(|v| *v <= 15)
        .ok_or_else(|| InputError::out_of_range(name, v, 0, 15))
}

/// DPP8's inactive-lane rule: `fi` defaults to 0, "fetch zero when accessing data from inactive
/// lanes", and the builtins emit `fi:0` (they have no `fi` argument).
const DPP8_FI: &str = "LLVM AMDGPUModifierSyntax, DPP8 Modifiers (fi:0); llvm.amdgcn.mov.dpp8";

fn run_dpp(input: &OpInput, update: bool) -> Result<OpOutput, InputError> {
    let target = arch::target(input)?;
    let ctrl = DppCtrl::parse(input.params.text("dpp_ctrl")?)?;
    arch::check_dpp(target, ctrl)?;
    let mut row_mask = mask(input, "row_mask")?;
    let mut bank_mask = mask(input, "bank_mask")?;
    let bound_ctrl = input.params.flag("bound_ctrl")?;
    let mut diagnostics = vec![Diagnostic::info(
        format!("dpp_ctrl {ctrl} on {} ({})", target.name, target.product),
        RULE,
    )];
    if let Some(note) = ctrl.generation_note() {
        diagnostics.push(Diagnostic::info(format!("{ctrl}: {note}"), arch::SOURCE));
    }
    let dpp8 = matches!(ctrl, DppCtrl::Dpp8(_));
    if dpp8 {
        diagnostics.push(Diagnostic::info(
            format!(
                "dpp8 has no bound_ctrl: with fi:0 (the builtins expose no fi) an inactive source \
                 lane reads 0, so bound_ctrl = {} does not apply",
                bound_ctrl as u8
            ),
            DPP8_FI,
        ));
    }
    if matches!(ctrl, DppCtrl::Dpp8(_)) && (row_mask != 15 || bank_mask != 15) {
        diagnostics.push(Diagnostic::info(
            "dpp8 (v_mov_b32_dpp8) has no row_mask/bank_mask fields: every row and bank is written",
            RULE,
        ));
        row_mask = 15;
        bank_mask = 15;
    }
    let old = if update {
        Some(input.params.values("old")?)
    } else {
        None
    };
    let call = DppCall {
        ctrl,
        row_mask,
        bank_mask,
        // dpp8 selects within its group of 8, so its only invalid source is an inactive lane,
        // which fi:0 reads as 0 whatever bound_ctrl says.
        on_invalid: if bound_ctrl || dpp8 {
            OnInvalid::Zero
        } else {
            OnInvalid::Keep
        },
        old,
        old_name: "old",
        zero_setting: if dpp8 {
            "dpp8's fi:0 (no bound_ctrl)"
        } else {
            "bound_ctrl = 1"
        },
        keep_setting: "bound_ctrl = 0 keeps the destination",
        rule: if dpp8 { DPP8_FI } else { RULE },
    };
    let results = apply(input, &call);
    diagnostics.extend(undefined_warning(&results, RULE));
    Ok(OpOutput {
        results,
        diagnostics,
    })
}

fn run_update_dpp(input: &OpInput) -> Result<OpOutput, InputError> {
    run_dpp(input, true)
}

fn run_mov_dpp(input: &OpInput) -> Result<OpOutput, InputError> {
    run_dpp(input, false)
}
