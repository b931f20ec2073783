//! Nested host fill loops: `for (int i = 0; i < R; ++i) for (int j = 0; j < C; ++j)
//! h[i * C + j] = f(i, j);` (braces optional). Each iteration's cell is evaluated with both
//! counters bound (C++17 [stmt.for]/1: the statement runs once per value of the counter), so
//! `h`'s fill is what the loops leave; cells no iteration writes keep what `h` held (undefined
//! for an uninitialized array, C++17 [dcl.init]/12). At most [`MAX_FILL`] iterations.

use super::const_eval::{const_eval, HostVal};
use super::host::{HostState, MAX_FILL};
use super::Parser;
use crate::lexer::Tok;

impl Parser<'_> {
    /// `for (int v = A; v < B; ++v)` (also `v++`, `v += 1`, `<=`) at `k`: the counter, its
    /// constant bounds (half-open) and the index of the head's `)`.
    pub(super) fn for_head(
        &mut self,
        st: &HostState,
        k: usize,
    ) -> Option<(String, i128, i128, usize)> {
        let toks = self.toks;
        let tok = |i: usize| toks.get(i).map(|t| &t.tok);
        if !matches!(tok(k), Some(Tok::Ident(f)) if f == "for") {
            return None;
        }
        let close = self.closing(k + 1)?;
        let semis: Vec<usize> = (k + 2..close)
            .filter(|&i| matches!(tok(i), Some(Tok::Punct(";"))))
            .collect();
        let [s1, s2] = semis.as_slice() else {
            return None;
        };
        let eq = (k + 2..*s1).find(|&i| matches!(tok(i), Some(Tok::Punct("="))))?;
        let Some(Tok::Ident(var)) = tok(eq - 1) else {
            return None;
        };
        let from = self.host_value(st, eq + 1, *s1).and_then(HostVal::int)?;
        let inclusive = match (tok(s1 + 1), tok(s1 + 2)) {
            (Some(Tok::Ident(v)), Some(Tok::Punct("<"))) if v == var => false,
            (Some(Tok::Ident(v)), Some(Tok::Punct("<="))) if v == var => true,
            _ => return None,
        };
        let to = self.host_value(st, s1 + 3, *s2).and_then(HostVal::int)? + i128::from(inclusive);
        let step: Vec<&Tok> = toks[s2 + 1..close].iter().map(|t| &t.tok).collect();
        let unit = matches!(step.as_slice(),
            [Tok::Ident(v), Tok::Punct("++")] | [Tok::Punct("++"), Tok::Ident(v)] if v == var)
            || matches!(step.as_slice(),
            [Tok::Ident(v), Tok::Punct("+="), Tok::Int { value: 1, .. }] if v == var);
        unit.then(|| (var.clone(), from, to, close))
    }

    /// Two nested counting loops at `k` whose body is one `h[IDX] = E;` of a host array with a
    /// declared length: records `h`'s fill and returns where the next statement starts; `None`
    /// for any other loop (left to the other readers).
    pub(super) fn host_nested_fill(&mut self, st: &mut HostState, k: usize) -> Option<usize> {
        let toks = self.toks;
        let tok = |i: usize| toks.get(i).map(|t| &t.tok);
        let (v1, a1, b1, h1) = self.for_head(st, k)?;
        let outer_braced = matches!(tok(h1 + 1), Some(Tok::Punct("{")));
        let inner = h1 + 1 + usize::from(outer_braced);
        let (v2, a2, b2, h2) = self.for_head(st, inner)?;
        let inner_braced = matches!(tok(h2 + 1), Some(Tok::Punct("{")));
        let s = h2 + 1 + usize::from(inner_braced);
        // `h [ IDX ] = E ;`
        let Some(Tok::Ident(arr)) = tok(s) else {
            return None;
        };
        let arr = arr.clone();
        if !matches!(tok(s + 1), Some(Tok::Punct("["))) {
            return None;
        }
        let first_close = self.closing(s + 1)?;
        // `h[I][J]` of a 2-D array `T h[R][C]`: the cell I * C + J (row-major, [dcl.array]/9).
        let (column, idx_close) = match (tok(first_close + 1), st.cols.get(&arr)) {
            (Some(Tok::Punct("[")), Some(&cols)) => {
                let c2 = self.closing(first_close + 1)?;
                (Some((self.sub_expr(first_close + 2, c2)?, cols)), c2)
            }
            _ => (None, first_close),
        };
        if !matches!(tok(idx_close + 1), Some(Tok::Punct("="))) {
            return None;
        }
        let semi =
            (idx_close + 2..toks.len()).find(|&i| matches!(tok(i), Some(Tok::Punct(";"))))?;
        let mut end = semi + 1;
        for braced in [inner_braced, outer_braced] {
            if braced {
                if !matches!(tok(end), Some(Tok::Punct("}"))) {
                    return None;
                }
                end += 1;
            }
        }
        let len = usize::try_from(*st.arrays.get(&arr)?).ok()?;
        let trips = (b1 - a1).max(0).checked_mul((b2 - a2).max(0))?;
        // Each loop's own trips bounded too: an empty inner loop must not let the outer run on.
        if len as i128 > MAX_FILL || trips > MAX_FILL || b1 - a1 > MAX_FILL || b2 - a2 > MAX_FILL {
            return None;
        }
        let index = self.sub_expr(s + 2, first_close)?;
        let value = self.sub_expr(idx_close + 2, semi)?;
        let mut cells = match st.fills.get(&arr) {
            Some((v, _)) if v.len() == len => v.clone(),
            _ => vec!["undef".to_string(); len],
        };
        let mut env = st.env.clone();
        for i in a1..b1 {
            env.insert(v1.clone(), HostVal::Int(i));
            for j in a2..b2 {
                env.insert(v2.clone(), HostVal::Int(j));
                let mut x = const_eval(&index, &env).and_then(HostVal::int);
                if let Some((j, cols)) = &column {
                    let j = const_eval(j, &env).and_then(HostVal::int);
                    // A column outside its row is undefined ([expr.add]/4): not read.
                    x = x
                        .zip(j.filter(|j| (0..*cols).contains(j)))
                        .and_then(|(i, j)| i.checked_mul(*cols)?.checked_add(j));
                }
                super::const_eval::take_overflow();
                let v = const_eval(&value, &env)
                    .and_then(HostVal::text)
                    .or_else(|| {
                        // A signed overflow ([expr]/4): this cell alone is undefined.
                        super::const_eval::take_overflow()
                            .then(|| crate::host_undef::overflow_cell(value.span.line))
                    });
                match (x.and_then(|x| usize::try_from(x).ok()), v) {
                    (Some(x), Some(v)) if x < len => cells[x] = v,
                    _ => return None,
                }
            }
        }
        st.unknown.remove(&arr);
        st.fills.insert(arr, (cells, toks[k].line));
        Some(end)
    }
}
