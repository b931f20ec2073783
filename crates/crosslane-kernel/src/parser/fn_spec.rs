//! Function template explicit specializations whose template arguments are deduced, and
//! primary templates only declared.
//!
//! `template <> __device__ float2 mul(float2 a, float2 b) { … }` specializes `template
//! <typename Acc, typename A, typename B> Acc mul(A a, B b)` with no arguments after the name:
//! C++17 [temp.expl.spec]/10 and [temp.deduct.decl]/1 deduce them from the whole function type,
//! the return type included, matching each of the primary's parameter types and its return
//! type (P) against the specialization's (A) as [temp.deduct.type] does. Here the match is by
//! tokens, qualifiers and declarator names aside: where P holds a template parameter's name, A
//! holds that argument's tokens up to the token that follows the name in P (`A`, `const T&`,
//! `T*`, `Vec<T, N>`, `Acc` as the return type). Parameters nothing deduces take their
//! defaults; a template of an overload set is the one whose signature matches.
//!
//! vLLM's and Megatron's dtype headers declare a primary without a body
//! (`template <typename Acc, typename A, typename B> inline __device__ Acc mul(A a, B b);`) and
//! define only its explicit specializations: such a declaration is kept as a template that is
//! never instantiated itself ([`Parser::instantiate_one`] refuses an instance with no
//! specialization, which nvcc leaves to the device link to fail).

use super::targs::{mangle, TArg};
use super::types::QUALIFIERS;
use super::{PResult, Parser};
use crate::ast::Span;
use crate::lexer::{Tok, Token};
use crate::KernelError;

/// A function signature by token positions: the return type's and each parameter's type
/// (declarator names, default arguments and qualifiers left out).
struct Signature {
    ret: Vec<usize>,
    params: Vec<Vec<usize>>,
}

/// Whether `t` plays no part in matching a type (a qualifier or a function specifier).
fn is_qualifier(t: &Token) -> bool {
    matches!(&t.tok, Tok::Ident(w) if QUALIFIERS.contains(&w.as_str()))
}

/// The signature of a function whose name is `toks[name]` and whose parameter list opens at
/// `toks[open]` (`name + 1`, or after the template arguments of `name<…>(…)`), starting at
/// `toks[0]`; `is_type` says whether a word names a type (a declarator's name is a last word
/// that does not).
fn signature(
    toks: &[Token],
    name: usize,
    open: usize,
    is_type: &dyn Fn(&str) -> bool,
) -> Option<Signature> {
    let ret = (0..name).filter(|&i| !is_qualifier(&toks[i])).collect();
    let mut depth = 0usize;
    let mut params = Vec::new();
    let mut cur = Vec::new();
    let mut in_default = false;
    for (i, t) in toks.iter().enumerate().skip(open + 1) {
        match &t.tok {
            Tok::Punct("(" | "<" | "[" | "{") => depth += 1,
            Tok::Punct(")") if depth == 0 => {
                if !cur.is_empty() {
                    params.push(std::mem::take(&mut cur));
                }
                let params = params
                    .into_iter()
                    .map(|p| strip_name(toks, p, is_type))
                    .collect();
                return Some(Signature { ret, params });
            }
            Tok::Punct(")" | ">" | "]" | "}") => depth = depth.saturating_sub(1),
            Tok::Punct(">>") => depth = depth.saturating_sub(2),
            Tok::Punct(",") if depth == 0 => {
                params.push(std::mem::take(&mut cur));
                in_default = false;
                continue;
            }
            Tok::Punct("=") if depth == 0 => in_default = true,
            Tok::Eof => return None,
            _ => {}
        }
        if !in_default && !is_qualifier(t) {
            cur.push(i);
        }
    }
    None
}

/// A parameter's type tokens less its declarator name: a last word that names no type, after
/// at least one word of the type (`A a` → `A`, `float& x` → `float&`); `void` alone is no
/// parameter.
fn strip_name(toks: &[Token], mut p: Vec<usize>, is_type: &dyn Fn(&str) -> bool) -> Vec<usize> {
    if let [.., before, last] = p.as_slice() {
        if let Tok::Ident(w) = &toks[*last].tok {
            if !is_type(w) && !matches!(toks[*before].tok, Tok::Punct("::")) {
                p.pop();
            }
        }
    }
    if matches!(p.as_slice(), [i] if matches!(&toks[*i].tok, Tok::Ident(w) if w == "void")) {
        p.clear();
    }
    p
}

/// Matches pattern `pat` (a primary's type, template parameters named in `names`) against
/// `arg` (the specialization's): each parameter named in `pat` with the range of `arg` it
/// takes. `None` when they differ.
fn match_type(
    pat: &[&Token],
    arg: &[&Token],
    names: &[String],
) -> Option<Vec<(usize, usize, usize)>> {
    let mut bound = Vec::new();
    let mut j = 0;
    for (i, t) in pat.iter().enumerate() {
        let param = match &t.tok {
            Tok::Ident(w) => names.iter().position(|n| n == w),
            _ => None,
        };
        let Some(p) = param else {
            if arg.get(j).map(|a| &a.tok) != Some(&t.tok) {
                return None;
            }
            j += 1;
            continue;
        };
        // The argument runs to the token that follows the name in the pattern, at its own
        // nesting depth (`Vec<float, 4>` against `Vec<T, N>`).
        let stop = pat.get(i + 1).map(|x| &x.tok);
        let from = j;
        let mut depth = 0usize;
        while let Some(a) = arg.get(j) {
            if depth == 0 && Some(&a.tok) == stop {
                break;
            }
            match &a.tok {
                Tok::Punct("(" | "<" | "[") => depth += 1,
                Tok::Punct(")" | ">" | "]") => depth = depth.checked_sub(1)?,
                _ => {}
            }
            j += 1;
        }
        if j == from {
            return None;
        }
        bound.push((p, from, j));
    }
    (j == arg.len()).then_some(bound)
}

/// An argument as C++ writes it (`float`, `4`).
fn show(a: &TArg) -> String {
    let m = mangle("", std::slice::from_ref(a));
    m.trim_start_matches('<').trim_end_matches('>').to_string()
}

impl Parser<'_> {
    /// Whether the declaration `toks[from..]` (a function named `name`, its parameter list
    /// opening at `open`) is a device function template's first declaration, to be kept.
    pub(super) fn declared_template(
        &self,
        from: usize,
        name: Option<&str>,
        open: Option<usize>,
    ) -> bool {
        let (Some(name), Some(open)) = (name, open) else {
            return false;
        };
        !self.templates.contains_key(name)
            && self.toks[from..open].iter().any(|t| {
                matches!(&t.tok, Tok::Ident(w) if matches!(w.as_str(), "__device__" | "__global__"))
            })
    }

    /// The specialization at `self.toks[from..]` of the function template `name` (at `at_name`,
    /// its parameter list after it) with its arguments deduced from its signature: the key of
    /// the template it specializes (in an overload set, the one whose signature matches) and
    /// the arguments, defaults filled in.
    ///
    /// # Errors
    /// No template of that name matches the signature, more than one does, a parameter neither
    /// deduced nor defaulted, an argument's tokens that read as no type or constant.
    pub(super) fn spec_deduced(
        &mut self,
        from: usize,
        at_name: usize,
        name: &str,
        at: Span,
    ) -> PResult<(String, Vec<TArg>)> {
        let keys: Vec<String> = std::iter::once(name.to_string())
            .chain(self.overloads.get(name).cloned().unwrap_or_default())
            .collect();
        let mut found = Vec::new();
        let mut reasons = Vec::new();
        for key in keys {
            match self.spec_match(from, at_name, at_name + 1, &key) {
                Ok(Some(args)) => found.push((key, args)),
                Ok(None) => {}
                Err(e) => reasons.push(e.message),
            }
        }
        let note = if reasons.is_empty() {
            String::new()
        } else {
            format!(" ({})", reasons.join("; "))
        };
        let (key, deduced) = match found.len() {
            1 => found.remove(0),
            0 => {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    format!(
                        "this specialization's signature matches no template `{name}` declared \
                         before it{note}; write its arguments after the name \
                         (`{name}<…>(…)`)"
                    ),
                ))
            }
            _ => {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    format!(
                        "this specialization's signature matches more than one template \
                         `{name}`; write its arguments after the name (`{name}<…>(…)`)"
                    ),
                ))
            }
        };
        let bound = self.fill_deduced(&key, name, deduced, at)?;
        Ok((key, bound))
    }

    /// The template a specialization `RET name<ARGS>(…)` names, and its arguments: `ARGS`
    /// first, the parameters after them deduced from the signature as [`Self::spec_deduced`]
    /// does (C++17 [temp.expl.spec]/10: a trailing template argument can be left unspecified
    /// when it can be deduced, `template <> float element<Op::Add>(float, float)` of
    /// `template <Op O, typename T> T element(T, T)`), defaults for the rest; in an overload
    /// set, the template whose signature matches. `open` is the parameter list's `(`. When
    /// `ARGS` names every parameter of a name with no overloads, or nothing matches, `ARGS` is
    /// kept as given (the caller's defaults and errors apply).
    ///
    /// # Errors
    /// A deduced argument's tokens that read as no type or constant, a parameter neither
    /// given, deduced nor defaulted.
    pub(super) fn spec_given(
        &mut self,
        from: usize,
        at_name: usize,
        open: usize,
        name: &str,
        given: Vec<TArg>,
        at: Span,
    ) -> PResult<(String, Vec<TArg>)> {
        let overloads = self.overloads.get(name).cloned().unwrap_or_default();
        // Every parameter named: nothing to deduce. A parameter with a default is still
        // deduced when the signature names it (`template <> __half init<Op::Add>()` of
        // `template <Op O, typename T = float> T init()` is `init<Op::Add, __half>`).
        let complete = |p: &Parser<'_>, key: &str| {
            p.templates.get(key).is_none_or(|t| {
                let ps = t.params();
                ps.iter().any(|x| x.pack) || ps.len() <= given.len()
            })
        };
        if overloads.is_empty() && complete(self, name) {
            return Ok((name.to_string(), given));
        }
        let mut found = Vec::new();
        for key in std::iter::once(name.to_string()).chain(overloads) {
            let Some(t) = self.templates.get(&key) else {
                continue;
            };
            if t.params().iter().any(|x| x.pack) || given.len() > t.params().len() {
                continue;
            }
            let Ok(Some(mut args)) = self.spec_match(from, at_name, open, &key) else {
                continue;
            };
            let agrees = given.iter().enumerate().all(|(i, g)| match &args[i] {
                Some(d) => d == g,
                None => true,
            });
            if agrees {
                for (i, g) in given.iter().enumerate() {
                    args[i] = Some(g.clone());
                }
                found.push((key, args));
            }
        }
        if found.len() != 1 {
            return Ok((name.to_string(), given));
        }
        let (key, args) = found.remove(0);
        let bound = self.fill_deduced(&key, name, args, at)?;
        Ok((key, bound))
    }

    /// Template `key`'s arguments from those a specialization gives or deduces (`None` where
    /// neither), each missing one its parameter's default.
    ///
    /// # Errors
    /// A parameter with no argument and no default, a default that names no type.
    fn fill_deduced(
        &mut self,
        key: &str,
        name: &str,
        deduced: Vec<Option<TArg>>,
        at: Span,
    ) -> PResult<Vec<TArg>> {
        let params = self
            .templates
            .get(key)
            .map(|t| t.params().to_vec())
            .unwrap_or_default();
        let mut bound: Vec<TArg> = Vec::new();
        for (p, arg) in params.iter().zip(deduced) {
            let arg = match (arg, &p.default) {
                (Some(a), _) => a,
                (None, Some(d)) => {
                    let prior: Vec<_> = params.iter().cloned().zip(bound.iter().cloned()).collect();
                    self.default_arg_bound(&d.clone(), p.value.is_none(), &prior)?
                        .ok_or_else(|| {
                            KernelError::new(
                                at.line,
                                at.col,
                                format!("`{name}`'s default for `{}` names no type", p.name),
                            )
                        })?
                }
                (None, None) => {
                    return Err(KernelError::new(
                        at.line,
                        at.col,
                        format!(
                            "template parameter `{}` of `{name}` cannot be deduced from this \
                             specialization's signature; write the arguments after the name \
                             (`{name}<…>(…)`)",
                            p.name
                        ),
                    ))
                }
            };
            bound.push(arg);
        }
        Ok(bound)
    }

    /// The arguments template `key`'s signature deduces from the specialization's
    /// (`self.toks[from..]`, named at `at_name`, its parameter list opening at `open`), per
    /// parameter; `None` when the signatures do not match.
    ///
    /// # Errors
    /// Two different arguments deduced for one parameter, or tokens that read as no argument.
    fn spec_match(
        &mut self,
        from: usize,
        at_name: usize,
        open: usize,
        key: &str,
    ) -> PResult<Option<Vec<Option<TArg>>>> {
        let Some(t) = self.templates.get(key) else {
            return Ok(None);
        };
        let names: Vec<String> = t.params().iter().map(|p| p.name.clone()).collect();
        let base = crate::ast::overload_base(key);
        let ptoks = t.tokens().to_vec();
        let Some(pname) = ptoks.iter().enumerate().position(|(i, x)| {
            matches!(&x.tok, Tok::Ident(n) if n == base)
                && matches!(ptoks.get(i + 1).map(|y| &y.tok), Some(Tok::Punct("(")))
        }) else {
            return Ok(None);
        };
        let is_type = |w: &str| {
            self.is_type_word(w) || self.is_struct_name(w) || names.iter().any(|n| n == w)
        };
        let Some(psig) = signature(&ptoks, pname, pname + 1, &is_type) else {
            return Ok(None);
        };
        let stoks = &self.toks[from..];
        let Some(ssig) = signature(stoks, at_name - from, open - from, &is_type) else {
            return Ok(None);
        };
        if psig.params.len() != ssig.params.len() {
            return Ok(None);
        }
        // Each pair's match, the arguments as ranges of `self.toks`.
        let mut ranges = Vec::new();
        let pairs =
            std::iter::once((&psig.ret, &ssig.ret)).chain(psig.params.iter().zip(&ssig.params));
        for (p, s) in pairs {
            let pat: Vec<&Token> = p.iter().map(|&i| &ptoks[i]).collect();
            let arg: Vec<&Token> = s.iter().map(|&i| &stoks[i]).collect();
            let Some(got) = match_type(&pat, &arg, &names) else {
                return Ok(None);
            };
            for (param, x, y) in got {
                ranges.push((param, from + s[x], from + s[y - 1] + 1));
            }
        }
        let mut args: Vec<Option<TArg>> = vec![None; names.len()];
        for (param, x, y) in ranges {
            let a = self.arg_at(x, y)?;
            match &args[param] {
                Some(prev) if *prev != a => {
                    return Err(KernelError::new(
                        self.toks[x].line,
                        self.toks[x].col,
                        format!(
                            "`{}` deduced as both `{}` and `{}` from this specialization's \
                             signature",
                            names[param],
                            show(prev),
                            show(&a)
                        ),
                    ))
                }
                _ => args[param] = Some(a),
            }
        }
        Ok(Some(args))
    }

    /// The template argument that `self.toks[x..y]` reads as, the position kept.
    ///
    /// # Errors
    /// The tokens read as no argument, or as one that ends before `y`.
    fn arg_at(&mut self, x: usize, y: usize) -> PResult<TArg> {
        let (pos, owed) = (self.pos, self.gt_owed.take());
        self.pos = x;
        let a = self.template_arg();
        let end = self.pos;
        self.pos = pos;
        self.gt_owed = owed;
        let a = a?;
        // `float` bound by `T` in `T* p` against `float* __restrict__ p`: the type reading goes
        // on through the declarator's `*` and its qualifiers ([`Parser::template_arg`] reads
        // `float*` as one argument); the argument is the pointee.
        if end > y
            && matches!(self.toks[y].tok, Tok::Punct("*"))
            && self.toks[y + 1..end].iter().all(is_qualifier)
        {
            if let TArg::Ptr(v) = a {
                return Ok(TArg::Type(v));
            }
        }
        if end != y {
            let t = &self.toks[x];
            return Err(KernelError::new(
                t.line,
                t.col,
                "this specialization's parameter type reads as no template argument",
            ));
        }
        Ok(a)
    }
}
