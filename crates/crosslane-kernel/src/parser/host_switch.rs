//! A host `switch` whose selector host code knows (`switch (threads) { case 128: k<128><<<…>>>(…);
//! break; … }`, the shape of the CUDA samples' reductions): only the statements the device's
//! host would run are read, as an `if` on a constant is (`host_eval::host_if`). C++17
//! [stmt.switch]/5: control goes to the `case` whose value equals the selector, else to
//! `default`, else past the switch; it runs on through the labels that follow ([stmt.switch]/6:
//! "case and default labels in themselves do not alter the flow of control") until a `break`
//! leaves the switch ([stmt.break]/1).
//!
//! Read here: the labels at the top level of the switch's braces, and a `break` at that level.
//! A selector with no constant value, a case value that is none, or a `break` nested in another
//! statement of the part that runs (which may or may not leave the switch; `if (c) break;` too)
//! leave the switch to the reading before: its launches are read as alternatives, none run
//! beside another launch, and every variable a case assigns is unknown after the switch.

use super::host::HostState;
use super::Parser;
use crate::ast::Span;
use crate::lexer::Tok;
use crosslane_core::result::Level;

impl Parser<'_> {
    /// `switch (sel) { … }` at `k`: when `sel` and every case value are constants, returns where
    /// reading goes on (the chosen label's statements, or past the switch when no label is
    /// chosen) and skips from the `break` that leaves the switch to its end. `None` to read
    /// the switch as before: then every variable a case assigns becomes unknown after the
    /// switch, as after an `if` whose condition has no value (`host_eval::host_if`), since
    /// which case runs is not known (C++17 [stmt.switch]/5).
    pub(super) fn host_switch(
        &mut self,
        st: &mut HostState,
        k: usize,
        close: usize,
    ) -> Option<usize> {
        let picked = self.switch_pick(st, k, close);
        if picked.is_none() {
            self.switch_taint(st, k, close);
        }
        picked
    }

    /// The switch at `k` is not followed: the names its cases assign (and the host arrays
    /// they store into through a pointer) become unknown where it ends, the reason naming the
    /// selector.
    fn switch_taint(&mut self, st: &mut HostState, k: usize, close: usize) {
        let toks = self.toks;
        if !matches!(toks.get(k + 1).map(|t| &t.tok), Some(Tok::Punct("("))) {
            return;
        }
        let (Some(head), Some(end)) = (
            self.closing(k + 1).filter(|&c| c < close),
            self.stmt_extent(k, close),
        ) else {
            return;
        };
        let mut names = self.assigned_in(head + 1, end);
        for t in self.pointer_targets(st, head + 1, end) {
            if !names.contains(&t) {
                names.push(t);
            }
        }
        let cond = super::host::source_text(&toks[k + 2..head]);
        let line = toks[k].line;
        let known = self
            .host_value(st, k + 2, head)
            .and_then(super::const_eval::HostVal::int);
        let reason = match known {
            None => {
                let why = self
                    .unknown_reason(st, k + 2, head)
                    .map(|r| format!(" ({r})"))
                    .unwrap_or_default();
                format!(
                    "it is assigned in `switch ({cond})` at line {line}, whose selector has no \
                     constant value in host code{why}"
                )
            }
            Some(v) => format!(
                "it is assigned in `switch ({cond})` at line {line}, which is {v} in host code \
                 but whose cases are not followed here (a `case` value with no constant value, \
                 a `break` or `continue` under another statement, or a loop or switch inside)"
            ),
        };
        Self::taint(st, end, names, reason);
    }

    /// The part of [`Self::host_switch`] that follows a switch whose selector and case values
    /// are constants; `None` when it is not followed.
    fn switch_pick(&mut self, st: &mut HostState, k: usize, close: usize) -> Option<usize> {
        let toks = self.toks;
        let tok = |i: usize| toks.get(i).map(|t| &t.tok);
        if !matches!(tok(k + 1), Some(Tok::Punct("("))) {
            return None;
        }
        let head = self.closing(k + 1).filter(|&c| c < close)?;
        if !matches!(tok(head + 1), Some(Tok::Punct("{"))) {
            return None;
        }
        let shut = self.closing(head + 1).filter(|&c| c < close)?;
        let sel = self
            .host_value(st, k + 2, head)
            .and_then(super::const_eval::HostVal::int)?;
        // The labels at the top level: (value or `None` for default, index after its `:`),
        // and the top-level `break`s.
        let mut labels: Vec<(Option<i128>, usize)> = Vec::new();
        let mut breaks: Vec<usize> = Vec::new();
        let mut nested_breaks: Vec<usize> = Vec::new();
        let mut i = head + 2;
        while i < shut {
            match tok(i) {
                Some(Tok::Punct("(" | "[" | "{")) => {
                    let c = self.closing(i).filter(|&c| c < shut)?;
                    let inner = &toks[i..c];
                    let jumps = |ts: &[crate::lexer::Token]| {
                        ts.iter().any(
                            |t| matches!(&t.tok, Tok::Ident(w) if w == "break" || w == "continue"),
                        )
                    };
                    // `case 4: { …; break; }` (FlashInfer's `DISPATCH_ALIGNED_VEC_SIZE`): a
                    // block statement whose last statement is `break;` and which holds no other
                    // jump leaves the switch there ([stmt.block]: its statements run in order).
                    let block = matches!(tok(i), Some(Tok::Punct("{")))
                        && matches!(
                            i.checked_sub(1).and_then(tok),
                            Some(Tok::Punct(";" | ":" | "{" | "}"))
                        );
                    let last_break = c >= i + 3
                        && matches!(tok(c - 2), Some(Tok::Ident(w)) if w == "break")
                        && matches!(tok(c - 1), Some(Tok::Punct(";")))
                        && matches!(tok(c - 3), Some(Tok::Punct(";" | "}" | "{")));
                    if block && last_break && !jumps(&toks[i..c - 2]) {
                        breaks.push(c - 2);
                    } else if jumps(inner) {
                        // A `break` in a nested statement may leave the switch or not: not read.
                        nested_breaks.push(i);
                    }
                    i = c + 1;
                }
                Some(Tok::Ident(w)) if w == "case" => {
                    let colon = (i + 1..shut).find(|&j| matches!(tok(j), Some(Tok::Punct(":"))))?;
                    let v = self
                        .host_value(st, i + 1, colon)
                        .and_then(super::const_eval::HostVal::int)?;
                    labels.push((Some(v), colon + 1));
                    i = colon + 1;
                }
                Some(Tok::Ident(w))
                    if w == "default" && matches!(tok(i + 1), Some(Tok::Punct(":"))) =>
                {
                    labels.push((None, i + 2));
                    i += 2;
                }
                // `if (c) break;`, `else break;`: a `break` after a statement's head runs or
                // not as that statement says, so it is a nested one; so is a `continue`,
                // which leaves for the enclosing loop ([stmt.cont]/1).
                Some(Tok::Ident(w)) if w == "break" || w == "continue" => {
                    let plain = w == "break"
                        && matches!(
                            i.checked_sub(1).and_then(tok),
                            Some(Tok::Punct(";" | ":" | "{" | "}"))
                        );
                    if plain {
                        breaks.push(i);
                    } else {
                        nested_breaks.push(i);
                    }
                    i += 1;
                }
                // Loops and nested switches own the `break`s in their bodies, but a body
                // without braces is not followed here.
                Some(Tok::Ident(w)) if matches!(w.as_str(), "for" | "while" | "do" | "switch") => {
                    return None;
                }
                _ => i += 1,
            }
        }
        let chosen = labels
            .iter()
            .find(|(v, _)| *v == Some(sel))
            .or_else(|| labels.iter().find(|(v, _)| v.is_none()))
            .map(|&(_, at)| at);
        let end = shut + 1;
        let line = toks[k].line;
        let span = Span {
            line,
            col: toks[k].col,
        };
        let cond = super::host::source_text(&toks[k + 2..head]);
        let Some(from) = chosen else {
            self.diag(
                span,
                Level::Info,
                format!("`switch ({cond})` is {sel} in host code: no label matches, none is read"),
                "C++17 [stmt.switch]/5",
            );
            return Some(end);
        };
        let stop = breaks.iter().copied().find(|&b| b > from);
        let upto = stop.unwrap_or(shut);
        if nested_breaks.iter().any(|&n| n > from && n < upto) {
            return None;
        }
        if let Some(b) = stop {
            st.skips.push((b, end));
        }
        let label = labels
            .iter()
            .find(|(_, at)| *at == from)
            .and_then(|(v, _)| *v)
            .map_or_else(|| "`default`".to_string(), |v| format!("`case {v}`"));
        self.diag(
            span,
            Level::Info,
            format!(
                "`switch ({cond})` is {sel} in host code: {label} is read, on to the `break` \
                 that leaves the switch"
            ),
            "C++17 [stmt.switch]/5",
        );
        Some(from)
    }
}
