//! Computed cross-lane operations — ballots, votes, reductions, scans and the read of the first
//! active lane — written for each target with its own builtin where it has one, else as a loop
//! of the target's lane read.
//!
//! Which vendor op performs which collective is written once, in [`Collective::op_in`]; the
//! loop is the operation's definition executed literally (combine the active lanes' values in
//! increasing lane order, the order the emulator uses for floats — WGSL spec, Subgroup Built-in
//! Functions; CUDA Programming Guide, "Warp Reduce Functions" and "Warp Vote Functions"), so it
//! is exact for any active mask, at the cost of one lane read per lane.

use super::{Resolved, Target};
use crate::lanes::LaneMask;
use crate::op::{Dialect, OpSpec};
use crate::value::ValueType;

/// How a reduction or scan combines two values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Combine {
    /// `+` (integers wrap).
    Add,
    /// `*` (integers wrap).
    Mul,
    /// The smaller value.
    Min,
    /// The larger value.
    Max,
    /// Bitwise AND.
    And,
    /// Bitwise OR.
    Or,
    /// Bitwise XOR.
    Xor,
}

/// A computed cross-lane operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Collective {
    /// Bit `j` set when lane `j` is active and its predicate is non-zero.
    Ballot,
    /// 1 when the predicate is non-zero on any active lane.
    Any,
    /// 1 when the predicate is non-zero on every active lane.
    All,
    /// Every active lane gets the combination of all active lanes' values.
    Reduce(Combine),
    /// Lane `i` gets the combination over the active lanes `j <= i`.
    InclusiveScan(Combine),
    /// Lane `i` gets the combination over the active lanes `j < i` (the identity for the
    /// lowest active lane).
    ExclusiveScan(Combine),
    /// Every active lane gets the value of the lowest active lane.
    First,
    /// Every active lane gets the mask of the active lanes (a ballot of true).
    ActiveMask,
    /// 1 on the lowest active lane, 0 on the others.
    Elect,
    /// Each active lane gets the mask of the active lanes holding the same bits as it.
    MatchAny,
    /// Every active lane gets the mask of the active lanes when they all hold the same bits,
    /// else 0.
    MatchAll,
}

impl Collective {
    const ALL: [Collective; 19] = {
        use Collective::*;
        use Combine::*;
        [
            Ballot,
            Any,
            All,
            Reduce(Add),
            Reduce(Mul),
            Reduce(Min),
            Reduce(Max),
            Reduce(And),
            Reduce(Or),
            Reduce(Xor),
            InclusiveScan(Add),
            InclusiveScan(Mul),
            ExclusiveScan(Add),
            ExclusiveScan(Mul),
            First,
            ActiveMask,
            Elect,
            MatchAny,
            MatchAll,
        ]
    };

    /// The op that performs this collective in `dialect`, by the vendor's name; `None` where
    /// the dialect has no such op. Sources: CUDA Programming Guide "Warp Vote Functions" and
    /// "Warp Reduce Functions"; HIP `amd_warp_functions.h` (`__ballot`, `__any`, `__all`);
    /// WGSL spec, Subgroup Built-in Functions; AMD ISA `v_readfirstlane_b32`; MetaX seed 002
    /// `__builtin_mxc_readfirstlane`.
    pub fn op_in(self, dialect: Dialect) -> Option<&'static str> {
        use Collective::*;
        use Combine::*;
        use Dialect::*;
        Some(match (self, dialect) {
            (Ballot, Cuda) => "__ballot_sync",
            (Ballot, Hip) => "__ballot",
            (Ballot, Wgsl) => "subgroupBallot",
            (Any, Cuda) => "__any_sync",
            (Any, Hip) => "__any",
            (Any, Wgsl) => "subgroupAny",
            (All, Cuda) => "__all_sync",
            (All, Hip) => "__all",
            (All, Wgsl) => "subgroupAll",
            (Reduce(Add), Cuda) => "__reduce_add_sync",
            (Reduce(Min), Cuda) => "__reduce_min_sync",
            (Reduce(Max), Cuda) => "__reduce_max_sync",
            (Reduce(And), Cuda) => "__reduce_and_sync",
            (Reduce(Or), Cuda) => "__reduce_or_sync",
            (Reduce(Xor), Cuda) => "__reduce_xor_sync",
            (Reduce(Add), Wgsl) => "subgroupAdd",
            (Reduce(Mul), Wgsl) => "subgroupMul",
            (Reduce(Min), Wgsl) => "subgroupMin",
            (Reduce(Max), Wgsl) => "subgroupMax",
            (Reduce(And), Wgsl) => "subgroupAnd",
            (Reduce(Or), Wgsl) => "subgroupOr",
            (Reduce(Xor), Wgsl) => "subgroupXor",
            (InclusiveScan(Add), Wgsl) => "subgroupInclusiveAdd",
            (InclusiveScan(Mul), Wgsl) => "subgroupInclusiveMul",
            (ExclusiveScan(Add), Wgsl) => "subgroupExclusiveAdd",
            (ExclusiveScan(Mul), Wgsl) => "subgroupExclusiveMul",
            (First, Wgsl) => "subgroupBroadcastFirst",
            (First, Amdgcn) => "v_readfirstlane_b32",
            (First, Maca) => "__builtin_mxc_readfirstlane",
            (ActiveMask, Cuda) => "__activemask",
            (Elect, Wgsl) => "subgroupElect",
            (MatchAny, Cuda) => "__match_any_sync",
            (MatchAll, Cuda) => "__match_all_sync",
            _ => return None,
        })
    }

    /// The collective `spec` performs, if any.
    pub fn of(spec: &OpSpec) -> Option<Collective> {
        Collective::ALL
            .into_iter()
            .find(|c| c.op_in(spec.dialect) == Some(spec.name))
    }

    /// The lanes whose values feed lane `lane`'s result, given the lanes that take part
    /// (`taking_part`: the active lanes, within the sync mask where the op has one): all of them
    /// for ballots, votes and reductions; those at or below `lane` for an inclusive scan, below
    /// it for an exclusive one; the lowest for [`Collective::First`] (the rules in
    /// [`Collective::op_in`]'s sources).
    pub fn contributors(self, lane: usize, taking_part: LaneMask) -> LaneMask {
        let below = |n: usize| {
            if n >= 128 {
                u128::MAX
            } else {
                (1u128 << n) - 1
            }
        };
        match self {
            Collective::InclusiveScan(_) => LaneMask(taking_part.0 & below(lane + 1)),
            Collective::ExclusiveScan(_) => LaneMask(taking_part.0 & below(lane)),
            Collective::First | Collective::Elect => {
                LaneMask(taking_part.0 & taking_part.0.wrapping_neg())
            }
            _ => taking_part,
        }
    }

    /// A short description for comments (`inclusive add scan`).
    pub fn describe(self) -> String {
        let c = |k: Combine| format!("{k:?}").to_ascii_lowercase();
        match self {
            Collective::Ballot => "ballot".into(),
            Collective::Any => "vote any".into(),
            Collective::All => "vote all".into(),
            Collective::Reduce(k) => format!("{} reduction", c(k)),
            Collective::InclusiveScan(k) => format!("inclusive {} scan", c(k)),
            Collective::ExclusiveScan(k) => format!("exclusive {} scan", c(k)),
            Collective::First => "read of the lowest active lane".into(),
            Collective::ActiveMask => "active mask".into(),
            Collective::Elect => "election of the lowest active lane".into(),
            Collective::MatchAny => "match of equal values (any)".into(),
            Collective::MatchAll => "match of equal values (all)".into(),
        }
    }
}

/// The call: statements before it and the expression of the result (as `emit::Call`).
pub(super) struct Written {
    pub setup: Vec<String>,
    pub expr: String,
    pub note: Option<String>,
}

fn is_int(ty: ValueType) -> bool {
    matches!(ty, ValueType::I32 | ValueType::U32)
}

/// `collective` in `target`'s words; `ty` is the operand's type name in the target language.
pub(super) fn write(target: Target, collective: Collective, r: &Resolved, ty: &str) -> Written {
    use Collective::*;
    let vt = r.input.ty;
    let native = |expr: String| Written {
        setup: Vec::new(),
        expr,
        note: None,
    };
    match target {
        Target::Wgsl => return wgsl(collective, r, ty),
        Target::Cuda => {
            // The sync mask names the lanes that take part: the scenario's active lanes.
            let mask = if r.input.active.count() as usize == r.input.lanes || r.input.lanes > 32 {
                "0xffffffff".to_string()
            } else {
                format!("{:#x}", r.input.active.0 as u32)
            };
            let name = collective.op_in(Dialect::Cuda);
            match (collective, name) {
                (Elect, _) => return native("(int)lane == __ffs(__activemask()) - 1".into()),
                (Ballot | Any | All, Some(n)) => return native(format!("{n}({mask}, var != 0)")),
                (Reduce(_), Some(n)) if is_int(vt) => return native(format!("{n}({mask}, var)")),
                _ => {}
            }
        }
        Target::Hip => match (collective, collective.op_in(Dialect::Hip)) {
            (Ballot | Any | All, Some(n)) => return native(format!("{n}(var != 0)")),
            (ActiveMask, _) => return native("__ballot(1)".into()),
            (Elect, _) => return native("lane == (unsigned)__builtin_ctzll(__ballot(1))".into()),
            // HIP on AMD reads the first active lane with the instruction's builtin.
            (First, _) if is_int(vt) => {
                return native("__builtin_amdgcn_readfirstlane(var)".to_string())
            }
            _ => {}
        },
        Target::Maca => {
            if let (First, Some(n)) = (collective, collective.op_in(Dialect::Maca)) {
                if is_int(vt) {
                    return native(format!("{n}(var)"));
                }
            }
        }
        Target::Ascend => {}
    }
    c_loop(target, collective, r, ty)
}

/// The target's read of lane `j`'s `x` (every lane calls it with the same `j`).
fn read_lane(target: Target, vt: ValueType, ty: &str, x: &str) -> String {
    match target {
        // Every lane runs the loop, so the sync mask names them all.
        Target::Cuda => format!("__shfl_sync(0xffffffff, {x}, j)"),
        Target::Hip => format!("__shfl({x}, j)"),
        Target::Ascend => format!("asc_shfl({x}, j)"),
        // MACA's readlane moves an int (seed 002 prototype): other types travel as their bits.
        Target::Maca | Target::Wgsl => match vt.bit_width() {
            _ if ty == "int" => format!("__builtin_mxc_readlane({x}, j)"),
            16 => format!(
                "__builtin_bit_cast({ty}, (unsigned short)__builtin_mxc_readlane((int)__builtin_bit_cast(unsigned short, {x}), j))"
            ),
            64 => format!(
                "__builtin_bit_cast({ty}, ((unsigned long long)(unsigned int)__builtin_mxc_readlane((int)(__builtin_bit_cast(unsigned long long, {x}) >> 32), j) << 32) | (unsigned int)__builtin_mxc_readlane((int)__builtin_bit_cast(unsigned long long, {x}), j))"
            ),
            _ => format!(
                "__builtin_bit_cast({ty}, __builtin_mxc_readlane(__builtin_bit_cast(int, {x}), j))"
            ),
        },
    }
}

fn lanes_expr(target: Target) -> &'static str {
    match target {
        Target::Cuda | Target::Ascend => "32",
        Target::Maca => "64",
        _ => "warpSize",
    }
}

fn read_name(target: Target) -> &'static str {
    match target {
        Target::Cuda => "__shfl_sync",
        Target::Hip => "__shfl",
        Target::Ascend => "asc_shfl",
        _ => "__builtin_mxc_readlane",
    }
}

/// The collective as a loop over the warp's lanes: each step reads lane `j`'s value with the
/// target's lane read and combines it when lane `j` is active in the scenario (and, for scans,
/// when `j` is at or below the lane).
fn c_loop(target: Target, collective: Collective, r: &Resolved, ty: &str) -> Written {
    use Collective::*;
    let vt = r.input.ty;
    let active = format!("{:#x}ull", r.input.active.0 as u64);
    let lanes = lanes_expr(target);
    let mut setup = Vec::new();
    let taken = |extra: &str| format!("if (((active >> j) & 1ull){extra}) {{");
    let note = format!(
        "{} has no builtin for this {}: a loop over the warp's lanes reads each lane's value with {} and combines the scenario's active lanes in increasing lane order ({} lane reads).",
        super::title(target),
        collective.describe(),
        read_name(target),
        lanes
    );
    setup.push(format!(
        "const unsigned long long active = {active};  // the scenario's active lanes"
    ));
    let read = |x: &str| read_lane(target, vt, ty, x);
    let expr = match collective {
        Ballot | Any | All => {
            let (init, step) = match collective {
                Ballot => ("0", "acc |= 1ull << j;"),
                Any => ("0", "acc = 1;"),
                _ => ("1", "acc = 0;"),
            };
            // Each lane's predicate as an int: every target's lane read moves an int.
            setup.push("const int pred = var != 0;".into());
            setup.push(format!("unsigned long long acc = {init};"));
            setup.push(format!("for (int j = 0; j < {lanes}; ++j) {{"));
            let p = read_lane(target, ValueType::I32, "int", "pred");
            setup.push(format!("    const int p = {p};"));
            let cond = if collective == All { " && !p" } else { " && p" };
            setup.push(format!("    {}", taken(cond)));
            setup.push(format!("        {step}"));
            setup.push("    }".into());
            setup.push("}".into());
            "acc".to_string()
        }
        ActiveMask => "active".to_string(),
        // The scenario's lowest active lane (a constant here: the target has no ballot).
        Elect => "(int)(lane == (unsigned)__builtin_ctzll(active))".to_string(),
        MatchAny | MatchAll => {
            // Equal means equal bits (CUDA "Warp Match Functions": +0 and -0 differ).
            let bits = match vt.bit_width() {
                16 => "unsigned short",
                64 => "unsigned long long",
                _ => "unsigned int",
            };
            let same =
                format!("__builtin_bit_cast({bits}, other) == __builtin_bit_cast({bits}, var)");
            setup.push(format!(
                "unsigned long long acc = {};",
                if collective == MatchAny {
                    "0"
                } else {
                    "active"
                }
            ));
            setup.push(format!("for (int j = 0; j < {lanes}; ++j) {{"));
            setup.push(format!("    const {ty} other = {};", read("var")));
            if collective == MatchAny {
                setup.push(format!("    {}", taken(&format!(" && {same}"))));
                setup.push("        acc |= 1ull << j;".into());
            } else {
                setup.push(format!("    {}", taken(&format!(" && !({same})"))));
                setup.push("        acc = 0;".into());
            }
            setup.push("    }".into());
            setup.push("}".into());
            "acc".to_string()
        }
        First => {
            setup.push(format!("{ty} acc = var;"));
            setup.push(format!("for (int j = {lanes} - 1; j >= 0; --j) {{"));
            setup.push(format!("    const {ty} other = {};", read("var")));
            setup.push(format!("    {}", taken("")));
            setup.push("        acc = other;".into());
            setup.push("    }".into());
            setup.push("}".into());
            "acc".to_string()
        }
        Reduce(k) | InclusiveScan(k) | ExclusiveScan(k) => {
            let init = match k {
                Combine::Add | Combine::Or | Combine::Xor => format!("({ty})0"),
                Combine::Mul => format!("({ty})1"),
                Combine::And => format!("({ty})~0ull"),
                // min / max are idempotent: the lane's own value is a neutral start.
                Combine::Min | Combine::Max => "var".to_string(),
            };
            let init = if matches!(collective, ExclusiveScan(_)) && init == "var" {
                format!("({ty})0")
            } else {
                init
            };
            let combine = match k {
                Combine::Add => "acc + other".to_string(),
                Combine::Mul => "acc * other".to_string(),
                Combine::Min => "(other < acc) ? other : acc".to_string(),
                Combine::Max => "(acc < other) ? other : acc".to_string(),
                Combine::And => "acc & other".to_string(),
                Combine::Or => "acc | other".to_string(),
                Combine::Xor => "acc ^ other".to_string(),
            };
            let lane_cond = match collective {
                InclusiveScan(_) => " && j <= (int)lane",
                ExclusiveScan(_) => " && j < (int)lane",
                _ => "",
            };
            setup.push(format!("{ty} acc = {init};"));
            setup.push(format!("for (int j = 0; j < {lanes}; ++j) {{"));
            setup.push(format!("    const {ty} other = {};", read("var")));
            setup.push(format!("    {}", taken(lane_cond)));
            setup.push(format!("        acc = {combine};"));
            setup.push("    }".into());
            setup.push("}".into());
            "acc".to_string()
        }
    };
    Written {
        setup,
        expr,
        note: Some(note),
    }
}

/// WGSL has every collective as a built-in: the predicate is "the operand is non-zero" and a
/// non-`T` result is brought to the output type (WGSL converts nothing implicitly).
fn wgsl(collective: Collective, r: &Resolved, ty: &str) -> Written {
    use Collective::*;
    let name = collective
        .op_in(Dialect::Wgsl)
        .unwrap_or("subgroupBroadcastFirst");
    let pred = if ty.starts_with("vec") {
        format!("any(v != {ty}())")
    } else {
        format!("v != {ty}()")
    };
    let mut note = None;
    let expr = match collective {
        Ballot => {
            if r.input.lanes > 32 {
                note = Some(format!(
                    "NOT EXACT: subgroupBallot returns vec4<u32>; out[] holds component x (invocations 0..31) of the {}-lane ballot.",
                    r.input.lanes
                ));
            }
            let call = format!("{name}({pred}).x");
            if matches!(ty, "i32" | "u32" | "f32") {
                format!("bitcast<{ty}>({call})")
            } else {
                format!("{ty}({call})")
            }
        }
        Any | All => format!("select({ty}(), {ty}(1), {name}({pred}))"),
        ActiveMask if matches!(ty, "i32" | "u32" | "f32") => {
            format!("bitcast<{ty}>(subgroupBallot(true).x)")
        }
        ActiveMask => format!("{ty}(subgroupBallot(true).x)"),
        Elect => format!("select({ty}(), {ty}(1), {name}())"),
        MatchAny | MatchAll => {
            // WGSL has no match: each invocation compares with every invocation's value
            // through subgroupShuffle (equal values rather than equal bits).
            note = Some(
                "NOT EXACT: WGSL has no match built-in: each invocation compares its value with every invocation's (subgroupShuffle) and builds the mask of invocations 0..31 that hold the same value (== on values: +0 and -0 match here, unlike CUDA's bit compare).".to_string(),
            );
            let active = format!("{:#x}u", r.input.active.0 as u32);
            let n = r.input.lanes.min(32);
            let (init, cond, step) = if collective == MatchAny {
                ("0u", "other == v", "acc = acc | (1u << j);")
            } else {
                (active.as_str(), "other != v", "acc = 0u;")
            };
            return Written {
                setup: vec![
                    format!("var acc = {init};"),
                    format!("for (var j = 0u; j < {n}u; j++) {{"),
                    "    let other = subgroupShuffle(v, j);".to_string(),
                    format!(
                        "    if ((({active} >> j) & 1u) != 0u && {}) {{",
                        vec_cond(ty, cond, collective == MatchAny)
                    ),
                    format!("        {step}"),
                    "    }".to_string(),
                    "}".to_string(),
                ],
                expr: if matches!(ty, "i32" | "u32" | "f32") {
                    format!("bitcast<{ty}>(acc)")
                } else {
                    format!("{ty}(acc)")
                },
                note,
            };
        }
        _ => format!("{name}(v)"),
    };
    Written {
        setup: Vec::new(),
        expr,
        note,
    }
}

/// A WGSL comparison as a bool: a vector is equal when every component is, unequal when any is.
fn vec_cond(ty: &str, cond: &str, equal: bool) -> String {
    match (ty.starts_with("vec"), equal) {
        (false, _) => cond.to_string(),
        (true, true) => format!("all({cond})"),
        (true, false) => format!("any({cond})"),
    }
}
