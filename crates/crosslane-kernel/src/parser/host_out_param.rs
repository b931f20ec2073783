//! A host call that sets a scalar through a pointer parameter, chosen among overloads by the
//! pointee type: ROCm hip-tests' `T factor; getFactor(&factor);` beside `static void
//! getFactor(int* fact) { *fact = 101; }`, `static void getFactor(float* fact) { *fact = 2.5;
//! }`, …. The overload whose parameter is a pointer to the scalar's declared type is the exact
//! match ([over.ics.scs], identity conversion; no other overload is viable without a
//! conversion between pointer types, [conv.ptr]), and its body's one statement `*fact = v;`
//! assigns `v` converted to that type ([expr.ass]/2) to the caller's scalar ([expr.call]/4: the
//! parameter points to it).
//!
//! Only that shape is read: a call `f(&x);` as a whole statement, `x` a scalar declared in the
//! host function being read, and a definition `f(T* p) { *p = EXPR; }` of a constant `EXPR`.
//! Anything else is left to the other host readers.
//!
//! Bounded: one pass over the source's tokens per such call (at most [`MAX_SCAN`] tokens).

use super::host::HostState;
use super::Parser;
use crate::lexer::Tok;
use crate::types::ValTy;

/// Most tokens scanned for the definitions of the called function.
pub const MAX_SCAN: usize = 1 << 22;

impl Parser<'_> {
    /// `f(&x);` at `k`: sets `x` in `st` from the overload of `f` taking a pointer to `x`'s
    /// type, and returns where the next statement starts; `None` for any other statement.
    pub(super) fn host_out_param(&mut self, st: &mut HostState, k: usize) -> Option<usize> {
        let toks = self.toks;
        let tok = |i: usize| toks.get(i).map(|t| &t.tok);
        let (Some(Tok::Ident(f)), Some(Tok::Punct("(")), Some(Tok::Punct("&"))) =
            (tok(k), tok(k + 1), tok(k + 2))
        else {
            return None;
        };
        let (Some(Tok::Ident(x)), Some(Tok::Punct(")")), Some(Tok::Punct(";"))) =
            (tok(k + 3), tok(k + 4), tok(k + 5))
        else {
            return None;
        };
        let (f, x) = (f.clone(), x.clone());
        let ty = self.declared_scalar(&x, k)?;
        // The definitions `f ( TYPE * p ) { * p = EXPR ; }`.
        let mut found = None;
        for i in 0..toks.len().min(MAX_SCAN) {
            if i == k || !matches!(tok(i), Some(Tok::Ident(n)) if *n == f) {
                continue;
            }
            if !matches!(tok(i + 1), Some(Tok::Punct("("))) {
                continue;
            }
            let Some(close) = self.closing(i + 1) else {
                continue;
            };
            // `TYPE * p`: the pointer's name before `)`, its `*` before it.
            let (Some(Tok::Ident(p)), Some(Tok::Punct("*")), Some(Tok::Punct("{"))) = (
                tok(close.wrapping_sub(1)),
                tok(close.wrapping_sub(2)),
                tok(close + 1),
            ) else {
                continue;
            };
            if close < i + 4 {
                continue;
            }
            let Some(pointee) = self.host_type(i + 2, close - 2) else {
                continue;
            };
            if pointee != ty {
                continue;
            }
            // `{ * p = EXPR ; }`
            let (Some(Tok::Punct("*")), Some(Tok::Ident(q)), Some(Tok::Punct("="))) =
                (tok(close + 2), tok(close + 3), tok(close + 4))
            else {
                continue;
            };
            if q != p {
                continue;
            }
            let Some(end) = self.closing(close + 1) else {
                continue;
            };
            if !matches!(tok(end - 1), Some(Tok::Punct(";")))
                || (close + 5..end - 1).any(|j| matches!(tok(j), Some(Tok::Punct(";" | "{"))))
            {
                continue;
            }
            if found.is_some() {
                // Two definitions of one signature: not read.
                return None;
            }
            found = Some((close + 5, end - 1));
        }
        let (a, b) = found?;
        let v = self.host_value(st, a, b)?.convert(ty.scalar)?;
        st.unknown.remove(&x);
        st.env.insert(x, v);
        Some(k + 6)
    }

    /// The scalar type of `x` as declared in the statement before token `k` that declares it
    /// (`T factor;`, `float f = 0;`), with the reading's aliases (`T` bound at the call).
    fn declared_scalar(&mut self, x: &str, k: usize) -> Option<ValTy> {
        let toks = self.toks;
        // The nearest `x` followed by `;`, `=` or `,` whose statement begins with a type.
        let at = (0..k).rev().take(4096).find(|&j| {
            matches!(&toks[j].tok, Tok::Ident(n) if n == x)
                && matches!(
                    toks.get(j + 1).map(|t| &t.tok),
                    Some(Tok::Punct(";" | "=" | ","))
                )
        })?;
        let start = (0..at)
            .rev()
            .take(64)
            .find(|&j| matches!(toks[j].tok, Tok::Punct(";" | "{" | "}")))
            .map_or(0, |j| j + 1);
        if start >= at {
            return None;
        }
        let ty = self.host_type(start, at)?;
        (ty.lanes == 1).then_some(ty)
    }
}
