//! The operation registry: every operation's spec (name, parameters, value types, rule, source)
//! and the input it runs on. Each dialect file contributes a `pub const OPS: &[OpSpec]`.

use serde::Serialize;

use crate::args::Arg;
use crate::error::InputError;
use crate::lanes::{is_power_of_two, LaneMask};
use crate::params::{ParamSpec, Params};
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

    /// The lane count used when none is given (DESIGN.md, command-line contract).
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

/// One operation of one dialect.
#[derive(Clone, Copy, Debug)]
pub struct OpSpec {
    /// Dialect.
    pub dialect: Dialect,
    /// The vendor's full name (`asc_shfl_xor`, `__shfl_xor_sync`, `ds_swizzle_b32`).
    pub name: &'static str,
    /// Other accepted names (short forms, documented misspellings such as `update_shlf`).
    pub aliases: &'static [&'static str],
    /// The prototype as the vendor writes it (shown verbatim; never parsed: [`OpSpec::args`]
    /// holds the facts).
    pub signature: &'static str,
    /// The call's arguments in the vendor's order: type, role, per-thread or uniform, and the
    /// parameter that holds each ([`crate::args`]). Kernel calls bind to it positionally.
    pub args: &'static [Arg],
    /// The rule in one paragraph, including our reading where the document is ambiguous.
    pub rule: &'static str,
    /// Document and section the rule comes from.
    pub source: &'static str,
    /// Parameters besides the operand (`values`).
    pub params: &'static [ParamSpec],
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
    /// Whether `name` names this op (full name or alias, ASCII case-insensitive).
    pub fn is_named(&self, name: &str) -> bool {
        let n = name.trim();
        self.name.eq_ignore_ascii_case(n) || self.aliases.iter().any(|a| a.eq_ignore_ascii_case(n))
    }

    /// The spec of the parameter `name` (snake or kebab case), or of the argument the vendor
    /// spells `name` (HIP's `lane_delta` is parameter `delta`).
    pub fn param(&self, name: &str) -> Option<&'static ParamSpec> {
        let n = name.trim().trim_start_matches('-').replace('-', "_");
        self.params.iter().find(|p| p.name == n).or_else(|| {
            let arg = self
                .args
                .iter()
                .find(|a| a.name == n || a.snake_name() == n)?;
            let p = arg.param?;
            self.params.iter().find(|s| s.name == p)
        })
    }

    /// The argument that parameter `param` holds, if the call passes it.
    pub fn arg_of(&self, param: &str) -> Option<&'static Arg> {
        self.args.iter().find(|a| a.param == Some(param))
    }

    /// The call as the typed argument list writes it: `__shfl_down(T var, unsigned int
    /// lane_delta, int width = warpSize)`. Defaults come from the parameters.
    pub fn call_signature(&self) -> String {
        let args: Vec<String> = self
            .args
            .iter()
            .map(|a| {
                let default = a
                    .param
                    .and_then(|p| self.params.iter().find(|s| s.name == p))
                    .and_then(|p| match p.default {
                        crate::params::ParamDefault::Lanes => {
                            Some(if self.dialect == Dialect::Wgsl {
                                "subgroup_size".to_string()
                            } else {
                                "warpSize".to_string()
                            })
                        }
                        _ => None,
                    });
                match default {
                    Some(d) => format!("{} = {d}", a.declared()),
                    None => a.declared(),
                }
            })
            .collect();
        format!("{}({})", self.name, args.join(", "))
    }
}

/// Every operation of every dialect.
pub fn all_ops() -> impl Iterator<Item = &'static OpSpec> {
    crate::dialect::TABLES.iter().flat_map(|t| t.iter())
}

/// The operations of one dialect.
pub fn dialect_ops(dialect: Dialect) -> impl Iterator<Item = &'static OpSpec> {
    all_ops().filter(move |op| op.dialect == dialect)
}

/// Finds an op by dialect and name (or alias).
///
/// # Errors
/// [`InputError`] on field `op` listing the dialect's operations.
pub fn find_op(dialect: Dialect, name: &str) -> Result<&'static OpSpec, InputError> {
    dialect_ops(dialect)
        .find(|op| op.is_named(name))
        .ok_or_else(|| {
            let names: Vec<&str> = dialect_ops(dialect).map(|o| o.name).collect();
            InputError::new(
                "op",
                format!(
                    "`{name}` is not an operation of {}; allowed: {}",
                    dialect.title(),
                    names.join(", ")
                ),
            )
        })
}
