//! HIP warp cross-lane functions on wave64 and wave32: `__shfl`, `__shfl_up`, `__shfl_down`,
//! `__shfl_xor`, `__ballot`, `__any`, `__all`.
//!
//! Sources:
//! * ROCm clr `hipamd/include/hip/amd_detail/amd_warp_functions.h` — every shuffle computes an
//!   `int index` and calls `__builtin_amdgcn_ds_bpermute(index << 2, var)`; the index formulas are
//!   quoted on each op (semantics.md "HIP"). 64-bit types are two bpermutes with the same index.
//! * AMD ISA, `ds_bpermute_b32` — the lane read is `((addr >> 2) mod 64)`.
//! * HIP Programming Guide, "Warp cross-lane functions" — `width` defaults to `warpSize` and must
//!   be a power of two no larger than `warpSize`; `__ballot` / `__any` / `__all` semantics.
//!
//! Target: every op takes the AMD target as `arch` (as the amdgcn ops, [`arch`], default gfx1030):
//! wave32 exists on GFX10+ only, and on RDNA3/3.5 wave64 the ds_bpermute a shuffle compiles to
//! reaches only the caller's 32-lane half.
//!
//! Readings (documented choices):
//! * The index is computed with C `int` arithmetic (wrapping; `delta` is `unsigned int`), then the
//!   lane is `index mod 64` on wave64 and `index mod 32` on wave32 (`index & (warpSize - 1)`): the
//!   `<< 2` then `>> 2` of ds_bpermute keeps the low bits, and a wave32 bpermute addresses only its
//!   32 lanes. So negative or large xor masks wrap instead of being clamped.
//! * A width that is not a power of two or exceeds warpSize runs the formula, but the lanes are
//!   undefined (from = the lane the formula reads) with a warning.
//! * Reading an inactive lane is undefined: the hardware bpermute returns 0 there, but HIP does not
//!   promise which instruction a shuffle compiles to, so the value is not part of the contract.

use crate::args::{Arg, Role, HIP_PER_LANE};
use crate::dialect::amdgcn::arch::{self, ARCH};
use crate::error::InputError;
use crate::gather::{gather, Pick};
use crate::op::{Dialect, OpInput, OpKind, OpOutput, OpSpec, Proto};
use crate::params::{ParamDefault, ParamKind, ParamSpec};
use crate::result::{Diagnostic, LaneResult};
use crate::segment::width_warning;
use crate::value::{Value, ValueType};

use crate::gather::note_undefined;

const SHFL_SOURCE: &str = "ROCm clr amd_warp_functions.h (__shfl, __shfl_up, __shfl_down, \
                           __shfl_xor); AMD ISA ds_bpermute_b32; HIP Programming Guide, Warp \
                           cross-lane functions";
const WIDTH_RULE: &str = "HIP Programming Guide, Warp shuffle functions: width must be a power of \
                          2 no larger than warpSize";
const VOTE_SOURCE: &str = "HIP Programming Guide, Warp vote and ballot functions; ROCm clr \
                           amd_warp_functions.h";

/// Types `amd_warp_functions.h` (and `amd_hip_fp16.h` for `__half`, `__half2`) overload.
const SHFL_TYPES: &[ValueType] = &[
    ValueType::I32,
    ValueType::U32,
    ValueType::F32,
    ValueType::I64,
    ValueType::U64,
    ValueType::F64,
    ValueType::F16,
    ValueType::F16x2,
];
const SHFL_TYPE_NOTE: &str = "amd_warp_functions.h overloads int, unsigned int, float, double, \
     long, unsigned long, long long, unsigned long long; amd_hip_fp16.h adds __half and __half2";

const WIDTH: ParamSpec = ParamSpec {
    name: "width",
    kind: ParamKind::PerLaneInt {
        min: 1,
        max: i32::MAX as i64,
    },
    default: ParamDefault::Lanes,
    doc: "segment width in lanes; a power of two ≤ warpSize (default warpSize: 64 or 32)",
};

const DELTA: ParamSpec = ParamSpec {
    name: "delta",
    kind: ParamKind::PerLaneInt {
        min: 0,
        max: u32::MAX as i64,
    },
    default: ParamDefault::Int(1),
    doc: "lane offset (unsigned int), used whole",
};

/// The four HIP shuffle formulas.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// `__shfl`.
    Idx,
    /// `__shfl_up`.
    Up,
    /// `__shfl_down`.
    Down,
    /// `__shfl_xor`.
    Xor,
}

/// The `int index` that `amd_warp_functions.h` computes for lane `lane`, and whether it is the
/// fallback `index = self`. C `int` arithmetic: wrapping, `delta` converted as `unsigned int`.
pub(crate) fn hip_index(mode: Mode, lane: usize, param: i64, width: i64) -> (i32, bool) {
    let me = lane as i32;
    let width = width as i32;
    let w1 = width.wrapping_sub(1);
    match mode {
        // index = (src_lane & (width - 1)) + (self & ~(width - 1))
        Mode::Idx => ((param as i32 & w1).wrapping_add(me & !w1), false),
        // index = self - lane_delta; if (index < (self & ~(width - 1))) index = self
        Mode::Up => {
            let index = (me as u32).wrapping_sub(param as u32) as i32;
            if index < (me & !w1) {
                (me, true)
            } else {
                (index, false)
            }
        }
        // index = self + lane_delta; if ((int)((self & (width - 1)) + lane_delta) >= width) index = self
        Mode::Down => {
            let index = (me as u32).wrapping_add(param as u32) as i32;
            if ((me & w1) as u32).wrapping_add(param as u32) as i32 >= width {
                (me, true)
            } else {
                (index, false)
            }
        }
        // index = self ^ lane_mask; if (index >= ((self + width) & ~(width - 1))) index = self
        Mode::Xor => {
            let index = me ^ (param as i32);
            if index >= (me.wrapping_add(width) & !w1) {
                (me, true)
            } else {
                (index, false)
            }
        }
    }
}

/// The lane ds_bpermute reads for `index` on a `lanes`-lane wave (`index mod lanes`).
pub(crate) fn bpermute_lane(index: i32, lanes: usize) -> usize {
    (index as i64).rem_euclid(lanes as i64) as usize
}

/// Runs one HIP shuffle: every lane computes its index from its own `param` and `width` (the
/// index is computed per lane before `ds_bpermute`, semantics.md "Per-thread and uniform
/// operands").
fn run_shfl(
    input: &OpInput,
    mode: Mode,
    name: &str,
    param_name: &str,
) -> Result<OpOutput, InputError> {
    let target = arch::target(input)?;
    let lanes = input.lanes;
    let mut diagnostics = Vec::new();
    // RDNA3/3.5 wave64: the ds_bpermute under every HIP shuffle takes the lane MOD 32 within
    // each half (see amdgcn::permute::lane_in), so a read across the halves lands in the
    // caller's own half.
    let half = target.permute_mod32() && lanes > 32;
    if half {
        diagnostics.push(Diagnostic::info(
            format!(
                "{} wave64: the ds_bpermute under {name} takes the lane index MOD 32 within each \
                 32-lane half (RDNA3 ISA, DS_BPERMUTE_B32), so a read across the halves lands in \
                 the caller's own half",
                target.name
            ),
            format!(
                "{}, DS_BPERMUTE_B32; ROCm clr amd_warp_functions.h",
                target.guide
            ),
        ));
    }
    let mut bad_widths: Vec<(i64, String)> = Vec::new();
    for i in input.active.iter().filter(|&i| i < lanes) {
        let width = input.params.lane_int("width", i)?;
        if bad_widths.iter().any(|(w, _)| *w == width) {
            continue;
        }
        if let Some(w) = width_warning(width, lanes as i64, name, WIDTH_RULE) {
            bad_widths.push((width, w.message.clone()));
            diagnostics.push(w);
        }
    }
    let results = gather(
        input,
        |i| {
            let (Ok(param), Ok(width)) = (
                input.params.lane_int(param_name, i),
                input.params.lane_int("width", i),
            ) else {
                return Pick::Undefined(format!("lane {i} has no {param_name} or width"), None);
            };
            let (index, fell_back) = hip_index(mode, i, param, width);
            let j = if half {
                (i & !31) | bpermute_lane(index, 32)
            } else {
                bpermute_lane(index, lanes)
            };
            if let Some((_, why)) = bad_widths.iter().find(|(w, _)| *w == width) {
                return Pick::Undefined(why.clone(), Some(j));
            }
            if fell_back {
                return Pick::Own(format!(
                    "amd_warp_functions.h {name}: {param_name} {param} leaves lane {i}'s \
                     width-{width} segment, so index = self: own value"
                ));
            }
            Pick::Lane(j)
        },
        |_dst, src| {
            Pick::Undefined(
                format!(
                    "source lane {src} is inactive: HIP does not define the value (ds_bpermute \
                     itself would return 0)"
                ),
                Some(src),
            )
        },
    );
    note_undefined(&results, &mut diagnostics);
    Ok(OpOutput {
        results,
        diagnostics,
    })
}

fn run_idx(input: &OpInput) -> Result<OpOutput, InputError> {
    run_shfl(input, Mode::Idx, "__shfl", "src_lane")
}

fn run_up(input: &OpInput) -> Result<OpOutput, InputError> {
    run_shfl(input, Mode::Up, "__shfl_up", "delta")
}

fn run_down(input: &OpInput) -> Result<OpOutput, InputError> {
    run_shfl(input, Mode::Down, "__shfl_down", "delta")
}

fn run_xor(input: &OpInput) -> Result<OpOutput, InputError> {
    run_shfl(input, Mode::Xor, "__shfl_xor", "lane_mask")
}

/// The ballot of the active lanes whose predicate (the operand) is non-zero.
fn ballot_mask(input: &OpInput) -> u64 {
    input
        .values
        .iter()
        .enumerate()
        .filter(|(i, v)| input.active.contains(*i) && v.bits != 0)
        .fold(0u64, |m, (i, _)| m | (1u64 << i))
}

/// Every active lane gets `value`, computed; inactive lanes compute nothing.
pub(crate) fn broadcast_computed(input: &OpInput, value: Value) -> Vec<LaneResult> {
    (0..input.lanes)
        .map(|i| {
            if input.active.contains(i) {
                LaneResult::computed(value)
            } else {
                LaneResult::inactive()
            }
        })
        .collect()
}

fn run_ballot(input: &OpInput) -> Result<OpOutput, InputError> {
    arch::target(input)?;
    let mask = ballot_mask(input);
    Ok(OpOutput {
        results: broadcast_computed(input, Value::from_bits(ValueType::U64, mask)),
        diagnostics: Vec::new(),
    })
}

fn run_any(input: &OpInput) -> Result<OpOutput, InputError> {
    arch::target(input)?;
    let any = ballot_mask(input) != 0;
    Ok(OpOutput {
        results: broadcast_computed(input, Value::from_i64(ValueType::I32, any as i64)),
        diagnostics: Vec::new(),
    })
}

fn run_all(input: &OpInput) -> Result<OpOutput, InputError> {
    arch::target(input)?;
    let all = ballot_mask(input) == input.active.truncate(input.lanes).0 as u64;
    Ok(OpOutput {
        results: broadcast_computed(input, Value::from_i64(ValueType::I32, all as i64)),
        diagnostics: Vec::new(),
    })
}

/// The HIP operations.
pub const OPS: &[OpSpec] = &[
    OpSpec {
        dialect: Dialect::Hip,
        name: "__shfl",
        aliases: &["shfl"],
        proto: Proto::returns("T"),
        args: &[
            Arg::operand("var", "T"),
            Arg::per_thread(
                "src_lane",
                "int",
                Role::SourceLane,
                ParamSpec {
                    name: "src_lane",
                    kind: ParamKind::PerLaneInt {
                        min: i32::MIN as i64,
                        max: i32::MAX as i64,
                    },
                    default: ParamDefault::Int(0),
                    doc: "source lane within the caller's segment (int, taken mod width)",
                },
                HIP_PER_LANE,
            ),
            Arg::per_thread("width", "int", Role::Width, WIDTH, HIP_PER_LANE),
        ],
        rule:
            "index = (src_lane & (width - 1)) + (self & ~(width - 1)): lane src_lane mod width of \
               the caller's segment (src_lane used whole, two's complement). The lane read is \
               index mod warpSize (ds_bpermute). 64-bit types are two 32-bit bpermutes with the \
               same index. Reading an inactive lane is undefined. A width that is not a power of \
               two ≤ warpSize leaves every lane undefined (from = the lane the formula reads).",
        source: SHFL_SOURCE,
        settings: &[ARCH],
        types: SHFL_TYPES,
        type_note: SHFL_TYPE_NOTE,
        kind: OpKind::Lanes,
        run: run_idx,
    },
    OpSpec {
        dialect: Dialect::Hip,
        name: "__shfl_up",
        aliases: &["shfl_up"],
        proto: Proto::returns("T"),
        args: &[
            Arg::operand("var", "T"),
            Arg::per_thread(
                "lane_delta",
                "unsigned int",
                Role::DeltaUp,
                DELTA,
                HIP_PER_LANE,
            ),
            Arg::per_thread("width", "int", Role::Width, WIDTH, HIP_PER_LANE),
        ],
        rule: "index = self - delta; if index < (self & ~(width - 1)) then index = self (own \
               value): no wrap, delta used whole (delta ≥ width → own value everywhere). The lane \
               read is index mod warpSize (ds_bpermute). Reading an inactive lane is undefined.",
        source: SHFL_SOURCE,
        settings: &[ARCH],
        types: SHFL_TYPES,
        type_note: SHFL_TYPE_NOTE,
        kind: OpKind::Lanes,
        run: run_up,
    },
    OpSpec {
        dialect: Dialect::Hip,
        name: "__shfl_down",
        aliases: &["shfl_down"],
        proto: Proto::returns("T"),
        args: &[
            Arg::operand("var", "T"),
            Arg::per_thread(
                "lane_delta",
                "unsigned int",
                Role::DeltaDown,
                DELTA,
                HIP_PER_LANE,
            ),
            Arg::per_thread("width", "int", Role::Width, WIDTH, HIP_PER_LANE),
        ],
        rule: "index = self + delta; if (int)((self & (width - 1)) + delta) >= width then index = \
               self (own value): no wrap, delta used whole (down by 33 with width 16 → own \
               value). The lane read is index mod warpSize (ds_bpermute). Reading an inactive lane \
               is undefined.",
        source: SHFL_SOURCE,
        settings: &[ARCH],
        types: SHFL_TYPES,
        type_note: SHFL_TYPE_NOTE,
        kind: OpKind::Lanes,
        run: run_down,
    },
    OpSpec {
        dialect: Dialect::Hip,
        name: "__shfl_xor",
        aliases: &["shfl_xor"],
        proto: Proto::returns("T"),
        args: &[
            Arg::operand("var", "T"),
            Arg::per_thread(
                "lane_mask",
                "int",
                Role::LaneMask,
                ParamSpec {
                    name: "lane_mask",
                    kind: ParamKind::PerLaneInt {
                        min: i32::MIN as i64,
                        max: i32::MAX as i64,
                    },
                    default: ParamDefault::Int(1),
                    doc: "xor-ed with the caller's lane id (int, used whole)",
                },
                HIP_PER_LANE,
            ),
            Arg::per_thread("width", "int", Role::Width, WIDTH, HIP_PER_LANE),
        ],
        rule: "index = self ^ lane_mask; if index >= ((self + width) & ~(width - 1)) then index = \
               self (own value): an earlier segment may be read, a later one gives the own value. \
               A negative index (negative lane_mask) passes the check and wraps: the lane read is \
               index mod warpSize (ds_bpermute). Reading an inactive lane is undefined.",
        source: SHFL_SOURCE,
        settings: &[ARCH],
        types: SHFL_TYPES,
        type_note: SHFL_TYPE_NOTE,
        kind: OpKind::Lanes,
        run: run_xor,
    },
    OpSpec {
        dialect: Dialect::Hip,
        name: "__ballot",
        aliases: &["ballot"],
        proto: Proto::returns("unsigned long long"),
        args: &[Arg::operand("predicate", "int")],
        rule: "Every active lane gets a 64-bit mask with bit i set when lane i is active and its \
               predicate (the operand) is non-zero; inactive lanes contribute 0 (on wave32 the \
               upper 32 bits are 0).",
        source: VOTE_SOURCE,
        settings: &[ARCH],
        types: &[ValueType::I32],
        type_note: "__ballot takes an int predicate",
        kind: OpKind::Lanes,
        run: run_ballot,
    },
    OpSpec {
        dialect: Dialect::Hip,
        name: "__any",
        aliases: &["any"],
        proto: Proto::returns("int"),
        args: &[Arg::operand("predicate", "int")],
        rule:
            "Every active lane gets 1 when the predicate (the operand) is non-zero on any active \
               lane, else 0.",
        source: VOTE_SOURCE,
        settings: &[ARCH],
        types: &[ValueType::I32],
        type_note: "__any takes an int predicate",
        kind: OpKind::Lanes,
        run: run_any,
    },
    OpSpec {
        dialect: Dialect::Hip,
        name: "__all",
        aliases: &["all"],
        proto: Proto::returns("int"),
        args: &[Arg::operand("predicate", "int")],
        rule: "Every active lane gets 1 when the predicate (the operand) is non-zero on every \
               active lane, else 0.",
        source: VOTE_SOURCE,
        settings: &[ARCH],
        types: &[ValueType::I32],
        type_note: "__all takes an int predicate",
        kind: OpKind::Lanes,
        run: run_all,
    },
];
