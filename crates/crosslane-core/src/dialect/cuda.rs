//! CUDA warp-level primitives on a 32-lane warp: the `__shfl*_sync` shuffles, the vote functions
//! (`__ballot_sync`, `__any_sync`, `__all_sync`, `__activemask`), the match functions
//! (`__match_any_sync`, `__match_all_sync`) and the reduce functions (`__reduce_*_sync`).
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
//! * CUDA C++ Programming Guide, "Warp Vote Functions", "Warp Match Functions", "Warp Reduce
//!   Functions" — the collectives; they are computed over the lanes of `mask` and obey the same
//!   sync-mask rule as the shuffles.
//!
//! Readings (semantics.md "CUDA"):
//! * A width that is not a power of two or is above 32 still runs through the formula, but every
//!   calling lane is undefined; `from` carries the lane the formula would have read, as a hint.
//! * Exited lanes (`OpInput::exited`: threads that exited, or never launched in a partial warp)
//!   neither call nor break the sync rule, which names "non-exited threads"; a full mask over a
//!   partial warp is then well defined. Reading an exited lane's value is undefined.
//! * A lane named in `mask` that is not active (did not call) makes the whole call undefined; an
//!   active lane outside `mask` gets an undefined result; a source lane that is active but outside
//!   `mask` did not take part, so reading it is undefined, as is reading an inactive lane.

use crate::args::{Arg, Role, Thread, CUDA_PER_THREAD, CUDA_SAME_MASK};
use crate::arith::{fold, BinOp};
use crate::error::InputError;
use crate::gather::{gather, inactive_is_undefined, Pick};
use crate::lanes::{is_power_of_two, LaneMask};
use crate::op::{Dialect, OpInput, OpKind, OpOutput, OpSpec, Proto};
use crate::params::{ParamDefault, ParamKind, ParamSpec};
use crate::result::{Diagnostic, LaneResult};
use crate::segment::width_warning;
use crate::value::{Value, ValueType};

use crate::gather::note_undefined;

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

/// The sync `mask` argument every `*_sync` op takes first: the same in every caller.
const SYNC_MASK: Arg = Arg::param(
    "mask",
    "unsigned",
    Role::SyncMask,
    MASK,
    Thread::Uniform(CUDA_SAME_MASK),
);

const WIDTH: ParamSpec = ParamSpec {
    name: "width",
    kind: ParamKind::PerLaneInt {
        min: 1,
        max: i32::MAX as i64,
    },
    default: ParamDefault::Lanes,
    doc: "segment width in lanes; a power of two in 1..=32 (default warpSize = 32)",
};

const DELTA: ParamSpec = ParamSpec {
    name: "delta",
    kind: ParamKind::PerLaneInt {
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

/// The sync-mask rule as the section of `name`'s own family states it: the shuffle section (and
/// PTX shfl.sync) for `__shfl*_sync`, the vote, match or reduce section for the collectives.
pub(crate) fn sync_rule(name: &str) -> String {
    let section = if name.starts_with("__shfl") {
        return MASK_RULE.to_string();
    } else if name.starts_with("__match") {
        "Warp Match Functions"
    } else if name.starts_with("__reduce") {
        "Warp Reduce Functions"
    } else {
        "Warp Vote Functions"
    };
    format!(
        "CUDA C++ Programming Guide, {section}: every calling thread must be in mask, and every \
         non-exited thread in mask must execute the same intrinsic with the same mask"
    )
}

/// The sync-mask check of every `_sync` intrinsic. Returns the reason the whole call is
/// undefined (a non-exited lane in `mask` did not call) and pushes the warnings. Exited lanes in
/// `mask` are not required to call ([`OpInput::exited`]).
pub(crate) fn check_mask(
    name: &str,
    input: &OpInput,
    mask: LaneMask,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<String> {
    let gone = LaneMask(mask.0 & input.exited.0 & !input.absent.0).truncate(input.lanes);
    let empty = LaneMask(mask.0 & input.absent.0).truncate(input.lanes);
    if empty.count() > 0 {
        diagnostics.push(Diagnostic::info(
            format!(
                "{} lane(s) {} in mask {} hold no thread (the block ends before them): nothing \
                 there calls {name}, and the sync rule binds threads only",
                empty.count(),
                lane_span(empty),
                mask.to_hex(input.lanes)
            ),
            format!("{} (non-exited threads)", sync_rule(name)),
        ));
    }
    if gone.count() > 0 {
        diagnostics.push(Diagnostic::info(
            format!(
                "lane(s) {} in mask {} have exited: they do not call {name}, and the sync rule \
                 does not require them to",
                lane_list(gone),
                mask.to_hex(input.lanes)
            ),
            format!("{} (non-exited threads)", sync_rule(name)),
        ));
    }
    let missing = LaneMask(mask.0 & !input.active.0 & !input.exited.0).truncate(input.lanes);
    let outside = LaneMask(input.active.0 & !mask.0).truncate(input.lanes);
    if outside.count() > 0 {
        diagnostics.push(Diagnostic::warning(
            format!(
                "active lane(s) {} call {name} but are not in mask {}: their results are undefined",
                lane_list(outside),
                mask.to_hex(input.lanes)
            ),
            sync_rule(name),
        ));
    }
    if missing.count() > 0 {
        let why = format!(
            "lane(s) {} are in mask {} but are not active, so they do not execute {name}: the \
             results are undefined",
            lane_list(missing),
            mask.to_hex(input.lanes)
        );
        diagnostics.push(Diagnostic::warning(why.clone(), sync_rule(name)));
        return Some(why);
    }
    None
}

/// Marks the results of exited lanes (computed as inactive: they do not call) with why.
fn mark_exited(input: &OpInput, rule: &str, results: &mut [LaneResult]) {
    for i in input.exited.truncate(input.lanes).iter() {
        if let Some(r) = results.get_mut(i) {
            r.why = Some(if input.absent.contains(i) {
                format!("lane {i} holds no thread (the block ends before it): nothing there calls ({rule})")
            } else {
                format!("lane {i} has exited: it does not call ({rule})")
            });
        }
    }
}

/// Lanes as `16-31` when they run without a gap, else as [`lane_list`] writes them.
fn lane_span(mask: LaneMask) -> String {
    match (mask.iter().next(), mask.iter().last()) {
        (Some(a), Some(b)) if b > a && b - a + 1 == mask.count() as usize => format!("{a}-{b}"),
        _ => lane_list(mask),
    }
}

/// Lanes as `3, 5, 7` (at most 8 shown).
pub(crate) fn lane_list(mask: LaneMask) -> String {
    let lanes: Vec<String> = mask.iter().take(8).map(|l| l.to_string()).collect();
    let more = if mask.count() > 8 { ", …" } else { "" };
    format!("{}{more}", lanes.join(", "))
}

/// Runs one `__shfl*_sync` by the PTX formula with the sync-mask and width rules. Every lane
/// uses its own `param` and `width` (PTX shfl.sync takes `b` and `c` per thread; semantics.md
/// "Per-thread and uniform operands").
fn run_shfl(
    input: &OpInput,
    mode: Mode,
    name: &str,
    param_name: &str,
) -> Result<OpOutput, InputError> {
    let mask = input.params.mask("mask")?;
    let mut diagnostics = Vec::new();
    let whole_call = check_mask(name, input, mask, &mut diagnostics);
    // Each distinct undefined width warns once.
    let mut bad_widths: Vec<(i64, String)> = Vec::new();
    for i in input.active.iter().filter(|&i| i < input.lanes) {
        let width = input.params.lane_int("width", i)?;
        if bad_widths.iter().any(|(w, _)| *w == width) {
            continue;
        }
        if let Some(w) = width_warning(width, WARP as i64, "__shfl*_sync", WIDTH_RULE) {
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
            let c = control_word(mode, width);
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
            if let Some((_, why)) = bad_widths.iter().find(|(w, _)| *w == width) {
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
    let mut results = results;
    mark_exited(input, &sync_rule(name), &mut results);
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
         outside mask, is undefined; an active lane outside mask, or a non-exited mask lane that \
         does not call, makes results undefined (exited lanes do not call and break nothing). \
         A width that is not a power of two in [1, 32] leaves \
         every lane undefined (from = the lane the formula would read)."
    };
}

/// The CUDA operations.
pub const OPS: &[OpSpec] = &[
    OpSpec {
        dialect: Dialect::Cuda,
        name: "__shfl_sync",
        aliases: &["shfl_sync"],
        proto: Proto::returns("T"),
        args: &[
            SYNC_MASK,
            Arg::operand("var", "T"),
            Arg::per_thread(
                "srcLane",
                "int",
                Role::SourceLane, ParamSpec {
                name: "src_lane",
                kind: ParamKind::PerLaneInt {
                    min: i32::MIN as i64,
                    max: i32::MAX as i64,
                },
                default: ParamDefault::Int(0),
                doc: "source lane within the caller's segment (int; only src_lane & 31 is used)",
            },
                CUDA_PER_THREAD,
            ),
            Arg::per_thread("width", "int", Role::Width, WIDTH, CUDA_PER_THREAD),
        ],
        rule: concat!(
            "PTX shfl.sync.idx with c = ((32 - width) << 8) | 0x1f: lane i reads \
             j = minL | (b & ~seg), b = srcLane & 31, i.e. lane srcLane mod width of its own \
             segment (negative srcLane too); j > maxL keeps the own value.",
            shfl_common!()
        ),
        source: SHFL_SOURCE,
        settings: &[],
        types: SHFL_TYPES,
        type_note: SHFL_TYPE_NOTE,
        kind: OpKind::Lanes,
        run: run_idx,
    },
    OpSpec {
        dialect: Dialect::Cuda,
        name: "__shfl_up_sync",
        aliases: &["shfl_up_sync"],
        proto: Proto::returns("T"),
        args: &[
            SYNC_MASK,
            Arg::operand("var", "T"),
            Arg::per_thread(
                "delta",
                "unsigned int",
                Role::DeltaUp, DELTA,
                CUDA_PER_THREAD,
            ),
            Arg::per_thread("width", "int", Role::Width, WIDTH, CUDA_PER_THREAD),
        ],
        rule: concat!(
            "PTX shfl.sync.up with c = (32 - width) << 8: lane i reads j = i - (delta & 31) when \
             j is at or after the start of its segment (maxL); otherwise its own value (no wrap).",
            shfl_common!()
        ),
        source: SHFL_SOURCE,
        settings: &[],
        types: SHFL_TYPES,
        type_note: SHFL_TYPE_NOTE,
        kind: OpKind::Lanes,
        run: run_up,
    },
    OpSpec {
        dialect: Dialect::Cuda,
        name: "__shfl_down_sync",
        aliases: &["shfl_down_sync"],
        proto: Proto::returns("T"),
        args: &[
            SYNC_MASK,
            Arg::operand("var", "T"),
            Arg::per_thread(
                "delta",
                "unsigned int",
                Role::DeltaDown, DELTA,
                CUDA_PER_THREAD,
            ),
            Arg::per_thread("width", "int", Role::Width, WIDTH, CUDA_PER_THREAD),
        ],
        rule: concat!(
            "PTX shfl.sync.down with c = ((32 - width) << 8) | 0x1f: lane i reads \
             j = i + (delta & 31) when j is at or before the end of its segment (maxL); otherwise \
             its own value (no wrap).",
            shfl_common!()
        ),
        source: SHFL_SOURCE,
        settings: &[],
        types: SHFL_TYPES,
        type_note: SHFL_TYPE_NOTE,
        kind: OpKind::Lanes,
        run: run_down,
    },
    OpSpec {
        dialect: Dialect::Cuda,
        name: "__shfl_xor_sync",
        aliases: &["shfl_xor_sync"],
        proto: Proto::returns("T"),
        args: &[
            SYNC_MASK,
            Arg::operand("var", "T"),
            Arg::per_thread(
                "laneMask",
                "int",
                Role::LaneMask, ParamSpec {
                name: "lane_mask",
                kind: ParamKind::PerLaneInt {
                    min: i32::MIN as i64,
                    max: i32::MAX as i64,
                },
                default: ParamDefault::Int(1),
                doc: "xor-ed with the caller's lane id (int; only lane_mask & 31 is used)",
            },
                CUDA_PER_THREAD,
            ),
            Arg::per_thread("width", "int", Role::Width, WIDTH, CUDA_PER_THREAD),
        ],
        rule: concat!(
            "PTX shfl.sync.bfly with c = ((32 - width) << 8) | 0x1f: lane i reads \
             j = i ^ (laneMask & 31) when j is at or before the end of its segment (maxL): an \
             earlier segment may be read, a later one gives the own value.",
            shfl_common!()
        ),
        source: SHFL_SOURCE,
        settings: &[],
        types: SHFL_TYPES,
        type_note: SHFL_TYPE_NOTE,
        kind: OpKind::Lanes,
        run: run_xor,
    },
    OpSpec {
        dialect: Dialect::Cuda,
        name: "__ballot_sync",
        aliases: &["ballot_sync"],
        proto: Proto::returns("unsigned"),
        args: &[
            SYNC_MASK,
            Arg::operand("predicate", "int"),
        ],
        rule: "Every lane in mask gets a 32-bit mask whose bit j is set when lane j is in mask, \
               active, and its predicate (the operand) is non-zero. Sync-mask rule as for the \
               shuffles: an active lane outside mask, or a non-exited mask lane that does not call, is \
               undefined.",
        source: VOTE_SOURCE,
        settings: &[],
        // Labelled u32, the type of the mask it returns and prints; the predicate operand is read
        // as non-zero = true either way.
        types: &[ValueType::U32],
        type_note: BALLOT_NOTE,
        kind: OpKind::Lanes,
        run: run_ballot,
    },
    OpSpec {
        dialect: Dialect::Cuda,
        name: "__any_sync",
        aliases: &["any_sync"],
        proto: Proto::returns("int"),
        args: &[
            SYNC_MASK,
            Arg::operand("predicate", "int"),
        ],
        rule: "Every lane in mask gets 1 when the predicate (the operand) is non-zero on any lane \
               of mask, else 0. Sync-mask rule as for the shuffles.",
        source: VOTE_SOURCE,
        settings: &[],
        types: &[ValueType::I32],
        type_note: PRED_NOTE,
        kind: OpKind::Lanes,
        run: run_any,
    },
    OpSpec {
        dialect: Dialect::Cuda,
        name: "__all_sync",
        aliases: &["all_sync"],
        proto: Proto::returns("int"),
        args: &[
            SYNC_MASK,
            Arg::operand("predicate", "int"),
        ],
        rule:
            "Every lane in mask gets 1 when the predicate (the operand) is non-zero on every lane \
               of mask, else 0. Sync-mask rule as for the shuffles.",
        source: VOTE_SOURCE,
        settings: &[],
        types: &[ValueType::I32],
        type_note: PRED_NOTE,
        kind: OpKind::Lanes,
        run: run_all,
    },
    OpSpec {
        dialect: Dialect::Cuda,
        name: "__activemask",
        aliases: &["activemask"],
        proto: Proto::returns("unsigned"),
        args: &[],
        rule: "Every active lane gets the 32-bit mask of the lanes active at the call (the \
               operand is not used). It synchronizes nothing.",
        source: VOTE_SOURCE,
        settings: &[],
        types: &[ValueType::U32],
        type_note: "__activemask takes no operand and returns an unsigned mask (u32)",
        kind: OpKind::Lanes,
        run: run_activemask,
    },
    OpSpec {
        dialect: Dialect::Cuda,
        name: "__match_any_sync",
        aliases: &["match_any_sync"],
        proto: Proto::returns("unsigned int"),
        args: &[
            SYNC_MASK,
            Arg::operand("value", "T"),
        ],
        rule:
            "Lane i gets the mask of the lanes in mask whose value has the same bits as lane i's \
               (so +0 and -0 differ, equal NaN payloads match). Sync-mask rule as for the \
               shuffles.",
        source: MATCH_SOURCE,
        settings: &[],
        types: MATCH_TYPES,
        type_note: MATCH_TYPE_NOTE,
        kind: OpKind::Lanes,
        run: run_match_any,
    },
    OpSpec {
        dialect: Dialect::Cuda,
        name: "__match_all_sync",
        aliases: &["match_all_sync"],
        proto: Proto::returns("unsigned int"),
        args: &[
            SYNC_MASK,
            Arg::operand("value", "T"),
            Arg::out("pred", "int *"),
        ],
        rule:
            "Every lane in mask gets mask when all lanes in mask hold the same bits, else 0. The \
               out-parameter *pred (1 when all match, else 0) is the same on every lane and is \
               reported once, as an info diagnostic \"pred = 0|1\". Sync-mask rule as for the \
               shuffles.",
        source: MATCH_SOURCE,
        settings: &[],
        types: MATCH_TYPES,
        type_note: MATCH_TYPE_NOTE,
        kind: OpKind::Lanes,
        run: run_match_all,
    },
    OpSpec {
        dialect: Dialect::Cuda,
        name: "__reduce_add_sync",
        aliases: &["reduce_add_sync"],
        proto: Proto::returns("unsigned")
            .note("also int __reduce_add_sync(unsigned mask, int value)"),
        args: &[
            SYNC_MASK,
            Arg::operand("value", "unsigned"),
        ],
        rule: "Every lane in mask gets the wrapping sum of value over the lanes of mask. An \
               undefined input lane makes the result undefined. Sync-mask rule as for the \
               shuffles.",
        source: REDUCE_SOURCE,
        settings: &[],
        types: REDUCE_ARITH_TYPES,
        type_note: REDUCE_ARITH_NOTE,
        kind: OpKind::Lanes,
        run: run_reduce_add,
    },
    OpSpec {
        dialect: Dialect::Cuda,
        name: "__reduce_min_sync",
        aliases: &["reduce_min_sync"],
        proto: Proto::returns("unsigned")
            .note("also int __reduce_min_sync(unsigned mask, int value)"),
        args: &[
            SYNC_MASK,
            Arg::operand("value", "unsigned"),
        ],
        rule:
            "Every lane in mask gets the minimum of value over the lanes of mask (signed for int, \
               unsigned for unsigned). Sync-mask rule as for the shuffles.",
        source: REDUCE_SOURCE,
        settings: &[],
        types: REDUCE_ARITH_TYPES,
        type_note: REDUCE_ARITH_NOTE,
        kind: OpKind::Lanes,
        run: run_reduce_min,
    },
    OpSpec {
        dialect: Dialect::Cuda,
        name: "__reduce_max_sync",
        aliases: &["reduce_max_sync"],
        proto: Proto::returns("unsigned")
            .note("also int __reduce_max_sync(unsigned mask, int value)"),
        args: &[
            SYNC_MASK,
            Arg::operand("value", "unsigned"),
        ],
        rule:
            "Every lane in mask gets the maximum of value over the lanes of mask (signed for int, \
               unsigned for unsigned). Sync-mask rule as for the shuffles.",
        source: REDUCE_SOURCE,
        settings: &[],
        types: REDUCE_ARITH_TYPES,
        type_note: REDUCE_ARITH_NOTE,
        kind: OpKind::Lanes,
        run: run_reduce_max,
    },
    OpSpec {
        dialect: Dialect::Cuda,
        name: "__reduce_and_sync",
        aliases: &["reduce_and_sync"],
        proto: Proto::returns("unsigned"),
        args: &[
            SYNC_MASK,
            Arg::operand("value", "unsigned"),
        ],
        rule: "Every lane in mask gets the bitwise AND of value over the lanes of mask. Sync-mask \
               rule as for the shuffles.",
        source: REDUCE_SOURCE,
        settings: &[],
        types: REDUCE_BIT_TYPES,
        type_note: REDUCE_BIT_NOTE,
        kind: OpKind::Lanes,
        run: run_reduce_and,
    },
    OpSpec {
        dialect: Dialect::Cuda,
        name: "__reduce_or_sync",
        aliases: &["reduce_or_sync"],
        proto: Proto::returns("unsigned"),
        args: &[
            SYNC_MASK,
            Arg::operand("value", "unsigned"),
        ],
        rule: "Every lane in mask gets the bitwise OR of value over the lanes of mask. Sync-mask \
               rule as for the shuffles.",
        source: REDUCE_SOURCE,
        settings: &[],
        types: REDUCE_BIT_TYPES,
        type_note: REDUCE_BIT_NOTE,
        kind: OpKind::Lanes,
        run: run_reduce_or,
    },
    OpSpec {
        dialect: Dialect::Cuda,
        name: "__reduce_xor_sync",
        aliases: &["reduce_xor_sync"],
        proto: Proto::returns("unsigned"),
        args: &[
            SYNC_MASK,
            Arg::operand("value", "unsigned"),
        ],
        rule: "Every lane in mask gets the bitwise XOR of value over the lanes of mask. Sync-mask \
               rule as for the shuffles.",
        source: REDUCE_SOURCE,
        settings: &[],
        types: REDUCE_BIT_TYPES,
        type_note: REDUCE_BIT_NOTE,
        kind: OpKind::Lanes,
        run: run_reduce_xor,
    },
];

/// Whether `width` is one the Programming Guide defines (a power of two in 1..=32).
pub fn width_is_defined(width: i64) -> bool {
    is_power_of_two(width) && width <= WARP as i64
}

/// Where the vote rules come from.
const VOTE_SOURCE: &str = "CUDA C++ Programming Guide, Warp Vote Functions";
/// Where the match rules come from.
const MATCH_SOURCE: &str =
    "CUDA C++ Programming Guide, Warp Match Functions (compute capability 7.x+)";
/// Where the reduce rules come from.
const REDUCE_SOURCE: &str =
    "CUDA C++ Programming Guide, Warp Reduce Functions (compute capability 8.x+)";

/// Runs a collective over the lanes of `mask`. `compute(lane, members)` gives lane `lane`'s
/// result from the participating lanes (`mask` ∩ active); `None` = undefined because an input
/// was undefined.
fn run_collective(
    input: &OpInput,
    name: &str,
    compute: impl Fn(usize, LaneMask) -> Result<Option<Value>, InputError>,
) -> Result<OpOutput, InputError> {
    let mask = input.params.mask("mask")?;
    let mut diagnostics = Vec::new();
    let whole_call = check_mask(name, input, mask, &mut diagnostics);
    let members = LaneMask(mask.0 & input.active.0);
    let mut results = Vec::with_capacity(input.lanes);
    for i in 0..input.lanes {
        let r = if !input.active.contains(i) {
            LaneResult::inactive()
        } else if let Some(why) = &whole_call {
            LaneResult::undefined(why.clone(), None)
        } else if !mask.contains(i) {
            LaneResult::undefined(
                format!(
                    "lane {i} calls {name} but is not in mask: undefined ({})",
                    sync_rule(name)
                ),
                None,
            )
        } else {
            match compute(i, members)? {
                Some(v) => LaneResult::computed(v),
                None => LaneResult::undefined(
                    format!("an input of {name} is undefined, so the result is undefined"),
                    None,
                ),
            }
        };
        results.push(r);
    }
    mark_exited(input, &sync_rule(name), &mut results);
    note_undefined(&results, &mut diagnostics);
    Ok(OpOutput {
        results,
        diagnostics,
    })
}

/// The lanes of `members` whose predicate (operand) is non-zero.
fn predicate_lanes(input: &OpInput, members: LaneMask) -> u32 {
    members
        .iter()
        .filter(|&j| input.values.get(j).is_some_and(|v| v.bits != 0))
        .fold(0u32, |m, j| m | (1u32 << (j & 31)))
}

fn run_ballot(input: &OpInput) -> Result<OpOutput, InputError> {
    run_collective(input, "__ballot_sync", |_, members| {
        Ok(Some(Value::from_bits(
            ValueType::U32,
            predicate_lanes(input, members) as u64,
        )))
    })
}

fn run_any(input: &OpInput) -> Result<OpOutput, InputError> {
    run_collective(input, "__any_sync", |_, members| {
        let any = predicate_lanes(input, members) != 0;
        Ok(Some(Value::from_i64(ValueType::I32, any as i64)))
    })
}

fn run_all(input: &OpInput) -> Result<OpOutput, InputError> {
    run_collective(input, "__all_sync", |_, members| {
        let all = predicate_lanes(input, members) as u128 == members.0;
        Ok(Some(Value::from_i64(ValueType::I32, all as i64)))
    })
}

fn run_activemask(input: &OpInput) -> Result<OpOutput, InputError> {
    let m = Value::from_bits(ValueType::U32, input.active.truncate(WARP).0 as u64);
    let results = (0..input.lanes)
        .map(|i| {
            if input.active.contains(i) {
                LaneResult::computed(m)
            } else {
                LaneResult::inactive()
            }
        })
        .collect();
    Ok(OpOutput {
        results,
        diagnostics: Vec::new(),
    })
}

/// The lanes of `members` whose operand has the same bits as lane `lane`'s.
fn same_value_lanes(input: &OpInput, lane: usize, members: LaneMask) -> Option<u32> {
    let mine = input.values.get(lane)?;
    Some(
        members
            .iter()
            .filter(|&j| input.values.get(j).is_some_and(|v| v.bits == mine.bits))
            .fold(0u32, |m, j| m | (1u32 << (j & 31))),
    )
}

fn run_match_any(input: &OpInput) -> Result<OpOutput, InputError> {
    run_collective(input, "__match_any_sync", |i, members| {
        Ok(same_value_lanes(input, i, members).map(|m| Value::from_bits(ValueType::U32, m as u64)))
    })
}

fn run_match_all(input: &OpInput) -> Result<OpOutput, InputError> {
    let mut out = run_collective(input, "__match_all_sync", |i, members| {
        Ok(same_value_lanes(input, i, members).map(|m| {
            let all = m as u128 == members.0;
            Value::from_bits(ValueType::U32, if all { members.0 as u64 } else { 0 })
        }))
    })?;
    // `pred` is an out-parameter: it is the same on every participating lane, so it is reported
    // once as a note rather than as a second result row.
    if let Some(v) = out.results.iter().find_map(|r| r.value) {
        let pred = v.bits != 0;
        out.diagnostics.push(Diagnostic::info(
            format!(
                "pred = {} ({})",
                pred as i32,
                if pred {
                    "every lane in mask holds the same value"
                } else {
                    "the lanes in mask hold different values"
                }
            ),
            MATCH_SOURCE,
        ));
    }
    Ok(out)
}

fn run_reduce(input: &OpInput, op: BinOp, name: &str) -> Result<OpOutput, InputError> {
    run_collective(input, name, |_, members| {
        let items = members.iter().map(|j| input.values.get(j).copied());
        Ok(fold(op, input.ty, items)?)
    })
}

fn run_reduce_add(input: &OpInput) -> Result<OpOutput, InputError> {
    run_reduce(input, BinOp::Add, "__reduce_add_sync")
}

fn run_reduce_min(input: &OpInput) -> Result<OpOutput, InputError> {
    run_reduce(input, BinOp::Min, "__reduce_min_sync")
}

fn run_reduce_max(input: &OpInput) -> Result<OpOutput, InputError> {
    run_reduce(input, BinOp::Max, "__reduce_max_sync")
}

fn run_reduce_and(input: &OpInput) -> Result<OpOutput, InputError> {
    run_reduce(input, BinOp::And, "__reduce_and_sync")
}

fn run_reduce_or(input: &OpInput) -> Result<OpOutput, InputError> {
    run_reduce(input, BinOp::Or, "__reduce_or_sync")
}

fn run_reduce_xor(input: &OpInput) -> Result<OpOutput, InputError> {
    run_reduce(input, BinOp::Xor, "__reduce_xor_sync")
}

const MATCH_TYPES: &[ValueType] = &[
    ValueType::I32,
    ValueType::U32,
    ValueType::I64,
    ValueType::U64,
    ValueType::F32,
    ValueType::F64,
];
const MATCH_TYPE_NOTE: &str = "the Programming Guide lists T = int, unsigned int, long, unsigned \
     long, long long, unsigned long long, float or double";
const REDUCE_ARITH_TYPES: &[ValueType] = &[ValueType::U32, ValueType::I32];
const REDUCE_ARITH_NOTE: &str = "__reduce_add/min/max_sync have unsigned and int overloads only";
const REDUCE_BIT_TYPES: &[ValueType] = &[ValueType::U32];
const REDUCE_BIT_NOTE: &str = "__reduce_and/or/xor_sync take unsigned only";
const PRED_NOTE: &str = "the predicate is an int (non-zero = true)";
const BALLOT_NOTE: &str =
    "__ballot_sync returns an unsigned mask, shown as u32; its int predicate \
     (the operand row) is true when non-zero";
