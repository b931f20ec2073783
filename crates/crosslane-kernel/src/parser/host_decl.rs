//! Host declarations: `T a = e, b = f;`, `dim3 g(2), b(64);`, `dim3 b;`, `T h[N] = {…};`,
//! `void* args[] = {&a, &b};` and `std::vector<T> h(n[, v]);`, each recorded when constant so
//! that a launch reads the values host code gives (C++17 [dcl.dcl]/[dcl.decl]: one declaration
//! may hold several init-declarators, each with the declaration's type specifiers).

use super::const_eval::HostVal;
use super::host::{source_text, split_commas, HostState, MAX_FILL};
use super::host_launch_api::MAX_ARG_SLOTS;
use super::Parser;
use crate::lexer::{Tok, Token};

/// Words that start a statement which is no declaration though it reads `WORD name;`.
const NOT_DECL: &[&str] = &[
    "return",
    "delete",
    "throw",
    "goto",
    "case",
    "else",
    "using",
    "typedef",
    "co_return",
];

/// Type words of an arithmetic host scalar: a declaration of one without an initializer
/// leaves it with no value.
const SCALAR_WORDS: &[&str] = &[
    "int", "unsigned", "signed", "long", "short", "char", "float", "double", "bool", "size_t",
    "int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t",
    "const", "static", "volatile",
];

impl Parser<'_> {
    /// Tokens `from..to` with each `sizeof(h)` / `sizeof h` of a host array `h` of known bytes
    /// ([`HostState::array_bytes`]) replaced by that count ([expr.sizeof]/2: the size of an
    /// array is the total number of bytes in it); `None` when there is none.
    pub(super) fn host_sizeofs(
        &self,
        st: &HostState,
        from: usize,
        to: usize,
    ) -> Option<Vec<Token>> {
        if (st.array_bytes.is_empty() && st.arrays.is_empty()) || to > self.toks.len() || from >= to
        {
            return None;
        }
        let toks = &self.toks[from..to];
        fn word(t: &Token) -> Option<&str> {
            match &t.tok {
                Tok::Ident(n) => Some(n.as_str()),
                _ => None,
            }
        }
        let mut out: Vec<Token> = Vec::with_capacity(toks.len());
        let mut k = 0;
        let mut any = false;
        while k < toks.len() {
            let (name, skip) = match (
                word(&toks[k]),
                toks.get(k + 1).map(|t| &t.tok),
                toks.get(k + 2).and_then(word),
                toks.get(k + 3).map(|t| &t.tok),
            ) {
                (Some("sizeof"), Some(Tok::Punct("(")), Some(n), Some(Tok::Punct(")"))) => {
                    (Some(n), 4)
                }
                (Some("sizeof"), Some(Tok::Ident(n)), _, _) => (Some(n.as_str()), 2),
                _ => (None, 1),
            };
            // `h.size()` of a host vector whose length is known (C++17 [container.requirements]:
            // the number of elements, a `size_t`).
            let size = match (
                word(&toks[k]),
                toks.get(k + 1).map(|t| &t.tok),
                toks.get(k + 2).and_then(word),
            ) {
                (Some(h), Some(Tok::Punct(".")), Some("size"))
                    if matches!(toks.get(k + 3).map(|t| &t.tok), Some(Tok::Punct("(")))
                        && matches!(toks.get(k + 4).map(|t| &t.tok), Some(Tok::Punct(")")))
                        && !st.unknown.contains_key(h) =>
                {
                    st.arrays.get(h).and_then(|&n| u64::try_from(n).ok())
                }
                _ => None,
            };
            if let Some(n) = size {
                out.push(Token {
                    tok: Tok::Int {
                        value: n,
                        unsigned: true,
                        long: true,
                    },
                    end: toks[k + 4].end,
                    ..toks[k].clone()
                });
                any = true;
                k += 5;
                continue;
            }
            // `__crosslane_extent(h)`, the bound the range-for rewrite (`range_for`) reads, of a
            // host array or vector whose length is known: that length (C++17 [stmt.ranged]/1.3:
            // an array's bound, a container's `end() - begin()`, its `size()`), so `for (auto i
            // : sizes)` over `std::vector<unsigned> sizes = {1, 2, 3};` or `int s[] = {…};`
            // iterates as host code does.
            let extent = match (
                word(&toks[k]),
                toks.get(k + 1).map(|t| &t.tok),
                toks.get(k + 2).and_then(word),
                toks.get(k + 3).map(|t| &t.tok),
            ) {
                (
                    Some(super::range_for::EXTENT),
                    Some(Tok::Punct("(")),
                    Some(h),
                    Some(Tok::Punct(")")),
                ) if !st.unknown.contains_key(h) => {
                    st.arrays.get(h).and_then(|&n| u64::try_from(n).ok())
                }
                _ => None,
            };
            if let Some(n) = extent {
                out.push(Token {
                    tok: Tok::Int {
                        value: n,
                        unsigned: true,
                        long: true,
                    },
                    end: toks[k + 3].end,
                    ..toks[k].clone()
                });
                any = true;
                k += 4;
                continue;
            }
            match name.and_then(|n| st.array_bytes.get(n)) {
                Some(&bytes) => {
                    out.push(Token {
                        tok: Tok::Int {
                            value: bytes,
                            unsigned: true,
                            long: true,
                        },
                        end: toks[k + skip - 1].end,
                        ..toks[k].clone()
                    });
                    any = true;
                    k += skip;
                }
                None => {
                    out.push(toks[k].clone());
                    k += 1;
                }
            }
        }
        any.then_some(out)
    }

    /// A host declaration over tokens `k..end` (its `;` excluded): each of its declarators,
    /// `T a = e, b(…), c[N] = {…}, d;` with the type `T` of the first (C++17 [dcl.decl]/3:
    /// each init-declarator is declared with the declaration's specifiers; a `*` belongs to its
    /// declarator). A `std::vector` declaration is read by [`Self::host_vector_decl`].
    pub(super) fn host_decl(&mut self, st: &mut HostState, k: usize, end: usize) {
        if self.host_vector_decl(st, k, end) {
            return;
        }
        let parts = self.split_commas_tmpl(k, end);
        let Some(&(a0, b0)) = parts.first() else {
            return;
        };
        let Some(is_dim3) = self.host_declarator(st, k, a0, b0, None) else {
            // `I[0] = 0, J[0] = 0, J[1] = 1;`: no declaration but a comma expression of cell
            // assignments, run in order (C++17 [expr.comma]/1), each read as its own.
            let cells = parts.iter().all(|&(a, _)| {
                matches!(self.toks.get(a).map(|t| &t.tok), Some(Tok::Ident(_)))
                    && matches!(self.toks.get(a + 1).map(|t| &t.tok), Some(Tok::Punct("[")))
            });
            if cells {
                for &(a, b) in &parts[1..] {
                    self.host_declarator(st, a, a, b, None);
                }
            }
            return;
        };
        for &(a, b) in &parts[1..] {
            self.host_declarator(st, k, a, b, Some(is_dim3));
        }
        // `T *h = (T *)calloc(n, sizeof(T));`: zero cells, once the declarator has told
        // `h`'s element type ([`super::host_calloc`]).
        for &(a, b) in &parts {
            self.host_calloc(st, a, b);
        }
    }

    /// One declarator over `from..end` of the declaration starting at `k`: `name = expr`,
    /// `name(x, y, z)` of a `dim3`, `name[N] = {…}`, `name`. `later` is `Some(is_dim3)` for a
    /// declarator after the first (the type is the first's). Returns `Some(is_dim3)` when the
    /// tokens declare a name (so later declarators share its type), else `None`.
    pub(super) fn host_declarator(
        &mut self,
        st: &mut HostState,
        k: usize,
        from: usize,
        end: usize,
        later: Option<bool>,
    ) -> Option<bool> {
        let toks = self.toks;
        // The declared name: the last identifier before `=`, `(`, `{` or `[` at depth 0.
        let mut i = from;
        while i < end && matches!(toks[i].tok, Tok::Ident(_) | Tok::Punct("*" | "&" | "::")) {
            i += 1;
            // `Sum<int> s;`: a class template's instance names the type ([temp.names]/1).
            if later.is_none()
                && matches!(toks.get(i).map(|t| &t.tok), Some(Tok::Punct("<")))
                && matches!(&toks[i - 1].tok, Tok::Ident(w) if self.class_templates.contains_key(w))
            {
                match self.struct_type_at(i - 1) {
                    Some((_, after)) if after > i && after < end => i = after,
                    _ => break,
                }
            }
        }
        if i == from {
            return None;
        }
        let Tok::Ident(name) = &toks[i - 1].tok else {
            return None;
        };
        let name = name.clone();
        let keyword = matches!(&toks[k].tok, Tok::Ident(w) if NOT_DECL.contains(&w.as_str()));
        let (is_dim3, declares) = match later {
            Some(d) => (d, true),
            None => (
                toks[k..i]
                    .iter()
                    .any(|t| matches!(&t.tok, Tok::Ident(n) if n == "dim3")),
                i - k >= 2 && !keyword,
            ),
        };
        let pointer = toks[from..i]
            .iter()
            .any(|t| matches!(t.tok, Tok::Punct("*" | "&")));
        if declares {
            self.record_host_elem(k, from, i, &name);
        }
        // `S p{2};`, `dim3 b{64};`: the statement's reading stops at its `{`.
        if i == end && declares && matches!(toks.get(i).map(|t| &t.tok), Some(Tok::Punct("{"))) {
            if let Some(c) = self.closing(i) {
                self.declarator_rest(st, k, i, c + 1, name, is_dim3, declares);
                return Some(is_dim3);
            }
        }
        if i >= end {
            let scalar = later.is_some()
                || toks[k..i - 1]
                    .iter()
                    .all(|t| matches!(&t.tok, Tok::Ident(w) if SCALAR_WORDS.contains(&w.as_str())));
            if declares && !pointer {
                self.declared_bare(st, from, &name, is_dim3, scalar);
            }
            return declares.then_some(is_dim3);
        }
        self.declarator_rest(st, k, i, end, name, is_dim3, declares);
        declares.then_some(is_dim3)
    }

    /// `T name;` (or a later declarator `b` of `T a = 1, b;`): a `dim3` is (1, 1, 1), its
    /// constructor's defaults (CUDA C++ Programming Guide, "dim3": "any component left
    /// unspecified is initialized to 1"); an arithmetic scalar has no value, its value is
    /// indeterminate (C++17 [dcl.init]/12), so a launch that reads it says so.
    fn declared_bare(
        &mut self,
        st: &mut HostState,
        from: usize,
        name: &str,
        is_dim3: bool,
        scalar: bool,
    ) {
        let toks = self.toks;
        if is_dim3 {
            st.unknown.remove(name);
            st.env.insert(name.to_string(), HostVal::Dim([1, 1, 1]));
            return;
        }
        if self.host_aggregate(st, from, from + 1, name, None) {
            return;
        }
        if scalar {
            let why = format!(
                "`{name}` is declared without an initializer at line {}, so its value is \
                 indeterminate (C++17 [dcl.init]/12)",
                toks[from].line
            );
            Self::mark_unknown(st, &[name.to_string()], &why);
        }
    }

    /// `dim3 name(x, y, z)`, `dim3 name{x, y}`, `dim3 name = {x}` or `name = {x, y, z};` with the
    /// list opening at `open`: the components given, each one left out 1 (CUDA C++
    /// Programming Guide, "dim3": "any component left unspecified is initialized to 1"). A
    /// component host code gives no constant value, or a list of more than three, leaves
    /// `name` without a value (so a launch reading it says so rather than using an older one).
    fn dim3_components(&mut self, st: &mut HostState, k: usize, open: usize, name: String) {
        let toks = self.toks;
        let Some(c) = self.closing(open) else {
            return;
        };
        let parts = split_commas(toks, open + 1, c);
        let mut d = [1i128; 3];
        let mut why = (parts.len() > 3).then(|| {
            format!(
                "`{}` at line {} gives a `dim3` more than three components",
                source_text(&toks[open..=c]),
                toks[k].line
            )
        });
        for (n, &(a, b)) in parts.iter().take(3).enumerate() {
            if why.is_some() {
                break;
            }
            match self.host_value(st, a, b).and_then(HostVal::int) {
                Some(v) => d[n] = v,
                None => {
                    why = Some(self.unknown_reason(st, a, b).unwrap_or_else(|| {
                        format!(
                            "`{}` at line {} has no constant value in host code",
                            source_text(&toks[a..b]),
                            toks[k].line
                        )
                    }));
                }
            }
        }
        match why {
            Some(w) => Self::mark_unknown(st, std::slice::from_ref(&name), &w),
            None => {
                st.unknown.remove(&name);
                st.env.insert(name, HostVal::Dim(d));
            }
        }
    }

    /// The rest of a declarator whose name ends before `i` (`toks[i]` is `=`, `(`, `{` or `[`).
    #[allow(clippy::too_many_arguments)]
    fn declarator_rest(
        &mut self,
        st: &mut HostState,
        k: usize,
        i: usize,
        end: usize,
        name: String,
        is_dim3: bool,
        declares: bool,
    ) {
        let toks = self.toks;
        match &toks[i].tok {
            Tok::Punct("=") => {
                if matches!(toks.get(i + 1).map(|t| &t.tok), Some(Tok::Punct("{"))) {
                    // `dim3 g = {2, 1, 1};` and `g = {16, 8, 1};` of a `dim3` `g`: the list
                    // gives the components (copy-list-initialization of `dim3`'s constructor).
                    if is_dim3 || matches!(st.env.get(&name), Some(HostVal::Dim(_))) {
                        self.dim3_components(st, k, i + 1, name);
                        return;
                    }
                    self.host_aggregate(st, k, i, &name, Some(i + 1));
                    return;
                }
                let value = self
                    .host_value(st, i + 1, end)
                    .and_then(|v| self.to_declared(k, i, v));
                if let Some(v) = value {
                    st.unknown.remove(&name);
                    st.env.insert(name, v);
                } else {
                    let why = match self.unknown_reason(st, i + 1, end) {
                        Some(r) => r,
                        None => format!(
                            "`{}` at line {} has no constant value in host code",
                            source_text(&toks[i + 1..end]),
                            toks[k].line
                        ),
                    };
                    Self::mark_unknown(st, std::slice::from_ref(&name), &why);
                    if super::host_view::allocation(&toks[i + 1..end]) {
                        st.fresh_alloc.insert(name, why);
                    }
                }
            }
            Tok::Punct("{") if !is_dim3 && declares => {
                self.host_aggregate(st, k, i, &name, Some(i));
            }
            Tok::Punct("(" | "{") if is_dim3 && declares => {
                self.dim3_components(st, k, i, name);
            }
            // `h[i] = v;` of a filled host array: that cell changes (both constants), else the
            // array's fill is no longer known.
            Tok::Punct("[") if !declares => {
                let Some(c) = self.closing(i).filter(|&c| c < end) else {
                    return;
                };
                if self.arg_array_cell(st, &name, (i, c, end)) {
                    return;
                }
                if self.managed_cell(st, &name, k, (i, c, end)) {
                    return;
                }
                if !st.fills.contains_key(&name) {
                    // Managed memory's first cell written before any launch: a fill of it.
                    if matches!(toks.get(c + 1).map(|t| &t.tok), Some(Tok::Punct("="))) {
                        let index = self
                            .host_value(st, i + 1, c)
                            .and_then(HostVal::int)
                            .and_then(|x| usize::try_from(x).ok());
                        let value = self.host_value(st, c + 2, end).and_then(HostVal::text);
                        let known = index.is_some() && value.is_some();
                        if self.managed_first_cell(st, &name, index, value) {
                            if let Some(f) = st.fills.get_mut(&name) {
                                f.1 = toks[k].line;
                            }
                        } else if !known
                            && st
                                .mallocs
                                .get(&name)
                                .is_some_and(|m| super::host_text::host_visible(&m.1))
                        {
                            // `val[0] = rand() / RAND_MAX;` of managed memory: a cell was
                            // written with a value (or at an index) host code does not know, so
                            // its cells are unknown from here, not undefined.
                            let why = format!(
                                "`{}` at line {} writes a cell of `{name}` with no constant value",
                                source_text(&toks[k..end]),
                                toks[k].line
                            );
                            Self::mark_unknown(st, std::slice::from_ref(&name), &why);
                        }
                    }
                    return;
                }
                let plain = matches!(toks.get(c + 1).map(|t| &t.tok), Some(Tok::Punct("=")));
                let index = self.host_value(st, i + 1, c).and_then(HostVal::int);
                let value = if plain {
                    self.host_value(st, c + 2, end).and_then(HostVal::text)
                } else {
                    None
                };
                let cell = st
                    .fills
                    .get_mut(&name)
                    .zip(index.and_then(|x| usize::try_from(x).ok()));
                match (cell, value) {
                    (Some(((values, _), x)), Some(v)) if x < values.len() => values[x] = v,
                    _ => {
                        let why = format!(
                            "`{}` at line {} changes a cell of `{name}` in a way not read",
                            source_text(&toks[k..end]),
                            toks[k].line
                        );
                        Self::mark_unknown(st, std::slice::from_ref(&name), &why);
                    }
                }
            }
            Tok::Punct("[") if declares => {
                // `T name[N] = {a, b, …};`: a literal fill.
                let Some(c) = self.closing(i) else { return };
                if let Some(n) = self.host_value(st, i + 1, c).and_then(HostVal::int) {
                    // `void* args[3];`: an argument array filled by index (`host_launch_api`).
                    if c + 1 == end && super::host_launch_api::is_void_ptr_decl(toks, k, i) {
                        let slots = usize::try_from(n).unwrap_or(0).min(MAX_ARG_SLOTS);
                        st.arg_arrays.insert(name.clone(), vec![None; slots]);
                    }
                    st.arrays.insert(name.clone(), n);
                    let elem = self.declarator_elem_bytes(k, i);
                    match elem.and_then(|b| u64::try_from(n).ok()?.checked_mul(b)) {
                        Some(bytes) => st.array_bytes.insert(name.clone(), bytes),
                        None => st.array_bytes.remove(&name),
                    };
                    // `T name[R][C];`: R * C cells in row-major order ([dcl.array]/9).
                    let inner = (toks.get(c + 1).map(|t| &t.tok) == Some(&Tok::Punct("[")))
                        .then(|| self.closing(c + 1))
                        .flatten();
                    if let Some(c2) = inner {
                        let cols = self.host_value(st, c + 2, c2).and_then(HostVal::int);
                        match cols.and_then(|m| n.checked_mul(m).map(|t| (m, t))) {
                            Some((m, t)) => {
                                st.arrays.insert(name.clone(), t);
                                st.cols.insert(name.clone(), m);
                                self.host_rows_list(st, k, &name, c2 + 1, (n, m));
                            }
                            None => {
                                st.arrays.remove(&name);
                            }
                        }
                        return;
                    }
                }
                // `T name[][C] = {{…}, {…}};`: as many rows as the list gives ([dcl.array]/3),
                // a flat list's cells filling rows of C in turn.
                if c == i + 1 && toks.get(c + 1).map(|t| &t.tok) == Some(&Tok::Punct("[")) {
                    let Some(c2) = self.closing(c + 1) else {
                        return;
                    };
                    let cols = self.host_value(st, c + 2, c2).and_then(HostVal::int);
                    let list = matches!(toks.get(c2 + 1).map(|t| &t.tok), Some(Tok::Punct("=")))
                        && matches!(toks.get(c2 + 2).map(|t| &t.tok), Some(Tok::Punct("{")));
                    let Some(cc) = self.closing(c2 + 2).filter(|_| list) else {
                        return;
                    };
                    let items = split_commas(toks, c2 + 3, cc);
                    let braced = items
                        .first()
                        .is_some_and(|&(a, _)| toks[a].tok == Tok::Punct("{"));
                    let Some(m) = cols.filter(|&m| m > 0) else {
                        return;
                    };
                    let len = items.len() as i128;
                    let rows = if braced { len } else { (len + m - 1) / m };
                    if let Some(t) = rows.checked_mul(m) {
                        st.arrays.insert(name.clone(), t);
                        st.cols.insert(name.clone(), m);
                        self.host_rows_list(st, k, &name, c2 + 1, (rows, m));
                    }
                    return;
                }
                if matches!(toks.get(c + 1).map(|t| &t.tok), Some(Tok::Punct("=")))
                    && matches!(toks.get(c + 2).map(|t| &t.tok), Some(Tok::Punct("{")))
                {
                    let Some(cc) = self.closing(c + 2) else {
                        return;
                    };
                    self.record_arg_array(st, &name, c + 3, cc);
                    let mut values = Vec::new();
                    for (a, b) in split_commas(toks, c + 3, cc) {
                        match self.host_value(st, a, b).and_then(HostVal::text) {
                            Some(v) => values.push(v),
                            None => return,
                        }
                    }
                    // `T name[] = {a, b, c};`: the bound is the number of initializers
                    // (C++17 [dcl.array]/3), so `sizeof(name)` and a range-for over it read
                    // that length.
                    if c == i + 1 && values.len() <= super::host::MAX_FILL as usize {
                        let n = values.len() as i128;
                        st.arrays.insert(name.clone(), n);
                        let elem = self.declarator_elem_bytes(k, i);
                        match elem.and_then(|b| u64::try_from(n).ok()?.checked_mul(b)) {
                            Some(bytes) => st.array_bytes.insert(name.clone(), bytes),
                            None => st.array_bytes.remove(&name),
                        };
                    }
                    // Elements past the list are value-initialized: zero (C++17
                    // [dcl.init.aggr]/5.2, [dcl.init]/8), so `int h[8] = {};` is eight zeros and
                    // `{5}` is 5 then seven zeros, never a fill of the list's own making.
                    if let Some(&n) = st.arrays.get(&name) {
                        let n = usize::try_from(n)
                            .unwrap_or(0)
                            .min(super::host::MAX_FILL as usize);
                        if values.len() < n {
                            values.resize(n, "0".to_string());
                        }
                    }
                    st.fills.insert(name, (values, toks[k].line));
                }
            }
            _ => {}
        }
    }

    /// `T name[R][C] = {{a, b, c}, {d, e, f}};` whose `= {` is at `eq`: the array's fill, its
    /// cells in row-major order ([dcl.array]/9). Each braced row gives its row's first cells, the
    /// rest of the row zero; a list of plain values (`= {1, 2, 3, 4}`, brace elision,
    /// [dcl.init.aggr]/15) gives the cells in order; cells past the list are zero
    /// ([dcl.init.aggr]/8). A list of both forms, a row longer than `C`, or a value not read
    /// leaves the array unfilled (a copy of it then says so).
    fn host_rows_list(
        &mut self,
        st: &mut HostState,
        k: usize,
        name: &str,
        eq: usize,
        (rows, cols): (i128, i128),
    ) {
        let toks = self.toks;
        let tok = |i: usize| toks.get(i).map(|t| &t.tok);
        if !matches!(tok(eq), Some(Tok::Punct("=")))
            || !matches!(tok(eq + 1), Some(Tok::Punct("{")))
        {
            return;
        }
        let Some(cc) = self.closing(eq + 1) else {
            return;
        };
        let (Ok(rows), Ok(cols)) = (usize::try_from(rows), usize::try_from(cols)) else {
            return;
        };
        let total = rows.saturating_mul(cols);
        if total == 0 || total > MAX_FILL as usize {
            return;
        }
        let items = split_commas(toks, eq + 2, cc);
        let braced = |&(a, _): &(usize, usize)| matches!(tok(a), Some(Tok::Punct("{")));
        let mut values = Vec::with_capacity(total);
        if items.iter().all(braced) {
            if items.len() > rows {
                return;
            }
            for &(a, b) in &items {
                if self.closing(a) != Some(b - 1) {
                    return;
                }
                let row = split_commas(toks, a + 1, b - 1);
                if row.len() > cols {
                    return;
                }
                for &(x, y) in &row {
                    match self.host_value(st, x, y).and_then(HostVal::text) {
                        Some(v) => values.push(v),
                        None => return,
                    }
                }
                values.resize(values.len() + cols - row.len(), "0".to_string());
            }
        } else if !items.iter().any(braced) {
            if items.len() > total {
                return;
            }
            for &(x, y) in &items {
                match self.host_value(st, x, y).and_then(HostVal::text) {
                    Some(v) => values.push(v),
                    None => return,
                }
            }
        } else {
            return;
        }
        values.resize(total, "0".to_string());
        st.fills.insert(name.to_string(), (values, toks[k].line));
    }

    /// `v` converted to the type of the declaration starting at `k` whose declarator's name ends
    /// before `i` (`unsigned u = -1;` holds 4294967295, `float f = 0.1;` the nearest `float`,
    /// C++17 [dcl.init]/17.9: the initializer converted to the declared type); as it is when
    /// the type is no arithmetic one the reading knows, or the declarator is a pointer or a
    /// reference. `None` when the conversion is undefined.
    pub(super) fn to_declared(&self, k: usize, i: usize, v: HostVal) -> Option<HostVal> {
        let toks = self.toks;
        if i >= 2 && matches!(toks[i - 2].tok, Tok::Punct("*" | "&" | "&&")) {
            return Some(v);
        }
        let words: Vec<&str> = toks[k..i.saturating_sub(1).max(k)]
            .iter()
            .map_while(|t| match &t.tok {
                Tok::Ident(w) => Some(w.as_str()),
                Tok::Punct("::") => Some("std"),
                _ => None,
            })
            .collect();
        match super::const_eval::decl_scalar(&words) {
            Some(s) => v.convert(s),
            None => Some(v),
        }
    }

    /// `std::vector<T> name(n);` (n value-initialized elements: 0, C++17 [vector.cons]/3,
    /// [dcl.init]/8), `std::vector<T> name(n, v);` (n copies of `v` converted to `T`,
    /// [vector.cons]/4) or `std::vector<T> name = {a, b, …};` / `name{a, b, …}` (the list's
    /// elements, [vector.cons]/8 initializer_list constructor): a host array with that fill when
    /// it is constant (at most [`MAX_FILL`] cells). Each declarator of `std::vector<T> a(n, v),
    /// b(m, w);` is read alike (C++17 [dcl.decl]/3). Returns whether the tokens are a
    /// `std::vector` declaration.
    pub(super) fn host_vector_decl(&mut self, st: &mut HostState, k: usize, end: usize) -> bool {
        let toks = self.toks;
        let word = |i: usize| toks.get(i).map(|t| &t.tok);
        let vector_at = |i: usize| {
            matches!(
                (word(i), word(i + 1), word(i + 2), word(i + 3)),
                (Some(Tok::Ident(s)), Some(Tok::Punct("::")), Some(Tok::Ident(v)), Some(Tok::Punct("<")))
                    if s == "std" && v == "vector"
            )
        };
        // `auto name = std::vector<T>(n, v);` ([dcl.spec.auto]/4: the variable's type is the
        // initializer's; [expr.type.conv]/2: the explicit conversion constructs that vector):
        // read as `std::vector<T> name(n, v);`.
        if matches!((word(k), word(k + 1), word(k + 2)), (Some(Tok::Ident(a)), Some(Tok::Ident(_)), Some(Tok::Punct("="))) if a == "auto")
            && vector_at(k + 3)
        {
            let Some(c) = (k + 7..end).find(|&i| matches!(toks[i].tok, Tok::Punct(">"))) else {
                return true;
            };
            let float_elem = toks[k + 7..c].iter().any(
                |t| matches!(&t.tok, Tok::Ident(w) if matches!(w.as_str(), "float" | "double")),
            );
            if let (Some(v), Some(Tok::Ident(n))) = (
                self.host_type(k + 7, c).filter(|v| v.lanes <= 1),
                word(k + 1),
            ) {
                self.host_scalars.insert(n.clone(), v.scalar);
            }
            let paren = matches!(word(c + 1), Some(Tok::Punct("(")))
                && self.closing(c + 1).is_some_and(|e| e + 1 == end);
            if paren {
                self.vector_declarator(st, k, k + 1, end, float_elem, Some(c + 1));
            } else if let Some(Tok::Ident(n)) = word(k + 1) {
                let why = format!(
                    "`{}` at line {} is not read as a fill",
                    source_text(&toks[k..end]),
                    toks[k].line
                );
                Self::mark_unknown(st, std::slice::from_ref(n), &why);
            }
            return true;
        }
        if !vector_at(k) {
            return false;
        }
        let Some(c) = (k + 4..end).find(|&i| matches!(toks[i].tok, Tok::Punct(">"))) else {
            return true;
        };
        let float_elem = toks[k + 4..c]
            .iter()
            .any(|t| matches!(&t.tok, Tok::Ident(w) if matches!(w.as_str(), "float" | "double")));
        // The element type, for the cells `push_back` / `resize` / `h[i] = v` change
        // (`host_cells`).
        let elem = self.host_type(k + 4, c).filter(|v| v.lanes <= 1);
        for (a, b) in split_commas(toks, c + 1, end) {
            if let (Some(v), Some(Tok::Ident(n))) = (elem, word(a)) {
                self.host_scalars.insert(n.clone(), v.scalar);
            }
            self.vector_declarator(st, k, a, b, float_elem, None);
        }
        true
    }

    /// One declarator `a..b` of a `std::vector` declaration starting at `k` (see
    /// [`Self::host_vector_decl`]); `args_at`: the `(` of the constructor's arguments when
    /// they do not follow the name (`auto h = std::vector<T>(n);`).
    fn vector_declarator(
        &mut self,
        st: &mut HostState,
        k: usize,
        a: usize,
        b: usize,
        float_elem: bool,
        args_at: Option<usize>,
    ) {
        let toks = self.toks;
        let word = |i: usize| toks.get(i).map(|t| &t.tok);
        let Some(Tok::Ident(name)) = word(a) else {
            return;
        };
        let name = name.clone();
        st.fills.remove(&name);
        // The value converted to the element type ([conv.fpint]/1: a float to an integer
        // truncates toward zero).
        let convert = |v: Option<HostVal>| match v {
            Some(v @ (HostVal::Float(_) | HostVal::F32(_))) if !float_elem => {
                v.convert(crate::types::Scalar::I64).and_then(HostVal::text)
            }
            Some(v) => v.text(),
            None => None,
        };
        let not_read = |st: &mut HostState| {
            let why = format!(
                "`{}` at line {} is not read as a fill",
                source_text(&toks[k..b]),
                toks[k].line
            );
            Self::mark_unknown(st, std::slice::from_ref(&name), &why);
        };
        let open = match (word(a + 1), word(a + 2)) {
            _ if args_at.is_some() => args_at.map(|o| (o, false)),
            (Some(Tok::Punct("(")), _) => Some((a + 1, false)),
            (Some(Tok::Punct("{")), _) => Some((a + 1, true)),
            (Some(Tok::Punct("=")), Some(Tok::Punct("{"))) => Some((a + 2, true)),
            _ => None,
        };
        let Some((open, list)) = open else {
            if a + 1 == b {
                // `std::vector<T> h;`: empty.
                st.unknown.remove(&name);
                st.arrays.insert(name.clone(), 0);
                st.fills.insert(name, (Vec::new(), toks[k].line));
            } else {
                not_read(st);
            }
            return;
        };
        // `h = {…}` ends the statement's reading at its `{` (`b == open`).
        let Some(close) = self.closing(open).filter(|&c| c < b || open == b) else {
            return not_read(st);
        };
        let parts = split_commas(toks, open + 1, close);
        if list {
            let mut values = Vec::with_capacity(parts.len());
            for &(x, y) in &parts {
                let v = self.host_value(st, x, y);
                match convert(v) {
                    Some(v) if values.len() < MAX_FILL as usize => values.push(v),
                    _ => return not_read(st),
                }
            }
            st.unknown.remove(&name);
            st.arrays.insert(name.clone(), values.len() as i128);
            st.fills.insert(name, (values, toks[k].line));
            return;
        }
        let n = parts
            .first()
            .and_then(|&(x, y)| self.host_value(st, x, y))
            .and_then(HostVal::int);
        let Some(n) = n else {
            return not_read(st);
        };
        st.arrays.insert(name.clone(), n);
        let value = match parts.get(1) {
            None => Some(HostVal::Int(0)),
            Some(&(x, y)) => self.host_value(st, x, y),
        };
        match convert(value) {
            Some(v) if parts.len() <= 2 && (0..=MAX_FILL).contains(&n) => {
                st.unknown.remove(&name);
                let cells = usize::try_from(n).unwrap_or(0);
                st.fills.insert(name, (vec![v; cells], toks[k].line));
            }
            _ => not_read(st),
        }
    }

    /// `void* args[] = {&a, &b, …};` (the argument array `cudaLaunchKernel` takes, CUDA Runtime
    /// API, cudaLaunchKernel: "an array of pointers to the kernel's arguments"): each element's
    /// named variable (its token range), kept by the array's name. Other lists are left alone.
    fn record_arg_array(&mut self, st: &mut HostState, name: &str, from: usize, to: usize) {
        let toks = self.toks;
        let mut names = Vec::new();
        for (a, b) in split_commas(toks, from, to) {
            match super::host_launch_api::arg_address(toks, a, b) {
                Some(r) => names.push(Some(r)),
                None => return,
            }
        }
        if !names.is_empty() {
            st.arg_arrays.insert(name.to_string(), names);
        }
    }

    /// A host variable `name` of a struct type (the type's name just before index `at`, the
    /// declaration starting at `k`): `S p = {20, 0.5f};` or `S p{20, 0.5f};` (aggregate
    /// initialization, C++17 [dcl.init.aggr]/3: the members in declaration order; a member
    /// the list leaves out takes its default member initializer, else is value-initialized to
    /// 0, [dcl.init.aggr]/8), or `S p;` (`list` `None`: each member with a default member
    /// initializer takes it, the others have no value, [dcl.init]/12). Each scalar member's
    /// value is kept under `name.member`, as `p.n = 20;` keeps it. Returns whether the type is
    /// a struct the source defines.
    pub(super) fn host_aggregate(
        &mut self,
        st: &mut HostState,
        k: usize,
        at: usize,
        name: &str,
        list: Option<usize>,
    ) -> bool {
        let toks = self.toks;
        // `Sum<int> s;`: the class template's instance; else the struct named last.
        let j = (k..at).find(|&j| {
            matches!(&toks[j].tok, Tok::Ident(w) if self.class_templates.contains_key(w))
                && matches!(toks.get(j + 1).map(|t| &t.tok), Some(Tok::Punct("<")))
        });
        let ty = j
            .and_then(|j| self.struct_type_at(j))
            .map(|(s, _)| s)
            .or_else(|| {
                toks[k..at].iter().rev().find_map(|t| match &t.tok {
                    Tok::Ident(n) if self.structs.contains_key(n) => Some(n.clone()),
                    _ => None,
                })
            });
        let Some(ty) = ty else {
            return false;
        };
        self.host_aggregate_of(st, &ty, k, name, list)
    }

    /// [`Self::host_aggregate`] of a host variable `name` of struct `ty` (the declaration
    /// starting at `k`, the list opening at `list`).
    pub(super) fn host_aggregate_of(
        &mut self,
        st: &mut HostState,
        ty: &str,
        k: usize,
        name: &str,
        list: Option<usize>,
    ) -> bool {
        let toks = self.toks;
        let Some(fields) = self.structs.get(ty).map(|d| d.fields.clone()) else {
            return false;
        };
        let parts = match list.and_then(|o| self.closing(o).map(|c| (o, c))) {
            Some((o, c)) => Some(split_commas(toks, o + 1, c)),
            None if list.is_some() => return true,
            None => None,
        };
        let env = st.env.clone();
        for (n, f) in fields.iter().enumerate() {
            // `int dims[3];`: a host array `p.dims` of its declared length, which `p.dims[K] =
            // v;` fills cell by cell (`host_recur`) and a launch passing `p` by value copies
            // ([class.copy.ctor]/14, `structs/by_value.rs`). A braced list gives its cells
            // ([`Parser::host_array_part`]); an elided-brace part is not read: its cells stay
            // undefined.
            if let super::structs::FieldTy::Arr(v, count) = f.ty {
                let key = format!("{name}.{}", f.name);
                st.fills.remove(&key);
                let listed = match parts.as_ref().map(|p| p.get(n)) {
                    None => Some(None),
                    // Left out of the list (`P p = {};`): value-initialized, every element 0
                    // ([dcl.init.aggr]/8, [dcl.init]/8).
                    Some(None) => Some(Some(Vec::new())),
                    // Its own braced list (`{5, {1, 2, 3, 4}, 0.5f}`): the elements in order,
                    // the rest 0 ([dcl.init.aggr]/3, /8).
                    Some(Some(&(a, b))) => self.host_array_part(st, a, b, v.scalar, count),
                };
                match listed {
                    Some(cells) if v.lanes <= 1 => {
                        st.arrays.insert(key.clone(), i128::from(count));
                        self.host_scalars.insert(key.clone(), v.scalar);
                        if let (Some(mut cells), Some(zero)) = (
                            cells,
                            HostVal::Int(0).convert(v.scalar).and_then(HostVal::text),
                        ) {
                            cells.resize(count as usize, zero);
                            st.fills.insert(key, (cells, toks[k].line));
                        }
                    }
                    _ => {
                        st.arrays.remove(&key);
                        self.host_scalars.remove(&key);
                    }
                }
                continue;
            }
            let super::structs::FieldTy::Val(v) = f.ty else {
                continue;
            };
            if v.lanes > 1 {
                continue;
            }
            let key = format!("{name}.{}", f.name);
            // Each member is initialized as a variable of its own type is ([dcl.init.aggr]/4.2:
            // copy-initialized from its part of the list; /8: a member the list leaves out is
            // value-initialized, a `float`'s zero being `0.0f`), so a later `p.scale = 0.5f;`
            // keeps the member's type, not the literal `0`'s.
            let value = match parts.as_ref().map(|p| p.get(n)) {
                Some(Some(&(a, b))) => self.host_value(st, a, b),
                // Left out of the list: its default member initializer, else 0.
                Some(None) => match &f.default {
                    Some(e) => super::const_eval::const_eval(e, &env),
                    None => Some(HostVal::Int(0)),
                },
                None => f
                    .default
                    .as_ref()
                    .and_then(|e| super::const_eval::const_eval(e, &env)),
            };
            match value.and_then(|x| x.convert(v.scalar)) {
                Some(x) => {
                    st.unknown.remove(&key);
                    st.env.insert(key, x);
                }
                None => {
                    st.env.remove(&key);
                }
            }
        }
        true
    }

    /// The cells of an array member's part `a..b` of an aggregate's braced list when it is a
    /// braced list of host constants no longer than the member (`{1, 2, 3, 4}` of `int
    /// ne[4]`), each converted to the element type `scalar` ([dcl.init.aggr]/4.2); `None`
    /// otherwise (brace elision or a value not known here: the cells stay undefined).
    fn host_array_part(
        &mut self,
        st: &HostState,
        a: usize,
        b: usize,
        scalar: crate::types::Scalar,
        count: u32,
    ) -> Option<Option<Vec<String>>> {
        let toks = self.toks;
        if !matches!(toks.get(a).map(|t| &t.tok), Some(Tok::Punct("{")))
            || self.closing(a) != Some(b.checked_sub(1)?)
        {
            return None;
        }
        let mut cells = Vec::new();
        for (x, y) in split_commas(toks, a + 1, b - 1) {
            if x >= y {
                continue;
            }
            cells.push(self.host_value(st, x, y)?.convert(scalar)?.text()?);
        }
        (cells.len() <= count as usize).then_some(Some(cells))
    }
}

impl Parser<'_> {
    /// The bytes of one element of the host array declared by the declarator whose name is
    /// the token before `i`, in the declaration starting at `k`: the declaration's type words
    /// with the declarator's own `*`s (C++17 [dcl.decl]/3: every init-declarator takes the
    /// declaration's specifiers, so `hc` of `float ha[4], hc[10];` is a `float[10]`).
    fn declarator_elem_bytes(&self, k: usize, i: usize) -> Option<u64> {
        let toks = self.toks;
        // The declarator's start: back from its name over `*`, `&`, `::` and names, to the
        // `,` ending the previous declarator (or the declaration's start).
        let mut from = i - 1;
        while from > k && !matches!(toks[from - 1].tok, Tok::Punct(",")) {
            from -= 1;
        }
        if from == k {
            return host_elem_bytes(&toks[k..i - 1]);
        }
        // A later declarator: the declaration's type words are the first declarator's words
        // before its `*` or its name.
        let mut end = k;
        while end < from && matches!(toks[end].tok, Tok::Ident(_) | Tok::Punct("::")) {
            end += 1;
        }
        if !matches!(toks.get(end).map(|t| &t.tok), Some(Tok::Punct("*" | "&"))) {
            end = end.saturating_sub(1);
        }
        if end <= k {
            return None;
        }
        let mut words = toks[k..end].to_vec();
        words.extend_from_slice(&toks[from..i - 1]);
        host_elem_bytes(&words)
    }
}

/// The bytes of one element of a host array whose declaration's type words are `words`
/// (`int`, `unsigned char`, `double`, `half`), on the LP64 targets CUDA and HIP compile host
/// code for (`long` 8 bytes); `None` for a pointer, a struct or a type not listed.
fn host_elem_bytes(words: &[crate::lexer::Token]) -> Option<u64> {
    let mut bytes = None;
    for t in words {
        match &t.tok {
            Tok::Ident(w) => match w.as_str() {
                "const" | "static" | "volatile" | "unsigned" | "signed" => {}
                "char" | "bool" | "int8_t" | "uint8_t" => bytes = Some(1),
                "short" | "int16_t" | "uint16_t" => bytes = Some(2),
                // The 16-bit floats and their pairs (CUDA Math API, "Half Precision" and
                // "Bfloat16 Precision" types: 2 and 4 bytes; HIP's the same).
                "half" | "__half" | "__nv_bfloat16" | "nv_bfloat16" | "__hip_bfloat16"
                | "hip_bfloat16" | "__bf16" | "__maca_bfloat16" | "maca_bfloat16" => {
                    bytes = Some(2)
                }
                "half2" | "__half2" | "__nv_bfloat162" | "nv_bfloat162" | "__hip_bfloat162"
                | "__maca_bfloat162" | "maca_bfloat162" => bytes = Some(4),
                "int" if bytes.is_none() => bytes = Some(4),
                "int" => {}
                "float" | "int32_t" | "uint32_t" => bytes = Some(4),
                "double" | "long" | "size_t" | "int64_t" | "uint64_t" => bytes = Some(8),
                _ => return None,
            },
            _ => return None,
        }
    }
    bytes
}
