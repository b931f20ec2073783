//! What an operation is: its spec (name, typed argument list, settings, value types, rule,
//! source) and the input it runs on. Each dialect file contributes a `pub const OPS: &[OpSpec]`;
//! the registry that lists and finds them is [`crate::dialect`] (`find_op`, `all_ops`,
//! `dialect_ops`). These types sit in the vocabulary, below the mechanics and the dialects that
//! take an [`OpInput`], so that nothing here imports a dialect.
//!
//! An operation's facts are written once, in its entry: the typed argument list
//! ([`OpSpec::args`], each argument with its parameter spec inline) and the few settings that are
//! not call arguments ([`OpSpec::settings`]). The parameter list ([`OpSpec::params`]) and the
//! signature text ([`OpSpec::signature`]) are derived from them.

use serde::Serialize;

use crate::args::Arg;
use crate::error::InputError;
use crate::lanes::{is_power_of_two, LaneMask};
use crate::params::{ParamDefault, ParamSpec, Params};
use crate::result::{Diagnostic, LaneResult};
use crate::value::{Value, ValueType};

/// A vendor dialect. One file per dialect under `dialect/`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Dialect {
    /// NVIDIA CUDA (PTX `shfl.sync`, votes, reductions); 32-lane warps.
    Cuda,
    /// AMD HIP (`amd_warp_functions.h`); wave32 or wave64.
    Hip,
    /// Huawei Ascend C SIMT (`asc_shfl*`); 32-lane warps.
    Ascend,
    /// AMD GCN/RDNA ISA (ds_swizzle, DPP, ds_permute, readlane); wave32 or wave64.
    Amdgcn,
    /// MetaX MACA builtins (`__builtin_mxc_*`); 64-lane warps.
    Maca,
    /// WGSL subgroup and quad built-ins; subgroups of 4..=128 invocations.
    Wgsl,
}

impl Dialect {
    /// Every dialect in the order the UI lists them.
    pub const ALL: [Dialect; 6] = [
        Dialect::Ascend,
        Dialect::Cuda,
        Dialect::Hip,
        Dialect::Amdgcn,
        Dialect::Maca,
        Dialect::Wgsl,
    ];

    /// The CLI name: `cuda`, `hip`, `ascend`, `amdgcn`, `maca`, `wgsl`.
    pub fn name(self) -> &'static str {
        match self {
            Dialect::Cuda => "cuda",
            Dialect::Hip => "hip",
            Dialect::Ascend => "ascend",
            Dialect::Amdgcn => "amdgcn",
            Dialect::Maca => "maca",
            Dialect::Wgsl => "wgsl",
        }
    }

    /// The human name shown in the page.
    pub fn title(self) -> &'static str {
        match self {
            Dialect::Cuda => "CUDA",
            Dialect::Hip => "HIP",
            Dialect::Ascend => "Ascend C",
            Dialect::Amdgcn => "AMD GCN/RDNA",
            Dialect::Maca => "MetaX MACA",
            Dialect::Wgsl => "WGSL",
        }
    }

    /// Parses a dialect name.
    ///
    /// # Errors
    /// [`InputError`] on field `dialect` listing the accepted names.
    pub fn parse(text: &str) -> Result<Self, InputError> {
        Dialect::ALL
            .into_iter()
            .find(|d| d.name().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| {
                InputError::new(
                    "dialect",
                    format!(
                        "`{text}` is not a dialect; allowed: cuda, hip, ascend, amdgcn, maca, wgsl"
                    ),
                )
            })
    }

    /// The lane count used when none is given (docs/cli.md, command-line contract).
    pub fn default_lanes(self) -> usize {
        match self {
            Dialect::Cuda | Dialect::Ascend | Dialect::Wgsl => 32,
            Dialect::Hip | Dialect::Amdgcn | Dialect::Maca => 64,
        }
    }

    /// Checks a lane count: cuda and ascend 32; maca 64; amdgcn and hip 32 or 64; wgsl a power of
    /// two in 4..=128 (WGSL spec, subgroup size).
    ///
    /// # Errors
    /// [`InputError`] on field `lanes` with the allowed counts.
    pub fn check_lanes(self, lanes: i64) -> Result<usize, InputError> {
        let ok = match self {
            Dialect::Cuda | Dialect::Ascend => lanes == 32,
            Dialect::Maca => lanes == 64,
            Dialect::Hip | Dialect::Amdgcn => lanes == 32 || lanes == 64,
            Dialect::Wgsl => is_power_of_two(lanes) && (4..=128).contains(&lanes),
        };
        if ok {
            Ok(lanes as usize)
        } else {
            let allowed = match self {
                Dialect::Cuda | Dialect::Ascend => "32",
                Dialect::Maca => "64",
                Dialect::Hip | Dialect::Amdgcn => "32 or 64",
                Dialect::Wgsl => "a power of two in 4..=128",
            };
            Err(InputError::new(
                "lanes",
                format!("{} allows {allowed} lanes, got {lanes}", self.title()),
            ))
        }
    }
}

/// Whether an op computes one result per lane or one scalar (byte_perm, ubfe, …).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum OpKind {
    /// One result per lane from the `values` row and the parameters.
    Lanes,
    /// One result, from the parameters alone (reported for lane 0).
    Scalar,
}

/// What an operation runs on: the validated geometry, input row and parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct OpInput {
    /// Lanes in the warp / wavefront / subgroup.
    pub lanes: usize,
    /// The active (exec) mask; lanes outside it compute nothing.
    pub active: LaneMask,
    /// CUDA lanes that have exited (never in `active`); empty for every other dialect.
    pub exited: LaneMask,
    /// The part of `exited` that never held a thread: a block smaller than its warp leaves the
    /// warp's last lanes empty (CUDA C++ Programming Guide, "Thread Hierarchy": a block's
    /// threads fill its warps in order of thread index). The sync rule treats them as it
    /// treats exited threads (nothing there calls); the notes say they hold no thread rather
    /// than that they exited. Empty unless the kernel interpreter sets it.
    pub absent: LaneMask,
    /// Operand type.
    pub ty: ValueType,
    /// The operand across lanes (`var`, `src`, `data`, `e`), one per lane.
    pub values: Vec<Value>,
    /// Parameters by vendor name.
    pub params: Params,
}

/// What an operation produced.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OpOutput {
    /// One result per lane (one in total for [`OpKind::Scalar`]).
    pub results: Vec<LaneResult>,
    /// Warnings, errors and notes, each citing its rule.
    pub diagnostics: Vec<Diagnostic>,
}

/// The parts of a prototype that are not its arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Proto {
    /// The return type as the vendor writes it (`T`, `unsigned`, `void`, `vec4<u32>`).
    pub returns: &'static str,
    /// The function the call names when it is not the op's name: an AMD instruction is called
    /// through its builtin (`ds_bpermute_b32` as `__builtin_amdgcn_ds_bpermute`).
    pub call: Option<&'static str>,
    /// What the vendor writes beside the prototype and is not the prototype: the instruction's
    /// assembly form, other overloads, a constraint on an argument. Shown beside the signature;
    /// never read for meaning.
    pub note: &'static str,
}

impl Proto {
    /// A prototype returning `returns`, called by the op's name, without a note.
    pub const fn returns(returns: &'static str) -> Proto {
        Proto {
            returns,
            call: None,
            note: "",
        }
    }

    /// The same prototype with a note shown beside it.
    pub const fn note(self, note: &'static str) -> Proto {
        Proto { note, ..self }
    }

    /// The same prototype called as `call`.
    pub const fn call(self, call: &'static str) -> Proto {
        Proto {
            call: Some(call),
            ..self
        }
    }
}

/// One operation of one dialect.
#[derive(Clone, Copy, Debug)]
pub struct OpSpec {
    /// Dialect.
    pub dialect: Dialect,
    /// The vendor's full name (`asc_shfl_xor`, `__shfl_xor_sync`, `ds_swizzle_b32`).
    pub name: &'static str,
    /// Other accepted names (short forms, documented misspellings such as `update_shlf`).
    pub aliases: &'static [&'static str],
    /// The prototype's parts that are not arguments: the return type, the function the call
    /// names, and a note the vendor writes beside it. [`OpSpec::signature`] joins it with
    /// [`OpSpec::args`].
    pub proto: Proto,
    /// The call's arguments in the vendor's order: type, role, per-thread or uniform, and the
    /// parameter that holds each, inline ([`crate::args`]). Kernel calls bind to it positionally.
    pub args: &'static [Arg],
    /// The rule in one paragraph, including our reading where the document is ambiguous.
    pub rule: &'static str,
    /// Document and section the rule comes from.
    pub source: &'static str,
    /// Request parameters that are not arguments of the vendor's call: the AMD / MetaX target
    /// (`arch`), instruction fields the builtin does not take (`ds_bpermute`'s `offset`), the
    /// simulated memory, which element a lane row shows. Every other parameter belongs to an
    /// argument ([`Arg::param`]).
    pub settings: &'static [ParamSpec],
    /// Value types the vendor lists for this op; others are refused with [`OpSpec::type_note`].
    pub types: &'static [ValueType],
    /// Why a type outside `types` is refused (which page lists which prototypes).
    pub type_note: &'static str,
    /// Per-lane or scalar.
    pub kind: OpKind,
    /// The semantics.
    pub run: fn(&OpInput) -> Result<OpOutput, InputError>,
}

impl OpSpec {
    /// Whether result `i` of this op combines lane `j`'s operand (for an active `j`). A
    /// reduction, ballot or vote reads every active lane; a scan reads only the lanes below
    /// its own (WGSL spec, Subgroup Built-in Functions: `subgroupInclusiveAdd` /
    /// `subgroupInclusiveMul` combine the active invocations with id ≤ i,
    /// `subgroupExclusiveAdd` / `subgroupExclusiveMul` those with id < i). An undefined
    /// operand makes undefined only the results that combine it.
    pub fn combines(&self, i: usize, j: usize) -> bool {
        match (self.dialect, self.name) {
            (Dialect::Wgsl, "subgroupInclusiveAdd" | "subgroupInclusiveMul") => j <= i,
            (Dialect::Wgsl, "subgroupExclusiveAdd" | "subgroupExclusiveMul") => j < i,
            _ => true,
        }
    }

    /// Whether `name` names this op (full name or alias, ASCII case-insensitive).
    pub fn is_named(&self, name: &str) -> bool {
        let n = name.trim();
        self.name.eq_ignore_ascii_case(n) || self.aliases.iter().any(|a| a.eq_ignore_ascii_case(n))
    }

    /// Every request parameter of the op, derived: the arguments' parameters in the call's order,
    /// then the [`OpSpec::settings`].
    pub fn params(&self) -> impl Iterator<Item = &'static ParamSpec> {
        let args: &'static [Arg] = self.args;
        args.iter()
            .filter_map(|a| a.param.as_ref())
            .chain(self.settings.iter())
    }

    /// The spec of the parameter `name` (snake or kebab case), or of the argument the vendor
    /// spells `name` (HIP's `lane_delta` is parameter `delta`).
    pub fn param(&self, name: &str) -> Option<&'static ParamSpec> {
        let n = name.trim().trim_start_matches('-').replace('-', "_");
        self.params().find(|p| p.name == n).or_else(|| {
            let args: &'static [Arg] = self.args;
            args.iter()
                .find(|a| a.name == n || a.snake_name() == n)?
                .param
                .as_ref()
        })
    }

    /// The argument that parameter `param` holds, if the call passes it.
    pub fn arg_of(&self, param: &str) -> Option<&'static Arg> {
        self.args
            .iter()
            .find(|a| a.param.is_some_and(|p| p.name == param))
    }

    /// The function the call names: [`Proto::call`], or the op's name.
    pub fn callee(&self) -> &'static str {
        self.proto.call.unwrap_or(self.name)
    }

    /// The signature, derived from the typed argument list: `T __shfl_down(T var, unsigned int
    /// lane_delta, int width = warpSize)` in C, `fn subgroupShuffle(e: T, id: I) -> T` in WGSL.
    /// A default is written where it is the vendor's own (`width = warpSize`, [`ParamDefault::Lanes`]);
    /// the playground's other defaults are request conveniences, listed with the parameters.
    pub fn signature(&self) -> String {
        let wgsl = self.dialect == Dialect::Wgsl;
        let args: Vec<String> = self
            .args
            .iter()
            .map(|a| {
                let declared = if wgsl {
                    format!("{}: {}", a.name, a.ty)
                } else if a.name.is_empty() {
                    a.ty.to_string()
                } else {
                    a.declared()
                };
                match a.param.map(|p| p.default) {
                    Some(ParamDefault::Lanes) if wgsl => format!("{declared} = subgroup_size"),
                    Some(ParamDefault::Lanes) => format!("{declared} = warpSize"),
                    _ => declared,
                }
            })
            .collect();
        if wgsl {
            format!(
                "fn {}({}) -> {}",
                self.callee(),
                args.join(", "),
                self.proto.returns
            )
        } else {
            format!(
                "{} {}({})",
                self.proto.returns,
                self.callee(),
                args.join(", ")
            )
        }
    }

    /// The signature with its note beside it (`… // note`), as the reference and the CLI show it.
    pub fn signature_line(&self) -> String {
        if self.proto.note.is_empty() {
            self.signature()
        } else {
            format!("{}   // {}", self.signature(), self.proto.note)
        }
    }
}
