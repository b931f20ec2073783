//! Structured bindings in host code (C++17 [dcl.struct.bind]): `auto [a, b] =
//! std::make_tuple(x, y);` and `auto [p, q] = f(…);` of a host function returning a pair or
//! tuple, feeding a launch (`k<<<blocks, threads>>>(…, a, …)`).
//!
//! [dcl.struct.bind]/1, /4: the names are the elements of a hidden copy of the initializer, a
//! `std::pair`'s `first` and `second` or a `std::tuple`'s `get<i>`, in order. The reading
//! knows a pair or tuple only where it is made: `std::make_tuple(…)`, `std::make_pair(…)`,
//! `std::tuple<…>(…)` / `{…}`, `std::pair<…>(…)` / `{…}` (CTAD `std::pair{…}` too), or a
//! braced `{…}` returned by a host function whose one `return` is its last statement
//! ([stmt.return]/2: the braced list initializes the returned pair or tuple). Each name then
//! holds its element's value as host code evaluates it (the elements are evaluated in order,
//! before any name exists); an element that is no constant here, or an initializer of
//! another form, leaves every name unknown with the reason, so a launch given one asks for
//! `--arg` (never a value picked for it).

use super::const_eval::HostVal;
use super::host::{split_commas, HostState};
use super::Parser;
use crate::lexer::Tok;

/// The makers of a pair or tuple whose arguments are its elements.
const MAKERS: &[&str] = &["make_tuple", "make_pair", "tuple", "pair"];

impl Parser<'_> {
    /// `[const] auto[&|&&] [n1, n2, …] = INIT;` at `k`: each name bound to its element of
    /// `INIT` (see the module comment). Returns where the next statement starts, or `None`
    /// when `k` starts no structured binding.
    pub(super) fn host_struct_bind(
        &mut self,
        st: &mut HostState,
        k: usize,
        close: usize,
    ) -> Option<usize> {
        let toks = self.toks;
        let tok = |i: usize| toks.get(i).map(|t| &t.tok);
        let word = |i: usize, w: &str| matches!(tok(i), Some(Tok::Ident(x)) if x == w);
        let mut i = k;
        while word(i, "const") || word(i, "static") || word(i, "constexpr") {
            i += 1;
        }
        // `std::tie(a, b) = INIT;` ([`Parser::host_tie`]).
        if let Some(r) = self.host_tie(st, k, close) {
            return Some(r);
        }
        if !word(i, "auto") {
            return None;
        }
        i += 1;
        if matches!(tok(i), Some(Tok::Punct("&" | "&&"))) {
            i += 1;
        }
        if !matches!(tok(i), Some(Tok::Punct("["))) {
            return None;
        }
        let rb = (i + 1..close.min(i + 64)).find(|&j| matches!(tok(j), Some(Tok::Punct("]"))))?;
        let mut names = Vec::new();
        for (a, b) in split_commas(toks, i + 1, rb) {
            match (b == a + 1, tok(a)) {
                (true, Some(Tok::Ident(n))) => names.push(n.clone()),
                _ => return None,
            }
        }
        if names.is_empty() || !matches!(tok(rb + 1), Some(Tok::Punct("="))) {
            return None;
        }
        self.bind_elements(st, k, names, rb + 2, close)
    }

    /// `std::tie(a, b) = INIT;` (also `tie(…)`) at `k`: C++17 [tuple.creation] `tie` makes a
    /// tuple of references to its arguments, so assigning a pair or tuple to it assigns each
    /// element to its variable in order ([tuple.assign]); `std::ignore` takes an element and
    /// keeps nothing. Read as a structured binding's elements are. Returns where the next
    /// statement starts, or `None` when `k` starts no such assignment.
    fn host_tie(&mut self, st: &mut HostState, k: usize, close: usize) -> Option<usize> {
        let toks = self.toks;
        let tok = |i: usize| toks.get(i).map(|t| &t.tok);
        let word = |i: usize, w: &str| matches!(tok(i), Some(Tok::Ident(x)) if x == w);
        let mut i = k;
        if word(i, "auto") && word(i + 1, super::thrust_pair::TIED) {
            return self.host_tie_rewritten(st, k, close);
        }
        if word(i, "std") && matches!(tok(i + 1), Some(Tok::Punct("::"))) {
            i += 2;
        }
        if !word(i, "tie") || !matches!(tok(i + 1), Some(Tok::Punct("("))) {
            return None;
        }
        let rp = self.closing(i + 1).filter(|&c| c < close)?;
        if !matches!(tok(rp + 1), Some(Tok::Punct("="))) {
            return None;
        }
        let mut names = Vec::new();
        for (a, b) in split_commas(toks, i + 2, rp) {
            let part = toks.get(a..b)?;
            match part {
                [one] => match &one.tok {
                    Tok::Ident(n) => names.push(n.clone()),
                    _ => return None,
                },
                // `std::ignore`: an element that is kept nowhere.
                [s, c, w]
                    if matches!(&s.tok, Tok::Ident(x) if x == "std")
                        && matches!(c.tok, Tok::Punct("::"))
                        && matches!(&w.tok, Tok::Ident(x) if x == "ignore") =>
                {
                    names.push("std::ignore".into());
                }
                _ => return None,
            }
        }
        if names.is_empty() {
            return None;
        }
        self.bind_elements(st, k, names, rp + 2, close)
    }

    /// `std::tie(a, b) = e;` as the [`super::thrust_pair`] pass wrote it: `auto TIED = e; a =
    /// TIED.first; b = TIED.second;` at `k`, each name bound to its element of `e`. Returns
    /// where the statement after the second assignment starts.
    fn host_tie_rewritten(&mut self, st: &mut HostState, k: usize, close: usize) -> Option<usize> {
        let toks = self.toks;
        let tok = |i: usize| toks.get(i).map(|t| &t.tok);
        let word = |i: usize, w: &str| matches!(tok(i), Some(Tok::Ident(x)) if x == w);
        let p = |i: usize, w: &str| matches!(tok(i), Some(Tok::Punct(x)) if *x == w);
        if !p(k + 2, "=") {
            return None;
        }
        let semi = self.statement_end(k + 3, close)?;
        let mut names = Vec::new();
        let mut j = semi + 1;
        for member in ["first", "second"] {
            let Some(Tok::Ident(n)) = tok(j) else {
                return None;
            };
            let shape = p(j + 1, "=")
                && word(j + 2, super::thrust_pair::TIED)
                && p(j + 3, ".")
                && word(j + 4, member)
                && p(j + 5, ";");
            if !shape {
                return None;
            }
            names.push(n.clone());
            j += 6;
        }
        self.bind_elements(st, k, names, k + 3, close)?;
        Some(j)
    }

    /// Each of `names` bound to its element of the initializer starting at `from` (a pair or
    /// tuple made there or returned by a host function); `std::ignore` keeps nothing.
    fn bind_elements(
        &mut self,
        st: &mut HostState,
        k: usize,
        mut names: Vec<String>,
        from: usize,
        close: usize,
    ) -> Option<usize> {
        let toks = self.toks;
        let semi = self.statement_end(from, close)?;
        let line = toks[k].line;
        // The elements' values, or why they are not known.
        let values: Result<Vec<Option<HostVal>>, String> = match self.made_elements(from, semi) {
            Some(parts) => Ok(parts
                .into_iter()
                .map(|(a, b)| self.host_value(st, a, b))
                .collect()),
            None => self.called_elements(st, from, semi),
        };
        match values {
            Ok(vals) if vals.len() == names.len() => {
                for (n, v) in names.iter().zip(vals) {
                    if n == "std::ignore" {
                        continue;
                    }
                    match v {
                        Some(v) => {
                            st.unknown.remove(n);
                            st.env.insert(n.clone(), v);
                        }
                        None => {
                            let why = format!(
                                "its element of the structured binding at line {line} has no \
                                 constant value here"
                            );
                            Self::mark_unknown(st, std::slice::from_ref(n), &why);
                        }
                    }
                }
            }
            Ok(vals) => {
                let why = format!(
                    "the structured binding at line {line} names {} elements of a value with {}",
                    names.len(),
                    vals.len()
                );
                names.retain(|n| n != "std::ignore");
                Self::mark_unknown(st, &names, &why);
            }
            Err(why) => {
                names.retain(|n| n != "std::ignore");
                Self::mark_unknown(st, &names, &why);
            }
        }
        Some(semi + 1)
    }

    /// The `;` ending the statement whose initializer starts at `from` (brackets skipped).
    fn statement_end(&self, from: usize, close: usize) -> Option<usize> {
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

    /// The element ranges of a pair or tuple made at `from..to`: `std::make_tuple(…)` and the
    /// other [`MAKERS`] (with or without `std::`, with or without template arguments, called
    /// with `(…)` or `{…}`), or a braced list `{…}`; `None` for any other expression.
    pub(super) fn made_elements(&self, from: usize, to: usize) -> Option<Vec<(usize, usize)>> {
        let toks = self.toks;
        let tok = |i: usize| toks.get(i).map(|t| &t.tok);
        let mut i = from;
        if matches!(tok(i), Some(Tok::Punct("{"))) {
            return (self.closing(i)? + 1 == to).then(|| split_commas(toks, i + 1, to - 1));
        }
        if matches!(tok(i), Some(Tok::Ident(w)) if w == "std")
            && matches!(tok(i + 1), Some(Tok::Punct("::")))
        {
            i += 2;
        }
        if !matches!(tok(i), Some(Tok::Ident(w)) if MAKERS.contains(&w.as_str())) {
            return None;
        }
        i += 1;
        if matches!(tok(i), Some(Tok::Punct("<"))) {
            let mut depth = 0i32;
            i = (i..to).find(|&j| {
                match tok(j) {
                    Some(Tok::Punct("<")) => depth += 1,
                    Some(Tok::Punct(">")) => depth -= 1,
                    Some(Tok::Punct(">>")) => depth -= 2,
                    _ => {}
                }
                depth <= 0
            })? + 1;
        }
        if !matches!(tok(i), Some(Tok::Punct("(" | "{"))) || self.closing(i)? + 1 != to {
            return None;
        }
        Some(split_commas(toks, i + 1, to - 1))
    }

    /// `f(…)` at `from..to` of a host function the file defines: read as any call is (its
    /// launches and stores followed), and the elements of the pair or tuple its one `return`
    /// makes, evaluated with its parameters bound; else why they are not known.
    fn called_elements(
        &mut self,
        st: &mut HostState,
        from: usize,
        to: usize,
    ) -> Result<Vec<Option<HostVal>>, String> {
        let toks = self.toks;
        let line = toks[from].line;
        let name = match &toks[from].tok {
            Tok::Ident(n) if self.host_fns.contains_key(n) => n.clone(),
            _ => {
                return Err(format!(
                    "the structured binding at line {line} is read only of a pair or tuple made \
                     there (`std::make_tuple(…)`, `std::make_pair(…)`, `{{…}}`) or returned so \
                     by a host function of this file"
                ))
            }
        };
        let depth = self.host_call_depth + 1;
        self.bind_parts = None;
        self.want_parts = Some(depth);
        // Read as `= f(…);`: from the `=` before the call.
        let read = self.host_call(st, from - 1, to + 1);
        self.want_parts = None;
        let parts = self.bind_parts.take();
        match (read, parts) {
            (Some(_), Some(p)) => Ok(p),
            _ => Err(format!(
                "the pair or tuple host function `{name}` returns at line {line} is not read \
                 (read: one `return` of `std::make_tuple(…)`, `std::make_pair(…)` or `{{…}}` as \
                 its last statement, or `if (…) return …;` guards whose conditions have a value \
                 here before it)"
            )),
        }
    }

    /// Whether the function header `from..name` (before its name, whose `(` is at `name + 1`)
    /// declares a pair or tuple return type: `std::pair<…>` / `pair<…>` (also after the
    /// [`super::thrust_pair`] pass dropped `std::` and declared `pair` as a class template, so
    /// the device reading takes the type and the function stays a plain one) or
    /// `std::tuple<…>`. A plain function is a host function (CUDA C++ Programming Guide,
    /// "Function Execution Space Specifiers"), and host code's structured bindings of its
    /// result are read ([`Parser::host_struct_bind`]).
    pub(super) fn returns_pair_or_tuple(&self, from: usize, open_params: usize) -> bool {
        let toks = self.toks;
        let name = open_params.saturating_sub(1);
        toks.get(from..name).is_some_and(|head| {
            head.windows(2).any(|w| {
                matches!(&w[0].tok, Tok::Ident(n) if n == "pair" || n == "tuple")
                    && matches!(w[1].tok, Tok::Punct("<"))
            })
        })
    }

    /// The elements of the pair or tuple the one `return` of the body `open..close` makes
    /// (its last statement, at the body's top level), or the `return` a chain of guarded
    /// returns takes ([`Parser::chosen_return`]), evaluated in the callee's state `st`.
    pub(super) fn returned_parts(
        &mut self,
        st: &HostState,
        open: usize,
        close: usize,
    ) -> Option<Vec<Option<HostVal>>> {
        let toks = self.toks;
        let mut depth = 0i32;
        let mut ret = None;
        let mut several = false;
        for (j, t) in toks.iter().enumerate().take(close).skip(open + 1) {
            match &t.tok {
                Tok::Punct("{") => depth += 1,
                Tok::Punct("}") => depth -= 1,
                Tok::Ident(w) if w == "return" => {
                    several |= ret.is_some() || depth != 0;
                    ret = Some(j);
                }
                _ => {}
            }
        }
        let (from, semi) = if several {
            // A chain of guarded returns ([`super::host_returns`]).
            self.chosen_return(st, open, close)?
        } else {
            let r = ret?;
            (r + 1, self.statement_end(r + 1, close)?)
        };
        if !several && semi + 1 != close {
            return None;
        }
        let parts = self.made_elements(from, semi)?;
        Some(
            parts
                .into_iter()
                .map(|(a, b)| self.host_value(st, a, b))
                .collect(),
        )
    }
}
