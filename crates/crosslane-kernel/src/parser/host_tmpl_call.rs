//! Host calls of function templates that form an overload set chosen by substitution (SFINAE,
//! C++17 [temp.deduct]/8 and [temp.over]), in the two shapes host fills write:
//!
//! - a value: `a[i] = expand<T>(v[i]);` with `template <class T, std::enable_if_t<
//!   std::is_integral<T>::value, bool> = true> T expand(int x)` beside a floating-point
//!   overload. The template whose `enable_if` holds for the explicit arguments (and whose
//!   function parameter count is the call's) is instantiated and evaluated as a host helper
//!   ([`super::constexpr_fn`]'s `host_fold`): [expr.call]/4, each parameter initialized with
//!   its argument; [stmt.return]/2, the value converted to the return type.
//! - a statement: `expand(a, n);` of `template <class T, enable_if_t<…> = true> void expand(T*
//!   a, int n)` overloads: `T` is deduced from the host argument's type ([temp.deduct.call]),
//!   the one template whose constraint holds is read at the call ([`super::host_calls`]); one
//!   whose body only discards its parameters (`(void)a;`) changes nothing and is skipped.
//!
//! Several viable templates, or none, leave the call as before (read as an unknown call, its
//! arguments' fills said unknown): choosing by partial ordering is not modelled.
//!
//! Bounded: each call tries each template of its name once (at most
//! [`super::sfinae::MAX_OVERLOADS`]); an instance is parsed once per source.

use super::const_eval::const_eval;
use super::host_state::HostState;
use super::host_text::split_commas;
use super::targs::TArg;
use super::Parser;
use crate::ast::{Function, Span};
use crate::lexer::{Tok, Token};
use crate::types::Ty;

/// How deep template instances a host helper calls are instantiated for its value.
pub const MAX_NESTED: u32 = 4;

pub(super) use super::host_state::HostChoice;

impl Parser<'_> {
    /// The templates of the overload set `name` (its own key first), when `name` names a
    /// function template that is not device code.
    pub(super) fn host_tmpl_keys(&self, name: &str) -> Vec<String> {
        if !self.templates.contains_key(name) {
            return Vec::new();
        }
        let keys: Vec<String> = std::iter::once(name.to_string())
            .chain(self.overloads.get(name).cloned().unwrap_or_default())
            .collect();
        let device = keys.iter().any(|k| {
            self.templates.get(k).is_some_and(|t| {
                t.tokens().iter().any(
                    |x| matches!(&x.tok, Tok::Ident(w) if w == "__global__" || w == "__device__"),
                ) && !t
                    .tokens()
                    .iter()
                    .any(|x| matches!(&x.tok, Tok::Ident(w) if w == "__host__"))
            })
        });
        if device {
            return Vec::new();
        }
        keys
    }

    /// How many function parameters template `key` declares (`None`: not read).
    pub(super) fn tmpl_arity(&self, key: &str) -> Option<usize> {
        let t = self.templates.get(key)?;
        let toks = super::param_list::param_tokens(t.tokens())?;
        Some(super::param_list::split_params(toks).len())
    }

    /// Whether template `key` takes the explicit arguments `given` (with its defaults bound,
    /// an `enable_if` default or return type naming a type).
    pub(super) fn tmpl_viable(&mut self, key: &str, given: &[TArg], at: Span) -> bool {
        let Some(params) = self.templates.get(key).map(|t| t.params().to_vec()) else {
            return false;
        };
        match self.with_defaults(key, &params, given.to_vec(), at) {
            Ok(bound) => self.return_type_holds(key, &params, &bound).is_ok(),
            Err(_) => false,
        }
    }

    /// `name<targs>(…)` in a host expression's tokens, `name` an overload set of host function
    /// templates: the call's name replaced by the instance's (kept as a host helper that
    /// `host_fold` evaluates). Calls of another shape stay as written.
    pub(super) fn host_template_values(&mut self, slice: &mut Vec<Token>) {
        let mut k = 0;
        // Each rewrite shortens the slice, so the walk ends.
        while k + 1 < slice.len() {
            let rewrite = match (&slice[k].tok, &slice[k + 1].tok) {
                (Tok::Ident(name), Tok::Punct("<"))
                    if self.templates.contains_key(name)
                        && !(k > 0
                            && matches!(slice[k - 1].tok, Tok::Punct("::" | "." | "->"))) =>
                {
                    self.host_value_instance(name.clone(), slice, k)
                }
                // `ceil_div(n, block)`: its arguments deduce the template's parameters
                // ([`super::host_tmpl_deduce`]).
                (Tok::Ident(name), Tok::Punct("("))
                    if self.templates.contains_key(name)
                        && !(k > 0
                            && matches!(slice[k - 1].tok, Tok::Punct("::" | "." | "->"))) =>
                {
                    self.host_deduced_instance(name.clone(), slice, k)
                        .map(|inst| (k, inst))
                }
                _ => None,
            };
            if let Some((gt, inst)) = rewrite {
                let tok = Token {
                    tok: Tok::Ident(inst),
                    ..slice[k].clone()
                };
                slice.splice(k..=gt, [tok]);
            }
            k += 1;
        }
    }

    /// The instance `slice[k]<…>(…)` calls, and the index of its `>`.
    fn host_value_instance(
        &mut self,
        name: String,
        slice: &[Token],
        k: usize,
    ) -> Option<(usize, String)> {
        let keys = self.host_tmpl_keys(&name);
        if keys.is_empty() {
            return None;
        }
        let mut depth = 0usize;
        let gt = (k + 1..slice.len()).find(|&i| {
            match slice[i].tok {
                Tok::Punct("<") => depth += 1,
                Tok::Punct(">") => {
                    depth = depth.saturating_sub(1);
                    return depth == 0;
                }
                _ => {}
            }
            false
        })?;
        if !matches!(slice.get(gt + 1).map(|t| &t.tok), Some(Tok::Punct("("))) {
            return None;
        }
        // The call's argument count: commas at its own depth up to its `)`.
        let mut d = 0usize;
        let mut commas = 0usize;
        let mut tokens = 0usize;
        for t in &slice[gt + 1..] {
            match t.tok {
                Tok::Punct("(" | "[" | "{") => d += 1,
                Tok::Punct(")" | "]" | "}") => {
                    d = d.saturating_sub(1);
                    if d == 0 {
                        break;
                    }
                }
                Tok::Punct(",") if d == 1 => commas += 1,
                _ => {}
            }
            tokens += 1;
        }
        let argc = if tokens > 1 { commas + 1 } else { 0 };
        let given = self.explicit_targs(&slice[k + 2..gt])?;
        let at = Span {
            line: slice[k].line,
            col: slice[k].col,
        };
        let mut viable = Vec::new();
        for key in keys {
            if self.tmpl_arity(&key) == Some(argc) && self.tmpl_viable(&key, &given, at) {
                viable.push(key);
            }
        }
        let [key] = viable.as_slice() else {
            return None;
        };
        let key = key.clone();
        let (_, bound) = self.bind_call(&key, given, &[], at).ok()?;
        let inst = super::targs::mangle(&key, &bound);
        self.host_instance((inst.clone(), key, bound), 0)?;
        Some((gt, inst))
    }

    /// Instantiates `pending` as a host helper (once per source), and the template instances
    /// its body calls (`(__half)expand<float>(x)` inside `expand<__half>`), at most
    /// [`MAX_NESTED`] deep. The instantiation leaves the device code's pending and eager
    /// instances as they were: these are host functions, not device code's.
    pub(super) fn host_instance(
        &mut self,
        pending: super::templates::Pending,
        depth: u32,
    ) -> Option<()> {
        let name = pending.0.clone();
        if self.host_tmpl_values.contains(&name) {
            return Some(());
        }
        if depth > MAX_NESTED {
            return None;
        }
        let saved = (
            self.pending.len(),
            self.instances.len(),
            self.extra_fns.len(),
        );
        let f = self.instantiate_one(pending).ok().flatten();
        let mut nested: Vec<super::templates::Pending> =
            self.pending.get(saved.0..).unwrap_or(&[]).to_vec();
        let eager: Vec<Function> = self.extra_fns.get(saved.2..).unwrap_or(&[]).to_vec();
        self.pending.truncate(saved.0);
        self.instances.truncate(saved.1);
        self.extra_fns.truncate(saved.2);
        let f = f?;
        self.record_host_value_fn(name.clone(), &f);
        self.host_tmpl_values.insert(name);
        for g in eager {
            if !self.host_tmpl_values.contains(&g.name) {
                self.record_host_value_fn(g.name.clone(), &g);
                self.host_tmpl_values.insert(g.name.clone());
            }
        }
        nested.truncate(super::sfinae::MAX_OVERLOADS);
        for p in nested {
            // A nested call the helper cannot evaluate leaves the helper's value unknown.
            let _ = self.host_instance(p, depth + 1);
        }
        Some(())
    }

    /// Explicit template arguments in tokens (between `<` and `>`): a type each, or a constant.
    fn explicit_targs(&mut self, toks: &[Token]) -> Option<Vec<TArg>> {
        let mut out = Vec::new();
        for (a, b) in split_commas(toks, 0, toks.len()) {
            let part = toks.get(a..b)?;
            let last = part.last()?.clone();
            let mut s: Vec<Token> = part.to_vec();
            s.push(Token {
                tok: Tok::Eof,
                line: last.end.0,
                col: last.end.1,
                end: last.end,
            });
            let mut sub = Parser::new(&s, self.comments, self.max_depth);
            sub.aliases = self.aliases.clone();
            sub.consts = self.consts.clone();
            if let Ok(Ty::Val(v)) = sub.base_type() {
                if matches!(sub.peek(0), Tok::Eof) {
                    out.push(TArg::Type(v));
                    continue;
                }
            }
            let mut sub = Parser::new(&s, self.comments, self.max_depth);
            sub.consts = self.consts.clone();
            let e = sub
                .expr()
                .ok()
                .filter(|_| matches!(sub.peek(0), Tok::Eof))?;
            let v = const_eval(&e, &std::collections::HashMap::new())?.int()?;
            out.push(TArg::Value(v));
        }
        Some(out)
    }

    /// `name(args);` at token `at` (its `(` next), `name` an overload set of host function
    /// templates with no explicit arguments: the one template whose constraints hold with its
    /// parameters deduced from the host arguments, when exactly one does.
    pub(super) fn host_overload_choice(
        &mut self,
        st: &HostState,
        name: &str,
        at: usize,
        close: usize,
    ) -> Option<HostChoice> {
        if !self.overloads.contains_key(name)
            || !matches!(self.toks.get(at + 1).map(|t| &t.tok), Some(Tok::Punct("(")))
        {
            return None;
        }
        let keys = self.host_tmpl_keys(name);
        if keys.is_empty() {
            return None;
        }
        let args_close = self.closing(at + 1).filter(|&c| c < close)?;
        let ranges = split_commas(self.toks, at + 2, args_close);
        let span = Span {
            line: self.toks[at].line,
            col: self.toks[at].col,
        };
        let mut viable = Vec::new();
        for key in keys {
            if self.tmpl_arity(&key) != Some(ranges.len()) {
                continue;
            }
            let deduced = self.deduce_from_launch(st, &key, &[], &ranges);
            if self.tmpl_viable(&key, &deduced, span) {
                viable.push(key);
            }
        }
        let [key] = viable.as_slice() else {
            return None;
        };
        if let Some(f) = self.host_fn_keys.get(key).cloned() {
            self.host_fns.insert(key.clone(), f);
            return Some(HostChoice::Key(key.clone()));
        }
        let end = (args_close + 1..close)
            .find(|&i| matches!(self.toks[i].tok, Tok::Punct(";")))
            .filter(|&e| e == args_close + 1)?;
        self.discards_only(key).then_some(HostChoice::NoOp(end + 1))
    }

    /// Whether template `key`'s body is empty or only discards names (`(void)a; (void)n;`).
    fn discards_only(&self, key: &str) -> bool {
        let Some(t) = self.templates.get(key) else {
            return false;
        };
        let toks = t.tokens();
        let Some(params) = super::param_list::param_tokens(toks) else {
            return false;
        };
        // The body: after the parameter list's `)`, from its `{` to the last `}`.
        let after = (params.as_ptr() as usize).saturating_sub(toks.as_ptr() as usize)
            / std::mem::size_of::<Token>().max(1)
            + params.len();
        let Some(open) = (after..toks.len()).find(|&i| matches!(toks[i].tok, Tok::Punct("{")))
        else {
            return false;
        };
        let Some(shut) = (open..toks.len())
            .rev()
            .find(|&i| matches!(toks[i].tok, Tok::Punct("}")))
        else {
            return false;
        };
        let body = &toks[open + 1..shut];
        body.chunks(5).all(|c| {
            matches!(
                c.iter().map(|x| &x.tok).collect::<Vec<_>>().as_slice(),
                [Tok::Punct("("), Tok::Ident(v), Tok::Punct(")"), Tok::Ident(_), Tok::Punct(";")]
                    if v == "void"
            )
        })
    }
}
