//! `h = (T *)calloc(n, size);` in host code: a host array of zero cells.
//!
//! C11 7.22.3.2/2: `calloc` "allocates space for an array of nmemb objects, each of whose size
//! is size. The space is initialized to all bits zero." All bits zero is the value 0 of every
//! integer type (C11 6.2.6.2/5), `false` of `bool`, and +0.0 of IEEE-754 `float` and `double`
//! (IEEE 754-2008 3.4: a zero exponent and significand), the only element types read here.
//! The pointer may be written with a cast (`(T *)`, `static_cast<T *>(…)`,
//! `reinterpret_cast<T *>(…)`) or none, in a declaration (`T *h = …`) or an assignment. The
//! array's cells are then `nmemb * size / sizeof(T)` zeros; a size that is no whole number of
//! elements, or a count with no constant value, leaves the array to the other readers.

use super::const_eval::HostVal;
use super::host::{split_commas, HostState};
use super::Parser;
use crate::lexer::Tok;

impl Parser<'_> {
    /// The host statement `k..end` when it is `[T *]name = [cast] calloc(a, b)` of a pointer
    /// whose element type the reading knows: `name`'s cells become zeros (see the module doc)
    /// and `true`; `false` (nothing changed) otherwise.
    pub(super) fn host_calloc(&mut self, st: &mut HostState, k: usize, end: usize) -> bool {
        let toks = self.toks;
        let Some(eq) = (k..end).find(|&i| matches!(toks[i].tok, Tok::Punct("="))) else {
            return false;
        };
        let Some(Tok::Ident(name)) = eq.checked_sub(1).and_then(|i| toks.get(i)).map(|t| &t.tok)
        else {
            return false;
        };
        let Some(call) =
            (eq + 1..end).find(|&i| matches!(&toks[i].tok, Tok::Ident(w) if w == "calloc"))
        else {
            return false;
        };
        // Between `=` and `calloc` only a cast: `(T *)`, `static_cast<T *>(`, `std::`.
        let cast_only = toks[eq + 1..call].iter().all(|t| match &t.tok {
            Tok::Ident(_) => true,
            Tok::Punct(p) => matches!(*p, "(" | ")" | "*" | "<" | ">" | "::"),
            _ => false,
        });
        if !cast_only || !matches!(toks.get(call + 1).map(|t| &t.tok), Some(Tok::Punct("("))) {
            return false;
        }
        let Some(close) = self.closing(call + 1).filter(|&c| c < end) else {
            return false;
        };
        // After the call only the cast's closing parentheses.
        if !toks[close + 1..end]
            .iter()
            .all(|t| matches!(t.tok, Tok::Punct(")")))
        {
            return false;
        }
        let parts = split_commas(toks, call + 2, close);
        let [(a0, a1), (b0, b1)] = parts[..] else {
            return false;
        };
        let count = self.host_value(st, a0, a1).and_then(HostVal::int);
        let size = self.host_value(st, b0, b1).and_then(HostVal::int);
        let elem = self.host_elems.get(name.as_str()).copied();
        let (Some(count), Some(size), Some(elem), Some(&scalar)) =
            (count, size, elem, self.host_scalars.get(name.as_str()))
        else {
            return false;
        };
        let elem = i128::from(elem);
        let Some(bytes) = count.checked_mul(size) else {
            return false;
        };
        if elem == 0 || bytes < 0 || bytes % elem != 0 || bytes / elem > super::host::MAX_FILL {
            return false;
        }
        let Some(zero) = HostVal::Int(0).convert(scalar).and_then(HostVal::text) else {
            return false;
        };
        let cells = usize::try_from(bytes / elem).unwrap_or(0);
        let name = name.clone();
        st.unknown.remove(&name);
        st.arrays.insert(name.clone(), bytes / elem);
        st.fills.insert(name, (vec![zero; cells], toks[k].line));
        true
    }
}
