//! A template kernel launched from host code (`k<T, N><<<g, b>>>(…)`,
//! `hipLaunchKernelGGL(k<T, N>, …)`): its explicit template arguments read as host constants
//! and types, and the parameters after them deduced from the launch's arguments as a call
//! deduces them (C++17 [temp.deduct.call]/1: a template parameter that no explicit argument
//! gives is deduced from the type of the argument of each function parameter whose type names
//! it; [temp.arg.explicit]/4: trailing arguments that can be deduced may be omitted, so
//! `scale<4><<<1, 32>>>(d, 1)` with `template <int N, typename I> __global__ void scale(I* d,
//! int n)` deduces `I = int` from `int* d`). A launch whose instance cannot be read is said
//! (a warning naming it), never dropped silently.

use super::const_eval::{HostVal, IntTy};
use super::host::{source_text, split_commas, HostState};
use super::templates::TArg;
use super::Parser;
use crate::ast::Span;
use crate::lexer::{Tok, Token};
use crate::types::{Scalar, ValTy};
use crosslane_core::result::Level;

/// The rule the warning of an unread template launch cites; the "no function to run" error
/// repeats those warnings ([`super::entry_list`]).
pub(super) const UNREAD_LAUNCH_RULE: &str = "C++17 [temp.deduct.call]";

/// Most tokens looked back over for a host variable's declaration (its type word).
const MAX_DECL_LOOKBACK: usize = 4096;

impl Parser<'_> {
    /// `k<T, N>` at `k` naming a kernel template, instantiated with host constants and types
    /// and, for the parameters after those given, what the launch's arguments deduce
    /// (`launch`: their token ranges; empty when not known here, then read from the `<<<…>>>(…)`
    /// after the list). The instance's name and the index after its `>`; `None` when `k` is no
    /// template or an argument is neither (`TestType` of a test framework), and then, when
    /// the tokens hold a launch, a warning names it.
    pub(super) fn host_template_kernel(
        &mut self,
        st: &HostState,
        k: usize,
        close: usize,
        launch: &[(usize, usize)],
    ) -> Option<(String, usize)> {
        let toks = self.toks;
        let tok = |i: usize| toks.get(i).map(|t| &t.tok);
        // `k<<<g, b>>>(src, dst, n)` of a kernel template: every parameter deduced from the
        // launch's arguments ([temp.arg.explicit]/4: all may be omitted when all deduce),
        // llama.cpp's `cumsum_kernel<<<…>>>(src, dst, …)` inside `cumsum_cuda<T>`.
        if let (Some(Tok::Ident(name)), Some(Tok::Punct("<<")), Some(Tok::Punct("<"))) =
            (tok(k), tok(k + 1), tok(k + 2))
        {
            if !self.templates.contains_key(name) {
                return None;
            }
            let name = name.clone();
            let span = Span {
                line: toks[k].line,
                col: toks[k].col,
            };
            let ranges = self.launch_arg_ranges(k + 1, close, launch);
            return match self.instantiate_launch(st, &name, Vec::new(), &ranges, span) {
                Ok(m) => Some((m, k + 1)),
                Err(e) => {
                    self.warn_unread_launch(k, close, &name, Some(e));
                    None
                }
            };
        }
        let (Some(Tok::Ident(name)), Some(Tok::Punct("<"))) = (tok(k), tok(k + 1)) else {
            return None;
        };
        if !self.templates.contains_key(name) {
            return None;
        }
        let name = name.clone();
        let span = Span {
            line: toks[k].line,
            col: toks[k].col,
        };
        let mut depth = 0usize;
        let list_close = (k + 1..close).find(|&i| {
            match tok(i) {
                Some(Tok::Punct("<")) => depth += 1,
                Some(Tok::Punct(">")) => {
                    depth -= 1;
                    return depth == 0;
                }
                _ => {}
            }
            false
        });
        let mut why = None;
        if let Some(c) = list_close {
            if let Some(args) = self.host_kernel_targs(st, k + 2, c) {
                let launch = self.launch_arg_ranges(c + 1, close, launch);
                match self.instantiate_launch(st, &name, args, &launch, span) {
                    Ok(m) => return Some((m, c + 1)),
                    Err(e) => why = Some(e),
                }
            }
        }
        // Arguments the host reading does not know (a function, a struct, a class
        // template, a list closed by `>>`): read as any template argument list is.
        let save = (self.pos, self.gt_owed);
        // A bare name host code gives a constant value (`constexpr unsigned int block_size =
        // 256;` in `main`, rocPRIM's tests' `reduce_kernel<block_size, …, rocprim::plus<int>>`)
        // reads as that constant here, its declaration being in host code the list does not see.
        let bound = self.bind_host_names(st, k + 2, close);
        self.pos = k + 1;
        let read = self.template_args();
        for (n, old) in bound {
            match old {
                Some(e) => self.consts.insert(n, e),
                None => self.consts.remove(&n),
            };
        }
        let after = self.pos;
        self.pos = save.0;
        self.gt_owed = save.1;
        match read {
            Ok(args) => {
                let launch = self.launch_arg_ranges(after, close, launch);
                match self.instantiate_launch(st, &name, args, &launch, span) {
                    Ok(m) => return Some((m, after)),
                    Err(e) => why = why.or(Some(e)),
                }
            }
            Err(e) => why = why.or(Some(e.message)),
        }
        self.warn_unread_launch(k, close, &name, why);
        None
    }

    /// A kernel template's argument list `from..to` (inside its `<…>`) read with host code's
    /// values: each argument a host constant, else a type (the call's template parameters as
    /// their bound types); `None` when one is neither.
    pub(super) fn host_kernel_targs(
        &mut self,
        st: &HostState,
        from: usize,
        to: usize,
    ) -> Option<Vec<TArg>> {
        let toks = self.toks;
        let mut args = Vec::new();
        for (a, b) in split_commas(toks, from, to) {
            if let Some(n) = self.host_value(st, a, b).and_then(HostVal::int) {
                args.push(TArg::Value(n));
                continue;
            }
            let mut slice: Vec<Token> = toks[a..b].to_vec();
            slice.push(Token {
                tok: Tok::Eof,
                ..toks[b - 1].clone()
            });
            let mut sub = Parser::new(&slice, self.comments, self.max_depth);
            sub.aliases = std::mem::take(&mut self.aliases);
            let ty = sub.base_type();
            self.aliases = std::mem::take(&mut sub.aliases);
            match ty {
                Ok(crate::types::Ty::Val(v)) => args.push(TArg::Type(v)),
                _ => return None,
            }
        }
        Some(args)
    }

    /// Instantiates template `name` with explicit arguments `given` and, when those do not
    /// bind every parameter, the ones deduced from the launch's arguments `launch`.
    ///
    /// # Errors
    /// Why no instance is read (the message of the call's binding).
    pub(super) fn instantiate_launch(
        &mut self,
        st: &HostState,
        name: &str,
        given: Vec<TArg>,
        launch: &[(usize, usize)],
        at: Span,
    ) -> Result<String, String> {
        // Kernel templates overloaded by their parameter count (rocPRIM's tests'
        // `warp_reduce_sum_kernel(in, out)` and `(in, out, valid)`): the launch's argument
        // count picks the one whose parameters take that many ([over.match.viable]/2).
        let key = self
            .overload_by_arity(name, launch.len())
            .or_else(|| self.overload_by_substitution(name, launch.len(), &given, at));
        let name = key.as_deref().unwrap_or(name);
        let inst = |p: &mut Self, args: Vec<TArg>| match key {
            // The overload is chosen: bound and registered as a call of it would be.
            Some(_) => p
                .bind_call(name, args, &[], at)
                .and_then(|(params, bound)| p.register_instance(name, &params, bound, at)),
            None => p.instantiate_call(name, args, &[], at),
        };
        let first = match inst(self, given.clone()) {
            Ok(m) => return Ok(m),
            Err(e) => e.message,
        };
        let deduced = self.deduce_from_launch(st, name, &given, launch);
        if deduced.len() == given.len() {
            return Err(first);
        }
        inst(self, deduced).map_err(|e| e.message)
    }

    /// `given` followed by the template parameters after it that the launch's arguments
    /// deduce, in order, stopping at the first one they do not (a default, or the binding's
    /// error, then takes over). A type parameter is deduced from an argument of a function
    /// parameter whose type is it (`T v`: the argument's type, [temp.deduct.call]/2-4 with
    /// top-level cv-qualifiers and references dropped) or a pointer to it (`T* p`: the
    /// pointee of a host pointer whose declaration is read, [temp.deduct.call]/4.2).
    pub(super) fn deduce_from_launch(
        &mut self,
        st: &HostState,
        name: &str,
        given: &[TArg],
        launch: &[(usize, usize)],
    ) -> Vec<TArg> {
        let mut out = given.to_vec();
        let Some(t) = self.templates.get(name) else {
            return out;
        };
        let params = t.params().to_vec();
        let (from, ptr) = t.deduce_sources();
        let (from, ptr) = (from.to_vec(), ptr.to_vec());
        for p in params.iter().skip(given.len()) {
            if p.pack || p.value.is_some() {
                break;
            }
            let Some(i) = from
                .iter()
                .position(|d| d.as_deref() == Some(p.name.as_str()))
            else {
                break;
            };
            let Some(&(a, b)) = launch.get(i) else {
                break;
            };
            let arg = if ptr.get(i) == Some(&true) {
                self.host_pointee(a, b)
            } else {
                self.host_arg_type(st, a, b)
                    .map(TArg::Type)
                    .or_else(|| self.host_class_arg(a, b).map(TArg::Struct))
            };
            match arg {
                Some(arg) => out.push(arg),
                None => break,
            }
        }
        out
    }

    /// The class type of host argument `a..b` when it is one the source defines: a
    /// functional-cast or braced temporary (`Sum<int>()`, `Sum<int>{}`, `Max{}`: a prvalue of
    /// that type, C++17 [expr.type.conv]/2) or a host variable declared of it (`Sum<int> s;`,
    /// `const Max m{};`). A type parameter given by value is deduced as that class
    /// ([temp.deduct.call]/2-4: the argument's type, cv-qualifiers and references dropped).
    fn host_class_arg(&mut self, a: usize, b: usize) -> Option<String> {
        let toks = self.toks;
        if b == a + 1 {
            if let Tok::Ident(n) = &toks[a].tok {
                return self.host_class_var(n, a);
            }
            return None;
        }
        let (s, after) = self.struct_type_at(a)?;
        let open = matches!(toks.get(after).map(|t| &t.tok), Some(Tok::Punct("(" | "{")));
        (open && self.closing(after) == Some(b - 1)).then_some(s)
    }

    /// The class of host variable `n` used at `at`: its nearest declaration before `at`
    /// (`Sum<int> s;`, `Sum<int> s{};`, `Sum<int> s = …;`, `const Sum<int>& s = …;`) names a
    /// struct or a class template's instance the source defines.
    fn host_class_var(&mut self, n: &str, at: usize) -> Option<String> {
        let toks = self.toks;
        let low = at.saturating_sub(MAX_DECL_LOOKBACK);
        for i in (low + 1..at).rev() {
            if !matches!(&toks[i].tok, Tok::Ident(w) if w == n)
                || !matches!(
                    toks.get(i + 1).map(|t| &t.tok),
                    Some(Tok::Punct("=" | ";" | "{" | "(" | ","))
                )
            {
                continue;
            }
            // The declaration's start: after the statement before it.
            let mut start = i;
            while start > low && !matches!(toks[start - 1].tok, Tok::Punct(";" | "{" | "}" | ")")) {
                start -= 1;
            }
            while matches!(&toks[start].tok, Tok::Ident(w) if matches!(w.as_str(), "const" | "static" | "constexpr" | "volatile"))
            {
                start += 1;
            }
            if start >= i {
                continue;
            }
            let Some((s, mut after)) = self.struct_type_at(start) else {
                // The nearest declaration of the name is of another type.
                return None;
            };
            while matches!(&toks[after].tok, Tok::Ident(w) if w == "const")
                || matches!(toks[after].tok, Tok::Punct("&"))
            {
                after += 1;
            }
            return (after == i).then_some(s);
        }
        None
    }

    /// The members of class temporary `a..b` given by value to a launch (`Sum<int>()`,
    /// `Sum<int>{}`, `P{4, 2}`) of a struct with no user-provided constructor: value- or
    /// aggregate-initialized (C++17 [dcl.init]/8: `T()` zero-initializes, then each member
    /// with a default member initializer takes it; [dcl.init.aggr]/3, /8 for a braced list),
    /// as a host variable so declared is ([`Self::host_aggregate_of`]). Each scalar member
    /// path and its value; `None` for any other argument.
    pub(super) fn host_temp_fields(
        &mut self,
        st: &HostState,
        a: usize,
        b: usize,
    ) -> Option<Vec<(String, String)>> {
        let toks = self.toks;
        let (s, open) = self.struct_type_at(a)?;
        let paren = match toks.get(open).map(|t| &t.tok) {
            Some(Tok::Punct("(")) => true,
            Some(Tok::Punct("{")) => false,
            _ => return None,
        };
        if self.closing(open) != Some(b - 1)
            || (paren && b - 1 > open + 1)
            || self.structs.get(&s).is_none_or(|d| !d.ctors.is_empty())
        {
            return None;
        }
        const TEMP: &str = "__launch_temporary";
        let mut scratch = st.clone();
        if !self.host_aggregate_of(&mut scratch, &s, a, TEMP, Some(open)) {
            return None;
        }
        let prefix = format!("{TEMP}.");
        let mut fields: Vec<(String, String)> = scratch
            .env
            .iter()
            .filter_map(|(n, v)| Some((n.strip_prefix(&prefix)?.to_string(), v.text()?)))
            .collect();
        fields.sort();
        Some(fields)
    }

    /// The struct type spelled at token `at` (`Sum<int>`, `Max`), read as a type is, and the
    /// index after it; the parser's position is kept.
    pub(super) fn struct_type_at(&mut self, at: usize) -> Option<(String, usize)> {
        let save = (self.pos, self.gt_owed);
        self.pos = at;
        self.gt_owed = None;
        let r = self.struct_type();
        let after = self.pos;
        self.pos = save.0;
        self.gt_owed = save.1;
        Some((r.ok()??, after))
    }

    /// The element type of host pointer or array argument `a..b` (`d`, `d + 16`): the type
    /// its declaration gives it (`int* d;`, `S h[4];`).
    fn host_pointee(&self, a: usize, b: usize) -> Option<TArg> {
        let Some(Tok::Ident(n)) = self.toks.get(a).map(|t| &t.tok) else {
            return None;
        };
        if b > a + 1 && !matches!(self.toks[a + 1].tok, Tok::Punct("+" | "-")) {
            return None;
        }
        if let Some(v) = self.declared_pointee(a) {
            return Some(TArg::Type(v));
        }
        if let Some(&s) = self.host_scalars.get(n) {
            return Some(TArg::Type(ValTy::scalar(s)));
        }
        self.host_struct_of.get(n).cloned().map(TArg::Struct)
    }

    /// The pointee of the pointer named at `at` as its nearest declaration before it spells it
    /// (`IndType* topk_indices` in the parameter list of the host function template read now,
    /// `const float* x;`), the type words read with the aliases bound now (a host function
    /// template's type parameters, bound at its call: vLLM's `moeTopK<TPB><<<…>>>(…,
    /// topk_indices, …)` deduces `IndType` from it, C++17 [temp.deduct.call]/4.2). `None` for a
    /// pointee that is no value type, or no such declaration.
    fn declared_pointee(&self, at: usize) -> Option<ValTy> {
        let toks = self.toks;
        let Tok::Ident(n) = &toks[at].tok else {
            return None;
        };
        let low = at.saturating_sub(MAX_DECL_LOOKBACK);
        // The declarator `* [qualifiers] n` followed by `,`, `)`, `;` or `=`.
        let star = (low..at).rev().find_map(|i| {
            let named = matches!(&toks[i].tok, Tok::Ident(w) if w == n)
                && matches!(
                    toks.get(i + 1).map(|t| &t.tok),
                    Some(Tok::Punct("," | ")" | ";" | "="))
                );
            if !named {
                return None;
            }
            let mut j = i.checked_sub(1)?;
            while matches!(&toks[j].tok, Tok::Ident(q) if q == "__restrict__" || q == "__restrict" || q == "const")
            {
                j = j.checked_sub(1)?;
            }
            matches!(toks[j].tok, Tok::Punct("*")).then_some(j)
        })?;
        // The type words before the `*`, back to the list's or statement's start.
        let start = (low..star)
            .rev()
            .find(|&i| matches!(toks[i].tok, Tok::Punct("(" | "," | ";" | "{" | "}")))
            .map_or(low, |i| i + 1);
        if start >= star {
            return None;
        }
        let mut slice: Vec<Token> = toks[start..star].to_vec();
        slice.push(Token {
            tok: Tok::Eof,
            ..toks[star].clone()
        });
        let mut sub = Parser::new(&slice, self.comments, self.max_depth);
        sub.aliases = self.aliases.clone();
        let ty = sub.base_type().ok();
        match (ty, sub.peek(0)) {
            (Some(crate::types::Ty::Val(v)), Tok::Eof) => Some(v),
            _ => None,
        }
    }

    /// The type of host value argument `a..b`: a literal's ([lex.icon]/[lex.fcon]), a
    /// computed value's (arithmetic promotes to `int` or wider, [conv.prom]), or a variable's
    /// declared `int` (a bare name of a narrower declared type is not taken for `int`).
    fn host_arg_type(&mut self, st: &HostState, a: usize, b: usize) -> Option<ValTy> {
        let v = self.host_value(st, a, b)?;
        let s = match v {
            HostVal::Int(_) => {
                let bare = b == a + 1 && matches!(self.toks[a].tok, Tok::Ident(_));
                if bare && !self.declared_int(a) {
                    return None;
                }
                Scalar::I32
            }
            HostVal::Typed(_, IntTy::I32) => Scalar::I32,
            HostVal::Typed(_, IntTy::U32) => Scalar::U32,
            HostVal::Typed(_, IntTy::I64) => Scalar::I64,
            HostVal::Typed(_, IntTy::U64) => Scalar::U64,
            HostVal::F32(_) => Scalar::F32,
            HostVal::Float(_) => Scalar::F64,
            HostVal::Dim(_) => return None,
        };
        Some(ValTy::scalar(s))
    }

    /// Whether the host variable named at `at` is declared `int` (`int n = 5;`, `const int
    /// n`, `int32_t n`) in the tokens before it: its nearest declaration.
    fn declared_int(&self, at: usize) -> bool {
        let toks = self.toks;
        let Tok::Ident(n) = &toks[at].tok else {
            return false;
        };
        let low = at.saturating_sub(MAX_DECL_LOOKBACK);
        (low..at).rev().any(|i| {
            matches!(&toks[i].tok, Tok::Ident(w) if w == n)
                && i > 0
                && matches!(&toks[i - 1].tok, Tok::Ident(t) if t == "int" || t == "int32_t")
                && matches!(
                    toks.get(i + 1).map(|t| &t.tok),
                    Some(Tok::Punct("=" | ";" | "," | "{" | "("))
                )
        })
    }

    /// The argument ranges of the launch whose template list ends before `after`: `launch`
    /// when given, else those of the `<<<…>>>(…)` at `after` (empty when none is there).
    fn launch_arg_ranges(
        &self,
        after: usize,
        close: usize,
        launch: &[(usize, usize)],
    ) -> Vec<(usize, usize)> {
        if !launch.is_empty() {
            return launch.to_vec();
        }
        let toks = self.toks;
        let tok = |i: usize| toks.get(i).map(|t| &t.tok);
        if !matches!(
            (tok(after), tok(after + 1)),
            (Some(Tok::Punct("<<")), Some(Tok::Punct("<")))
        ) {
            return Vec::new();
        }
        let Some(cfg_to) = (after + 2..close).find(|&i| {
            matches!(tok(i), Some(Tok::Punct(">>"))) && matches!(tok(i + 1), Some(Tok::Punct(">")))
        }) else {
            return Vec::new();
        };
        let open = cfg_to + 2;
        if !matches!(tok(open), Some(Tok::Punct("("))) {
            return Vec::new();
        }
        match self.closing(open) {
            Some(c) => split_commas(toks, open + 1, c),
            None => Vec::new(),
        }
    }

    /// Binds, as constants, the bare names in `from..to` (a launch's template argument list)
    /// that are host variables of a constant integer value and no constant of the source's;
    /// returns each bound name with the constant it hid (none), to be put back.
    fn bind_host_names(
        &mut self,
        st: &HostState,
        from: usize,
        to: usize,
    ) -> Vec<(String, Option<crate::ast::Expr>)> {
        let toks = self.toks;
        let mut bound = Vec::new();
        for i in from..to.min(toks.len()) {
            let Tok::Ident(n) = &toks[i].tok else {
                continue;
            };
            let bare = matches!(toks[i - 1].tok, Tok::Punct("<" | ","))
                && matches!(
                    toks.get(i + 1).map(|t| &t.tok),
                    Some(Tok::Punct("," | ">" | ">>"))
                );
            if !bare || self.consts.contains_key(n) || bound.iter().any(|(b, _)| b == n) {
                continue;
            }
            let Some(v) = self
                .host_value(st, i, i + 1)
                .and_then(HostVal::int)
                .and_then(|v| i64::try_from(v).ok())
            else {
                continue;
            };
            let at = Span {
                line: toks[i].line,
                col: toks[i].col,
            };
            let e = self.e_int(at, v);
            let old = self.consts.insert(n.clone(), e);
            bound.push((n.clone(), old));
        }
        bound
    }

    /// Whether the function template `key`'s parameters take `n` arguments: at least its
    /// parameters without a default, at most all of them (C++17 [over.match.viable]/2).
    fn template_takes(&self, key: &str, n: usize) -> bool {
        let Some(t) = self.templates.get(key) else {
            return false;
        };
        let Some(toks) = super::param_list::param_tokens(t.tokens()) else {
            return false;
        };
        let params = super::param_list::split_params(toks);
        let required = params
            .iter()
            .filter(|p| !p.iter().any(|t| matches!(t.tok, Tok::Punct("="))))
            .count();
        (required..=params.len()).contains(&n)
    }

    /// The one template of the overload set `name` (the template itself and its alternatives)
    /// whose function parameters take `n` arguments (from the required ones to all, the
    /// others having defaults); `None` when `name` is no overload set or not exactly one does.
    fn overload_by_arity(&self, name: &str, n: usize) -> Option<String> {
        let alts = self.overloads.get(name)?;
        let mut fit = std::iter::once(name)
            .chain(alts.iter().map(String::as_str))
            .filter(|key| self.template_takes(key, n));
        match (fit.next(), fit.next()) {
            (Some(k), None) => Some(k.to_string()),
            _ => None,
        }
    }

    /// Of the overload set `name`'s templates whose function parameters take `n` arguments,
    /// the one that the explicit template arguments `given` bind: the others' substitution
    /// fails (a default `typename std::enable_if<Method == 2>::type* = nullptr` whose
    /// condition is false names no type, [temp.deduct]/8: the template is no candidate),
    /// rocPRIM's tests' `scan_kernel<Method, …>` overloads of one parameter list. `None`
    /// when not exactly one binds (the call's own reading then says why).
    fn overload_by_substitution(
        &mut self,
        name: &str,
        n: usize,
        given: &[TArg],
        at: Span,
    ) -> Option<String> {
        let alts = self.overloads.get(name)?.clone();
        let keys: Vec<String> = std::iter::once(name.to_string())
            .chain(alts)
            .filter(|key| self.template_takes(key, n))
            .collect();
        if keys.len() < 2 || given.is_empty() {
            return None;
        }
        let mut bound = keys
            .into_iter()
            .filter(|key| self.bind_call(key, given.to_vec(), &[], at).is_ok());
        match (bound.next(), bound.next()) {
            (Some(k), None) => Some(k),
            _ => None,
        }
    }

    /// A launch of template `name` at `k` whose instance was not read: said, with `why`,
    /// so that the run's missing launch is never silent. Only when the statement launches
    /// (`<<<` in it, or `hipLaunchKernelGGL`'s first argument).
    fn warn_unread_launch(&mut self, k: usize, close: usize, name: &str, why: Option<String>) {
        let toks = self.toks;
        let end = (k..close)
            .find(|&i| matches!(toks[i].tok, Tok::Punct(";")))
            .unwrap_or(close);
        let chevrons = (k..end).any(|i| {
            matches!(toks[i].tok, Tok::Punct("<<"))
                && matches!(toks.get(i + 1).map(|t| &t.tok), Some(Tok::Punct("<")))
        });
        let in_api = k >= 2
            && matches!(&toks[k - 2].tok, Tok::Ident(w) if w == "hipLaunchKernelGGL" || w == "HIP_KERNEL_NAME");
        if !chevrons && !in_api {
            return;
        }
        let why = why.unwrap_or_else(|| {
            format!("give the kernel's template arguments explicitly (`{name}<…><<<…>>>(…)`)")
        });
        let text = source_text(&toks[k..end.min(k + 24)]);
        self.diag(
            Span {
                line: toks[k].line,
                col: toks[k].col,
            },
            Level::Warning,
            format!("the launch `{text}` is not read, so the run leaves it out: {why}"),
            UNREAD_LAUNCH_RULE,
        );
    }
}
