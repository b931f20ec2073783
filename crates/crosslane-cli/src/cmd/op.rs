//! `crosslane op DIALECT OP [--lanes N] [--active MASK] [--exited MASK] [--values SPEC] [--type T]
//! [--PARAM VALUE]... [--json] [--compare]` (DESIGN.md, "Command-line contract"); `--compare`
//! hands a shuffle-family op to [`crate::compare_view`].
//!
//! The common flags are clap's; the per-op `--PARAM VALUE` pairs are whatever the op's
//! [`crosslane_core::OpSpec::params`] lists, so they are collected raw and matched against the
//! registry by [`crate::flags::parse_params`] (kebab-case flag → snake_case vendor name).

use std::collections::BTreeMap;

use crosslane_core::{find_op, Dialect, OpRequest, OpSpec};

use crate::error::CliError;
use crate::flags::{parse_params, Common};
use crate::{compare_view, print_out, table};

/// Arguments of `crosslane op`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Parameters are the op's vendor parameter names in kebab-case, e.g. \
                  --lane-mask 1 --width 16 (see `crosslane ops DIALECT`). A per-lane parameter \
                  takes one value for every lane or a comma list of exactly N.\n\n\
                  Targets: amdgcn and hip ops take --arch, an LLVM AMD processor (gfx900, gfx90a, \
                  gfx942, gfx950, gfx1030, gfx1100, gfx1150, gfx1200; default gfx1030): wave \
                  sizes and DPP controls the target lacks exit 2, and generation-specific rules \
                  (ds_permute) follow it. MACA ops with a target limit take --arch xcoreNNNN.\n\n\
                  Example: crosslane op ascend asc_shfl_xor --lane-mask 1 --width 16 --json"
)]
pub struct OpArgs {
    /// cuda, hip, ascend, amdgcn, maca or wgsl.
    pub dialect: String,
    /// The vendor's op name (asc_shfl_xor, __shfl_xor_sync, ds_swizzle_b32, …) or an alias.
    pub op: String,
    /// Lanes in the warp: cuda/ascend 32, maca 64, amdgcn/hip 32 or 64 (default 64), wgsl a power
    /// of two in 4..=128 (default 32).
    #[arg(long, allow_hyphen_values = true)]
    pub lanes: Option<String>,
    /// Active (exec) mask, hex; default all lanes that have not exited.
    #[arg(long, allow_hyphen_values = true)]
    pub active: Option<String>,
    /// CUDA only: lanes that have exited (hex), e.g. the missing lanes of a partial last warp.
    /// They do not call and do not break the sync rule (it names non-exited threads).
    #[arg(long, allow_hyphen_values = true)]
    pub exited: Option<String>,
    /// The operand: `lane` (default), a lane expression (`lane^1`, `(lane+1)%32`), or a comma
    /// list of exactly N items.
    #[arg(long, allow_hyphen_values = true)]
    pub values: Option<String>,
    /// Value type: i32 (default), u32, f32, i64, u64, f64, f16, bf16, f16x2, bf16x2.
    #[arg(long = "type", value_name = "T")]
    pub ty: Option<String>,
    /// Print the DESIGN.md JSON contract (one object) instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Run the op's shuffle family (idx / up / down / xor) under CUDA, HIP wave32, HIP wave64,
    /// Ascend C and WGSL side by side and mark the lanes where they disagree.
    #[arg(long)]
    pub compare: bool,
    /// The op's parameters as `--PARAM VALUE` (or `--PARAM=VALUE`) pairs.
    #[arg(
        value_name = "--PARAM VALUE",
        num_args = 0..,
        allow_hyphen_values = true,
        trailing_var_arg = true
    )]
    pub params: Vec<String>,
}

/// What `crosslane op` runs once its flags are checked.
#[derive(Debug)]
pub enum Prepared {
    /// `--compare`: the op (a shuffle-family op, checked), its parsed parameters and the flags.
    Compare(&'static OpSpec, BTreeMap<String, String>, Common),
    /// One op: the request and whether `--json` was given.
    Request(OpRequest, bool),
}

/// The checks `crosslane op` makes before any work: the dialect, the op, `--compare` on a
/// shuffle-family op, the op's `--PARAM VALUE` pairs (no encoding yet: that is
/// [`OpRequest::run`]'s, bounded by the dialect's lane count).
///
/// # Errors
/// [`CliError::Input`] / [`CliError::Usage`] (exit 2) for a dialect, op or flag that does not
/// parse.
pub fn prepare(args: &OpArgs) -> Result<Prepared, CliError> {
    let dialect = Dialect::parse(&args.dialect)?;
    let spec = find_op(dialect, &args.op)?;
    let mut common = Common {
        lanes: args.lanes.clone(),
        active: args.active.clone(),
        exited: args.exited.clone(),
        values: args.values.clone(),
        ty: args.ty.clone(),
        json: args.json,
        compare: args.compare,
        gpu: None,
    };
    // Refuse `--compare` on an op outside the shuffle family before its other flags are checked,
    // so the message is about --compare and not about a flag the op happens not to have.
    if args.compare || args.params.iter().any(|w| w == "--compare") {
        compare_view::family(spec)?;
    }
    let params = parse_params(spec, &args.params, &mut common)?;
    if common.compare {
        return Ok(Prepared::Compare(spec, params, common));
    }
    let request = OpRequest {
        dialect: args.dialect.clone(),
        op: args.op.clone(),
        lanes: common.lanes.unwrap_or_default(),
        active: common.active.unwrap_or_default(),
        exited: common.exited.unwrap_or_default(),
        values: common.values.unwrap_or_default(),
        ty: common.ty.unwrap_or_default(),
        params,
    };
    Ok(Prepared::Request(request, common.json))
}

/// Runs `crosslane op`.
///
/// # Errors
/// [`CliError::Input`] / [`CliError::Usage`] (exit 2) for anything that does not parse or cannot
/// be encoded; [`CliError::Io`] when stdout fails.
pub fn run(args: &OpArgs) -> Result<(), CliError> {
    let (request, json) = match prepare(args)? {
        Prepared::Compare(spec, params, common) => {
            return compare_view::run(spec, &params, &common)
        }
        Prepared::Request(request, json) => (request, json),
    };
    let step = request.run()?;
    if json {
        print_out(&format!("{}\n", step.contract_json()))
    } else {
        print_out(&table::step(&step))
    }
}
