//! `crosslane gpu info [--json]`: the native device's facts (adapter, backend, whether it is a
//! software fallback such as lavapipe, subgroup sizes, timestamp queries).

use clap::Args;
use crosslane_gpu::native::NativeGpu;

use super::gpu_error;
use crate::error::CliError;
use crate::print_out;

/// Flags of `crosslane gpu info`.
#[derive(Args, Debug, Clone, Default, PartialEq, Eq)]
pub struct GpuInfoArgs {
    /// Print the facts as one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Runs `crosslane gpu info`.
///
/// # Errors
/// [`CliError::Gpu`] (exit 3) when no device opens; [`CliError::Io`] when stdout fails.
pub fn run(args: &GpuInfoArgs) -> Result<(), CliError> {
    let gpu = NativeGpu::new().map_err(gpu_error)?;
    let facts = gpu.facts();
    let text = if args.json {
        serde_json::to_string_pretty(facts).unwrap_or_default()
    } else {
        format!(
            "adapter: {}\nbackend: {}\nfallback: {}\nsubgroups: {}\nsubgroup size: min {} max {}\ntimestamps: {}",
            facts.adapter,
            facts.backend,
            facts.is_fallback,
            facts.subgroups,
            facts.subgroup_min_size,
            facts.subgroup_max_size,
            facts.timestamps
        )
    };
    print_out(&(text + "\n"))
}
