//! `crosslane sort --len N [--seed S] [--values LIST] [--json]` (docs/cli.md, "Command-line
//! contract"): sorts N random keys (or the given ones) with the Batcher odd-even merge network and
//! prints the network's figures, its stages for small N, the result and the checks
//! (`crosslane_core::network::report`). A thin shell: all logic lives in the core.
//!
//! Exit status: 0 when sorted and verified, 1 if a check failed, 2 for input that does not parse
//! or is out of range (the message names the flag and the allowed range).

use clap::Args;
use crosslane_core::network::report;

use crate::error::CliError;
use crate::print_out;

/// Flags of `crosslane sort`.
#[derive(Args, Debug, Clone, Default, PartialEq, Eq)]
pub struct SortArgs {
    /// Number of keys, 1..=1048576 (may be omitted with --values).
    #[arg(long, value_name = "N")]
    pub len: Option<usize>,
    /// Seed of the random keys and of the random verification.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// The keys as a comma list of integers (decimal, 0x hex, or negative) instead of random ones.
    #[arg(long, value_name = "LIST", allow_hyphen_values = true)]
    pub values: Option<String>,
    /// Print the report as one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// Runs `crosslane sort`.
///
/// # Errors
/// [`CliError::Input`] for bad flags (exit 2); [`CliError::Failed`] when the result is not sorted
/// or a verification failed (exit 1), after the report was printed.
pub fn run(args: &SortArgs) -> Result<(), CliError> {
    let r = report(args.len, args.seed, args.values.as_deref())?;
    let text = if args.json {
        format!("{:#}\n", r.to_json())
    } else {
        r.to_string()
    };
    print_out(&text)?;
    if r.ok() {
        Ok(())
    } else {
        Err(CliError::Failed(
            "the network did not sort or verify: see the report".into(),
        ))
    }
}
