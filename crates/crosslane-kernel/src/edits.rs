//! Memory edits: cells a user typed into a buffer before the first step (the page's memory
//! table, a scenario's `kernel_inputs.edits`), applied over the buffers' fills the same way by
//! the page's worker and by `crosslane run LINK`, so a link means one launch everywhere.
//!
//! An edit applies while its buffer keeps its name and the cell exists; the launch is prepared
//! once without edits to learn the buffers, and each edited buffer then gets all its cells as a
//! comma-list fill (the edited cells as typed, the others as the first launch filled them).

use std::collections::BTreeMap;

use crate::memory::{parse_cell, Memory, Space};
use crate::types::KVal;
use crate::LaunchConfig;

/// Memory cells edited before the first step: buffer name → cell index → the value as typed.
pub type Edits = BTreeMap<String, BTreeMap<usize, String>>;

/// A launch configuration with the edits applied, and what became of them.
#[derive(Clone, Debug)]
pub struct EditedLaunch {
    /// The configuration given, with a comma-list fill (`args`) for every edited buffer.
    pub config: LaunchConfig,
    /// The edits applied (those of buffers gone, of cells past a buffer's end and of values
    /// that do not parse for the buffer's type are left out).
    pub kept: Edits,
    /// The edits of buffers gone or renamed and of cells past a buffer's end, said in one
    /// line (`memory edits dropped: …`); `None` when none were dropped.
    pub dropped: Option<String>,
    /// The message of an edit whose value does not parse for its buffer's element type
    /// (`dst[2]: …`, from [`parse_cell`]); the last one when several do not.
    pub invalid: Option<String>,
}

/// A cell's value as the memory table and the cell editor write it, and as a comma-list fill
/// reads it back: vectors as `a:b:…` ([`parse_cell`]), scalars as the interpreter prints them.
pub fn cell_text(v: &KVal) -> String {
    match v {
        KVal::Vector { items, .. } => items
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(":"),
        other => other.to_string(),
    }
}

/// Applies `edits` over the global buffers of `initial` (the memory a launch of `config` starts
/// with): each edited buffer's cells become a comma-list fill in the returned configuration.
/// The fill text holds every cell of the buffer, so its length is bounded by the memory the
/// first launch was allowed ([`crate::Limits`]); nothing is allocated beyond it.
pub fn apply_edits(initial: &Memory, config: &LaunchConfig, edits: &Edits) -> EditedLaunch {
    let mut config = config.clone();
    let mut dropped = Vec::new();
    let mut invalid = None;
    let mut kept = Edits::new();
    for (name, cells) in edits {
        let Some(b) = initial
            .buffers
            .iter()
            .find(|b| b.name == *name && b.space == Space::Global)
        else {
            dropped.push(format!(
                "`{name}` is no longer a buffer of this launch: its {} dropped",
                cell_list(cells.keys().copied())
            ));
            continue;
        };
        let len = b.cells.len();
        if cells.keys().any(|&i| i >= len) {
            dropped.push(format!(
                "`{name}` has {len} cells now: its {} dropped",
                cell_list(cells.keys().copied().filter(|&i| i >= len))
            ));
        }
        let mut mine = BTreeMap::new();
        for (&i, text) in cells.range(..len) {
            match parse_cell(b.elem, text, &format!("{name}[{i}]")) {
                Ok(_) => {
                    mine.insert(i, text.trim().to_string());
                }
                Err(e) => invalid = Some(format!("{}: {}", e.field, e.message)),
            }
        }
        if mine.is_empty() {
            continue;
        }
        let mut fill = String::with_capacity(len.saturating_mul(4));
        for (i, c) in b.cells.iter().enumerate() {
            if i > 0 {
                fill.push(',');
            }
            match mine.get(&i) {
                Some(text) => fill.push_str(text),
                None => fill.push_str(&c.as_ref().map_or("undef".into(), cell_text)),
            }
        }
        config.args.insert(name.clone(), fill);
        kept.insert(name.clone(), mine);
    }
    EditedLaunch {
        config,
        kept,
        dropped: (!dropped.is_empty())
            .then(|| format!("memory edits dropped: {}", dropped.join("; "))),
        invalid,
    }
}

/// "edit of cell 3" or "edits of cells 3, 40, 41" (at most eight, then how many more).
fn cell_list(cells: impl Iterator<Item = usize>) -> String {
    let all: Vec<usize> = cells.collect();
    let shown: Vec<String> = all.iter().take(8).map(usize::to_string).collect();
    let more = all.len().saturating_sub(8);
    let word = if all.len() == 1 {
        "edit of cell"
    } else {
        "edits of cells"
    };
    if more > 0 {
        format!("{word} {} and {more} more", shown.join(", "))
    } else {
        format!("{word} {}", shown.join(", "))
    }
}
