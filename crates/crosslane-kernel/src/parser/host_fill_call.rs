//! A host array filled by a library call (`std::fill_n`, `std::fill`, `std::iota`, `memset`):
//! the cells it gives, recorded in the host reading's state as a `for` fill loop's are
//! (`host.rs` reads the statement, `host_fill_loop.rs` the loops).

use super::const_eval::HostVal;
use super::host::{member_call, split_commas, MAX_FILL};
use super::host_state::HostState;
use super::Parser;
use crate::lexer::Tok;

impl Parser<'_> {
    /// A host array filled by a library call whose parentheses open at `open`: `fill_n(h, N,
    /// v)` (N cells of v), `fill(h, h + N, v)`, `iota(h, h + N, v)` (cell i = v + i) (C++17
    /// [alg.fill], [numeric.iota]), `memset(h, 0, bytes)` (every cell 0, C11 7.24.6.1: the
    /// array's declared length). `h + N` may also be `std::end(h)` for an array of known
    /// length. Anything else is left unread (the launch then says so).
    pub(super) fn host_fill_call(&mut self, st: &mut HostState, f: &str, open: usize) -> bool {
        let toks = self.toks;
        if !matches!(toks.get(open).map(|t| &t.tok), Some(Tok::Punct("("))) {
            return false;
        }
        let Some(c) = self.closing(open) else {
            return false;
        };
        let parts = split_commas(toks, open + 1, c);
        let line = toks[open].line;
        // `h`, or a `std::vector`'s `h.begin()`.
        let array = |p: &(usize, usize)| match &toks[p.0..p.1] {
            [t] => match &t.tok {
                Tok::Ident(n) => Some(n.clone()),
                _ => None,
            },
            other => member_call(other, "begin"),
        };
        let Some(arr) = parts.first().and_then(array) else {
            return false;
        };
        // `std::for_each(v.begin(), v.end(), [](float& f) { f = 10.f * f; })`: each cell
        // rewritten from its own value ([alg.foreach]).
        if f == "for_each" {
            let before = st.fills.remove(&arr);
            let cells = match (parts.as_slice(), before) {
                ([_, _, lambda], Some((cells, _))) => {
                    super::host_for_each::apply(self, st, &cells, *lambda)
                }
                _ => None,
            };
            if let Some(cells) = cells {
                st.fills.insert(arr, (cells, line));
                return true;
            }
            return false;
        }
        // Whatever the call, the array's old values no longer stand.
        st.fills.remove(&arr);
        // `h + N` or `std::end(h)`: the count.
        let count_to = |p: &mut Self, st: &HostState, &(a, b): &(usize, usize)| -> Option<i128> {
            match (&toks[a..b.min(a + 2)], b > a + 2) {
                ([x, plus], true)
                    if matches!(&x.tok, Tok::Ident(n) if *n == arr)
                        && matches!(plus.tok, Tok::Punct("+")) =>
                {
                    p.host_value(st, a + 2, b).and_then(HostVal::int)
                }
                _ => {
                    let words: Vec<&Tok> = toks[a..b].iter().map(|t| &t.tok).collect();
                    let end_of = matches!(words.as_slice(),
                        [Tok::Ident(s), Tok::Punct("::"), Tok::Ident(e), Tok::Punct("("), Tok::Ident(n), Tok::Punct(")")]
                            if s == "std" && e == "end" && *n == arr);
                    if end_of || member_call(&toks[a..b], "end").as_ref() == Some(&arr) {
                        st.arrays.get(&arr).copied()
                    } else {
                        None
                    }
                }
            }
        };
        let (n, value, step) = match (f, parts.as_slice()) {
            ("fill_n", [_, n, v]) => (
                self.host_value(st, n.0, n.1).and_then(HostVal::int),
                self.host_value(st, v.0, v.1),
                false,
            ),
            ("fill" | "iota", [_, last, v]) => (
                count_to(self, st, last),
                self.host_value(st, v.0, v.1),
                f == "iota",
            ),
            ("memset", [_, byte, _]) => {
                let zero = self.host_value(st, byte.0, byte.1).and_then(HostVal::int) == Some(0);
                (
                    st.arrays.get(&arr).copied().filter(|_| zero),
                    Some(HostVal::Int(0)),
                    false,
                )
            }
            _ => return false,
        };
        let (Some(n), Some(v)) = (n, value) else {
            return false;
        };
        if !(1..=MAX_FILL).contains(&n) {
            return false;
        }
        let mut values = Vec::with_capacity(n as usize);
        for i in 0..n {
            let cell = match (step, v) {
                (false, v) => v.text(),
                // `++value` each cell ([numeric.iota]): in the value's type.
                (true, v) => {
                    super::const_eval::binary(crate::types::BinOp::Add, v, HostVal::Int(i))
                        .and_then(|x| v.retype(x))
                        .and_then(HostVal::text)
                }
            };
            match cell {
                Some(c) => values.push(c),
                None => return false,
            }
        }
        st.fills.insert(arr, (values, line));
        false
    }
}
