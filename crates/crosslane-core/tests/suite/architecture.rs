//! ARCHITECTURE.md names files and folders so that a reader can open them; this keeps those
//! names true when the code moves. Every backticked word in it that looks like a path — it
//! contains `/`, or ends in `.rs` or `.md` — must name a file or folder of the repository: at
//! that path from the repository root, or, for a path written relative to the section's crate
//! or folder (`machine/`, `regs.rs`), as the end of some path in the repository.

use std::path::{Path, PathBuf};

/// The repository root: two levels above this crate's manifest.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Folders never searched: build output, dependencies, version control.
const SKIP: &[&str] = &[
    "target",
    ".git",
    "node_modules",
    "dist",
    "corpus",
    "artifacts",
];

/// Every file and folder under the root, as `/`-separated paths relative to it (folders with a
/// trailing `/`). An explicit stack, and a cap on entries, bound the walk.
fn repository_paths(root: &Path) -> Vec<String> {
    const MAX_ENTRIES: usize = 200_000;
    let mut out = Vec::new();
    let mut stack = vec![PathBuf::new()];
    while let Some(rel) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(root.join(&rel)) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let path = rel.join(&name);
            let text = path.to_string_lossy().replace('\\', "/");
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                if !SKIP.contains(&name.as_str()) {
                    out.push(format!("{text}/"));
                    stack.push(path);
                }
            } else {
                out.push(text);
            }
            assert!(
                out.len() < MAX_ENTRIES,
                "the walk passed {MAX_ENTRIES} entries"
            );
        }
    }
    out
}

/// The backticked words of `text` that look like paths.
fn named_paths(text: &str) -> Vec<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|w| !w.contains(' ') && !w.is_empty())
        .filter(|w| w.contains('/') || w.ends_with(".rs") || w.ends_with(".md"))
        .map(str::to_string)
        .collect()
}

#[test]
fn every_path_architecture_md_names_exists() {
    let root = root();
    let text = std::fs::read_to_string(root.join("ARCHITECTURE.md"))
        .expect("ARCHITECTURE.md at the repository root");
    let named = named_paths(&text);
    assert!(
        named.len() >= 40,
        "expected ARCHITECTURE.md to name its paths, found {}",
        named.len()
    );
    let all = repository_paths(&root);
    let exists = |p: &String| {
        let suffix = format!("/{p}");
        root.join(p.trim_end_matches('/')).exists()
            || all.iter().any(|a| a.ends_with(&suffix) || a == p)
    };
    let missing: Vec<&String> = named.iter().filter(|p| !exists(p)).collect();
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md names paths that do not exist: {missing:?}"
    );
}

#[test]
fn named_paths_are_the_backticked_path_words() {
    let text = "see `crates/a/b.rs`, `lib.rs`, `kit/`, `OpSpec`, `a b/c` and `README.md`";
    assert_eq!(
        named_paths(text),
        ["crates/a/b.rs", "lib.rs", "kit/", "README.md"]
    );
}
