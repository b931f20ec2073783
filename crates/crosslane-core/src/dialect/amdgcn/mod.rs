//! AMD GCN/RDNA cross-lane instructions, one submodule per family:
//! * [`swizzle`]: `ds_swizzle_b32` (seed 003, the ISA's ds_swizzle pseudo-code);
//! * [`dpp`]: `update_dpp`, `mov_dpp` (LLVM AMDGPUModifierSyntax, AMD ISA DPP; [`crate::dpp`]);
//! * [`permute`]: `ds_permute_b32`, `ds_bpermute_b32` (AMD ISA);
//! * [`lane`]: `v_readlane_b32`, `v_readfirstlane_b32`, `v_writelane_b32` (AMD ISA);
//! * [`permlane`]: `v_permlane16_b32`, `v_permlanex16_b32` (GFX10+), `v_permlane64_b32`
//!   (GFX11+) (AMD RDNA3 ISA).
//!
//! Every op takes the target as its `arch` parameter ([`arch`], default gfx1030): the wave sizes
//! and controls the target lacks are refused, and the rules that differ by generation follow it.
//! Wave32 and wave64 (the lane counts of docs/cli.md). Every op moves 32-bit registers: the types are
//! the 32-bit ones (bit patterns are moved unchanged).

pub mod arch;
pub mod dpp;
pub mod lane;
pub mod permlane;
pub mod permute;
pub mod swizzle;

use crate::op::OpSpec;
use crate::value::ValueType;

/// The 32-bit operand types a `*_b32` instruction moves (raw bits, so floats and packed halves
/// travel unchanged).
pub(crate) const TYPES_B32: &[ValueType] = &[
    ValueType::I32,
    ValueType::U32,
    ValueType::F32,
    ValueType::F16x2,
    ValueType::Bf16x2,
];

/// Why other types are refused.
pub(crate) const TYPE_NOTE_B32: &str =
    "the instruction moves one 32-bit VGPR (b32): i32, u32, f32 or a packed pair";

const LEN: usize = swizzle::OPS.len()
    + dpp::OPS.len()
    + permute::OPS.len()
    + lane::OPS.len()
    + permlane::OPS.len();

/// Every AMD GCN/RDNA operation.
pub const OPS: &[OpSpec] = &super::concat_ops::<LEN>(&[
    swizzle::OPS,
    dpp::OPS,
    permute::OPS,
    lane::OPS,
    permlane::OPS,
]);
