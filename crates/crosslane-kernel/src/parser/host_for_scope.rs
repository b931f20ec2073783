//! The scope of a name a host `for` statement declares: `for (int i = 0; i < n; i++)` declares
//! `i` in the loop alone (C++17 [stmt.for]/1: the statement is `{ init-statement while
//! (condition) { statement expression ; } }`, so the init-statement's names end with the loop,
//! [basic.scope.block]/1), and a range-for's element `for (auto i : sizes)` (its rewrite,
//! `range_for`, declares `__rfN` in the head and the element in the body) likewise
//! ([stmt.ranged]/1). A name of the enclosing code that the loop's declaration hides keeps the
//! value it had before the loop: `for (auto i : sizes) { for (int i = 0; i < 8; i++) h[i] = 0;
//! launch(i); }` launches with the outer `i`, never the inner loop's last value.

use super::const_eval::HostVal;
use super::host::HostState;
use super::Parser;
use crate::lexer::Tok;

/// A name's host state before a loop that declares it: its value and its "unknown" reason.
pub(super) type Saved = Vec<(String, Option<HostVal>, Option<String>)>;

impl Parser<'_> {
    /// The `for` statement at `k`: a fill (range-for, nested or simple loop), a loop with
    /// launches, or another loop; returns where the next statement starts.
    pub(super) fn host_for_stmt(&mut self, st: &mut HostState, k: usize, close: usize) -> usize {
        if let Some(next) = self
            .host_range_for(st, k)
            .or_else(|| self.host_nested_fill(st, k))
            .or_else(|| self.host_fill_loop(st, k))
        {
            return next;
        }
        let (after, read) = self.host_for(st, k, close);
        if read {
            return after;
        }
        self.host_loop(st, k, close).unwrap_or(after)
    }

    /// The names the `for` statement at `k` declares (its init-statement's declarator and, for
    /// a rewritten range-for, the element declared as the body's first statement), each with
    /// its host state now.
    pub(super) fn for_scope_save(&self, st: &HostState, k: usize) -> Saved {
        let toks = self.toks;
        let tok = |i: usize| toks.get(i).map(|t| &t.tok);
        let mut names = Vec::new();
        let Some(head_close) = self.closing(k + 1) else {
            return Vec::new();
        };
        // init-statement: `TYPE… NAME = …;` (two or more words before the `=`).
        let semi = (k + 2..head_close).find(|&i| matches!(tok(i), Some(Tok::Punct(";"))));
        if let Some(semi) = semi {
            if let Some(eq) = (k + 2..semi).find(|&i| matches!(tok(i), Some(Tok::Punct("=")))) {
                let words = (k + 2..eq)
                    .filter(|&i| matches!(tok(i), Some(Tok::Ident(_))))
                    .count();
                if let (true, Some(Tok::Ident(n))) = (words >= 2, eq.checked_sub(1).and_then(tok)) {
                    names.push(n.clone());
                }
            }
        }
        // The rewritten range-for's element: `{ DECL NAME = RANGE [ __rfN ] ; … }`.
        if names.iter().any(|n| n.starts_with("__rf"))
            && matches!(tok(head_close + 1), Some(Tok::Punct("{")))
        {
            let end = self.closing(head_close + 1).unwrap_or(head_close + 1);
            let semi = (head_close + 2..end).find(|&i| matches!(tok(i), Some(Tok::Punct(";"))));
            if let Some(semi) = semi {
                let eq = (head_close + 2..semi).find(|&i| matches!(tok(i), Some(Tok::Punct("="))));
                if let Some(Tok::Ident(n)) = eq.and_then(|e| e.checked_sub(1)).and_then(tok) {
                    names.push(n.clone());
                }
            }
        }
        names
            .into_iter()
            .map(|n| {
                let v = st.env.get(&n).cloned();
                let u = st.unknown.get(&n).cloned();
                (n, v, u)
            })
            .collect()
    }

    /// Puts back the host state of the names [`Self::for_scope_save`] recorded: their
    /// declarations' scope ended with the loop.
    pub(super) fn for_scope_restore(st: &mut HostState, saved: Saved) {
        for (n, v, u) in saved {
            match v {
                Some(v) => st.env.insert(n.clone(), v),
                None => st.env.remove(&n),
            };
            match u {
                Some(u) => st.unknown.insert(n, u),
                None => st.unknown.remove(&n),
            };
        }
    }
}
