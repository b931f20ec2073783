//! `crosslane gpu DIALECT OP [flags] | gpu sort --len N [--seed S] | gpu info` (docs/cli.md,
//! "Command-line contract"): runs the op in the emulator and on the native GPU (wgpu on
//! Vulkan) and prints the lane diff with the adapter, subgroup sizes, lowering and timing.
//! crosslane-gpu does the work; this module owns the command line, parsed by clap with the same
//! parameter parsing as `crosslane op` ([`crate::flags::parse_params`]).
//!
//! * [`op`]: `DIALECT OP …`, the lane diff (`--lowering`, `--wgsl`, `--json`);
//! * [`sort`]: `sort`, the odd-even merge network on the device against `sort_unstable`, on the
//!   keys every sort draws from the seed (`crosslane_core::network::keys`);
//! * [`info`]: `info`, the device facts.
//!
//! Exit status: 0 = every lane matches (or is indeterminate by spec); 1 = a lane or the sort
//! mismatches; 2 = input that does not parse or that the GPU path cannot run as asked (an op
//! without a GPU lowering, a WGSL lane count that is not the device's subgroup size, a sort
//! longer than the device binds); 3 = no GPU or a GPU error (validation, device lost, mapping).

pub mod info;
pub mod op;
pub mod sort;

use clap::{Args, Subcommand};
use crosslane_gpu::GpuError;

use crate::error::CliError;

/// Arguments of `crosslane gpu`: a subcommand (`sort`, `info`) or an operation.
#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct GpuArgs {
    /// `sort` or `info`; without one, the words are `DIALECT OP [flags]`.
    #[command(subcommand)]
    pub command: Option<GpuCommand>,
    /// `DIALECT OP [flags]`: one operation on the device, in `crosslane op`'s words.
    #[command(flatten)]
    pub op: Option<crate::flags::OpCall>,
    /// The operation's device flags (`--lowering`, `--wgsl`).
    #[command(flatten)]
    pub flags: op::GpuOpFlags,
}

/// The subcommands of `crosslane gpu` besides an operation.
#[derive(Subcommand, Debug)]
pub enum GpuCommand {
    /// Sort N keys (from the seed, as `crosslane sort`) with the odd-even merge network on the
    /// GPU and check them against sort_unstable.
    Sort(sort::GpuSortArgs),
    /// Print the device facts: adapter, backend, subgroup sizes, timestamps.
    Info(info::GpuInfoArgs),
}

/// Runs `crosslane gpu`.
///
/// # Errors
/// [`CliError::Input`] / [`CliError::Usage`] (exit 2) for input that does not parse or that the
/// GPU path cannot run as asked; [`CliError::Gpu`] (exit 3) without a usable GPU;
/// [`CliError::Failed`] (exit 1) on a lane or sort mismatch, after the diff was printed.
pub fn run(args: &GpuArgs) -> Result<(), CliError> {
    match (&args.command, &args.op) {
        (Some(GpuCommand::Sort(a)), _) => sort::run(a),
        (Some(GpuCommand::Info(a)), _) => info::run(a),
        (None, Some(a)) => op::run(a, &args.flags),
        (None, None) => Err(CliError::Usage(
            "usage: crosslane gpu DIALECT OP [flags] | gpu sort --len N | gpu info".into(),
        )),
    }
}

/// A [`GpuError`] as the CLI reports it: refused input (bad input, a run the GPU path cannot do
/// as asked) exits 2, everything about the device itself exits 3.
pub(crate) fn gpu_error(e: GpuError) -> CliError {
    match e {
        GpuError::Input(e) => CliError::Input(e),
        e @ GpuError::Unsupported { .. } => CliError::Usage(e.to_string()),
        e => CliError::Gpu(e.to_string()),
    }
}
