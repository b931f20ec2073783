//! `crosslane`: the command line over crosslane-core. The binary (`src/main.rs`) only calls
//! [`main`]; the library holds the clap [`Cli`], the command modules and [`check`] (the checks
//! every command makes before any work), so the fuzz target `cli_args` (fuzz/) can drive them.
//!
//! What it is for: running one cross-lane operation from flags (`crosslane op`), listing the
//! operation registry (`crosslane ops`) and replaying a scenario file or permalink
//! (`crosslane run`), printing a readable table or the JSON contract of docs/cli.md
//! ("Command-line contract"). What it is not for: semantics. Every rule, range and default comes
//! from the core registry; this crate only turns arguments into an [`crosslane_core::OpRequest`]
//! and results into text.
//!
//! Exit status: 0 when the input could be encoded (warnings and undefined lanes included), 2 when
//! an argument does not parse or cannot be encoded (the message names the field and the allowed
//! range), 3 when `crosslane gpu` finds no usable GPU, 1 for anything else (an unreadable file, a
//! broken pipe, a check that failed).
//!
//! One module per subcommand under `cmd/`; a new subcommand is one new module plus one variant of
//! [`Command`].
//!
//! Read first: [`Command`] (the subcommands), then [`cmd::op`] (one op from flags to output) and
//! [`flags`] (an op's `--PARAM VALUE` words checked against its registry entry). The user's
//! reference is `docs/cli.md`.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod cmd;
pub mod compare_view;
pub mod describe;
pub mod error;
pub mod flags;
mod json_out;
pub mod table;
pub mod validate;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

pub use crate::error::CliError;
pub use crate::validate::{check, SORT_CHECK_MAX};

/// Cross-lane operations (shuffles, swizzles, permutes, ballots, lane reads) of CUDA, HIP,
/// Ascend C, AMD GCN/RDNA, MetaX MACA and WGSL, lane by lane, with undefined results marked and
/// each rule's source cited.
#[derive(Parser, Debug)]
#[command(name = "crosslane", version, about, long_about = None)]
pub struct Cli {
    /// The subcommand and its arguments.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands; each variant's arguments live in its module under `cmd/`.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run one operation: crosslane op DIALECT OP [--lanes N] [--active MASK] [--values SPEC]
    /// [--type T] [--PARAM VALUE]... [--json] [--compare]
    Op(cmd::op::OpArgs),
    /// List every operation (signature, rule, source, parameters, a live example) of one dialect
    /// or of all; --json prints the reference entries.
    Ops(cmd::ops::OpsArgs),
    /// Replay a scenario (JSON file, `-` for stdin, or a permalink) and print its trace as JSON,
    /// or run a kernel snippet (.cu/.cpp/… file) and print its trace (JSON with --json).
    // Boxed: its flags make it several times larger than the other commands.
    Run(Box<cmd::run::RunArgs>),
    /// Sort keys with the Batcher odd-even merge network: result, figures, verification.
    Sort(cmd::sort::SortArgs),
    /// Run an operation (or the sort) on the GPU and compare it with the emulator lane by lane:
    /// crosslane gpu DIALECT OP [flags] | gpu sort --len N | gpu info. Exit 1 on a mismatch,
    /// 3 without a usable GPU.
    Gpu(cmd::gpu::GpuArgs),
}

/// Stack of the thread the command runs on. The kernel interpreter recurses once per level of
/// the syntax tree, which `--max-depth` bounds (at most 512 levels); a debug build's frames
/// need several MiB for that, more than a main thread may have. Only touched pages cost memory.
pub const STACK_BYTES: usize = 64 << 20;

/// The `crosslane` program: parses the process's arguments and runs the command on a thread
/// with a [`STACK_BYTES`] stack; returns the exit status (see the crate documentation).
pub fn main() -> ExitCode {
    match std::thread::Builder::new()
        .name("crosslane".into())
        .stack_size(STACK_BYTES)
        .spawn(command)
    {
        // A panic was already printed by the hook; 101 is Rust's own status for it.
        Ok(handle) => handle.join().unwrap_or(ExitCode::from(101)),
        Err(_) => command(),
    }
}

fn command() -> ExitCode {
    let cli = Cli::parse_from(std::env::args_os().map(cmd::run_args::clang_spelling));
    match execute(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!(
                "crosslane: {}",
                crosslane_kernel::bidi::escape(&cmd::run::escape_controls(&e.to_string()))
            );
            e.exit_code()
        }
    }
}

/// Runs a parsed command line.
///
/// # Errors
/// The command's [`CliError`]; [`CliError::exit_code`] is the process's exit status.
pub fn execute(cli: Cli) -> Result<(), CliError> {
    match cli.command {
        Command::Op(args) => cmd::op::run(&args),
        Command::Ops(args) => cmd::ops::run(&args),
        Command::Run(args) => cmd::run::run(&args),
        Command::Sort(args) => cmd::sort::run(&args),
        Command::Gpu(args) => cmd::gpu::run(&args),
    }
}

pub(crate) use json_out::print_json;

/// Writes `text` to stdout; a closed pipe (`crosslane ops | head`) is not worth a panic.
///
/// Bidirectional control characters (Trojan Source) are never written raw: text gets
/// `\u{202e}`, and JSON (a text starting with `{` or `[`, where such a character can only be
/// inside a string) the same letters with the backslash escaped, so it stays valid JSON.
pub(crate) fn print_out(text: &str) -> Result<(), CliError> {
    use std::io::Write;
    let json = text.trim_start().starts_with(['{', '[']);
    let text = if json
        && text
            .chars()
            .any(|c| crosslane_kernel::bidi::name(c).is_some())
    {
        text.chars()
            .map(|c| match crosslane_kernel::bidi::name(c) {
                Some(_) => format!("\\\\u{{{:x}}}", c as u32),
                None => c.to_string(),
            })
            .collect()
    } else {
        crosslane_kernel::bidi::escape(text)
    };
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        // The reader went away (`crosslane ops | head`): nothing left to say, and not a failure.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other.map_err(|e| CliError::Io(format!("stdout: {e}"))),
    }
}
