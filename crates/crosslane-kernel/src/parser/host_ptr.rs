//! Pointer values in host code: which device allocation, and how many elements into it, a host
//! expression points at, so that a launch, a copy or a memset acts on the memory host code
//! means.
//!
//! An allocation is named by the place `cudaMalloc` / `hipMalloc` wrote its address into (`d`,
//! a struct member `v.data`, an element of an array of pointers `buf[1]`); a host pointer
//! variable assigned from one (`int *a2 = a + 4;`, `a = b;`, `p = cond ? x : y;`) holds that
//! allocation and offset ([`HostState::ptrs`]), as C++ copies a pointer's value (C++17
//! [expr.ass]/2). What keeps the allocation: `d + N`, `N + d`, `d - N` and `&d[N]` (C++17
//! [expr.add]/4, [expr.sub]/1: `N` elements on), casts (`reinterpret_cast<const float4 *>(d)`,
//! `static_cast`, `const_cast`, `(float4 *)d`: the same address, [expr.reinterpret.cast]/7),
//! parentheses, `c ? x : y` whose condition host code knows ([expr.cond]/1: the one operand
//! evaluated), and Thrust's `thrust::raw_pointer_cast(p)` (the raw pointer the device
//! pointer holds). An offset through a cast to another element type is not counted here: it is
//! left unread, which the launch says.
//!
//! Bounded: every form shrinks the token slice it reads, and nesting is cut at
//! [`MAX_PTR_DEPTH`].

use super::const_eval::HostVal;
use super::host::{split_commas, HostState, PtrVal};
use super::host_view::DECL_LOOKBACK;
use super::Parser;
use crate::lexer::Tok;

/// Deepest nesting of casts, parentheses and conditionals followed in one pointer expression.
const MAX_PTR_DEPTH: usize = 16;

/// The element bytes and type word of host pointer `p` from its nearest declaration before
/// `toks`' end, `T *p` (also `T *a, *p`) of a scalar type word whose size is known
/// ([`super::host_copy::type_bytes`]; C++17 [dcl.ptr]/1); `None` otherwise.
fn declared_elem(toks: &[crate::lexer::Token], p: &str) -> Option<(u64, String)> {
    let window = &toks[toks.len().saturating_sub(DECL_LOOKBACK)..];
    let mut j = window.windows(2).rposition(
        |w| matches!((&w[0].tok, &w[1].tok), (Tok::Punct("*"), Tok::Ident(n)) if n == p),
    )?;
    // `j` is a declarator's `*`: step back over `*a,` declarators to the type word.
    for _ in 0..64 {
        match &window.get(j.checked_sub(1)?)?.tok {
            Tok::Ident(t) => {
                return super::host_copy::type_bytes(t).map(|b| (b, t.clone()));
            }
            Tok::Punct(",") => {
                let name = j.checked_sub(2)?;
                let star = j.checked_sub(3)?;
                let ok = matches!(window[name].tok, Tok::Ident(_))
                    && matches!(window[star].tok, Tok::Punct("*"));
                if !ok {
                    return None;
                }
                j = star;
            }
            _ => return None,
        }
    }
    None
}

impl Parser<'_> {
    /// The place tokens `a..b` name, as an allocation or pointer variable is keyed: `d`, `v.data`
    /// (also `v->data`, kept as `v.data`), `buf[1]` with a constant index; a leading `&` (the
    /// address of the place, as `cudaMalloc(&d, …)` takes it) and a `(void **)` cast are
    /// skipped.
    pub(super) fn ptr_place(&mut self, st: &HostState, a: usize, b: usize) -> Option<String> {
        let toks = self.toks;
        let (mut a, b) = (a, b.min(toks.len()));
        // `(void **)&d`, `reinterpret_cast<void **>(&d)`.
        loop {
            if a >= b {
                return None;
            }
            if let Some(inner) = self.strip_cast(a, b) {
                if inner.1 != b {
                    a = inner.0;
                    return self.ptr_place(st, a, inner.1);
                }
                a = inner.0;
                continue;
            }
            if matches!(toks[a].tok, Tok::Punct("&")) {
                a += 1;
                continue;
            }
            break;
        }
        let Tok::Ident(first) = &toks[a].tok else {
            return None;
        };
        let mut key = first.clone();
        let mut i = a + 1;
        while i < b {
            match (&toks[i].tok, toks.get(i + 1).map(|t| &t.tok)) {
                (Tok::Punct("." | "->"), Some(Tok::Ident(m))) if i + 1 < b => {
                    key.push('.');
                    key.push_str(m);
                    i += 2;
                }
                (Tok::Punct("["), _) => {
                    let close = self.closing(i).filter(|&c| c < b)?;
                    let n = self.host_value(st, i + 1, close).and_then(HostVal::int)?;
                    key.push_str(&format!("[{n}]"));
                    i = close + 1;
                }
                _ => return None,
            }
        }
        Some(key)
    }

    /// The inside of a cast or of parentheses around the whole of `a..b`: `(x)`,
    /// `reinterpret_cast<T>(x)` (also `static_cast`, `const_cast`),
    /// `thrust::raw_pointer_cast(x)`, or the operand after a C-style pointer cast `(T *)x`.
    /// Returns the operand's range.
    fn strip_cast(&self, a: usize, b: usize) -> Option<(usize, usize)> {
        let toks = self.toks;
        let tok = |i: usize| toks.get(i).map(|t| &t.tok);
        match tok(a)? {
            Tok::Punct("(") => {
                let c = self.closing(a).filter(|&c| c < b)?;
                if c + 1 == b {
                    return Some((a + 1, c));
                }
                // `(T *)x`: the parentheses hold a type ending in `*`.
                let ends_star = matches!(tok(c.checked_sub(1)?), Some(Tok::Punct("*")));
                let words = toks[a + 1..c].iter().all(|t| {
                    matches!(
                        &t.tok,
                        Tok::Ident(_) | Tok::Punct("*" | "::" | "<" | ">" | ",")
                    )
                });
                (ends_star && words).then_some((c + 1, b))
            }
            Tok::Ident(n)
                if matches!(
                    n.as_str(),
                    "reinterpret_cast" | "static_cast" | "const_cast"
                ) =>
            {
                if !matches!(tok(a + 1), Some(Tok::Punct("<"))) {
                    return None;
                }
                // The `>` closing the type (a pointer type holds no `>` of its own but a
                // template argument's: count them).
                let mut depth = 0usize;
                let gt = (a + 1..b).find(|&i| {
                    match tok(i) {
                        Some(Tok::Punct("<")) => depth += 1,
                        Some(Tok::Punct(">")) => {
                            depth = depth.saturating_sub(1);
                            return depth == 0;
                        }
                        _ => {}
                    }
                    false
                })?;
                let open = gt + 1;
                let c = self.closing(open).filter(|&c| c + 1 == b)?;
                matches!(tok(open), Some(Tok::Punct("("))).then_some((open + 1, c))
            }
            Tok::Ident(n) if n == "thrust" || n == "raw_pointer_cast" => {
                let open = if n == "thrust" {
                    let is_raw = matches!(tok(a + 1), Some(Tok::Punct("::")))
                        && matches!(tok(a + 2), Some(Tok::Ident(r)) if r == "raw_pointer_cast");
                    if !is_raw {
                        return None;
                    }
                    a + 3
                } else {
                    a + 1
                };
                let c = self.closing(open).filter(|&c| c + 1 == b)?;
                matches!(tok(open), Some(Tok::Punct("("))).then_some((open + 1, c))
            }
            _ => None,
        }
    }

    /// The pointer value of host expression `a..b` (see the module doc), when it points into an
    /// allocation host code made; `None` otherwise.
    pub(super) fn ptr_value(&mut self, st: &HostState, a: usize, b: usize) -> Option<PtrVal> {
        self.ptr_value_at(st, a, b, 0)
    }

    fn ptr_value_at(&mut self, st: &HostState, a: usize, b: usize, depth: usize) -> Option<PtrVal> {
        let toks = self.toks;
        let b = b.min(toks.len());
        if a >= b || depth > MAX_PTR_DEPTH {
            return None;
        }
        let tok = |i: usize| toks.get(i).map(|t| &t.tok);
        // `c ? x : y` at the top level.
        if let Some((q, colon)) = self.top_conditional(a, b) {
            let cond = self.host_value(st, a, q).and_then(HostVal::int)?;
            return if cond != 0 {
                self.ptr_value_at(st, q + 1, colon, depth + 1)
            } else {
                self.ptr_value_at(st, colon + 1, b, depth + 1)
            };
        }
        // `x + N`, `N + x`, `x - N` at the top level (the last additive operator).
        if let Some(op) = self.top_additive(a, b) {
            let minus = matches!(tok(op), Some(Tok::Punct("-")));
            let left = self.ptr_value_at(st, a, op, depth + 1);
            let (base, n) = match left {
                Some(p) => (p, self.host_value(st, op + 1, b).and_then(HostVal::int)),
                None if !minus => (
                    self.ptr_value_at(st, op + 1, b, depth + 1)?,
                    self.host_value(st, a, op).and_then(HostVal::int),
                ),
                None => return None,
            };
            let n = n.map(|n| if minus { -n } else { n });
            let cast = self.casts_in(a, b);
            let offset = match (base.offset, n) {
                (Some(o), Some(n)) if !cast || n == 0 => u64::try_from(i128::from(o) + n).ok(),
                _ => None,
            };
            return Some(PtrVal {
                alloc: base.alloc,
                offset,
            });
        }
        if let Some((x, y)) = self.strip_cast(a, b) {
            return self.ptr_value_at(st, x, y, depth + 1);
        }
        // `&x[N]`: `x + N`.
        if matches!(tok(a), Some(Tok::Punct("&"))) && matches!(tok(b - 1), Some(Tok::Punct("]"))) {
            let open = (a + 1..b).rev().find(|&i| self.closing(i) == Some(b - 1))?;
            if let Some(base) = self.ptr_value_at(st, a + 1, open, depth + 1) {
                let n = self.host_value(st, open + 1, b - 1).and_then(HostVal::int);
                let offset = base
                    .offset
                    .zip(n)
                    .and_then(|(o, n)| u64::try_from(i128::from(o) + n).ok());
                return Some(PtrVal {
                    alloc: base.alloc,
                    offset,
                });
            }
        }
        // `x.data()` of a vector host code followed as an allocation (a device vector).
        if b >= a + 4
            && matches!(tok(b - 1), Some(Tok::Punct(")")))
            && matches!(tok(b - 2), Some(Tok::Punct("(")))
            && matches!(tok(b - 3), Some(Tok::Ident(m)) if m == "data")
            && matches!(tok(b - 4), Some(Tok::Punct(".")))
        {
            return self.ptr_value_at(st, a, b - 4, depth + 1);
        }
        let place = self.ptr_place(st, a, b)?;
        if matches!(tok(a), Some(Tok::Punct("&"))) {
            return None;
        }
        Self::place_value(st, &place)
    }

    /// What the place named `place` holds: the pointer value assigned to it, else the
    /// allocation of that name when host code made one.
    pub(super) fn place_value(st: &HostState, place: &str) -> Option<PtrVal> {
        if let Some(v) = st.ptrs.get(place) {
            return v.clone();
        }
        (st.writes.contains_key(place) || st.mallocs.contains_key(place)).then(|| PtrVal {
            alloc: place.to_string(),
            offset: Some(0),
        })
    }

    /// Whether `a..b` holds a cast (its offsets count another element type).
    fn casts_in(&self, a: usize, b: usize) -> bool {
        let toks = self.toks;
        (a..b).any(|i| {
            matches!(&toks[i].tok, Tok::Ident(n) if n.ends_with("_cast"))
                || (matches!(toks[i].tok, Tok::Punct("*"))
                    && matches!(toks.get(i + 1).map(|t| &t.tok), Some(Tok::Punct(")"))))
        })
    }

    /// The `?` and its `:` of a conditional at the top level of `a..b`.
    fn top_conditional(&self, a: usize, b: usize) -> Option<(usize, usize)> {
        let toks = self.toks;
        let mut depth = 0usize;
        let mut q = None;
        let mut nested = 0usize;
        for (i, t) in toks.iter().enumerate().take(b).skip(a) {
            match &t.tok {
                Tok::Punct("(" | "[" | "{") => depth += 1,
                Tok::Punct(")" | "]" | "}") => depth = depth.saturating_sub(1),
                Tok::Punct("?") if depth == 0 => {
                    if q.is_none() {
                        q = Some(i);
                    } else {
                        nested += 1;
                    }
                }
                Tok::Punct(":") if depth == 0 && q.is_some() => {
                    if nested == 0 {
                        return q.map(|q| (q, i));
                    }
                    nested -= 1;
                }
                _ => {}
            }
        }
        None
    }

    /// The last `+` or `-` at the top level of `a..b` that is a binary operator (it follows an
    /// operand), outside angle brackets of a cast.
    fn top_additive(&self, a: usize, b: usize) -> Option<usize> {
        let toks = self.toks;
        let mut depth = 0usize;
        let mut angle = 0usize;
        let mut found = None;
        for (i, t) in toks.iter().enumerate().take(b).skip(a) {
            match &t.tok {
                Tok::Punct("(" | "[" | "{") => depth += 1,
                Tok::Punct(")" | "]" | "}") => depth = depth.saturating_sub(1),
                Tok::Punct("<") if depth == 0 => angle += 1,
                Tok::Punct(">") if depth == 0 => angle = angle.saturating_sub(1),
                Tok::Punct("+" | "-") if depth == 0 && angle == 0 && i > a => {
                    let operand = matches!(
                        &toks[i - 1].tok,
                        Tok::Ident(_) | Tok::Int { .. } | Tok::Punct(")" | "]")
                    );
                    if operand {
                        found = Some(i);
                    }
                }
                _ => {}
            }
        }
        found
    }

    /// A host array from an element on, `h + N` or `&h[N]` (C++17 [expr.add]/4), as a copy's
    /// source: the array and `N` (`None` when not a host constant).
    pub(super) fn host_array_at(
        &mut self,
        st: &HostState,
        a: usize,
        b: usize,
    ) -> Option<(String, Option<u64>)> {
        let toks = self.toks;
        let tok = |i: usize| toks.get(i).map(|t| &t.tok);
        let name = |i: usize| match tok(i) {
            Some(Tok::Ident(n)) if st.fills.contains_key(n) || st.arrays.contains_key(n) => {
                Some(n.clone())
            }
            _ => None,
        };
        let count = |p: &mut Self, x: usize, y: usize| {
            p.host_value(st, x, y)
                .and_then(HostVal::int)
                .and_then(|n| u64::try_from(n).ok())
        };
        if b > a + 2 && matches!(tok(a + 1), Some(Tok::Punct("+"))) {
            let h = name(a)?;
            return Some((h, count(self, a + 2, b)));
        }
        if matches!(tok(a), Some(Tok::Punct("&")))
            && matches!(tok(a + 2), Some(Tok::Punct("[")))
            && self.closing(a + 2) == Some(b - 1)
        {
            let h = name(a + 1)?;
            return Some((h, count(self, a + 3, b - 1)));
        }
        None
    }

    /// After `cudaMalloc(&p, size)` (`size` over tokens `a..b`): the bytes and type word of
    /// `p`'s element from the `sizeof(T)` in the size (`n * sizeof(float)`), which a memset or
    /// copy through `p + N` counts in; the host writes after launches start over.
    pub(super) fn malloc_elem(&mut self, st: &mut HostState, p: &str, a: usize, b: usize) {
        st.host_cells.remove(p);
        st.dev_copies.remove(p);
        // Without a `sizeof(T)` in the size (`cudaMalloc(&b, 8)`), the pointer's declared
        // element type (`bool *b;`) when it is a scalar type of known size.
        let found = super::host_copy::sizeof_word(&self.toks[a..b])
            .or_else(|| declared_elem(&self.toks[..a], p));
        match found {
            Some((e, w)) => {
                st.elem_bytes.insert(p.to_string(), e);
                st.elem_word.insert(p.to_string(), w);
            }
            None => {
                st.elem_bytes.remove(p);
                st.elem_word.remove(p);
            }
        }
    }

    /// `thrust::device_vector<T> v(n);` / `(n, x)` over `k..end`: an allocation `v` of `n`
    /// elements, each `T()` (zero) or `x` (Thrust, `device_vector(size_type n)` and
    /// `device_vector(size_type n, const value_type &value)`: "creates a device_vector with
    /// copies of an exemplar element"), so `thrust::raw_pointer_cast(v.data())` points at it.
    /// Returns whether the statement was taken.
    pub(super) fn host_device_vector(&mut self, st: &mut HostState, k: usize, end: usize) -> bool {
        let toks = self.toks;
        let tok = |i: usize| toks.get(i).map(|t| &t.tok);
        let words: Vec<&Tok> = toks[k..end.min(toks.len())]
            .iter()
            .map(|t| &t.tok)
            .collect();
        let (ty, name) = match words.as_slice() {
            [Tok::Ident(t), Tok::Punct("::"), Tok::Ident(v), Tok::Punct("<"), Tok::Ident(ty), Tok::Punct(">"), Tok::Ident(name), Tok::Punct("("), ..]
                if t == "thrust" && v == "device_vector" =>
            {
                (ty.clone(), name.clone())
            }
            _ => return false,
        };
        let open = k + 7;
        let Some(c) = self.closing(open).filter(|&c| c < end) else {
            return false;
        };
        let _ = tok;
        let parts = split_commas(toks, open + 1, c);
        let n = parts
            .first()
            .and_then(|&(a, b)| self.host_value(st, a, b))
            .and_then(HostVal::int)
            .and_then(|n| u64::try_from(n).ok())
            .filter(|&n| n <= super::host::MAX_FILL as u64);
        let value = match parts.get(1) {
            Some(&(a, b)) => self.host_value(st, a, b).and_then(HostVal::text),
            None => Some("0".to_string()),
        };
        let (Some(n), Some(bytes)) = (n, super::host_copy::type_bytes(&ty)) else {
            return false;
        };
        let line = toks[k].line;
        st.ptrs.remove(&name);
        st.mallocs.insert(
            name.clone(),
            (n * bytes, "thrust::device_vector".into(), line),
        );
        st.elem_bytes.insert(name.clone(), bytes);
        st.prior.remove(&name);
        st.host_cells.remove(&name);
        match value {
            Some(v) => {
                st.writes.insert(name.clone(), super::host::DevWrite::Copy);
                st.copied
                    .insert(name.clone(), Some((vec![v; n as usize], line)));
                st.copies.insert(name.clone(), name);
            }
            None => {
                let why = format!(
                    "`{}` at line {line} fills it with a value that has no constant value here",
                    super::host::source_text(&toks[k..end])
                );
                st.writes.insert(name, super::host::DevWrite::Other(why));
            }
        }
        true
    }

    /// `T *p = expr;`, `p = expr;`, `v.data = expr;`, `T *buf[2] = {a, b};`, `std::swap(a, b);`
    /// over `k..end` whose value is a pointer host code follows (or was one): records what the
    /// place now holds ([`HostState::ptrs`]). Returns whether the statement was taken.
    pub(super) fn host_ptr_assign(&mut self, st: &mut HostState, k: usize, end: usize) -> bool {
        let toks = self.toks;
        let tok = |i: usize| toks.get(i).map(|t| &t.tok);
        // `std::swap(a, b)` / `swap(a, b)` of two pointers.
        let swap_at = match (tok(k), tok(k + 1), tok(k + 2)) {
            (Some(Tok::Ident(s)), Some(Tok::Punct("::")), Some(Tok::Ident(w)))
                if s == "std" && w == "swap" =>
            {
                Some(k + 3)
            }
            (Some(Tok::Ident(w)), Some(Tok::Punct("(")), _) if w == "swap" => Some(k + 1),
            _ => None,
        };
        if let Some(open) = swap_at {
            let Some(c) = self.closing(open).filter(|&c| c < end) else {
                return false;
            };
            let parts = split_commas(toks, open + 1, c);
            let [(xa, xb), (ya, yb)] = parts.as_slice() else {
                return false;
            };
            let (Some(x), Some(y)) = (self.ptr_place(st, *xa, *xb), self.ptr_place(st, *ya, *yb))
            else {
                return false;
            };
            let (vx, vy) = (Self::place_value(st, &x), Self::place_value(st, &y));
            if vx.is_none() && vy.is_none() {
                return false;
            }
            st.ptrs.insert(x, vy);
            st.ptrs.insert(y, vx);
            return true;
        }
        if let Some(taken) = self.host_ptr_step(st, k, end) {
            return taken;
        }
        // The top-level `=`.
        let mut depth = 0usize;
        let eq = (k..end).find(|&i| {
            match tok(i) {
                Some(Tok::Punct("(" | "[" | "{")) => depth += 1,
                Some(Tok::Punct(")" | "]" | "}")) => depth = depth.saturating_sub(1),
                Some(Tok::Punct("=")) if depth == 0 => return true,
                _ => {}
            }
            false
        });
        let Some(eq) = eq.filter(|&e| e > k) else {
            return false;
        };
        // The place assigned: the whole left side, else (a declaration `T *p`, `T *buf[2]`)
        // its declarator.
        let decl_from = (k..eq)
            .rev()
            .find(|&i| matches!(tok(i), Some(Tok::Punct("*"))))
            .map(|i| i + 1);
        let array_decl = decl_from.is_some_and(|d| {
            matches!(tok(d), Some(Tok::Ident(_))) && matches!(tok(d + 1), Some(Tok::Punct("[")))
        });
        if array_decl {
            // `T *buf[N] = {a, b};`: each element.
            let d = decl_from.unwrap_or(k);
            let Some(Tok::Ident(name)) = tok(d) else {
                return false;
            };
            let name = name.clone();
            if !matches!(tok(eq + 1), Some(Tok::Punct("{"))) {
                return false;
            }
            let Some(c) = self.closing(eq + 1).filter(|&c| c < end) else {
                return false;
            };
            let mut any = false;
            let values: Vec<Option<PtrVal>> = split_commas(toks, eq + 2, c)
                .into_iter()
                .map(|(x, y)| self.ptr_value(st, x, y))
                .collect();
            for (i, v) in values.into_iter().enumerate() {
                any |= v.is_some();
                st.ptrs.insert(format!("{name}[{i}]"), v);
            }
            return any;
        }
        // `T *x = a, *y = b;`: each declarator ([dcl.decl]/3).
        let parts = split_commas(toks, k, end);
        if decl_from.is_some() && parts.len() > 1 {
            let mut any = false;
            for (pa, pb) in parts {
                let Some(e) = (pa..pb).find(|&i| matches!(tok(i), Some(Tok::Punct("=")))) else {
                    continue;
                };
                let Some(Tok::Ident(name)) = e.checked_sub(1).and_then(tok) else {
                    continue;
                };
                let name = name.clone();
                let value = self.ptr_value(st, e + 1, pb);
                if value.is_some() || st.ptrs.contains_key(&name) {
                    any |= value.is_some();
                    st.ptrs.insert(name, value);
                }
            }
            return any;
        }
        // `auto t = d;` (also `const auto t`: what `std::swap(a, b)` is written as,
        // `parser::std_fns`): a declaration whose type is words, its name before the `=`.
        let auto_decl = || {
            let name = eq.checked_sub(1).filter(|&n| n > k)?;
            let words = (k..name).all(|i| matches!(tok(i), Some(Tok::Ident(_) | Tok::Punct("::"))));
            (words && matches!(tok(name), Some(Tok::Ident(_)))).then_some(name)
        };
        let place = match self.ptr_place(st, k, eq) {
            Some(p) => Some(p),
            None => decl_from
                .or_else(auto_decl)
                .and_then(|d| self.ptr_place(st, d, eq)),
        };
        let Some(place) = place else {
            return false;
        };
        let value = self.ptr_value(st, eq + 1, end);
        let was_pointer = st.ptrs.contains_key(&place)
            || st.writes.contains_key(&place)
            || st.mallocs.contains_key(&place);
        if value.is_none() && !was_pointer {
            return false;
        }
        // A pointer the reading followed now holds something it cannot follow: `None`, so a
        // launch given it says so instead of finding the old allocation. The statement is then
        // read on (a host function called there may launch kernels).
        let taken = value.is_some();
        st.ptrs.insert(place, value);
        taken
    }
}

impl Parser<'_> {
    /// The device pointer a launch argument over tokens `a..b` names and the elements past its
    /// start: `d` (0), `d + N` or `&d[N]` (C++17 [expr.add]/4; `&d[N]` is `d + N`,
    /// [expr.sub]/1), the offset `None` when `N` is no host constant. `None` for anything else.
    pub(super) fn launch_pointer(
        &mut self,
        st: &HostState,
        a: usize,
        b: usize,
    ) -> Option<(String, Option<u64>)> {
        let toks = self.toks;
        let name = |i: usize| match toks.get(i).map(|t| &t.tok) {
            Some(Tok::Ident(n)) => Some(n.clone()),
            _ => None,
        };
        let offset = |p: &mut Self, x: usize, y: usize| {
            p.host_value(st, x, y)
                .and_then(HostVal::int)
                .and_then(|n| u64::try_from(n).ok())
        };
        // A pointer value host code follows (`host_ptr`): an alias, a member, a cast, a
        // conditional, `d + N`.
        if let Some(v) = self.ptr_value(st, a, b) {
            return Some((v.alloc, v.offset));
        }
        if self.unfollowed_ptr(st, a, b).is_some() {
            return None;
        }
        match toks
            .get(a..b)?
            .iter()
            .map(|t| &t.tok)
            .collect::<Vec<_>>()
            .as_slice()
        {
            [Tok::Ident(d)] => Some((d.clone(), Some(0))),
            [Tok::Ident(_), Tok::Punct("+"), ..] if b > a + 2 => {
                let d = name(a)?;
                st.writes.contains_key(&d).then_some(())?;
                Some((d, offset(self, a + 2, b)))
            }
            [Tok::Punct("&"), Tok::Ident(_), Tok::Punct("["), .., Tok::Punct("]")] => {
                let d = name(a + 1)?;
                st.writes.contains_key(&d).then_some(())?;
                (self.closing(a + 2) == Some(b - 1)).then_some(())?;
                Some((d, offset(self, a + 3, b - 1)))
            }
            _ => None,
        }
    }
}
