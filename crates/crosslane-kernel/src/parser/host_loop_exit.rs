//! `break` and `continue` in a host loop read once per iteration ([`super::host_loop_launch`]):
//! the CUDA samples' bitonic sort walks its merge strides with `for (stride = size / 2; stride >
//! 0; stride >>= 1) if (stride >= LIMIT) global<<<…>>>(…); else { shared<<<…>>>(…); break; }`.
//! C++17 [stmt.break]/1: `break` ends the smallest enclosing iteration or `switch` statement;
//! [stmt.cont]/1: `continue` passes control to the loop-continuation portion of the smallest
//! enclosing iteration statement (the step of a `for`, then the condition).
//!
//! The loop's own `break` / `continue` (not one of a loop or `switch` nested in its body) is
//! followed when the reading reaches it in a branch host code decides: an `if` whose condition
//! is a constant there skips the other branch, so reaching the statement means the iteration
//! takes it. One under an `if` whose condition is not a constant ends the per-iteration
//! reading (the loop is then read once, as before), as does a `continue` inside a nested
//! `switch` (its loop is this one).

use super::Parser;
use crate::lexer::Tok;

/// What reaching a token of the body does.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Exit {
    /// The loop's own `break`.
    Break,
    /// The loop's own `continue`.
    Continue,
}

/// The loop's own `break` and `continue` statements in its body, by token index, or `None`
/// when the body has one this reading does not follow (a `return`, a `goto`, a `continue` of
/// this loop inside a nested `switch`).
pub(super) struct Exits {
    pub(super) at: Vec<(usize, Exit)>,
}

impl Parser<'_> {
    /// The own exits of a loop body over `b0..b1` (see the module doc); `None` when the body
    /// holds a `return` or `goto`, or a `continue` inside a nested `switch`.
    pub(super) fn loop_exits(&self, b0: usize, b1: usize) -> Option<Exits> {
        let toks = self.toks;
        // Nested statements that own a `break` (loops and `switch`) or a `continue` (loops).
        let mut loops: Vec<(usize, usize)> = Vec::new();
        let mut switches: Vec<(usize, usize)> = Vec::new();
        for (j, t) in toks.iter().enumerate().take(b1).skip(b0) {
            let Tok::Ident(w) = &t.tok else {
                continue;
            };
            match w.as_str() {
                "return" | "goto" => return None,
                "for" | "while" | "do" => {
                    if let Some(e) = self.stmt_extent(j, b1) {
                        loops.push((j, e));
                    }
                }
                "switch" => {
                    if let Some(e) = self.stmt_extent(j, b1) {
                        switches.push((j, e));
                    }
                }
                _ => {}
            }
        }
        let inside = |rs: &[(usize, usize)], p: usize| rs.iter().any(|&(a, e)| a < p && p < e);
        let mut at = Vec::new();
        for (j, t) in toks.iter().enumerate().take(b1).skip(b0) {
            let exit = match &t.tok {
                Tok::Ident(w) if w == "break" => Exit::Break,
                Tok::Ident(w) if w == "continue" => Exit::Continue,
                _ => continue,
            };
            if inside(&loops, j) {
                continue;
            }
            if inside(&switches, j) {
                if exit == Exit::Continue {
                    return None;
                }
                continue;
            }
            at.push((j, exit));
        }
        Some(Exits { at })
    }
}

impl Exits {
    /// The exit at token `i`, if the loop's own `break` or `continue` stands there.
    pub(super) fn at(&self, i: usize) -> Option<Exit> {
        self.at.iter().find(|&&(j, _)| j == i).map(|&(_, e)| e)
    }
}
