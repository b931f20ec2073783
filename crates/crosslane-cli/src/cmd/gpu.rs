//! `crosslane gpu DIALECT OP [flags] | gpu sort --len N [--seed S] | gpu info` (DESIGN.md,
//! "Command-line contract"; issue 7): runs the op in the emulator and on the native GPU (wgpu on
//! Vulkan) and prints the lane diff with the adapter, subgroup sizes, lowering and timing. A thin
//! shell: the arguments go unparsed to `crosslane_gpu::cli::gpu_command`, which owns the flags.
//!
//! Exit status: 0 = every lane matches (or is indeterminate by spec); 1 = a lane or the sort
//! mismatches; 2 = input that does not parse or that the GPU path cannot run as asked; 3 = no GPU
//! or a GPU error (validation, device lost, mapping).

use std::process::ExitCode;

use clap::Args;

/// Flags of `crosslane gpu`: everything after `gpu`, passed through as typed.
#[derive(Args, Debug, Clone, Default, PartialEq, Eq)]
pub struct GpuArgs {
    /// `DIALECT OP [--lanes N] [--active MASK] [--values SPEC] [--type T] [--PARAM VALUE]...
    /// [--lowering auto|workgroup|subgroup] [--wgsl] [--json]`, `sort --len N [--seed S] [--json]`
    /// or `info [--json]`.
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "ARGS"
    )]
    pub args: Vec<String>,
}

/// Runs `crosslane gpu`, prints its output (stdout for exit 0/1, stderr otherwise) and returns
/// its exit status.
pub fn run(args: &GpuArgs) -> ExitCode {
    let (text, status) = crosslane_gpu::cli::gpu_command(&args.args);
    let printed = if status <= 1 {
        crate::print_out(&text)
    } else {
        eprint!("{text}");
        Ok(())
    };
    if let Err(e) = printed {
        eprintln!("crosslane: {e}");
        return ExitCode::from(1);
    }
    ExitCode::from(u8::try_from(status).unwrap_or(1))
}
