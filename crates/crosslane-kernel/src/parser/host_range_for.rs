//! A range-for over a host array (`for (auto& v : h) v = 1.5f;`), as the range-for rewrite
//! ([`super::range_for`]) leaves it: `for (int __rf0 = 0; __rf0 < __crosslane_extent(h);
//! ++__rf0) { auto& v = h[__rf0]; v = 1.5f; }`. Assigning a constant through the reference
//! sets every element (C++17 [stmt.ranged]/1: the loop visits each element of the range in
//! order), so `h`'s fill is that value; any other body that writes through the reference leaves
//! `h`'s fill unknown, said at the launch that copies it, never a stale fill.

use super::host::HostState;
use super::range_for::EXTENT;
use super::Parser;
use crate::lexer::Tok;

impl Parser<'_> {
    /// The rewritten range-for at `k` (`for`) over host array tokens; returns where the next
    /// statement starts when it is one over a named host array whose elements it binds by
    /// reference, else `None` (a loop that reads elements by value writes none of them).
    pub(super) fn host_range_for(&mut self, st: &mut HostState, k: usize) -> Option<usize> {
        let toks = self.toks;
        let tok = |i: usize| toks.get(i).map(|t| &t.tok);
        let head_close = self.closing(k + 1)?;
        let ext =
            (k + 2..head_close).find(|&i| matches!(tok(i), Some(Tok::Ident(n)) if n == EXTENT))?;
        let (Some(Tok::Punct("(")), Some(Tok::Ident(range)), Some(Tok::Punct(")"))) =
            (tok(ext + 1), tok(ext + 2), tok(ext + 3))
        else {
            return None;
        };
        let range = range.clone();
        if !matches!(tok(head_close + 1), Some(Tok::Punct("{"))) {
            return None;
        }
        let body_close = self.closing(head_close + 1)?;
        let semi =
            (head_close + 2..body_close).find(|&i| matches!(tok(i), Some(Tok::Punct(";"))))?;
        // `auto & v = h [ __rf0 ]`: the element variable, and whether it is a reference.
        let eq = (head_close + 2..semi).find(|&i| matches!(tok(i), Some(Tok::Punct("="))))?;
        let Some(Tok::Ident(var)) = tok(eq - 1) else {
            return None;
        };
        let by_ref = toks[head_close + 2..eq]
            .iter()
            .any(|t| matches!(t.tok, Tok::Punct("&" | "&&")));
        if !by_ref {
            return None;
        }
        let line = toks[k].line;
        // The body: `v = E ;`, perhaps in one pair of braces.
        let (mut a, mut b) = (semi + 1, body_close);
        if matches!(tok(a), Some(Tok::Punct("{"))) && self.closing(a) == Some(b - 1) {
            (a, b) = (a + 1, b - 1);
        }
        let value = match (tok(a), tok(a + 1), tok(b.wrapping_sub(1))) {
            (Some(Tok::Ident(v)), Some(Tok::Punct("=")), Some(Tok::Punct(";")))
                if v == var
                    && !toks[a + 2..b - 1].iter().any(
                        |t| matches!(&t.tok, Tok::Ident(n) if n == var || n.starts_with("__rf")),
                    ) =>
            {
                self.host_value(st, a + 2, b - 1).and_then(|v| v.text())
            }
            _ => None,
        };
        let cells = st
            .arrays
            .get(&range)
            .copied()
            .or_else(|| st.fills.get(&range).map(|f| f.0.len() as i128))
            .and_then(|n| usize::try_from(n).ok())
            .filter(|&n| n as i128 <= super::host::MAX_FILL);
        match (value, cells) {
            (Some(v), Some(n)) => {
                st.unknown.remove(&range);
                st.fills.insert(range, (vec![v; n], line));
            }
            _ => {
                let why = format!(
                    "the range-for over `{range}` at line {line} writes its elements in a way \
                     not read here (read is `for (auto& v : {range}) v = CONSTANT;`)"
                );
                // Said where the loop is, as well as at the copy that takes `range`.
                let at = super::Span {
                    line,
                    col: toks[k].col,
                };
                self.diag(at, crate::Level::Info, why.clone(), "");
                Self::mark_unknown(st, std::slice::from_ref(&range), &why);
            }
        }
        Some(body_close + 1)
    }
}
