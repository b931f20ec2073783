//! A host pointer moved in place: `p += N;`, `p -= N;`, `p++;`, `++p;`, `p--;`, `--p;` on a
//! pointer host code follows (`host_ptr`), so that a launch, copy or memset given `p` after it
//! acts on the element it now points at.
//!
//! Sources: C++17 [expr.ass]/6 (`E1 op= E2` is `E1 = E1 op E2`, `E1` evaluated once),
//! [expr.pre.incr]/1 and [expr.post.incr]/1 (`++p` is `p += 1`; `p++` as a statement the
//! same), [expr.add]/4 (a pointer plus `N` points `N` elements on in its array). A count that
//! is no host constant, or a result before the allocation's start, leaves the offset unread
//! (`None`), which the launch then says instead of using the old value.

use super::const_eval::HostVal;
use super::host::HostState;
use super::Parser;
use crate::lexer::Tok;

impl Parser<'_> {
    /// `p += N;` and kin over `k..end` (`end` the statement's `;`) on a place that holds a
    /// pointer host code follows: its new value in [`HostState::ptrs`]. `Some(true)` when the
    /// statement was taken, `None` when it is no such statement.
    pub(super) fn host_ptr_step(
        &mut self,
        st: &mut HostState,
        k: usize,
        end: usize,
    ) -> Option<bool> {
        let toks = self.toks;
        let tok = |i: usize| toks.get(i).map(|t| &t.tok);
        // The place, the operator's index, and where the count starts (none for `++`/`--`).
        let (place_at, op_at, count) = match tok(k)? {
            Tok::Punct("++" | "--") => ((k + 1, end), k, None),
            _ => {
                let mut depth = 0usize;
                let op = (k..end).find(|&i| match tok(i) {
                    Some(Tok::Punct("(" | "[")) => {
                        depth += 1;
                        false
                    }
                    Some(Tok::Punct(")" | "]")) => {
                        depth = depth.saturating_sub(1);
                        false
                    }
                    Some(Tok::Punct("+=" | "-=" | "++" | "--")) => depth == 0,
                    _ => false,
                })?;
                let postfix = matches!(tok(op), Some(Tok::Punct("++" | "--")));
                if postfix && op + 1 != end {
                    return None;
                }
                ((k, op), op, (!postfix).then_some((op + 1, end)))
            }
        };
        if place_at.0 >= place_at.1 {
            return None;
        }
        let place = self.ptr_place(st, place_at.0, place_at.1)?;
        let followed = st.ptrs.contains_key(&place)
            || st.writes.contains_key(&place)
            || st.mallocs.contains_key(&place);
        if !followed {
            return None;
        }
        let minus = matches!(tok(op_at), Some(Tok::Punct("-=" | "--")));
        let n = match count {
            Some((a, b)) => self.host_value(st, a, b).and_then(HostVal::int),
            None => Some(1),
        };
        let value = Self::place_value(st, &place).map(|mut v| {
            v.offset = v.offset.zip(n).and_then(|(o, n)| {
                let n = if minus { -n } else { n };
                u64::try_from(i128::from(o).checked_add(n)?).ok()
            });
            v
        });
        st.ptrs.insert(place, value);
        Some(true)
    }
}

impl Parser<'_> {
    /// When tokens `a..b` are one pointer variable host code assigned a value it does not
    /// follow (`p = f(d);`, [`HostState::ptrs`] holds `None`): why a launch given it has no
    /// buffer host code names, so that its name never stands for an allocation of that name.
    pub(super) fn unfollowed_ptr(&self, st: &HostState, a: usize, b: usize) -> Option<String> {
        let [t] = self.toks.get(a..b)? else {
            return None;
        };
        let Tok::Ident(d) = &t.tok else {
            return None;
        };
        matches!(st.ptrs.get(d), Some(None)).then(|| {
            format!("`{d}` holds a pointer value host code does not follow here (assigned or moved by something not read)")
        })
    }
}
