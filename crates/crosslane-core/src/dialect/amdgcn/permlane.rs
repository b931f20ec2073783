//! The VALU lane permutes of RDNA: `v_permlane16_b32`, `v_permlanex16_b32` (GFX10+) and
//! `v_permlane64_b32` (GFX11+), called from HIP as `__builtin_amdgcn_permlane16(old, src,
//! sel_lo, sel_hi, fi, bound_ctrl)`, `__builtin_amdgcn_permlanex16(…)` and
//! `__builtin_amdgcn_permlane64(src)`.
//!
//! Sources:
//! * AMD "RDNA3" Instruction Set Architecture Reference Guide, 16.12 VOP3 Instructions,
//!   V_PERMLANE16_B32 and V_PERMLANEX16_B32 (the pseudo-code: `lanesel = { S2, S1 }`; in each
//!   row of 16 lanes, lane `i` in EXEC gets `tmp[row * 16 + lanesel[4i+3:4i]]`, X16 reads the
//!   other row of the pair, `altrow = { row[1], ~row[0] }`; "OPSEL\[0\] is overloaded to represent
//!   the DPP 'FI' (Fetch Inactive) bit and OPSEL\[1\] … the DPP 'BOUND_CTRL' bit"), and the AMD
//!   "RDNA3.5" ISA, 16.8 VOP1 Instructions, V_PERMLANE64_B32 (lane `{ ~lane[5], lane[4:0] }`;
//!   "In wave32 mode this opcode is translated to V_NOP and performs no writes"; "the EXEC mask
//!   of the destination lane is used as the read mask for the alternate lane; as a result this
//!   opcode may read values from disabled lanes").
//! * The DPP meaning of the two bits (semantics.md "AMD DPP": an invalid source — here only an
//!   inactive one, since every selector reaches a lane of the wave — gives 0 with bound_ctrl,
//!   else the destination keeps `old`; FI reads the inactive lane's register instead), which
//!   LLVM's own folding agrees with: `AMDGPUInstCombineIntrinsic.cpp`, `amdgcn_permlane16` /
//!   `amdgcn_permlanex16`, drops `old` ("vdst_in … not going to be read") exactly when `fi` or
//!   `bound_ctrl` is set.
//! * The builtins' signatures and targets: clang `BuiltinsAMDGPU.def`
//!   (`__builtin_amdgcn_permlane16` / `permlanex16`: `"UiUiUiUiUiIbIb"`, feature
//!   `gfx10-insts`, `fi` and `bound_ctrl` constant; `__builtin_amdgcn_permlane64`: `"UiUi"`,
//!   feature `gfx11-insts`). On a target without the feature clang refuses the builtin
//!   ("needs target feature gfx10-insts"), so the op refuses it on field `arch`.

use crate::args::{Arg, Role, Thread, PER_LANE, SGPR};
use crate::error::InputError;
use crate::op::{Dialect, OpInput, OpKind, OpOutput, OpSpec, Proto};
use crate::params::{ParamDefault, ParamKind, ParamSpec};
use crate::result::{Diagnostic, LaneResult};
use crate::value::Value;

use super::arch::{self, Target, TARGETS};
use super::{TYPES_B32, TYPE_NOTE_B32};

const ISA16: &str = "AMD RDNA3 ISA, 16.12 VOP3 Instructions, V_PERMLANE16_B32 / \
                     V_PERMLANEX16_B32 (OPSEL[0] = DPP FI, OPSEL[1] = DPP BOUND_CTRL; \
                     semantics.md \"AMD permlane\")";
const ISA64: &str = "AMD RDNA3.5 ISA, 16.8 VOP1 Instructions, V_PERMLANE64_B32 (semantics.md \
                     \"AMD permlane\")";
const CLANG: &str = "clang BuiltinsAMDGPU.def";

/// `v_permlane64_b32`'s target setting: the dialect's [`arch::ARCH`] with gfx1100 (RDNA3, the
/// first GFX11 target) as its default, since the dialect's default, gfx1030, lacks the
/// instruction and an op's defaults must run.
const ARCH_GFX11: ParamSpec = ParamSpec {
    default: ParamDefault::Text("gfx1100"),
    doc: "AMD target (LLVM processor, --offload-arch): gfx1100, gfx1150 or gfx1200 have \
          v_permlane64_b32 (the others are refused); default gfx1100",
    ..arch::ARCH
};

const OLD: ParamSpec = ParamSpec {
    name: "old",
    kind: ParamKind::PerLaneValue,
    default: ParamDefault::Int(0),
    doc: "per-lane destination value kept where an inactive source is read with fi and \
          bound_ctrl both false",
};

const fn sel(name: &'static str, doc: &'static str) -> ParamSpec {
    ParamSpec {
        name,
        kind: ParamKind::Int {
            min: i32::MIN as i64,
            max: u32::MAX as i64,
        },
        default: ParamDefault::Int(0),
        doc,
    }
}

const SEL_LO: ParamSpec = sel(
    "sel_lo",
    "lane selects of row lanes 0..7, a nibble each (bits 4i+3..4i for lane i); an SGPR",
);
const SEL_HI: ParamSpec = sel(
    "sel_hi",
    "lane selects of row lanes 8..15, a nibble each (bits 4(i-8)+3..4(i-8) for lane i); an SGPR",
);
const FI: ParamSpec = ParamSpec {
    name: "fi",
    kind: ParamKind::Flag,
    default: ParamDefault::Flag(false),
    doc: "fetch inactive: true reads an inactive source lane's register; false treats it as \
          invalid (then bound_ctrl decides)",
};
const BOUND_CTRL: ParamSpec = ParamSpec {
    name: "bound_ctrl",
    kind: ParamKind::Flag,
    default: ParamDefault::Flag(false),
    doc: "invalid (inactive, fi false) source: true = write 0, false = keep old",
};

const ARGS16: &[Arg] = &[
    Arg::per_thread("old", "unsigned int", Role::Old, OLD, PER_LANE),
    Arg::operand("src", "unsigned int"),
    Arg::param(
        "sel_lo",
        "unsigned int",
        Role::SourceLane,
        SEL_LO,
        Thread::Scalar(SGPR),
    ),
    Arg::param(
        "sel_hi",
        "unsigned int",
        Role::SourceLane,
        SEL_HI,
        Thread::Scalar(SGPR),
    ),
    Arg::immediate("fi", "bool", Role::Control, FI),
    Arg::immediate("bound_ctrl", "bool", Role::Control, BOUND_CTRL),
];

/// The RDNA lane permutes.
pub const OPS: &[OpSpec] = &[
    OpSpec {
        dialect: Dialect::Amdgcn,
        name: "v_permlane16_b32",
        aliases: &[
            "permlane16",
            "__builtin_amdgcn_permlane16",
            "llvm.amdgcn.permlane16",
        ],
        proto: Proto::returns("unsigned int")
            .call("__builtin_amdgcn_permlane16")
            .note("v_permlane16_b32 vdst, vsrc0, ssrc1, ssrc2 op_sel:[fi, bound_ctrl]"),
        args: ARGS16,
        rule:
            "Rows of 16 lanes (two on wave32, four on wave64). Active lane i of row r reads lane \
               16r + s, s = nibble i of the 64-bit {sel_hi, sel_lo} (sel_lo holds lanes 0..7). \
               An inactive source is read anyway when fi is true; otherwise it gives 0 when \
               bound_ctrl is true, else the lane keeps old. Inactive lanes are not written. \
               GFX10+ only (gfx1030, gfx1100, gfx1150, gfx1200); refused on GFX9 and CDNA.",
        source: ISA16,
        settings: &[arch::ARCH],
        types: TYPES_B32,
        type_note: TYPE_NOTE_B32,
        kind: OpKind::Lanes,
        run: run_permlane16,
    },
    OpSpec {
        dialect: Dialect::Amdgcn,
        name: "v_permlanex16_b32",
        aliases: &[
            "permlanex16",
            "__builtin_amdgcn_permlanex16",
            "llvm.amdgcn.permlanex16",
        ],
        proto: Proto::returns("unsigned int")
            .call("__builtin_amdgcn_permlanex16")
            .note("v_permlanex16_b32 vdst, vsrc0, ssrc1, ssrc2 op_sel:[fi, bound_ctrl]"),
        args: ARGS16,
        rule: "As v_permlane16_b32, but active lane i of row r reads lane 16(r XOR 1) + s of the \
               other row of its pair (rows 0 and 1, rows 2 and 3): with sel_lo = 0x76543210, \
               sel_hi = 0xfedcba98 lane i reads lane i XOR 16. fi and bound_ctrl as for \
               v_permlane16_b32. GFX10+ only; refused on GFX9 and CDNA.",
        source: ISA16,
        settings: &[arch::ARCH],
        types: TYPES_B32,
        type_note: TYPE_NOTE_B32,
        kind: OpKind::Lanes,
        run: run_permlanex16,
    },
    OpSpec {
        dialect: Dialect::Amdgcn,
        name: "v_permlane64_b32",
        aliases: &[
            "permlane64",
            "__builtin_amdgcn_permlane64",
            "llvm.amdgcn.permlane64",
        ],
        proto: Proto::returns("unsigned int")
            .call("__builtin_amdgcn_permlane64")
            .note("v_permlane64_b32 vdst, vsrc0"),
        args: &[Arg::operand("src", "unsigned int")],
        rule: "Wave64: active lane i reads lane i XOR 32 (the halves swap), whether or not that \
               lane is active (the destination's EXEC bit is the read mask). Wave32: the \
               instruction is a NOP and writes nothing, so the result is undefined. GFX11+ only \
               (gfx1100, gfx1150, gfx1200); refused on GFX9, CDNA and RDNA2.",
        source: ISA64,
        settings: &[ARCH_GFX11],
        types: TYPES_B32,
        type_note: TYPE_NOTE_B32,
        kind: OpKind::Lanes,
        run: run_permlane64,
    },
];

/// Whether `t` has the instruction: `gfx10-insts` (GFX10+) for permlane16/x16, `gfx11-insts`
/// (GFX11+) for permlane64 (clang `BuiltinsAMDGPU.def`).
fn has(t: Target, gfx11: bool) -> bool {
    if gfx11 {
        t.is_gfx10_plus() && t.family != arch::Family::Rdna2
    } else {
        t.is_gfx10_plus()
    }
}

/// The target, refused on field `arch` when it lacks the instruction, naming those that have it.
fn target_with(input: &OpInput, insn: &str, gfx11: bool) -> Result<Target, InputError> {
    let t = arch::target(input)?;
    if has(t, gfx11) {
        return Ok(t);
    }
    let with: Vec<&str> = TARGETS
        .iter()
        .filter(|k| has(**k, gfx11))
        .map(|k| k.name)
        .collect();
    Err(InputError::new(
        "arch",
        format!(
            "{insn} does not exist on {} ({}); it exists on {} ({CLANG}: the builtin needs \
             target feature {})",
            t.name,
            t.product,
            with.join(", "),
            if gfx11 { "gfx11-insts" } else { "gfx10-insts" }
        ),
    ))
}

/// Nibble `i` (0..=15) of the 64-bit select `{sel_hi, sel_lo}`.
pub fn lane_select(sel_lo: u32, sel_hi: u32, i: usize) -> usize {
    let sel = (u64::from(sel_hi) << 32) | u64::from(sel_lo);
    ((sel >> (4 * (i & 15))) & 0xf) as usize
}

/// The lane that lane `i` reads: in its own row (`cross` false) or the other row of its pair.
pub fn permlane_source(sel_lo: u32, sel_hi: u32, i: usize, cross: bool) -> usize {
    let row = i / 16;
    let row = if cross { row ^ 1 } else { row };
    16 * row + lane_select(sel_lo, sel_hi, i)
}

fn select_word(input: &OpInput, name: &str) -> Result<u32, InputError> {
    Ok(input.params.int(name)? as u32)
}

fn run_permlane(input: &OpInput, cross: bool) -> Result<OpOutput, InputError> {
    let insn = if cross {
        "v_permlanex16_b32"
    } else {
        "v_permlane16_b32"
    };
    let t = target_with(input, insn, false)?;
    let sel_lo = select_word(input, "sel_lo")?;
    let sel_hi = select_word(input, "sel_hi")?;
    let fi = input.params.flag("fi")?;
    let bound_ctrl = input.params.flag("bound_ctrl")?;
    let old = input.params.values("old")?;
    let zero = Value::from_bits(input.ty, 0);
    let mut diagnostics = vec![Diagnostic::info(
        format!(
            "{insn} on {} ({}): lane selects {{sel_hi, sel_lo}} = 0x{sel_hi:08x}{sel_lo:08x}, \
             fi = {}, bound_ctrl = {}",
            t.name, t.product, fi as u8, bound_ctrl as u8
        ),
        ISA16,
    )];
    let mut fetched = Vec::new();
    let results: Vec<LaneResult> = (0..input.lanes)
        .map(|i| {
            if !input.active.contains(i) {
                return LaneResult::inactive();
            }
            let j = permlane_source(sel_lo, sel_hi, i, cross);
            let Some(v) = input.values.get(j) else {
                return LaneResult::undefined(format!("source lane {j} has no value"), Some(j));
            };
            if input.active.contains(j) {
                return LaneResult::lane(*v, j);
            }
            if fi {
                fetched.push(j);
                return LaneResult {
                    why: Some(format!(
                        "source lane {j} is inactive: fi = 1 reads its register anyway"
                    )),
                    ..LaneResult::lane(*v, j)
                };
            }
            if bound_ctrl {
                return LaneResult::zero(
                    zero,
                    format!("source lane {j} is inactive (fi = 0): bound_ctrl = 1 writes 0"),
                );
            }
            match old.get(i) {
                Some(o) => LaneResult::old(
                    *o,
                    format!(
                        "source lane {j} is inactive (fi = 0) and bound_ctrl = 0: the lane keeps \
                         old"
                    ),
                ),
                None => LaneResult::undefined(format!("lane {i} has no old value"), Some(j)),
            }
        })
        .collect();
    if let Some(j) = fetched.first() {
        diagnostics.push(Diagnostic::info(
            format!(
                "{} lane(s) read an inactive lane's register because fi = 1 (e.g. lane {j}): \
                 what an inactive lane's register holds is the program's, not the call's",
                fetched.len()
            ),
            ISA16,
        ));
    }
    Ok(OpOutput {
        results,
        diagnostics,
    })
}

fn run_permlane16(input: &OpInput) -> Result<OpOutput, InputError> {
    run_permlane(input, false)
}

fn run_permlanex16(input: &OpInput) -> Result<OpOutput, InputError> {
    run_permlane(input, true)
}

fn run_permlane64(input: &OpInput) -> Result<OpOutput, InputError> {
    let t = target_with(input, "v_permlane64_b32", true)?;
    if input.lanes == 32 {
        let why = "wave32: v_permlane64_b32 is translated to V_NOP and performs no writes, so \
                   the destination holds whatever it held before: undefined";
        let results = (0..input.lanes)
            .map(|i| {
                if input.active.contains(i) {
                    LaneResult::undefined(why, None)
                } else {
                    LaneResult::inactive()
                }
            })
            .collect();
        return Ok(OpOutput {
            results,
            diagnostics: vec![Diagnostic::warning(
                format!("{} (wave32): {why}", t.name),
                ISA64,
            )],
        });
    }
    let results = (0..input.lanes)
        .map(|i| {
            if !input.active.contains(i) {
                return LaneResult::inactive();
            }
            let j = i ^ 32;
            match input.values.get(j) {
                Some(v) if input.active.contains(j) => LaneResult::lane(*v, j),
                Some(v) => LaneResult {
                    why: Some(format!(
                        "source lane {j} is inactive: v_permlane64_b32 reads it anyway (the \
                         destination's EXEC bit is the read mask)"
                    )),
                    ..LaneResult::lane(*v, j)
                },
                None => LaneResult::undefined(format!("source lane {j} has no value"), Some(j)),
            }
        })
        .collect();
    Ok(OpOutput {
        results,
        diagnostics: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selects_by_nibble() {
        // The ISA's rotation example: s0 = 0x87654321, s1 = 0x0fedcba9: lane 0 <- 1, lane 14
        // <- 15, lane 15 <- 0; row 1: lane 16 <- 17, lane 31 <- 16.
        let (lo, hi) = (0x8765_4321, 0x0fed_cba9);
        assert_eq!(permlane_source(lo, hi, 0, false), 1);
        assert_eq!(permlane_source(lo, hi, 14, false), 15);
        assert_eq!(permlane_source(lo, hi, 15, false), 0);
        assert_eq!(permlane_source(lo, hi, 16, false), 17);
        assert_eq!(permlane_source(lo, hi, 31, false), 16);
        // X16 example: lane 15 <- 16, lane 31 <- 0.
        assert_eq!(permlane_source(lo, hi, 15, true), 16);
        assert_eq!(permlane_source(lo, hi, 31, true), 0);
        // Rows 2 and 3 pair up on wave64.
        assert_eq!(permlane_source(0x7654_3210, 0xfedc_ba98, 33, true), 49);
    }
}
