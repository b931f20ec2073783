//! `crosslane run FILE|-|PERMALINK [--json]`: replays a scenario and prints its trace as JSON.
//!
//! The input is a scenario JSON file (`{"version": 1, "view": …}`), `-` for standard input, or a
//! permalink (`v1.…`, given directly, in a file, or as a page URL whose `#` fragment or last
//! `=` parameter holds it). For an `op` view the trace is the step's `--json` contract object.
//! Kernel and sort views are answered by their own modules as they land (one match arm each in
//! [`run`]).

use std::io::Read;

use crosslane_core::permalink;
use crosslane_core::scenario::{Scenario, View};

use crate::error::CliError;
use crate::print_out;

/// Arguments of `crosslane run`.
#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// A scenario JSON file, `-` for standard input, or a permalink (`v1.…`).
    pub input: String,
    /// Print JSON (the only output form of `run` today; accepted for symmetry with `op`).
    #[arg(long)]
    pub json: bool,
}

/// Runs `crosslane run`.
///
/// # Errors
/// [`CliError::Io`] (exit 1) when the file or stdin cannot be read; [`CliError::Usage`] (exit 2)
/// when the text is neither a scenario nor a permalink, or its view cannot run here;
/// [`CliError::Input`] (exit 2) when an op view's fields do not parse or cannot be encoded.
pub fn run(args: &RunArgs) -> Result<(), CliError> {
    let scenario = read_scenario(&args.input)?;
    let trace = match &scenario.view {
        View::Op(request) => request.run()?.contract_json(),
        View::Kernel { .. } => {
            return Err(CliError::Usage(
                "run: kernel scenarios are not replayed by this build of crosslane yet".into(),
            ))
        }
        View::Sort { .. } => {
            return Err(CliError::Usage(
                "run: sort scenarios are not replayed by `run` yet; use `crosslane sort`".into(),
            ))
        }
    };
    print_out(&format!("{trace}\n"))
}

/// The scenario named by the `run` argument.
fn read_scenario(input: &str) -> Result<Scenario, CliError> {
    let text = if input == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| CliError::Io(format!("run: reading standard input: {e}")))?;
        text
    } else if looks_like_link(input) && !std::path::Path::new(input).exists() {
        input.to_string()
    } else {
        std::fs::read_to_string(input).map_err(|e| CliError::Io(format!("run: {input}: {e}")))?
    };
    parse(&text)
}

/// Scenario JSON when the text starts with `{`, otherwise a permalink.
fn parse(text: &str) -> Result<Scenario, CliError> {
    let text = text.trim();
    if text.starts_with('{') {
        Scenario::from_json(text.as_bytes()).map_err(|e| CliError::Usage(format!("run: {e}")))
    } else {
        permalink::decode(link_part(text)).map_err(|e| CliError::Usage(format!("run: {e}")))
    }
}

/// The permalink inside a page URL: after the last `#`, then after the last `=` (base64url has
/// neither character, so the cut can never land inside the link).
fn link_part(text: &str) -> &str {
    let after_hash = text.rsplit('#').next().unwrap_or(text);
    after_hash.rsplit('=').next().unwrap_or(after_hash)
}

/// Whether an argument is meant as a permalink rather than a path.
fn looks_like_link(arg: &str) -> bool {
    permalink::format_prefix(link_part(arg.trim())).is_some()
}
