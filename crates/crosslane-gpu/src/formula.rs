//! The vendors' lane-selection rules written a second time, in WGSL, so that the GPU check tests the
//! rule and not only the data movement.
//!
//! For a vendor op the device computes, for every lane `i`, what the lane receives: the source lane
//! `j` and its kind (lane, own value, zero, old value, undefined, inactive), from the vendor's
//! formula and the lane's own operand values read from the operand buffer. Only then does the value
//! move (by `subgroupShuffle` or through workgroup memory, [`crate::wgsl`]). Nothing the emulator
//! decided is uploaded: the operand buffer carries what the user passed (each lane's own operand,
//! whether it is active, whether it is in CUDA's sync mask, the `old` value), never a source lane.
//!
//! Each formula cites its document; the texts are independent of `crosslane-core`'s dialect files,
//! which compute the same rules in Rust. The comparison ([`crate::compare`](mod@crate::compare)) checks both the value
//! and the kind / source lane the device computed against the emulator, lane by lane.
//!
//! Operand buffer (binding 1, `operands: array<vec4<u32>>`, [`OPERAND_VEC4_PER_LANE`] per lane):
//! * `operands[2i]` = `(flags, a, b, c)`: flags bit 0 = lane `i` is active, bit 1 = lane `i` is in
//!   CUDA's sync `mask`; `a`, `b`, `c` = the op's operands for lane `i` (two's complement bits);
//! * `operands[2i + 1]` = `(d, e, old low, old high)`: more operands and the lane's `old` /
//!   `old_val` bits (DPP `update_dpp`, MACA `update_shfl`).
//!
//! A parameter given once ([`ParamValue::Int`]) is written into every lane's row; one given per
//! lane ([`ParamValue::Ints`]) writes each lane's own value, so each lane always reads its own.

use crosslane_core::dpp::DppCtrl;
use crosslane_core::params::ParamValue;
use crosslane_core::{Dialect, Step, Value};

use crate::error::GpuError;

/// `vec4<u32>` rows per lane in the operand buffer.
pub const OPERAND_VEC4_PER_LANE: usize = 2;

/// What a lane receives, as the device's formula classifies it; the `kind` word the kernel writes
/// back next to each result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum LaneKind {
    /// The lane does not take part: it computes nothing.
    Inactive = 0,
    /// The value of another lane (or of itself by the normal rule).
    Lane = 1,
    /// The rule's fallback: the lane's own value.
    Own = 2,
    /// Zero.
    Zero = 3,
    /// The lane's `old` value.
    Old = 4,
    /// Undefined by the vendor's rules: the device reads the lane the formula selected (or the lane
    /// itself) and the comparison shows whatever arrives.
    Undefined = 5,
}

impl LaneKind {
    /// The kind for a word the kernel wrote (`None` for a word no formula writes).
    pub fn from_word(word: u32) -> Option<Self> {
        Some(match word {
            0 => LaneKind::Inactive,
            1 => LaneKind::Lane,
            2 => LaneKind::Own,
            3 => LaneKind::Zero,
            4 => LaneKind::Old,
            5 => LaneKind::Undefined,
            _ => return None,
        })
    }
}

/// Which vendor rule a formula implements (one WGSL function per family).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Family {
    Cuda,
    Hip,
    Ascend,
    Swizzle,
    Bpermute,
    Permute,
    Dpp,
    AmdReadlane,
    AmdReadfirstlane,
    MacaReadlane,
    MacaReadfirstlane,
    Wgsl,
}

/// How one operand slot is filled from the step's parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    /// Unused (0).
    None,
    /// The parameter of that name, per lane (an integer, a flag as 0/1).
    Param(&'static str),
    /// The parameter of that name as a flag, inverted (AMD `bound_ctrl` true writes zero; the
    /// formula's flag means "keep the destination").
    NotFlag(&'static str),
    /// AMD `dpp_ctrl` text, encoded as LLVM's 9-bit `dpp_ctrl` field (dpp8: [`DPP8_CODE`]).
    DppCode(&'static str),
    /// The dpp8 lane selectors of `dpp_ctrl`, 3 bits each (0 for other controls).
    Dpp8Selectors(&'static str),
    /// 1 when the AMD target named by the parameter (`arch`) takes `ds_(b)permute` lane indices
    /// MOD 32 on this wave64 step (RDNA3/3.5; `crosslane_core::dialect::amdgcn::arch`), else 0.
    /// The formula then stays in the caller's 32-lane half, as the emulator's reading does.
    Mod32(&'static str),
}

/// The code the operand buffer uses for `dpp8:[…]`, which has no 9-bit `dpp_ctrl` value (LLVM
/// encodes it as a separate instruction, `v_mov_b32_dpp8`).
pub const DPP8_CODE: u32 = 0x200;

/// One vendor op's formula: the WGSL family, its mode and how to fill the operand slots.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Formula {
    dialect: Dialect,
    op: &'static str,
    family: Family,
    mode: u32,
    /// Slots `a`, `b`, `c`, `d`, `e`.
    slots: [Slot; 5],
    /// The op's old operand, if it has one.
    old: Option<&'static str>,
}

const fn f(
    dialect: Dialect,
    op: &'static str,
    family: Family,
    mode: u32,
    slots: [Slot; 5],
) -> Formula {
    Formula {
        dialect,
        op,
        family,
        mode,
        slots,
        old: None,
    }
}

const N: Slot = Slot::None;
const fn p(name: &'static str) -> Slot {
    Slot::Param(name)
}

/// Every op whose rule the device computes, keyed by dialect and the vendor's op name.
pub const FORMULAS: &[Formula] = {
    use Dialect::*;
    use Family as F;
    &[
        f(
            Cuda,
            "__shfl_sync",
            F::Cuda,
            0,
            [p("src_lane"), p("width"), N, N, N],
        ),
        f(
            Cuda,
            "__shfl_up_sync",
            F::Cuda,
            1,
            [p("delta"), p("width"), N, N, N],
        ),
        f(
            Cuda,
            "__shfl_down_sync",
            F::Cuda,
            2,
            [p("delta"), p("width"), N, N, N],
        ),
        f(
            Cuda,
            "__shfl_xor_sync",
            F::Cuda,
            3,
            [p("lane_mask"), p("width"), N, N, N],
        ),
        f(
            Hip,
            "__shfl",
            F::Hip,
            0,
            [p("src_lane"), p("width"), Slot::Mod32("arch"), N, N],
        ),
        f(
            Hip,
            "__shfl_up",
            F::Hip,
            1,
            [p("delta"), p("width"), Slot::Mod32("arch"), N, N],
        ),
        f(
            Hip,
            "__shfl_down",
            F::Hip,
            2,
            [p("delta"), p("width"), Slot::Mod32("arch"), N, N],
        ),
        f(
            Hip,
            "__shfl_xor",
            F::Hip,
            3,
            [p("lane_mask"), p("width"), Slot::Mod32("arch"), N, N],
        ),
        f(
            Ascend,
            "asc_shfl",
            F::Ascend,
            0,
            [p("src_lane"), p("width"), N, N, N],
        ),
        f(
            Ascend,
            "asc_shfl_up",
            F::Ascend,
            1,
            [p("delta"), p("width"), N, N, N],
        ),
        f(
            Ascend,
            "asc_shfl_down",
            F::Ascend,
            2,
            [p("delta"), p("width"), N, N, N],
        ),
        f(
            Ascend,
            "asc_shfl_xor",
            F::Ascend,
            3,
            [p("lane_mask"), p("width"), N, N, N],
        ),
        f(
            Amdgcn,
            "ds_swizzle_b32",
            F::Swizzle,
            0,
            [p("offset"), N, N, N, N],
        ),
        f(
            Amdgcn,
            "ds_bpermute_b32",
            F::Bpermute,
            0,
            [p("addr"), p("offset"), Slot::Mod32("arch"), N, N],
        ),
        f(
            Amdgcn,
            "ds_permute_b32",
            F::Permute,
            0,
            [p("addr"), p("offset"), Slot::Mod32("arch"), N, N],
        ),
        Formula {
            old: Some("old"),
            ..f(Amdgcn, "update_dpp", F::Dpp, 0, DPP_AMD)
        },
        f(Amdgcn, "mov_dpp", F::Dpp, 0, DPP_AMD),
        f(
            Amdgcn,
            "v_readlane_b32",
            F::AmdReadlane,
            0,
            [p("lane_sel"), N, N, N, N],
        ),
        f(
            Amdgcn,
            "v_readfirstlane_b32",
            F::AmdReadfirstlane,
            0,
            [N; 5],
        ),
        f(Maca, "__builtin_mxc_mov_shfl", F::Dpp, 0, DPP_MACA),
        Formula {
            old: Some("old_val"),
            ..f(Maca, "__builtin_mxc_update_shfl", F::Dpp, 0, DPP_MACA)
        },
        f(
            Maca,
            "__builtin_mxc_bsm_bpermute",
            F::Bpermute,
            0,
            [p("index"), N, N, N, N],
        ),
        f(
            Maca,
            "__builtin_mxc_bsm_permute",
            F::Permute,
            0,
            [p("index"), N, N, N, N],
        ),
        f(
            Maca,
            "__builtin_mxc_readlane",
            F::MacaReadlane,
            0,
            [p("thread"), N, N, N, N],
        ),
        f(
            Maca,
            "__builtin_mxc_readfirstlane",
            F::MacaReadfirstlane,
            0,
            [N; 5],
        ),
        f(Wgsl, "subgroupShuffle", F::Wgsl, 0, [p("id"), N, N, N, N]),
        f(
            Wgsl,
            "subgroupShuffleUp",
            F::Wgsl,
            1,
            [p("delta"), N, N, N, N],
        ),
        f(
            Wgsl,
            "subgroupShuffleDown",
            F::Wgsl,
            2,
            [p("delta"), N, N, N, N],
        ),
        f(
            Wgsl,
            "subgroupShuffleXor",
            F::Wgsl,
            3,
            [p("mask"), N, N, N, N],
        ),
        f(Wgsl, "subgroupBroadcast", F::Wgsl, 4, [p("id"), N, N, N, N]),
        f(Wgsl, "subgroupBroadcastFirst", F::Wgsl, 5, [N; 5]),
        f(Wgsl, "quadBroadcast", F::Wgsl, 6, [p("id"), N, N, N, N]),
        f(Wgsl, "quadSwapX", F::Wgsl, 7, [N; 5]),
        f(Wgsl, "quadSwapY", F::Wgsl, 8, [N; 5]),
        f(Wgsl, "quadSwapDiagonal", F::Wgsl, 9, [N; 5]),
    ]
};

const DPP_AMD: [Slot; 5] = [
    Slot::DppCode("dpp_ctrl"),
    p("row_mask"),
    p("bank_mask"),
    Slot::NotFlag("bound_ctrl"),
    Slot::Dpp8Selectors("dpp_ctrl"),
];
const DPP_MACA: [Slot; 5] = [p("mode"), p("rmsk"), p("bmsk"), p("bc"), N];

/// The formula for `dialect` / `op` (the vendor's full name), if the device computes its rule.
pub fn formula(dialect: Dialect, op: &str) -> Option<&'static Formula> {
    FORMULAS.iter().find(|f| f.dialect == dialect && f.op == op)
}

impl Formula {
    /// The rule's name and document, for the panel and the CLI ("which part is the formula").
    pub fn describe(&self) -> &'static str {
        match self.family {
            Family::Cuda => "the PTX shfl.sync formula (b = param & 31, c from width, maxL/minL; PTX ISA shfl.sync, sm_30_intrinsics.hpp)",
            Family::Hip => "the amd_warp_functions.h index formula, index mod warpSize (ROCm clr; AMD ISA ds_bpermute_b32)",
            Family::Ascend => "the asc_shfl* page rules (seeds 000/001, semantics.md \"Ascend C\")",
            Family::Swizzle => "the ds_swizzle_b32 offset decoding (seed 003: FFT, rotate, quad permute, bitmask)",
            Family::Bpermute => "the bpermute address rule ((addr + offset) >> 2) mod W (MOD 32 in each half on RDNA3/3.5 wave64), inactive source → 0 (AMD ISA; seed 002 §3.4.3)",
            Family::Permute => "the permute push rule (the pseudo-code's highest writer wins, unwritten → 0; MOD 32 in each half on RDNA3/3.5 wave64; AMD ISA; seed 002 §3.4.4)",
            Family::Dpp => "the DPP row/bank rules (dpp_ctrl table, row_mask/bank_mask, bound_ctrl / bc; semantics.md \"AMD DPP\", seed 002 §3.4.1–3.4.2)",
            Family::AmdReadlane => "v_readlane_b32: lane_sel & (W − 1), EXEC ignored (AMD ISA)",
            Family::AmdReadfirstlane => "v_readfirstlane_b32: lowest lane in EXEC, lane 0 if none (AMD ISA)",
            Family::MacaReadlane => "__builtin_mxc_readlane: thread & 63 (seed 002)",
            Family::MacaReadfirstlane => "__builtin_mxc_readfirstlane: lowest active lane (seed 002)",
            Family::Wgsl => "the WGSL spec's invocation id for the shuffle (out of range or inactive → indeterminate)",
        }
    }

    /// The WGSL of `fn rule(i: u32) -> Pick` and its helpers for a warp of `lanes` lanes.
    pub fn wgsl(&self, lanes: u32) -> String {
        let body = match self.family {
            Family::Cuda => CUDA,
            Family::Hip => HIP,
            Family::Ascend => ASCEND,
            Family::Swizzle => SWIZZLE,
            Family::Bpermute => BPERMUTE,
            Family::Permute => PERMUTE,
            Family::Dpp => DPP,
            Family::AmdReadlane => AMD_READLANE,
            Family::AmdReadfirstlane => AMD_READFIRSTLANE,
            Family::MacaReadlane => MACA_READLANE,
            Family::MacaReadfirstlane => MACA_READFIRSTLANE,
            Family::Wgsl => WGSL,
        };
        format!(
            "const LANES: u32 = {lanes}u;\nconst MODE: u32 = {}u;\nconst HAS_OLD: bool = {};\n{COMMON}{body}",
            self.mode,
            self.old.is_some()
        )
    }

    /// The operand buffer for `step`: [`OPERAND_VEC4_PER_LANE`] `vec4<u32>` per lane, laid out as
    /// the module docs say.
    ///
    /// # Errors
    /// [`GpuError::Unsupported`] naming the parameter when it is missing, a per-lane list does not
    /// hold one value per lane, or its kind cannot be an operand word.
    pub fn operands(&self, step: &Step) -> Result<Vec<u32>, GpuError> {
        let mut words = Vec::with_capacity(step.lanes * OPERAND_VEC4_PER_LANE * 4);
        let sync_mask = match step.params.0.get("mask") {
            Some(ParamValue::Mask(m)) if step.dialect == Dialect::Cuda => Some(*m),
            _ => None,
        };
        for lane in 0..step.lanes {
            let mut flags = u32::from(step.active.contains(lane));
            if sync_mask.is_some_and(|m| m.contains(lane)) {
                flags |= 2;
            }
            let mut slot = [0u32; 5];
            for (w, s) in slot.iter_mut().zip(self.slots) {
                *w = slot_word(step, s, lane)?;
            }
            let old = match self.old {
                Some(name) => lane_value(step, name, lane)?.bits,
                None => 0,
            };
            words.extend_from_slice(&[
                flags,
                slot[0],
                slot[1],
                slot[2],
                slot[3],
                slot[4],
                old as u32,
                (old >> 32) as u32,
            ]);
        }
        Ok(words)
    }
}

fn missing(step: &Step, name: &str) -> GpuError {
    GpuError::unsupported(
        name,
        format!(
            "{} needs the parameter `{name}` for its GPU formula",
            step.op
        ),
    )
}

/// One operand word of `lane`: the two's complement low 32 bits of the lane's value.
fn slot_word(step: &Step, slot: Slot, lane: usize) -> Result<u32, GpuError> {
    let param = |name: &str| step.params.0.get(name).ok_or_else(|| missing(step, name));
    Ok(match slot {
        Slot::None => 0,
        Slot::Param(name) => match param(name)? {
            ParamValue::Int(n) => *n as u32,
            ParamValue::Ints(v) => match v.get(lane) {
                Some(n) if v.len() == step.lanes => *n as u32,
                _ => {
                    return Err(GpuError::unsupported(
                        name,
                        format!("needs one value per lane ({}), got {}", step.lanes, v.len()),
                    ))
                }
            },
            ParamValue::Flag(b) => u32::from(*b),
            ParamValue::Mask(m) => u32::from(m.contains(lane)),
            ParamValue::Values(_) | ParamValue::Text(_) => {
                return Err(GpuError::unsupported(
                    name,
                    "is not an integer operand the GPU formula can take",
                ))
            }
        },
        Slot::NotFlag(name) => match param(name)? {
            ParamValue::Flag(b) => u32::from(!*b),
            _ => return Err(missing(step, name)),
        },
        Slot::Mod32(name) => {
            let ParamValue::Text(t) = param(name)? else {
                return Err(missing(step, name));
            };
            let target = crosslane_core::dialect::amdgcn::arch::parse(t)?;
            u32::from(target.permute_mod32() && step.lanes > 32)
        }
        Slot::DppCode(name) | Slot::Dpp8Selectors(name) => {
            let ParamValue::Text(t) = param(name)? else {
                return Err(missing(step, name));
            };
            let ctrl = DppCtrl::parse(t)?;
            let (code, selectors) = dpp_encoding(ctrl);
            if matches!(slot, Slot::DppCode(_)) {
                code
            } else {
                selectors
            }
        }
    })
}

/// The lane's `old` value (a per-lane value list, or one broadcast value).
fn lane_value(step: &Step, name: &str, lane: usize) -> Result<Value, GpuError> {
    match step.params.0.get(name) {
        Some(ParamValue::Values(v)) if v.len() == step.lanes => {
            v.get(lane).copied().ok_or_else(|| missing(step, name))
        }
        _ => Err(missing(step, name)),
    }
}

/// A DPP control as LLVM `SIDefines.h` `DppCtrl` encodes it (the 9-bit `dpp_ctrl` field), plus
/// dpp8's selectors (3 bits each, lane k of a group of 8 in bits 3k..3k+2) with [`DPP8_CODE`].
/// This is the instruction's encoding, not its rule: the rule is decoded from it in WGSL.
pub fn dpp_encoding(ctrl: DppCtrl) -> (u32, u32) {
    match ctrl {
        DppCtrl::QuadPerm(s) => (
            u32::from(s[0]) | u32::from(s[1]) << 2 | u32::from(s[2]) << 4 | u32::from(s[3]) << 6,
            0,
        ),
        DppCtrl::RowShl(n) => (0x100 | u32::from(n), 0),
        DppCtrl::RowShr(n) => (0x110 | u32::from(n), 0),
        DppCtrl::RowRor(n) => (0x120 | u32::from(n), 0),
        DppCtrl::WaveShl => (0x130, 0),
        DppCtrl::WaveRol => (0x134, 0),
        DppCtrl::WaveShr => (0x138, 0),
        DppCtrl::WaveRor => (0x13c, 0),
        DppCtrl::RowMirror => (0x140, 0),
        DppCtrl::RowHalfMirror => (0x141, 0),
        DppCtrl::RowBcast15 => (0x142, 0),
        DppCtrl::RowBcast31 => (0x143, 0),
        DppCtrl::RowShare(n) | DppCtrl::RowNewBcast(n) => (0x150 | u32::from(n), 0),
        DppCtrl::RowXmask(n) => (0x160 | u32::from(n), 0),
        DppCtrl::Dpp8(s) => (
            DPP8_CODE,
            s.iter()
                .enumerate()
                .fold(0, |acc, (k, v)| acc | u32::from(*v) << (3 * k)),
        ),
    }
}

/// Helpers every formula uses: the lane's operand row, activity, and the result constructors.
/// `pull` is the common tail of a pull rule: a source outside the warp is undefined, an inactive
/// source gets the vendor's `on_inactive`.
const COMMON: &str = r"
struct Pick {
    kind: u32,
    src: u32,
}
const NONE: u32 = 0xffffffffu;
fn is_active(j: u32) -> bool { return (operands[j * 2u].x & 1u) != 0u; }
fn in_sync_mask(j: u32) -> bool { return (operands[j * 2u].x & 2u) != 0u; }
fn arg_a(i: u32) -> u32 { return operands[i * 2u].y; }
fn arg_b(i: u32) -> u32 { return operands[i * 2u].z; }
fn arg_c(i: u32) -> u32 { return operands[i * 2u].w; }
fn arg_d(i: u32) -> u32 { return operands[i * 2u + 1u].x; }
fn arg_e(i: u32) -> u32 { return operands[i * 2u + 1u].y; }
fn inactive(i: u32) -> Pick { return Pick(0u, i); }
fn lane_of(j: u32) -> Pick { return Pick(1u, j); }
fn own(i: u32) -> Pick { return Pick(2u, i); }
fn zero(i: u32) -> Pick { return Pick(3u, i); }
fn old(i: u32) -> Pick { return Pick(4u, i); }
fn undef(hint: u32) -> Pick { return Pick(5u, hint); }
fn pow2(w: i32) -> bool { return w > 0 && (w & (w - 1)) == 0; }
fn pull(i: u32, j: u32, on_inactive: Pick) -> Pick {
    if (j >= LANES) { return undef(i); }
    if (!is_active(j)) { return on_inactive; }
    return lane_of(j);
}
";

/// PTX ISA shfl.sync (semantics.md "CUDA"); c from width as sm_30_intrinsics.hpp builds it; the
/// Programming Guide's width and sync-mask rules. MODE 0 idx, 1 up, 2 down, 3 bfly.
const CUDA: &str = r"
fn rule(i: u32) -> Pick {
    if (!is_active(i)) { return inactive(i); }
    let param = bitcast<i32>(arg_a(i));
    let width = bitcast<i32>(arg_b(i));
    var c = (32 - width) << 8u;
    if (MODE != 1u) { c = c | 0x1f; }
    let b = param & 31;
    let clamp_l = c & 31;
    let seg = (c >> 8u) & 31;
    let me = i32(i);
    let max_l = (me & seg) | (clamp_l & ~seg);
    let min_l = me & seg;
    var j = 0;
    var ok = false;
    switch MODE {
        case 0u: { j = min_l | (b & ~seg); ok = j <= max_l; }
        case 1u: { j = me - b; ok = j >= max_l; }
        case 2u: { j = me + b; ok = j <= max_l; }
        default: { j = me ^ b; ok = j <= max_l; }
    }
    let hint = select(i, u32(j), ok && j >= 0 && j < 32);
    // Every lane in mask must call: one that does not makes the whole call undefined.
    for (var k = 0u; k < LANES; k = k + 1u) {
        if (in_sync_mask(k) && !is_active(k)) { return undef(hint); }
    }
    if (!in_sync_mask(i)) { return undef(hint); }
    if (!pow2(width) || width > 32) { return undef(hint); }
    if (!ok) { return own(i); }
    let src = u32(j);
    if (is_active(src) && !in_sync_mask(src)) { return undef(src); }
    return pull(i, src, undef(src));
}
";

/// ROCm clr amd_warp_functions.h: `int index`, then ds_bpermute reads `index mod warpSize`
/// (semantics.md "HIP"). MODE 0 __shfl, 1 up, 2 down, 3 xor.
const HIP: &str = r"
fn rule(i: u32) -> Pick {
    if (!is_active(i)) { return inactive(i); }
    let param = bitcast<i32>(arg_a(i));
    let width = bitcast<i32>(arg_b(i));
    let me = i32(i);
    let w1 = width - 1;
    var index = me;
    var fell_back = false;
    switch MODE {
        case 0u: { index = (param & w1) + (me & ~w1); }
        case 1u: {
            index = me - param;
            if (index < (me & ~w1)) { index = me; fell_back = true; }
        }
        case 2u: {
            index = me + param;
            if ((me & w1) + param >= width) { index = me; fell_back = true; }
        }
        default: {
            index = me ^ param;
            if (index >= ((me + width) & ~w1)) { index = me; fell_back = true; }
        }
    }
    var j = bitcast<u32>(index) & (LANES - 1u);
    // RDNA3/3.5 wave64 (c = 1): the ds_bpermute underneath takes the lane MOD 32 in each half.
    if (arg_c(i) != 0u) { j = (i & ~31u) | (bitcast<u32>(index) & 31u); }
    if (!pow2(width) || u32(width) > LANES) { return undef(j); }
    if (fell_back) { return own(i); }
    return pull(i, j, undef(j));
}
";

/// Ascend C asc_shfl* (seeds 000/001, semantics.md "Ascend C"): width a power of two ≤ 32, groups
/// of width lanes. MODE 0 asc_shfl, 1 up, 2 down, 3 xor.
const ASCEND: &str = r"
fn rule(i: u32) -> Pick {
    if (!is_active(i)) { return inactive(i); }
    let width = bitcast<i32>(arg_b(i));
    if (!pow2(width) || width > 32) { return undef(i); }
    let w = u32(width);
    let start = i & ~(w - 1u);
    let end = start + w - 1u;
    switch MODE {
        case 0u: {
            let src = bitcast<i32>(arg_a(i));
            if (src < 0) { return undef(i); }
            let j = start + u32(src) % w;
            return pull(i, j, undef(j));
        }
        case 1u: {
            let delta = arg_a(i);
            if (delta >= w || delta > i || i - delta < start) { return own(i); }
            return pull(i, i - delta, undef(i - delta));
        }
        case 2u: {
            let delta = arg_a(i);
            if (delta >= w || i + delta > end) { return own(i); }
            return pull(i, i + delta, undef(i + delta));
        }
        default: {
            let j = i32(i) ^ bitcast<i32>(arg_a(i));
            if (j < 0) { return undef(i); }
            if (u32(j) > end) { return own(i); }
            return pull(i, u32(j), undef(u32(j)));
        }
    }
}
";

/// ds_swizzle_b32 (seed 003): the four offset modes per group of 32 lanes, with the seed's rotate
/// wrap and 5-bit reverse as its examples show; an inactive source gives 0.
const SWIZZLE: &str = r"
fn rule(i: u32) -> Pick {
    if (!is_active(i)) { return inactive(i); }
    let offset = arg_a(i) & 0xffffu;
    var j = 0u;
    if (offset >= 0xe000u) {
        let mask = offset & 0x1fu;
        let rev = reverseBits(i & 0x1fu) >> 27u;
        j = (rev >> countOneBits(mask)) | (i & mask);
    } else if (offset >= 0xc000u) {
        let amount = (offset >> 5u) & 0x1fu;
        let mask = offset & 0x1fu;
        let moved = select(i + amount, i - amount, ((offset >> 10u) & 1u) == 1u);
        j = (i & mask) | ((moved & ~mask) & 0x1fu);
    } else if ((offset & 0x8000u) != 0u) {
        j = (i & 0x1cu) + ((offset >> (2u * (i & 3u))) & 3u);
    } else {
        let and_mask = offset & 0x1fu;
        let or_mask = (offset >> 5u) & 0x1fu;
        let xor_mask = (offset >> 10u) & 0x1fu;
        j = (((i & 0x1fu) & and_mask) | or_mask) ^ xor_mask;
    }
    j = j | (i & 0x20u);
    return pull(i, j, zero(i));
}
";

/// ds_bpermute_b32 / bsm_bpermute (AMD ISA; seed 002 §3.4.3): lane ((addr + offset) >> 2) mod W,
/// an inactive source gives 0.
const BPERMUTE: &str = r"
fn rule(i: u32) -> Pick {
    if (!is_active(i)) { return inactive(i); }
    var j = ((arg_a(i) + arg_b(i)) >> 2u) % LANES;
    // RDNA3/3.5 wave64 (c = 1): the lane index is MOD 32 within the caller's half.
    if (arg_c(i) != 0u) { j = (i & ~31u) | (((arg_a(i) + arg_b(i)) >> 2u) % 32u); }
    return pull(i, j, zero(i));
}
";

/// ds_permute_b32 / bsm_permute (AMD ISA; seed 002 §3.4.4): every active lane writes its value to
/// lane ((addr + offset) >> 2) mod W in lane order, so the highest writer wins; unwritten → 0.
const PERMUTE: &str = r"
fn rule(i: u32) -> Pick {
    if (!is_active(i)) { return inactive(i); }
    for (var k = LANES; k > 0u; k = k - 1u) {
        let w = k - 1u;
        var dst = ((arg_a(w) + arg_b(w)) >> 2u) % LANES;
        // RDNA3/3.5 wave64 (c = 1): the destination is MOD 32 within the writer's half.
        if (arg_c(w) != 0u) { dst = (w & ~31u) | (((arg_a(w) + arg_b(w)) >> 2u) % 32u); }
        if (is_active(w) && dst == i) { return lane_of(w); }
    }
    return zero(i);
}
";

/// DPP (semantics.md "AMD DPP"; LLVM SIDefines.h DppCtrl codes; MetaX mode numbers, seed 002
/// §3.4.1). c = keep the destination on an invalid source (AMD bound_ctrl false, MetaX bc = 1).
const DPP: &str = r"
fn dpp_source(code: u32, i: u32) -> u32 {
    let in_row = i & 15u;
    let row_base = i & ~15u;
    let n = code & 15u;
    if (code == 0x200u) { return (i & ~7u) + ((arg_e(i) >> (3u * (i & 7u))) & 7u); }
    if (code <= 0xffu) { return (i & ~3u) + ((code >> (2u * (i & 3u))) & 3u); }
    if (code >= 0x101u && code <= 0x10fu) {
        if (in_row + n > 15u) { return NONE; }
        return i + n;
    }
    if (code >= 0x111u && code <= 0x11fu) {
        if (in_row < n) { return NONE; }
        return i - n;
    }
    if (code >= 0x121u && code <= 0x12fu) { return row_base + ((in_row + 16u - n) & 15u); }
    if (code == 0x130u) { return i + 1u; }
    if (code == 0x138u) {
        if (i == 0u) { return NONE; }
        return i - 1u;
    }
    if (code == 0x134u) { return (i + 1u) % LANES; }
    if (code == 0x13cu) { return (i + LANES - 1u) % LANES; }
    if (code == 0x140u) { return row_base + 15u - in_row; }
    if (code == 0x141u) { return (i & ~7u) + 7u - (i & 7u); }
    if (code == 0x142u) {
        if (i < 16u) { return NONE; }
        return row_base - 1u;
    }
    if (code == 0x143u) {
        if (i < 32u) { return NONE; }
        return 31u;
    }
    if (code >= 0x150u && code <= 0x15fu) { return row_base + n; }
    if (code >= 0x160u && code <= 0x16fu) { return row_base + (in_row ^ n); }
    return NONE;
}
// A lane that is not written keeps old (update_dpp, update_shfl) or is undefined (no old operand).
fn not_written(i: u32, hint: u32) -> Pick {
    if (HAS_OLD) { return old(i); }
    return undef(hint);
}
fn rule(i: u32) -> Pick {
    if (!is_active(i)) { return inactive(i); }
    let code = arg_a(i);
    var row_mask = arg_b(i);
    var bank_mask = arg_c(i);
    // dpp8 has no mask fields.
    if (code == 0x200u) { row_mask = 15u; bank_mask = 15u; }
    if (((row_mask >> ((i / 16u) & 3u)) & 1u) == 0u) { return not_written(i, i); }
    if (((bank_mask >> ((i / 4u) & 3u)) & 1u) == 0u) { return not_written(i, i); }
    let j = dpp_source(code, i);
    if (j < LANES && is_active(j)) { return lane_of(j); }
    let hint = select(i, j, j < LANES);
    // dpp8 has no bound_ctrl: its fi:0 fetches 0 from an inactive source (LLVM
    // AMDGPUModifierSyntax, DPP8 Modifiers), whatever the keep flag says.
    if (arg_d(i) != 0u && code != 0x200u) { return not_written(i, hint); }
    return zero(i);
}
";

/// v_readlane_b32: an SGPR read of lane lane_sel & (W − 1), EXEC ignored: every lane shows it.
const AMD_READLANE: &str = r"
fn rule(i: u32) -> Pick {
    return lane_of(arg_a(i) & (LANES - 1u));
}
";

/// v_readfirstlane_b32: the lowest lane in EXEC, lane 0 when EXEC = 0; every lane shows it.
const AMD_READFIRSTLANE: &str = r"
fn rule(i: u32) -> Pick {
    for (var k = 0u; k < LANES; k = k + 1u) {
        if (is_active(k)) { return lane_of(k); }
    }
    return lane_of(0u);
}
";

/// __builtin_mxc_readlane (seed 002): active lanes get lane thread & 63, read even if inactive.
const MACA_READLANE: &str = r"
fn rule(i: u32) -> Pick {
    if (!is_active(i)) { return inactive(i); }
    return lane_of(arg_a(i) & (LANES - 1u));
}
";

/// __builtin_mxc_readfirstlane (seed 002): active lanes get the lowest active lane's data; a lane
/// that did not call has no result (undefined).
const MACA_READFIRSTLANE: &str = r"
fn rule(i: u32) -> Pick {
    if (!is_active(i)) { return undef(i); }
    for (var k = 0u; k < LANES; k = k + 1u) {
        if (is_active(k)) { return lane_of(k); }
    }
    return undef(i);
}
";

/// WGSL spec subgroup / quad built-ins as invocation-id rules: a source outside the subgroup or
/// inactive is indeterminate. MODE 0 shuffle, 1 up, 2 down, 3 xor, 4 broadcast, 5 broadcast first,
/// 6 quadBroadcast, 7 quadSwapX, 8 quadSwapY, 9 quadSwapDiagonal.
const WGSL: &str = r"
fn rule(i: u32) -> Pick {
    if (!is_active(i)) { return inactive(i); }
    let a = arg_a(i);
    var j = NONE;
    switch MODE {
        case 0u, 4u: { j = a; }
        case 1u: { if (a <= i) { j = i - a; } }
        case 2u: { if (a < LANES - i) { j = i + a; } }
        case 3u: { j = i ^ a; }
        case 5u: {
            j = 0u;
            for (var k = LANES; k > 0u; k = k - 1u) {
                if (is_active(k - 1u)) { j = k - 1u; }
            }
        }
        case 6u: { if (a < LANES) { j = (i & ~3u) + a; } }
        case 7u: { j = i ^ 1u; }
        case 8u: { j = i ^ 2u; }
        default: { j = i ^ 3u; }
    }
    if (j >= LANES) { return undef(i); }
    return pull(i, j, undef(j));
}
";

#[cfg(test)]
mod tests {
    use super::*;
    use crosslane_core::all_ops;

    #[test]
    fn every_formula_names_a_registry_op() {
        for f in FORMULAS {
            assert!(
                all_ops().any(|o| o.dialect == f.dialect && o.name == f.op),
                "{:?} {} is not in the registry",
                f.dialect,
                f.op
            );
        }
    }

    #[test]
    fn dpp_encoding_round_trips_through_the_core_decoder() {
        // The 9-bit values are LLVM's; core decodes them independently (from_encoding).
        for text in [
            "quad_perm:[3,2,1,0]",
            "row_shl:3",
            "row_shr:15",
            "row_ror:1",
            "wave_shl:1",
            "wave_rol:1",
            "wave_shr:1",
            "wave_ror:1",
            "row_mirror",
            "row_half_mirror",
            "row_bcast:15",
            "row_bcast:31",
            "row_share:5",
            "row_xmask:9",
        ] {
            let ctrl = DppCtrl::parse(text).unwrap();
            let (code, _) = dpp_encoding(ctrl);
            assert_eq!(DppCtrl::from_encoding(code), Some(ctrl), "{text}");
        }
        let (code, sel) = dpp_encoding(DppCtrl::parse("dpp8:[7,6,5,4,3,2,1,0]").unwrap());
        assert_eq!(code, DPP8_CODE);
        // Lane 0 reads 7, lane 7 reads 0: 0b000_001_010_011_100_101_110_111.
        assert_eq!(sel, 0o01234567);
    }
}
