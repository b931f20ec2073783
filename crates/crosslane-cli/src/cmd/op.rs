//! `crosslane op DIALECT OP [--lanes N] [--active MASK] [--exited MASK] [--values SPEC] [--type T]
//! [--PARAM VALUE]... [--json] [--compare]` (docs/cli.md, "Command-line contract"); `--compare`
//! hands a shuffle-family op to [`crate::compare_view`].
//!
//! The common flags are clap's; the per-op `--PARAM VALUE` pairs are whatever the op's
//! [`crosslane_core::OpSpec::params`] lists, so they are collected raw and matched against the
//! registry by [`crate::flags::parse_params`] (kebab-case flag → snake_case vendor name).

use std::collections::BTreeMap;

use crosslane_core::{find_op, Dialect, OpRequest, OpSpec};

use crate::error::CliError;
use crate::flags::{parse_params, Common, OpCall};
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
    /// `DIALECT OP`, the common flags and the op's parameters, as `crosslane gpu` takes them.
    #[command(flatten)]
    pub call: OpCall,
    /// CUDA only: lanes that have exited (hex), e.g. the missing lanes of a partial last warp.
    /// They do not call and do not break the sync rule (it names non-exited threads).
    #[arg(long, allow_hyphen_values = true)]
    pub exited: Option<String>,
    /// Run the op's shuffle family (idx / up / down / xor) under CUDA, HIP wave32, HIP wave64,
    /// Ascend C and WGSL side by side and mark the lanes where they disagree.
    #[arg(long)]
    pub compare: bool,
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
    let call = &args.call;
    let dialect = Dialect::parse(&call.dialect)?;
    let spec = find_op(dialect, &call.op)?;
    let mut common = Common {
        exited: args.exited.clone(),
        compare: args.compare,
        ..call.common()
    };
    // Refuse `--compare` on an op outside the shuffle family before its other flags are checked,
    // so the message is about --compare and not about a flag the op happens not to have.
    if args.compare || call.params.iter().any(|w| w == "--compare") {
        compare_view::family(spec)?;
    }
    let params = parse_params(spec, &call.params, &mut common)?;
    if common.compare {
        return Ok(Prepared::Compare(spec, params, common));
    }
    let request = OpRequest {
        dialect: call.dialect.clone(),
        op: call.op.clone(),
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
