//! `crosslane ops [DIALECT] [--json]`: every operation of the registry with its signature, rule,
//! source, value types, parameters (range, default, meaning) and a live example. Nothing here is
//! written by hand: it renders [`crosslane_core::reference::entries`], the same entries the page's
//! Reference view renders, so the CLI, the page and the semantics cannot drift apart.

use std::fmt::Write as _;

use crosslane_core::reference::{entries, RefEntry};
use crosslane_core::{Dialect, Source};

use crate::error::CliError;
use crate::print_out;

/// How many lanes of an example's result the listing shows.
const EXAMPLE_LANES: usize = 8;

/// Arguments of `crosslane ops`.
#[derive(clap::Args, Debug)]
pub struct OpsArgs {
    /// Only this dialect (cuda, hip, ascend, amdgcn, maca, wgsl); all when omitted.
    pub dialect: Option<String>,
    /// Print the reference entries as one JSON array (the page's Reference view data).
    #[arg(long)]
    pub json: bool,
}

/// Runs `crosslane ops`.
///
/// # Errors
/// [`CliError::Input`] (exit 2) for an unknown dialect; [`CliError::Io`] when stdout fails or the
/// entries cannot be written as JSON.
pub fn run(args: &OpsArgs) -> Result<(), CliError> {
    let only = args.dialect.as_deref().map(Dialect::parse).transpose()?;
    let list: Vec<RefEntry> = entries()
        .into_iter()
        .filter(|e| only.is_none_or(|d| e.dialect == d))
        .collect();
    if args.json {
        let text = serde_json::to_string_pretty(&list)
            .map_err(|e| CliError::Io(format!("reference as JSON: {e}")))?;
        return print_out(&format!("{text}\n"));
    }
    let mut out = String::new();
    for e in &list {
        entry(&mut out, e);
    }
    if out.is_empty() {
        if let Some(d) = only {
            out = format!("no {} operations yet\n", d.title());
        }
    }
    print_out(&out)
}

/// One op's entry.
fn entry(out: &mut String, e: &RefEntry) {
    let _ = write!(out, "{} {}", e.dialect.name(), e.name);
    if !e.aliases.is_empty() {
        let _ = write!(out, " (also {})", e.aliases.join(", "));
    }
    if e.scalar {
        out.push_str(" [scalar]");
    }
    out.push('\n');
    let _ = writeln!(out, "  {}", e.signature_line());
    let _ = writeln!(out, "  rule: {}", e.rule);
    let _ = writeln!(out, "  source: {}", e.source);
    let types: Vec<&str> = e.types.iter().map(|t| t.name()).collect();
    let _ = writeln!(out, "  types: {}", types.join(", "));
    for p in &e.params {
        let passed = match (&p.arg, p.lanes) {
            (Some(arg), Some(lanes)) => format!(" [{arg}: {lanes}]"),
            _ => String::new(),
        };
        let _ = writeln!(
            out,
            "  {}{passed}  {}; {}. {}",
            p.flag, p.range, p.default_text, p.doc
        );
    }
    let _ = writeln!(out, "  example: {}", e.example.command);
    if let Some(note) = e.example.note {
        let _ = writeln!(out, "    ({note})");
    }
    match (&e.example.step, &e.example.error) {
        (Some(step), _) => {
            let shown: Vec<String> = step
                .results
                .iter()
                .take(EXAMPLE_LANES)
                .enumerate()
                .map(|(lane, r)| {
                    let value = match (r.value, r.source) {
                        (Some(v), _) => v.to_string(),
                        (None, Source::Inactive) => "-".to_string(),
                        (None, _) => "undefined".to_string(),
                    };
                    match (r.source, r.from) {
                        (Source::Lane, Some(j)) => format!("{lane}:{value}←{j}"),
                        _ => format!("{lane}:{value}"),
                    }
                })
                .collect();
            let more = if step.results.len() > EXAMPLE_LANES {
                format!(" … ({} lanes)", step.results.len())
            } else {
                String::new()
            };
            let _ = writeln!(out, "    → {}{more}", shown.join(" "));
        }
        (None, Some(err)) => {
            let _ = writeln!(out, "    → refused: {err}");
        }
        (None, None) => {}
    }
    out.push('\n');
}
