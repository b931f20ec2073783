//! Conditional inclusion (C++17 \[cpp.cond\]): the stack of open `#if` groups, which group of
//! each is kept, and the record of what each conditional took and skipped. A conditional inside
//! a skipped group is tracked only for its nesting: its conditions are not evaluated
//! (\[cpp.cond\]/6) and it is not recorded (its lines are inside the skipped range).

use serde::Serialize;

use super::expand::Expander;
use crate::KernelError;

/// Source lines `first..=last` (1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct LineRange {
    /// First line.
    pub first: u32,
    /// Last line.
    pub last: u32,
}

/// One branch of a conditional: its directive, whether its group was kept, and the lines it
/// skipped when not.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Branch {
    /// Line of its directive.
    pub line: u32,
    /// The directive as written (`#if __CUDA_ARCH__ >= 700`, `#else`).
    pub directive: String,
    /// Whether its group was kept.
    pub taken: bool,
    /// The lines of its group, when skipped and not empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skipped: Option<LineRange>,
}

/// One `#if … #endif` of the kept text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Conditional {
    /// Line of the `#if` / `#ifdef` / `#ifndef`.
    pub line: u32,
    /// Line of the `#endif`.
    pub end_line: u32,
    /// Its branches in order.
    pub branches: Vec<Branch>,
}

/// What the preprocessor's conditionals did.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PpRecord {
    /// Each conditional of the kept text, in source order of its `#if`.
    pub conditionals: Vec<Conditional>,
    /// Every skipped range of lines, in source order (the page greys them).
    pub skipped: Vec<LineRange>,
    /// The floating-point contraction pragmas and the lines each applies to
    /// ([`crate::contract`]).
    #[serde(skip)]
    pub fp_contract: Vec<crate::contract::ContractPragma>,
    /// The `#include "…"` lines of the kept text, as (line, the header as written): headers
    /// of the user's own, which are not read, so a name one declares is unknown here (the
    /// name check says so).
    #[serde(skip)]
    pub local_includes: Vec<(u32, String)>,
}

struct Frame {
    /// Index in [`PpRecord::conditionals`]; `None` inside a skipped group.
    record: Option<usize>,
    /// Whether the text around the conditional is kept.
    outer: bool,
    /// Whether the current group is kept.
    active: bool,
    /// Whether some group was kept already.
    any: bool,
    else_seen: bool,
    /// First line of the current group.
    group_from: u32,
    line: u32,
    col: u32,
}

/// The open conditionals.
#[derive(Default)]
pub(super) struct Stack {
    frames: Vec<Frame>,
    record: PpRecord,
}

impl Stack {
    /// Whether text here is kept.
    pub fn active(&self) -> bool {
        self.frames.last().is_none_or(|f| f.active)
    }

    /// Applies a conditional directive `word` on source lines `first..=last` (`#` at `col`);
    /// `eval` gives its condition, asked only when it decides something (\[cpp.cond\]/6).
    ///
    /// # Errors
    /// An `#elif`/`#else`/`#endif` without `#if`, a branch after `#else`, or `eval`'s error.
    #[allow(clippy::too_many_arguments)]
    pub fn directive(
        &mut self,
        word: &str,
        first: u32,
        last: u32,
        col: u32,
        shown: &str,
        eval: impl FnOnce(&mut Expander) -> Result<bool, KernelError>,
        ex: &mut Expander,
    ) -> Result<(), KernelError> {
        let Stack { frames, record } = self;
        let err = |m: String| KernelError::new(first, col, m);
        match word {
            "if" | "ifdef" | "ifndef" => {
                let outer = frames.last().is_none_or(|f| f.active);
                let taken = outer && eval(ex)?;
                let index = outer.then(|| {
                    record.conditionals.push(Conditional {
                        line: first,
                        end_line: first,
                        branches: vec![Branch {
                            line: first,
                            directive: shown.to_string(),
                            taken,
                            skipped: None,
                        }],
                    });
                    record.conditionals.len() - 1
                });
                frames.push(Frame {
                    record: index,
                    outer,
                    active: taken,
                    any: taken,
                    else_seen: false,
                    group_from: last.saturating_add(1),
                    line: first,
                    col,
                });
            }
            "endif" => {
                let Some(f) = frames.pop() else {
                    return Err(err("#endif without #if ([cpp.cond])".into()));
                };
                close_group(record, &f, first);
                if let Some(c) = f.record.and_then(|k| record.conditionals.get_mut(k)) {
                    c.end_line = first;
                }
            }
            _ => {
                let Some(f) = frames.last_mut() else {
                    return Err(err(format!("#{word} without #if ([cpp.cond])")));
                };
                if f.else_seen {
                    return Err(err(format!(
                        "#{word} after #else (the #if at line {} has its #else already)",
                        f.line
                    )));
                }
                close_group(record, f, first);
                let taken = f.outer && !f.any && (word == "else" || eval(ex)?);
                f.any |= taken;
                f.active = taken;
                f.group_from = last.saturating_add(1);
                f.else_seen = word == "else";
                if let Some(c) = f.record.and_then(|k| record.conditionals.get_mut(k)) {
                    c.branches.push(Branch {
                        line: first,
                        directive: shown.to_string(),
                        taken,
                        skipped: None,
                    });
                }
            }
        }
        Ok(())
    }

    /// The record, once every conditional is closed.
    ///
    /// # Errors
    /// An `#if` without `#endif`, at the `#if`.
    pub fn finish(self) -> Result<PpRecord, KernelError> {
        if let Some(f) = self.frames.last() {
            return Err(KernelError::new(
                f.line,
                f.col,
                "#if without #endif ([cpp.cond]: the file ends inside it)",
            ));
        }
        Ok(self.record)
    }
}

/// Ends the current group of `f` at the directive on line `upto`: a skipped group of the kept
/// text records its lines.
fn close_group(record: &mut PpRecord, f: &Frame, upto: u32) {
    let Some(c) = f.record.and_then(|k| record.conditionals.get_mut(k)) else {
        return;
    };
    if f.active || f.group_from >= upto {
        return;
    }
    let range = LineRange {
        first: f.group_from,
        last: upto - 1,
    };
    if let Some(b) = c.branches.last_mut() {
        b.skipped = Some(range);
    }
    record.skipped.push(range);
}
