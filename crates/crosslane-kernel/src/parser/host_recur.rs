//! Host fills that read host arrays back: a recurrence `h[0] = 1; for (int i = 1; i < n; i++)
//! h[i] = h[i - 1] * 2 + 1;` (each iteration reads the cell an earlier one wrote, C++17
//! [intro.execution]/9: the statements of one iteration complete before the next), and the C
//! library's `memcpy(dst, src, bytes)` between host arrays (C11 7.24.2.1: the first `bytes`
//! bytes of `src` are copied into `dst`).
//!
//! A cell read is taken in the array's declared element type (its text converted as an
//! assignment to that type would, [conv]); an array whose element type the reading does not
//! know, or a cell without a value, leaves the fill unread (the launch then says so).

use std::collections::HashMap;

use super::const_eval::HostVal;
use super::host::{source_text, split_commas, HostState};
use super::Parser;
use crate::ast::{Expr, ExprKind};
use crate::lexer::{Tok, Token};

impl Parser<'_> {
    /// `e` with each read `a[j]` of an array in `cells` (`j` a constant with `env` bound)
    /// replaced by the name `a[j]`, bound in `env` to the cell's value in `a`'s element type.
    /// `e` unchanged when it reads no such array; `None` when a read cell has no value or
    /// lies outside the values known. Recursion only as deep as the parsed expression (the
    /// parser bounds its depth).
    pub(super) fn bind_cell_reads(
        &self,
        e: &Expr,
        env: &mut HashMap<String, HostVal>,
        cells: &HashMap<String, Vec<String>>,
    ) -> Option<Expr> {
        let reads = e.walk().any(|x| {
            matches!(&x.kind, ExprKind::Index(a, _)
                if matches!(&a.kind, ExprKind::Ident(n) if cells.contains_key(n)))
        });
        if !reads {
            return Some(e.clone());
        }
        let mut out = e.clone();
        self.bind_reads_in(&mut out, env, cells).then_some(out)
    }

    fn bind_reads_in(
        &self,
        e: &mut Expr,
        env: &mut HashMap<String, HostVal>,
        cells: &HashMap<String, Vec<String>>,
    ) -> bool {
        if let ExprKind::Index(a, j) = &mut e.kind {
            if let ExprKind::Ident(n) = &a.kind {
                if let Some(values) = cells.get(n) {
                    if !self.bind_reads_in(j, env, cells) {
                        return false;
                    }
                    let Some(at) = self
                        .host_fold(j, env)
                        .and_then(HostVal::int)
                        .and_then(|j| usize::try_from(j).ok())
                    else {
                        return false;
                    };
                    let Some(v) = values.get(at).and_then(|t| self.cell_value(n, t)) else {
                        return false;
                    };
                    let name = format!("{n}[{at}]");
                    env.insert(name.clone(), v);
                    e.kind = ExprKind::Ident(name);
                    return true;
                }
            }
        }
        let mut ok = true;
        e.kind
            .for_each_child_mut(|c| ok = ok && self.bind_reads_in(c, env, cells));
        ok
    }

    /// The value of the cell text `t` of host array `arr` in its element type; `None` for a
    /// cell without a value or an array whose type is not known.
    fn cell_value(&self, arr: &str, t: &str) -> Option<HostVal> {
        let s = *self.host_scalars.get(arr)?;
        let v = match t.parse::<i128>() {
            Ok(n) => HostVal::Int(n),
            Err(_) => HostVal::Float(t.parse::<f64>().ok()?),
        };
        v.convert(s)
    }

    /// `memcpy(dst, src, bytes)` whose parentheses open at `open`, between host arrays of one
    /// element type: `dst`'s first `bytes / sizeof(element)` cells become `src`'s, the others
    /// keep theirs (C11 7.24.2.1). Anything else leaves `dst` unknown, with the reason.
    pub(super) fn host_memcpy(&mut self, st: &mut HostState, open: usize) {
        let toks = self.toks;
        let Some(c) = self.closing(open) else { return };
        let parts = split_commas(toks, open + 1, c);
        let name = |p: Option<&(usize, usize)>| -> Option<String> {
            let &(a, b) = p?;
            match &toks[a..b] {
                [Token {
                    tok: Tok::Ident(n), ..
                }] => Some(n.clone()),
                other => super::host::member_call(other, "data"),
            }
        };
        let (Some(dst), Some(src)) = (name(parts.first()), name(parts.get(1))) else {
            return;
        };
        let line = toks[open].line;
        // Two host arrays of one struct: member by member ([`Self::host_memcpy_structs`]).
        if let (Some(a), Some(b)) = (self.host_struct_of.get(&src), self.host_struct_of.get(&dst)) {
            if a == b {
                let s = a.clone();
                let bytes = parts
                    .get(2)
                    .and_then(|&(a, b)| self.host_value(st, a, b))
                    .and_then(HostVal::int);
                let ok =
                    bytes.is_some_and(|n| self.host_memcpy_structs(st, &s, &dst, &src, n, line));
                if !ok {
                    let why = format!(
                        "`memcpy({})` at line {line} is not read here (read is a copy of whole \
                         elements between host arrays of one struct whose members' values are \
                         known)",
                        source_text(&toks[open + 1..c])
                    );
                    let names: Vec<String> = self
                        .leaves(&s, crate::ast::Span::default())
                        .map(|ls| ls.iter().map(|l| format!("{dst}.{}", l.path)).collect())
                        .unwrap_or_default();
                    Self::mark_unknown(st, &names, &why);
                    Self::mark_unknown(st, std::slice::from_ref(&dst), &why);
                }
                return;
            }
        }
        let copied = (|| {
            let &(a, b) = parts.get(2)?;
            let elem = i128::from(*self.host_elems.get(&src)?);
            // `sizeof(src)` of an array: its length times its element's size
            // ([expr.sizeof]/2).
            let whole = match &toks[a..b] {
                [s, o, x, c]
                    if matches!(o.tok, Tok::Punct("(")) && matches!(c.tok, Tok::Punct(")")) =>
                {
                    Some((s, x))
                }
                [s, x] => Some((s, x)),
                _ => None,
            };
            let bytes = match whole {
                Some((
                    Token {
                        tok: Tok::Ident(w), ..
                    },
                    Token {
                        tok: Tok::Ident(x), ..
                    },
                )) if w == "sizeof" && st.arrays.contains_key(x) => {
                    st.arrays[x].checked_mul(i128::from(*self.host_elems.get(x)?))?
                }
                _ => self.host_value(st, a, b).and_then(HostVal::int)?,
            };
            let same = self.host_scalars.contains_key(&src)
                && self.host_scalars.get(&src) == self.host_scalars.get(&dst)
                && self.host_elems.get(&dst) == self.host_elems.get(&src);
            if !same || elem == 0 || bytes % elem != 0 {
                return None;
            }
            let n = usize::try_from(bytes / elem).ok()?;
            let from = &st.fills.get(&src)?.0;
            if n > from.len() {
                return None;
            }
            let mut cells = match st.fills.get(&dst) {
                Some((v, _)) => v.clone(),
                None => {
                    let len = st.arrays.get(&dst).copied().unwrap_or(0).max(0);
                    vec!["undef".to_string(); usize::try_from(len).ok()?]
                }
            };
            if cells.len() < n {
                cells.resize(n, "undef".to_string());
            }
            cells[..n].clone_from_slice(&from[..n]);
            Some(cells)
        })();
        match copied {
            Some(cells) => {
                st.unknown.remove(&dst);
                st.fills.insert(dst, (cells, line));
            }
            None => {
                let why = format!(
                    "`memcpy({})` at line {line} is not read here (read is a copy between host \
                     arrays of one element type, of whole elements, from an array whose values \
                     are known)",
                    source_text(&toks[open + 1..c])
                );
                st.fills.remove(&dst);
                Self::mark_unknown(st, std::slice::from_ref(&dst), &why);
            }
        }
    }
}

impl Parser<'_> {
    /// `memcpy(dst, src, bytes)` of two host arrays of struct `s`: each member's first
    /// `bytes / sizeof(s)` cells of `dst` become `src`'s (C11 7.24.2.1 copies the bytes; the
    /// members are at the same offsets in both, [class.mem]/22, and padding bytes are never
    /// read as a member). A member `src` never set copies as undefined cells. `false` when the
    /// count is no whole number of elements, past a fill's end, or the struct has array
    /// members.
    fn host_memcpy_structs(
        &self,
        st: &mut HostState,
        s: &str,
        dst: &str,
        src: &str,
        bytes: i128,
        line: u32,
    ) -> bool {
        let at = crate::ast::Span::default();
        let (Ok(size), Ok(leaves)) = (self.struct_size(s, at), self.leaves(s, at)) else {
            return false;
        };
        let size = i128::from(size);
        if size == 0 || bytes < 0 || bytes % size != 0 || leaves.iter().any(|l| l.count > 0) {
            return false;
        }
        let Ok(n) = usize::try_from(bytes / size) else {
            return false;
        };
        let len = st
            .arrays
            .get(dst)
            .and_then(|l| usize::try_from(*l).ok())
            .unwrap_or(0);
        if n > len {
            return false;
        }
        let mut out = Vec::new();
        for l in &leaves {
            let from = st
                .fills
                .get(&format!("{src}.{}", l.path))
                .map(|(v, _)| v.clone())
                .unwrap_or_else(|| vec!["undef".to_string(); n]);
            if from.len() < n {
                return false;
            }
            let key = format!("{dst}.{}", l.path);
            let mut cells = match st.fills.get(&key) {
                Some((v, _)) => v.clone(),
                None => vec!["undef".to_string(); len],
            };
            if cells.len() < n {
                cells.resize(n, "undef".to_string());
            }
            cells[..n].clone_from_slice(&from[..n]);
            out.push((key, cells));
        }
        for (key, cells) in out {
            st.unknown.remove(&key);
            st.fills.insert(key, (cells, line));
        }
        st.unknown.remove(dst);
        true
    }

    /// `h[K] = e;` at `k`, K and e constants, of a host array whose element type is known
    /// (`h[0] = 1;` before a recurrence): the cell K becomes e converted to that type
    /// ([expr.ass]/3); the other cells keep their values (undefined when nothing wrote them,
    /// [dcl.init]/12). Returns where the next statement starts; `None` for another statement,
    /// K outside the array's declared length, or e no constant (left to the other readers).
    pub(super) fn host_cell_assign(&mut self, st: &mut HostState, k: usize) -> Option<usize> {
        let toks = self.toks;
        let tok = |i: usize| toks.get(i).map(|t| &t.tok);
        // `I[0] = 0, J[0] = 0, J[1] = 1;`: a comma expression of cell assignments runs each in
        // order (C++17 [expr.comma]/1); read only when every part is one (else nothing is
        // written here and the other readers take the statement).
        let semi =
            (k..toks.len()).find(|&i| matches!(tok(i), Some(Tok::Punct(";" | "{" | "}"))))?;
        if matches!(tok(semi), Some(Tok::Punct(";"))) {
            let parts = super::host::split_commas(toks, k, semi);
            if parts.len() > 1 {
                let saved = (st.fills.clone(), st.unknown.clone());
                for &(a, b) in &parts {
                    if self.host_cell_assign_part(st, a, b).is_none() {
                        (st.fills, st.unknown) = saved;
                        return None;
                    }
                }
                return Some(semi + 1);
            }
        }
        self.host_cell_assign_part(st, k, semi).map(|_| semi + 1)
    }

    /// One cell assignment `h[K] = e` over `k..semi` (see [`Self::host_cell_assign`]).
    fn host_cell_assign_part(&mut self, st: &mut HostState, k: usize, semi: usize) -> Option<()> {
        let toks = self.toks;
        let tok = |i: usize| toks.get(i).map(|t| &t.tok);
        // `p.dims[K] = e;`: a struct's array member, kept under its dotted name.
        let mut open = k + 1;
        while matches!(tok(open), Some(Tok::Punct(".")))
            && matches!(tok(open + 1), Some(Tok::Ident(_)))
        {
            open += 2;
        }
        let (Some(Tok::Ident(_)), Some(Tok::Punct("["))) = (tok(k), tok(open)) else {
            return None;
        };
        let arr = &super::host::text_of(&toks[k..open]).replace(' ', "");
        let scalar = *self.host_scalars.get(arr)?;
        // An array host code no longer knows: its other cells are not undefined but unknown.
        if !st.fills.contains_key(arr) && st.unknown.contains_key(arr) {
            return None;
        }
        let k = open - 1;
        let close = self.closing(k + 1).filter(|&c| c < semi)?;
        if !matches!(tok(close + 1), Some(Tok::Punct("="))) || close + 2 >= semi {
            return None;
        }
        let at = self.host_value(st, k + 2, close).and_then(HostVal::int)?;
        let len = match st.fills.get(arr) {
            Some((v, _)) => i128::try_from(v.len()).ok()?,
            None => *st.arrays.get(arr)?,
        };
        if !(0..len).contains(&at) {
            return None;
        }
        let v = self
            .host_value(st, close + 2, semi)?
            .convert(scalar)?
            .text()?;
        let mut cells = match st.fills.get(arr) {
            Some((v, _)) => v.clone(),
            None => vec!["undef".to_string(); usize::try_from(len).ok()?],
        };
        cells[usize::try_from(at).ok()?] = v;
        st.unknown.remove(arr);
        st.fills.insert(arr.to_string(), (cells, toks[k].line));
        Some(())
    }
}

impl Parser<'_> {
    /// The declaration at `k` whose reading stopped at the `{` at `brace` of a braced list
    /// (`int src[n] = {9, 8}, h[n];`): reads the declarators after the list, each with the
    /// declaration's type (C++17 [dcl.decl]/3), and returns the index of the declaration's
    /// `;`. `None` when `brace` opens no such list or no declarator follows it.
    pub(super) fn host_decl_after_list(
        &mut self,
        st: &mut HostState,
        k: usize,
        brace: usize,
    ) -> Option<usize> {
        let toks = self.toks;
        let tok = |i: usize| toks.get(i).map(|t| &t.tok);
        if !matches!(tok(brace), Some(Tok::Punct("{")))
            || !matches!(tok(brace.checked_sub(1)?), Some(Tok::Punct("=")))
        {
            return None;
        }
        let c = self.closing(brace)?;
        if !matches!(tok(c + 1), Some(Tok::Punct(","))) {
            return None;
        }
        // The `;` ending the declaration, past any bracketed initializer.
        let mut e = c + 1;
        while !matches!(tok(e)?, Tok::Punct(";")) {
            e = match tok(e)? {
                Tok::Punct("{" | "(" | "[") => self.closing(e)? + 1,
                Tok::Punct("}") => return None,
                _ => e + 1,
            };
        }
        for (a, b) in split_commas(toks, c + 2, e) {
            self.host_declarator(st, k, a, b, Some(false));
        }
        Some(e)
    }
}
