//! Any text as `crosslane`'s command line (one argument per line, at most 64): clap's parse
//! (`Cli::try_parse_from`) and then the checks the command makes before any work
//! (`crosslane_cli::check`: op's dialect, op and `--PARAM VALUE` pairs and its bounded run,
//! sort's `--len` / `--values`, run's `--arg` / `--buffer` / budget flags, gpu's op flags). Each
//! must end in a parsed command or an error with an exit status — never a panic, a hang (run with
//! `-timeout`) or a blow-up (`-rss_limit_mb`). No file is read, no kernel or GPU run.

#![no_main]

use clap::Parser;
use crosslane_cli::cmd::run::escape_controls;
use crosslane_cli::{check, Cli};
use libfuzzer_sys::fuzz_target;

/// Most arguments after the program name.
const MAX_ARGS: usize = 64;

fuzz_target!(|data: &[u8]| {
    if data.len() > 8192 {
        return;
    }
    let text = String::from_utf8_lossy(data);
    let args = std::iter::once("crosslane").chain(text.split('\n').take(MAX_ARGS));
    match Cli::try_parse_from(args) {
        Ok(cli) => {
            if let Err(e) = check(&cli) {
                // As `main` reports it.
                let _ = escape_controls(&e.to_string());
                let _ = e.exit_code();
            }
        }
        Err(e) => {
            let _ = e.render().to_string();
        }
    }
});
