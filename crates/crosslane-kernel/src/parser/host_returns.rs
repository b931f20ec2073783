//! The `return` a host function takes when its body is a chain of guarded returns:
//! `if (n > 1024) return {1024, (n + 1023) / 1024}; if (n > 64) return {64, 2}; return {32,
//! 1};` (a launch-shape picker whose pair or value host code then binds or assigns).
//!
//! C++17 [stmt.if]/1: the sub-statement runs when the condition is `true`; [stmt.return]/1: a
//! `return` ends the function, so the first guard that holds gives the value and the
//! statements after it do not run. The body is read only when each of its top-level statements
//! is `if (C) return E;` (also `if (C) { return E; }`) and the last is `return E;`: no
//! statement between them changes what a later condition or value reads. Each condition is
//! evaluated with the callee's parameters bound; one that has no constant value here leaves
//! the call's value unknown (never one branch's value picked).
//!
//! Bounded: one pass over the body's tokens.

use super::host::HostState;
use super::Parser;
use crate::lexer::Tok;

impl Parser<'_> {
    /// The expression `r..semi` of the `return` the body `open..close` takes with the
    /// callee's state `st` (see the module documentation); `None` where the body is not such a
    /// chain or a condition is not known.
    pub(super) fn chosen_return(
        &mut self,
        st: &HostState,
        open: usize,
        close: usize,
    ) -> Option<(usize, usize)> {
        let toks = self.toks;
        let is = |i: usize, w: &str| matches!(toks.get(i).map(|t| &t.tok), Some(Tok::Ident(x)) if x == w);
        let punct = |i: usize, p: &str| matches!(toks.get(i).map(|t| &t.tok), Some(Tok::Punct(x)) if *x == p);
        let mut j = open + 1;
        while j < close {
            if is(j, "return") {
                let semi = self.return_end(j + 1, close)?;
                return (semi + 1 == close && semi > j + 1).then_some((j + 1, semi));
            }
            if !is(j, "if") || !punct(j + 1, "(") {
                return None;
            }
            let c = self.closing(j + 1).filter(|&c| c < close)?;
            // `return E;` or `{ return E; }` after the condition.
            let (ret, end) = if punct(c + 1, "{") {
                let rb = self.closing(c + 1).filter(|&b| b < close)?;
                (c + 2, rb)
            } else {
                (c + 1, usize::MAX)
            };
            if !is(ret, "return") {
                return None;
            }
            let semi = self.return_end(ret + 1, close)?;
            let next = if end == usize::MAX {
                semi + 1
            } else if semi + 1 == end {
                end + 1
            } else {
                return None;
            };
            if semi == ret + 1 {
                return None;
            }
            let v = self.host_value(st, j + 2, c)?;
            let holds = match v.int() {
                Some(n) => n != 0,
                None => v.float() != 0.0,
            };
            if holds {
                return Some((ret + 1, semi));
            }
            j = next;
        }
        None
    }

    /// The `;` ending a `return` whose expression starts at `from` (brackets skipped).
    fn return_end(&self, from: usize, close: usize) -> Option<usize> {
        let mut j = from;
        while j < close {
            match self.toks[j].tok {
                Tok::Punct(";") => return Some(j),
                Tok::Punct("(" | "{" | "[") => j = self.closing(j)? + 1,
                _ => j += 1,
            }
        }
        None
    }
}
