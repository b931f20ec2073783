//! `crosslane ops [DIALECT]`: every operation of the registry with its signature, rule, source,
//! value types and parameters (range, default, meaning). Nothing here is written by hand: it is
//! the registry as the core holds it, so the listing cannot drift from the semantics.

use std::fmt::Write as _;

use crosslane_core::{all_ops, Dialect, OpKind, OpSpec};

use crate::error::CliError;
use crate::{describe, print_out};

/// Arguments of `crosslane ops`.
#[derive(clap::Args, Debug)]
pub struct OpsArgs {
    /// Only this dialect (cuda, hip, ascend, amdgcn, maca, wgsl); all when omitted.
    pub dialect: Option<String>,
}

/// Runs `crosslane ops`.
///
/// # Errors
/// [`CliError::Input`] (exit 2) for an unknown dialect; [`CliError::Io`] when stdout fails.
pub fn run(args: &OpsArgs) -> Result<(), CliError> {
    let only = args.dialect.as_deref().map(Dialect::parse).transpose()?;
    let mut out = String::new();
    for spec in all_ops().filter(|op| only.is_none_or(|d| op.dialect == d)) {
        entry(&mut out, spec);
    }
    if out.is_empty() {
        if let Some(d) = only {
            out = format!("no {} operations yet\n", d.title());
        }
    }
    print_out(&out)
}

/// One op's entry.
fn entry(out: &mut String, spec: &OpSpec) {
    let _ = write!(out, "{} {}", spec.dialect.name(), spec.name);
    if !spec.aliases.is_empty() {
        let _ = write!(out, " (also {})", spec.aliases.join(", "));
    }
    if spec.kind == OpKind::Scalar {
        out.push_str(" [scalar]");
    }
    out.push('\n');
    let _ = writeln!(out, "  {}", spec.signature);
    let _ = writeln!(out, "  rule: {}", squash(spec.rule));
    let _ = writeln!(out, "  source: {}", spec.source);
    let types: Vec<&str> = spec.types.iter().map(|t| t.name()).collect();
    let _ = writeln!(out, "  types: {}", types.join(", "));
    for p in spec.params {
        let _ = writeln!(
            out,
            "  {}  {}; {}. {}",
            p.flag(),
            describe::param_range(p),
            describe::param_default(p),
            p.doc
        );
    }
    out.push('\n');
}

/// The rule paragraphs are written across source lines with `\` continuations; collapse runs of
/// spaces so the listing reads as one paragraph.
fn squash(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
