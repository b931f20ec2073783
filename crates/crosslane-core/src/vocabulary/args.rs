//! The typed argument list of an operation: every argument of the vendor's call, in order, with
//! its C or WGSL type, its role, whether each lane may pass its own value, and the request
//! parameter ([`crate::params::ParamSpec`]: kind and range, default, meaning) that holds it,
//! written inline. It is the only place an operation's argument facts are written.
//!
//! This is what binds a kernel's call to an op (positionally; omitted trailing arguments take the
//! parameter's default), what the CLI accepts as flags (the parameter's name, and the vendor's own
//! spelling as an alias: `--lane-delta` for HIP's `delta`), what the reference shows as the
//! signature ([`crate::OpSpec::signature`]) and what export as code writes as the call.
//!
//! Which operand is per thread and which must be uniform comes from semantics.md "Per-thread and
//! uniform operands"; each [`Thread`] carries the document it cites.

use serde::Serialize;

use crate::params::ParamSpec;

/// What an argument is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Role {
    /// The value that moves across lanes (`var`, `e`, `src`, `data`, a predicate): the request's
    /// operand row.
    Operand,
    /// CUDA's sync `mask`: the lanes taking part.
    SyncMask,
    /// The lane to read (`srcLane`, `id`, `lane_sel`).
    SourceLane,
    /// A lane offset read *below* the caller (`shfl_up`'s delta: lane − delta).
    DeltaUp,
    /// A lane offset read *above* the caller (`shfl_down`'s delta: lane + delta).
    DeltaDown,
    /// The mask xor-ed with the caller's lane id.
    LaneMask,
    /// The segment width.
    Width,
    /// The value a lane keeps when it is not written (DPP `old`, `update_shfl` `old_val`).
    Old,
    /// A per-lane byte address or index (`ds_bpermute` `addr`, `bsm_bpermute` `index`, memory).
    Address,
    /// An instruction control field (swizzle pattern, DPP control, masks, modes, flags).
    Control,
    /// Another data input of the op (a second source, a comparison operand).
    Data,
    /// An out-parameter (`int *pred`): reported, not passed in.
    Out,
}

/// Whether each lane may pass its own value, with the rule that says so.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Thread {
    /// Each lane passes its own value and the rule uses it (the source says so).
    PerThread(&'static str),
    /// The vendor requires the same value in every lane (the rule): a varying value leaves the
    /// affected lanes indeterminate / undefined, with a diagnostic citing the rule.
    Uniform(&'static str),
    /// A WGSL const-expression (the rule): it cannot vary; a kernel that varies it is told so,
    /// and every lane is indeterminate.
    ConstExpr(&'static str),
    /// A scalar register (AMD SGPR, the rule): the hardware reads the first active lane's
    /// value (as `readfirstlane` would); a varying value is reported, and that lane's value used.
    Scalar(&'static str),
    /// An immediate field of the instruction encoding: uniform by construction. A kernel that
    /// varies it is told so, and every lane is undefined.
    Immediate,
}

impl Thread {
    /// Whether each lane's own value is used.
    pub fn per_thread(self) -> bool {
        matches!(self, Thread::PerThread(_))
    }

    /// The word the reference and the page show: `per thread`, `uniform`, `const-expression`,
    /// `scalar (SGPR)` or `immediate`.
    pub fn word(self) -> &'static str {
        match self {
            Thread::PerThread(_) => "per thread",
            Thread::Uniform(_) => "uniform",
            Thread::ConstExpr(_) => "const-expression",
            Thread::Scalar(_) => "scalar (uniform)",
            Thread::Immediate => "immediate",
        }
    }

    /// The rule or source cited for it.
    pub fn source(self) -> &'static str {
        match self {
            Thread::PerThread(s)
            | Thread::Uniform(s)
            | Thread::ConstExpr(s)
            | Thread::Scalar(s) => s,
            Thread::Immediate => {
                "instruction encoding (semantics.md, Per-thread and uniform operands)"
            }
        }
    }
}

/// One argument of an operation's call, in the vendor's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Arg {
    /// The vendor's spelling (`srcLane`, `lane_delta`, `e`).
    pub name: &'static str,
    /// Its C or WGSL type as the vendor writes it (`int`, `unsigned int`, `u32`, `T`).
    pub ty: &'static str,
    /// What it is for.
    pub role: Role,
    /// The request parameter that holds it (its name, kind and range, default and meaning), or
    /// `None` for the operand and for arguments the emulation does not take (out-parameters).
    pub param: Option<ParamSpec>,
    /// Whether each lane may pass its own value.
    pub thread: Thread,
}

/// Where semantics.md states the per-thread and uniform operand rules.
pub const OPERANDS: &str = "semantics.md, Per-thread and uniform operands";
/// CUDA: `srcLane`, `delta`, `laneMask`, `width` are per thread.
pub const CUDA_PER_THREAD: &str = "PTX ISA, shfl.sync (b and c are per-thread registers or \
     immediates; j is computed per thread); semantics.md, Per-thread and uniform operands";
/// CUDA: the sync mask must be the same in every caller.
pub const CUDA_SAME_MASK: &str = "CUDA C++ Programming Guide, Warp Shuffle Functions: all threads \
     in mask must execute the same intrinsic with the same mask";
/// HIP: the index is computed per lane.
pub const HIP_PER_LANE: &str = "ROCm clr amd_warp_functions.h (the index is computed per lane, \
     then ds_bpermute reads it); semantics.md, Per-thread and uniform operands";
/// Ascend C: SIMT threads pass their own arguments.
pub const ASCEND_PER_THREAD: &str = "cann asc-devkit asc_shfl* (SIMT: every thread calls with its \
     own arguments); semantics.md, Per-thread and uniform operands";
/// AMD / MACA operands that are per lane by definition (a VGPR per lane).
pub const PER_LANE: &str = "semantics.md, Per-thread and uniform operands (per lane by \
     definition: ds_(b)permute addresses, DPP old, MACA bsm_(b)permute indices, update_shfl \
     old_val, memory addresses and data)";
/// A per-lane scalar op (byte_perm, ubfe…): each lane computes with its own arguments.
pub const SCALAR_OP: &str = "seed 002 (each thread computes the builtin on its own arguments)";
/// AMD `v_readlane_b32` / `v_writelane_b32`: the lane select is a scalar register.
pub const SGPR: &str = "AMD ISA v_readlane_b32 / v_writelane_b32: the lane select (and \
     writelane's value) is an SGPR, one value for the wave; semantics.md, Per-thread and uniform \
     operands";
/// MetaX `readlane` / `writelane`: the lane (and writelane's value) is one value for the warp,
/// as AMD's SGPR operands (seed 002 gives no per-lane form).
pub const MACA_SCALAR: &str = "seed 002 __builtin_mxc_readlane / writelane (one lane for the \
     warp, as AMD v_readlane's SGPR); semantics.md, Per-thread and uniform operands";
/// WGSL: `subgroupBroadcast` / `quadBroadcast` `id` is a const-expression.
pub const WGSL_CONST_ID: &str = "WGSL spec, Subgroup / Quad Built-in Functions: the id of \
     subgroupBroadcast and quadBroadcast must be a const-expression";

impl Arg {
    /// The operand (`var`, `e`): always per thread.
    pub const fn operand(name: &'static str, ty: &'static str) -> Arg {
        Arg {
            name,
            ty,
            role: Role::Operand,
            param: None,
            thread: Thread::PerThread(OPERANDS),
        }
    }

    /// An argument held by parameter `param`, per thread by `source`.
    pub const fn per_thread(
        name: &'static str,
        ty: &'static str,
        role: Role,
        param: ParamSpec,
        source: &'static str,
    ) -> Arg {
        Arg {
            name,
            ty,
            role,
            param: Some(param),
            thread: Thread::PerThread(source),
        }
    }

    /// An argument held by parameter `param` with the given [`Thread`].
    pub const fn param(
        name: &'static str,
        ty: &'static str,
        role: Role,
        param: ParamSpec,
        thread: Thread,
    ) -> Arg {
        Arg {
            name,
            ty,
            role,
            param: Some(param),
            thread,
        }
    }

    /// An instruction immediate held by parameter `param`.
    pub const fn immediate(
        name: &'static str,
        ty: &'static str,
        role: Role,
        param: ParamSpec,
    ) -> Arg {
        Arg::param(name, ty, role, param, Thread::Immediate)
    }

    /// An out-parameter (`int *pred`): not passed in.
    pub const fn out(name: &'static str, ty: &'static str) -> Arg {
        Arg {
            name,
            ty,
            role: Role::Out,
            param: None,
            thread: Thread::PerThread(OPERANDS),
        }
    }

    /// `ty name` as in a C prototype.
    pub fn declared(&self) -> String {
        if self.ty.ends_with('*') || self.ty.is_empty() {
            format!("{}{}", self.ty, self.name)
        } else {
            format!("{} {}", self.ty, self.name)
        }
    }

    /// The vendor's spelling in snake_case (`srcLane` → `src_lane`): accepted as an alias of
    /// the parameter (HIP `lane_delta` for `delta`).
    pub fn snake_name(&self) -> String {
        snake(self.name)
    }
}

/// `srcLane` → `src_lane`; `lane_mask` stays; `ICMP_OP` → `icmp_op`.
pub fn snake(name: &str) -> String {
    let mut out = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            if prev_lower {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
            prev_lower = false;
        } else {
            out.push(c);
            prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vendor_spellings_become_snake_case() {
        assert_eq!(snake("srcLane"), "src_lane");
        assert_eq!(snake("laneMask"), "lane_mask");
        assert_eq!(snake("ICMP_OP"), "icmp_op");
        assert_eq!(snake("old_val"), "old_val");
        let spec = ParamSpec {
            name: "src_lane",
            kind: crate::params::ParamKind::PerLaneInt { min: 0, max: 31 },
            default: crate::params::ParamDefault::Int(0),
            doc: "source lane",
        };
        let a = Arg::per_thread("srcLane", "int", Role::SourceLane, spec, "PTX");
        assert_eq!(a.param.map(|p| p.name), Some("src_lane"));
        assert_eq!(a.declared(), "int srcLane");
        assert!(a.thread.per_thread());
        assert_eq!(Arg::out("pred", "int *").declared(), "int *pred");
    }
}
