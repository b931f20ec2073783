//! Snapshot tests of the kernel front end, in the shape of naga's `tests/in` → `tests/out`:
//! every file in `tests/snapshots/in/` is run, and what it gives is compared with the file of
//! the same name in `tests/snapshots/out/` — for a kernel (`.cu`, `.hip`) a JSON of the outcome,
//! the merged diagnostics, the final buffers' values and the preprocessor's record; for a
//! preprocessor-only input (first line `// snapshot: mode=pp`) the tokens the parser would
//! read, one source line per line. `UPDATE_SNAPSHOTS=1 cargo test -p crosslane-kernel --test
//! suite kernel_snapshots` rewrites the expected files; each input's comments derive its
//! expected values independently, so a rewrite must be checked against them.
//!
//! The first line may configure the run: `// snapshot: KEY=VALUE …` with `mode=pp`,
//! `lanes=N`, `threads=N`, `dialect=NAME`, `arch=NAME`, `entry=NAME` (the `--entry` kernel),
//! `define=NAME[=VALUE]` and `undefine=NAME` (repeatable, in order).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crosslane_core::Dialect;
use crosslane_kernel::budget::Limits;
use crosslane_kernel::pp::{preprocess, spell};
use crosslane_kernel::{run_kernel_traced, LaunchConfig, PpOptions, TraceMode, UserMacro};

fn dir(sub: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/snapshots")
        .join(sub)
}

/// The run's settings from the input's `// snapshot:` line and its extension.
struct Setup {
    pp_only: bool,
    dialect: Dialect,
    lanes: Option<usize>,
    threads: Option<usize>,
    entry: Option<String>,
    options: PpOptions,
}

fn setup(name: &str, source: &str) -> Setup {
    let dialect = if name.ends_with(".hip") {
        Dialect::Hip
    } else {
        Dialect::Cuda
    };
    let mut s = Setup {
        pp_only: false,
        dialect,
        lanes: None,
        threads: None,
        entry: None,
        options: PpOptions::default(),
    };
    let first = source.lines().next().unwrap_or("");
    let Some(spec) = first.strip_prefix("// snapshot:") else {
        return s;
    };
    for word in spec.split_whitespace() {
        let (k, v) = word.split_once('=').unwrap_or((word, ""));
        match k {
            "mode" => s.pp_only = v == "pp",
            "lanes" => s.lanes = v.parse().ok(),
            "threads" => s.threads = v.parse().ok(),
            "dialect" => s.dialect = Dialect::parse(v).expect("a dialect name"),
            "arch" => s.options.arch = Some(v.to_string()),
            "entry" => s.entry = Some(v.to_string()),
            "define" => s.options.defines.push(UserMacro::Define(v.to_string())),
            "undefine" => s.options.defines.push(UserMacro::Undefine(v.to_string())),
            other => panic!("{name}: unknown snapshot key `{other}`"),
        }
    }
    s
}

/// The preprocessed tokens, each source line's on a line of its own (`LINE: tokens`), then the
/// diagnostics and the conditionals' record; or the error.
fn pp_text(source: &str, s: &Setup) -> String {
    let lanes = s.lanes.unwrap_or_else(|| s.dialect.default_lanes());
    let mut out = String::new();
    match preprocess(source, s.dialect, lanes, &s.options, &Limits::default()) {
        Err(e) => {
            let _ = writeln!(out, "error {e}");
        }
        Ok(p) => {
            let mut line = 0;
            for t in &p.tokens {
                let text = spell(&t.tok);
                if text.is_empty() {
                    continue;
                }
                if t.line != line {
                    if line != 0 {
                        out.push('\n');
                    }
                    line = t.line;
                    let _ = write!(out, "{line}:");
                }
                let _ = write!(out, " {text}");
            }
            out.push('\n');
            for d in &p.diagnostics {
                let _ = writeln!(
                    out,
                    "diagnostic {}:{} {:?}: {}",
                    d.line, d.col, d.level, d.message
                );
            }
            for c in &p.record.conditionals {
                for b in &c.branches {
                    let _ = writeln!(
                        out,
                        "branch {}: {} taken={} skipped={:?}",
                        b.line,
                        b.directive,
                        b.taken,
                        b.skipped.map(|r| (r.first, r.last))
                    );
                }
            }
        }
    }
    out
}

/// The run as JSON: outcome (or the error), diagnostics, buffers' values, the preprocessor's
/// record.
fn run_json(source: &str, s: &Setup) -> String {
    let config = LaunchConfig {
        dialect: Some(s.dialect),
        lanes: s.lanes,
        block_dim: s.threads.map(|t| [t, 1, 1]),
        entry: s.entry.clone(),
        preprocess: s.options.clone(),
        ..LaunchConfig::default()
    };
    let v = match run_kernel_traced(source, config, TraceMode::None) {
        Err(e) => serde_json::json!({ "error": e }),
        Ok(t) => {
            let buffers: serde_json::Map<String, serde_json::Value> = t
                .memory
                .buffers
                .iter()
                .map(|b| {
                    let j = serde_json::to_value(b).expect("a buffer serializes");
                    (b.name.clone(), j["values"].clone())
                })
                .collect();
            serde_json::json!({
                "outcome": t.outcome,
                "diagnostics": t.merged_diagnostics,
                "buffers": buffers,
                "preprocess": t.preprocess,
            })
        }
    };
    let mut text = serde_json::to_string_pretty(&v).expect("JSON");
    text.push('\n');
    text
}

#[test]
fn kernel_snapshots() {
    let update = std::env::var_os("UPDATE_SNAPSHOTS").is_some();
    let mut names: Vec<String> = std::fs::read_dir(dir("in"))
        .expect("tests/snapshots/in exists")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .collect();
    names.sort();
    assert!(!names.is_empty(), "no snapshot inputs");
    let mut failed = Vec::new();
    for name in &names {
        let source = std::fs::read_to_string(dir("in").join(name)).expect("readable input");
        let s = setup(name, &source);
        let (got, out_name) = if s.pp_only {
            (pp_text(&source, &s), format!("{name}.txt"))
        } else {
            (run_json(&source, &s), format!("{name}.json"))
        };
        let path = dir("out").join(&out_name);
        if update {
            std::fs::write(&path, &got).expect("writable output");
            continue;
        }
        let want = std::fs::read_to_string(&path).unwrap_or_default();
        if want != got {
            failed.push(format!("--- {out_name}: expected\n{want}--- got\n{got}"));
        }
    }
    assert!(
        failed.is_empty(),
        "{} snapshot(s) differ (UPDATE_SNAPSHOTS=1 rewrites them; check each against its input's derivation):\n{}",
        failed.len(),
        failed.join("\n")
    );
}
