//! CUDA warp-level primitives on a 32-lane warp: the `__shfl*_sync` shuffles.
//!
//! Sources:
//! * PTX ISA, "Parallel Synchronization and Communication Instructions: shfl.sync" — the
//!   per-lane formula (control word `c`, `b = param & 31`, `seg`, `clamp`, `maxL`, `minL`).
//! * CUDA `sm_30_intrinsics.hpp` — how `__shfl*_sync` builds `c` from `width`:
//!   `c = ((32 - width) << 8) | 0x1f` for idx / down / xor and `c = (32 - width) << 8` for up.
//! * CUDA C++ Programming Guide, "Warp Shuffle Functions" — `width` must be a power of two no
//!   larger than warpSize, otherwise the results are undefined; every calling thread must be in
//!   `mask` and every thread named in `mask` must execute the same intrinsic, otherwise the
//!   results are undefined; 64-bit types are moved as two 32-bit shuffles.
//!
//! Readings (SEMANTICS.md "CUDA"):
//! * A width that is not a power of two or is above 32 still runs through the formula, but every
//!   calling lane is undefined; `from` carries the lane the formula would have read, as a hint.
//! * A lane named in `mask` that is not active (did not call) makes the whole call undefined; an
//!   active lane outside `mask` gets an undefined result; a source lane that is active but outside
//!   `mask` did not take part, so reading it is undefined, as is reading an inactive lane.

use crate::error::InputError;
use crate::gather::{gather, inactive_is_undefined, Pick};
use crate::lanes::{is_power_of_two, LaneMask};
use crate::op::{Dialect, OpInput, OpKind, OpOutput, OpSpec};
use crate::params::{ParamDefault, ParamKind, ParamSpec};
use crate::result::Diagnostic;
use crate::segment::width_warning;
use crate::value::ValueType;

use super::ascend::note_undefined;

/// Lanes in a CUDA warp (`warpSize`).
pub const WARP: usize = 32;

/// Where the shuffle rules come from.
const SHFL_SOURCE: &str = "PTX ISA, shfl.sync; CUDA sm_30_intrinsics.hpp (control word); \
                           CUDA C++ Programming Guide, Warp Shuffle Functions";
/// The width rule, quoted in warnings.
const WIDTH_RULE: &str = "CUDA C++ Programming Guide, Warp Shuffle Functions: width must be a \
                          power of 2 in the range [1, warpSize]";
/// The sync-mask rule, quoted in warnings.
const MASK_RULE: &str = "CUDA C++ Programming Guide, Warp Shuffle Functions / PTX ISA shfl.sync: \
                         every calling thread must be in mask, and every thread in mask must \
                         execute the same intrinsic";

/// Every type the Programming Guide lists for `__shfl*_sync` (with `cuda_fp16.h` and
/// `cuda_bf16.h`).
const SHFL_TYPES: &[ValueType] = &[
    ValueType::I32,
    ValueType::U32,
    ValueType::I64,
    ValueType::U64,
    ValueType::F32,
    ValueType::F64,
    ValueType::F16,
    ValueType::F16x2,
    ValueType::Bf16,
    ValueType::Bf16x2,
];
const SHFL_TYPE_NOTE: &str = "the Programming Guide lists int, unsigned int, long, unsigned long, \
     long long, unsigned long long, float, double, and __half, __half2, __nv_bfloat16, \
     __nv_bfloat162 with cuda_fp16.h / cuda_bf16.h";

/// CUDA's sync `mask` parameter (shared by every `_sync` intrinsic).
pub(crate) const MASK: ParamSpec = ParamSpec {
    name: "mask",
    kind: ParamKind::Mask,
    default: ParamDefault::Active,
    doc: "sync mask (hex, bit i = lane i): the lanes taking part; defaults to the active mask",
};

const WIDTH: ParamSpec = ParamSpec {
    name: "width",
    kind: ParamKind::Int {
        min: 1,
        max: i32::MAX as i64,
    },
    default: ParamDefault::Int(WARP as i64),
    doc: "segment width in lanes; a power of two in 1..=32 (default warpSize = 32)",
};

const DELTA: ParamSpec = ParamSpec {
    name: "delta",
    kind: ParamKind::Int {
        min: 0,
        max: u32::MAX as i64,
    },
    default: ParamDefault::Int(1),
    doc: "lane offset (unsigned int); only delta & 31 is used",
};

/// The four PTX `shfl.sync` modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// `shfl.sync.idx` (`__shfl_sync`).
    Idx,
    /// `shfl.sync.up` (`__shfl_up_sync`).
    Up,
    /// `shfl.sync.down` (`__shfl_down_sync`).
    Down,
    /// `shfl.sync.bfly` (`__shfl_xor_sync`).
    Xor,
}

/// The control word `c` that `sm_30_intrinsics.hpp` passes to `shfl.sync` for `width`.
/// Computed in i64 so that any encodable width gives the same low bits as the C `int` expression.
pub(crate) fn control_word(mode: Mode, width: i64) -> i64 {
    let base = (32 - width) << 8;
    match mode {
        Mode::Up => base,
        _ => base | 0x1f,
    }
}

/// The PTX `shfl.sync` formula for lane `lane`: the source lane `j` and whether it is valid
/// (`pval`). When it is not valid the lane keeps its own value.
pub(crate) fn ptx_source(mode: Mode, lane: usize, param: i64, c: i64) -> (i64, bool) {
    let i = lane as i64;
    let b = param & 31;
    let clamp = c & 31;
    let seg = (c >> 8) & 31;
    let max_l = (i & seg) | (clamp & !seg);
    let min_l = i & seg;
    match mode {
        Mode::Idx => {
            let j = min_l | (b & !seg);
            (j, j <= max_l)
        }
        // For up, maxL is the first lane of the segment.
        Mode::Up => {
            let j = i - b;
            (j, j >= max_l)
        }
        Mode::Down => {
            let j = i + b;
            (j, j <= max_l)
        }
        Mode::Xor => {
            let j = i ^ b;
            (j, j <= max_l)
        }
    }
}

/// The sync-mask check of every `_sync` intrinsic. Returns the reason the whole call is
/// undefined (a lane in `mask` did not call) and pushes the warnings.
pub(crate) fn check_mask(
    name: &str,
    input: &OpInput,
    mask: LaneMask,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<String> {
    let missing = LaneMask(mask.0 & !input.active.0).truncate(input.lanes);
    let outside = LaneMask(input.active.0 & !mask.0).truncate(input.lanes);
    if outside.count() > 0 {
        diagnostics.push(Diagnostic::warning(
            format!(
                "active lane(s) {} call {name} but are not in mask {}: their results are undefined",
                lane_list(outside),
                mask.to_hex(input.lanes)
            ),
            MASK_RULE,
        ));
    }
    if missing.count() > 0 {
        let why = format!(
            "lane(s) {} are in mask {} but are not active, so they do not execute {name}: the \
             results are undefined",
            lane_list(missing),
            mask.to_hex(input.lanes)
        );
        diagnostics.push(Diagnostic::warning(why.clone(), MASK_RULE));
        return Some(why);
    }
    None
}

/// Lanes as `3, 5, 7` (at most 8 shown).
pub(crate) fn lane_list(mask: LaneMask) -> String {
    let lanes: Vec<String> = mask.iter().take(8).map(|l| l.to_string()).collect();
    let more = if mask.count() > 8 { ", …" } else { "" };
    format!("{}{more}", lanes.join(", "))
}

/// Runs one `__shfl*_sync` by the PTX formula with the sync-mask and width rules.
fn run_shfl(
    input: &OpInput,
    mode: Mode,
    name: &str,
    param_name: &str,
) -> Result<OpOutput, InputError> {
    let param = input.params.int(param_name)?;
    let width = input.params.int("width")?;
    let mask = input.params.mask("mask")?;
    let mut diagnostics = Vec::new();
    let whole_call = check_mask(name, input, mask, &mut diagnostics);
    let bad_width = width_warning(width, WARP as i64, "__shfl*_sync", WIDTH_RULE).map(|w| {
        let why = w.message.clone();
        diagnostics.push(w);
        why
    });
    let c = control_word(mode, width);
    let results = gather(
        input,
        |i| {
            let (j, ok) = ptx_source(mode, i, param, c);
            let hint = if ok && (0..WARP as i64).contains(&j) {
                Some(j as usize)
            } else {
                Some(i)
            };
            if let Some(why) = &whole_call {
                return Pick::Undefined(why.clone(), hint);
            }
            if !mask.contains(i) {
                return Pick::Undefined(
                    format!("lane {i} calls {name} but is not in mask: undefined ({MASK_RULE})"),
                    hint,
                );
            }
            if let Some(why) = &bad_width {
                return Pick::Undefined(why.clone(), hint);
            }
            if !ok {
                return Pick::Own(format!(
                    "PTX shfl.sync: source lane {j} is outside lane {i}'s segment (width {width}, \
                     {param_name} & 31 = {}): own value",
                    param & 31
                ));
            }
            let j = j as usize;
            if input.active.contains(j) && !mask.contains(j) {
                return Pick::Undefined(
                    format!("source lane {j} is not in mask: it does not take part ({MASK_RULE})"),
                    Some(j),
                );
            }
            Pick::Lane(j)
        },
        inactive_is_undefined,
    );
    note_undefined(&results, &mut diagnostics);
    Ok(OpOutput {
        results,
        diagnostics,
    })
}

fn run_idx(input: &OpInput) -> Result<OpOutput, InputError> {
    run_shfl(input, Mode::Idx, "__shfl_sync", "src_lane")
}

fn run_up(input: &OpInput) -> Result<OpOutput, InputError> {
    run_shfl(input, Mode::Up, "__shfl_up_sync", "delta")
}

fn run_down(input: &OpInput) -> Result<OpOutput, InputError> {
    run_shfl(input, Mode::Down, "__shfl_down_sync", "delta")
}

fn run_xor(input: &OpInput) -> Result<OpOutput, InputError> {
    run_shfl(input, Mode::Xor, "__shfl_xor_sync", "lane_mask")
}

/// Shared wording: how 64-bit values move, and the mask / inactive / width rules.
macro_rules! shfl_common {
    () => {
        " Only param & 31 is used. 64-bit types (long long, unsigned long long, double) are two \
         32-bit shuffles with the same parameters, so both halves come from the same source lane; \
         __half2 / __nv_bfloat162 are one 32-bit shuffle. Reading an inactive lane, or a lane \
         outside mask, is undefined; an active lane outside mask, or a mask lane that does not \
         call, makes results undefined. A width that is not a power of two in [1, 32] leaves \
         every lane undefined (from = the lane the formula would read)."
    };
}

/// The CUDA operations.
pub const OPS: &[OpSpec] = &[
    OpSpec {
        dialect: Dialect::Cuda,
        name: "__shfl_sync",
        aliases: &["shfl_sync"],
        signature: "T __shfl_sync(unsigned mask, T var, int srcLane, int width = warpSize)",
        rule: concat!(
            "PTX shfl.sync.idx with c = ((32 - width) << 8) | 0x1f: lane i reads \
             j = minL | (b & ~seg), b = srcLane & 31, i.e. lane srcLane mod width of its own \
             segment (negative srcLane too); j > maxL keeps the own value.",
            shfl_common!()
        ),
        source: SHFL_SOURCE,
        params: &[
            MASK,
            ParamSpec {
                name: "src_lane",
                kind: ParamKind::Int {
                    min: i32::MIN as i64,
                    max: i32::MAX as i64,
                },
                default: ParamDefault::Int(0),
                doc: "source lane within the caller's segment (int; only src_lane & 31 is used)",
            },
            WIDTH,
        ],
        types: SHFL_TYPES,
        type_note: SHFL_TYPE_NOTE,
        kind: OpKind::Lanes,
        run: run_idx,
    },
    OpSpec {
        dialect: Dialect::Cuda,
        name: "__shfl_up_sync",
        aliases: &["shfl_up_sync"],
        signature:
            "T __shfl_up_sync(unsigned mask, T var, unsigned int delta, int width = warpSize)",
        rule: concat!(
            "PTX shfl.sync.up with c = (32 - width) << 8: lane i reads j = i - (delta & 31) when \
             j is at or after the start of its segment (maxL); otherwise its own value (no wrap).",
            shfl_common!()
        ),
        source: SHFL_SOURCE,
        params: &[MASK, DELTA, WIDTH],
        types: SHFL_TYPES,
        type_note: SHFL_TYPE_NOTE,
        kind: OpKind::Lanes,
        run: run_up,
    },
    OpSpec {
        dialect: Dialect::Cuda,
        name: "__shfl_down_sync",
        aliases: &["shfl_down_sync"],
        signature:
            "T __shfl_down_sync(unsigned mask, T var, unsigned int delta, int width = warpSize)",
        rule: concat!(
            "PTX shfl.sync.down with c = ((32 - width) << 8) | 0x1f: lane i reads \
             j = i + (delta & 31) when j is at or before the end of its segment (maxL); otherwise \
             its own value (no wrap).",
            shfl_common!()
        ),
        source: SHFL_SOURCE,
        params: &[MASK, DELTA, WIDTH],
        types: SHFL_TYPES,
        type_note: SHFL_TYPE_NOTE,
        kind: OpKind::Lanes,
        run: run_down,
    },
    OpSpec {
        dialect: Dialect::Cuda,
        name: "__shfl_xor_sync",
        aliases: &["shfl_xor_sync"],
        signature: "T __shfl_xor_sync(unsigned mask, T var, int laneMask, int width = warpSize)",
        rule: concat!(
            "PTX shfl.sync.bfly with c = ((32 - width) << 8) | 0x1f: lane i reads \
             j = i ^ (laneMask & 31) when j is at or before the end of its segment (maxL): an \
             earlier segment may be read, a later one gives the own value.",
            shfl_common!()
        ),
        source: SHFL_SOURCE,
        params: &[
            MASK,
            ParamSpec {
                name: "lane_mask",
                kind: ParamKind::Int {
                    min: i32::MIN as i64,
                    max: i32::MAX as i64,
                },
                default: ParamDefault::Int(1),
                doc: "xor-ed with the caller's lane id (int; only lane_mask & 31 is used)",
            },
            WIDTH,
        ],
        types: SHFL_TYPES,
        type_note: SHFL_TYPE_NOTE,
        kind: OpKind::Lanes,
        run: run_xor,
    },
];

/// Whether `width` is one the Programming Guide defines (a power of two in 1..=32).
pub fn width_is_defined(width: i64) -> bool {
    is_power_of_two(width) && width <= WARP as i64
}
