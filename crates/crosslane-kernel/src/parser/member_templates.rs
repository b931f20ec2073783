//! Static member function templates of a struct or class template (C++17 [temp.mem]), the
//! shape of recursive warp reductions: `template <int N> struct AllReduce { template <typename
//! T, typename Op> static __device__ T run(T x, Op& op) { … AllReduce<N / 2>::run(x, op); } };`.
//!
//! The member is kept as a function template named `Class<args>::member` with what the class
//! instance binds (its template parameters, constants and aliases); a call `S::member(…)` or
//! `S::member<…>(…)` instantiates it as any function template is. A non-static member template
//! is kept the same way and called on an object ([`super::method_templates`]).

use super::lambda_generic::CALL;
use super::templates::MemberEnv;
use super::{PResult, Parser};
use crate::lexer::{Tok, Token};
use crate::KernelError;

impl Parser<'_> {
    /// `S::template run<…>(…)`: the disambiguating `template` keyword ([temp.names]/4).
    pub(super) fn eat_template_keyword(&mut self) {
        if self.is_word("template") {
            self.bump();
        }
    }

    /// One token of a declaration's head read for its template argument lists (a return type
    /// `typename std::enable_if<(sizeof(T) == 4), T>::type`): `<` after a name opens one, `>`
    /// and `>>` close, and a `(` inside one is an argument's expression, skipped to its `)`
    /// (`*at` moved there) — not the parameter list nor a call naming the function. Whether
    /// token `k` was one of these.
    pub(super) fn angle_step(&self, k: usize, angles: &mut usize, at: &mut usize) -> bool {
        match self.toks.get(k).map(|t| &t.tok) {
            Some(Tok::Punct("<"))
                if matches!(
                    k.checked_sub(1).map(|j| &self.toks[j].tok),
                    Some(Tok::Ident(w)) if w != "operator"
                ) =>
            {
                *angles += 1;
            }
            Some(Tok::Punct(">")) if *angles > 0 => *angles -= 1,
            Some(Tok::Punct(">>")) if *angles > 0 => *angles = angles.saturating_sub(2),
            Some(Tok::Punct("(")) if *angles > 0 => *at = self.closing(k).unwrap_or(k),
            _ => return false,
        }
        true
    }

    /// At `template` inside the body of struct `sname`: records the member template.
    ///
    /// # Errors
    /// A member template that is not a member function, or the template's own errors.
    pub(super) fn member_template(&mut self, sname: &str) -> PResult<()> {
        // The member's name: the identifier before the first `(` after the header.
        let header_end = {
            let mut k = self.pos + 1;
            let mut depth = 0usize;
            loop {
                match self.toks.get(k).map(|t| &t.tok) {
                    None | Some(Tok::Eof) => return self.err("a member after `template <…>`"),
                    Some(Tok::Punct("<")) => depth += 1,
                    Some(Tok::Punct(">")) if depth == 1 => break k,
                    Some(Tok::Punct(">")) => depth = depth.saturating_sub(1),
                    Some(Tok::Punct(">>")) if depth == 2 => break k,
                    Some(Tok::Punct(">>")) => depth = depth.saturating_sub(2),
                    _ => {}
                }
                k += 1;
            }
        };
        // `template <class, int, int, int> friend struct AscendAllReduce;`: a friend
        // declaration of a class template ([temp.friend]/1) grants access, which crosslane
        // does not check; nothing to record.
        if matches!(self.toks.get(header_end + 1).map(|t| &t.tok), Some(Tok::Ident(w)) if w == "friend")
            && matches!(self.toks.get(header_end + 2).map(|t| &t.tok), Some(Tok::Ident(w)) if w == "struct" || w == "class")
        {
            let mut k = header_end + 3;
            // Bounded by the tokens left.
            while let Some(t) = self.toks.get(k) {
                match &t.tok {
                    Tok::Punct(";") => {
                        self.pos = k + 1;
                        return Ok(());
                    }
                    Tok::Punct("{") | Tok::Eof => break,
                    _ => k += 1,
                }
            }
            return self.err("`;` after a friend class template declaration");
        }
        let mut k = header_end + 1;
        let mut is_static = false;
        // Template argument lists of the return type (`typename std::enable_if<(sizeof(T) ==
        // 4)>::type`): a call inside one (`sizeof(T)`) is no member's name.
        let mut angles = 0usize;
        let name = loop {
            match self.toks.get(k).map(|t| &t.tok) {
                None | Some(Tok::Eof | Tok::Punct("{" | ";")) => {
                    return self.err("a member function after `template <…>`")
                }
                _ if self.angle_step(k, &mut angles, &mut k) => {}
                Some(Tok::Ident(w)) if w == "static" => is_static = true,
                Some(Tok::Ident(w))
                    if matches!(self.toks.get(k + 1).map(|t| &t.tok), Some(Tok::Punct("("))) =>
                {
                    break w.clone()
                }
                _ => {}
            }
            k += 1;
        };
        if name == "operator"
            && matches!(self.toks.get(k + 1).map(|t| &t.tok), Some(Tok::Punct("(")))
            && matches!(self.toks.get(k + 2).map(|t| &t.tok), Some(Tok::Punct(")")))
            && matches!(self.toks.get(k + 3).map(|t| &t.tok), Some(Tok::Punct("(")))
        {
            return self.call_operator_template(sname, k);
        }
        let env = MemberEnv {
            aliases: self.aliases.clone(),
            consts: self.consts.clone(),
            struct_alias: self.struct_alias.clone(),
            owner: Some(sname.to_string()),
        };
        let previous = self.templates.remove(&name);
        let r = self.template_def();
        let recorded = self.templates.remove(&name);
        if let Some(p) = previous {
            self.templates.insert(name.clone(), p);
        }
        r?;
        if let Some(t) = recorded {
            let base = format!("{sname}::{name}");
            let key = self.member_overload_key(&base, &t)?;
            if !is_static {
                // Called on an object: instantiated as a member ([`super::method_templates`]).
                self.method_templates.insert(base, sname.to_string());
                self.method_templates.insert(key.clone(), sname.to_string());
            }
            self.templates.insert(key, t.with_env(env));
        }
        Ok(())
    }

    /// The key member template `t` of `base` (`S::name`) is kept under: `base` for the first,
    /// `base#N` for each later one of the same name (an overload set, chosen per call as free
    /// function templates are: [`super::sfinae`], C++17 [over.match], [temp.over]) — rocPRIM's
    /// `reduce(T, T&, F)` beside `reduce(T, T&, unsigned, F)`, tag dispatch on
    /// `std::true_type` / `std::false_type`. The same declaration read again (the same first
    /// token) keeps its key.
    ///
    /// # Errors
    /// More than [`super::sfinae::MAX_OVERLOADS`] member templates of one name.
    fn member_overload_key(
        &mut self,
        base: &str,
        t: &super::templates::Template,
    ) -> PResult<String> {
        let at = |t: &super::templates::Template| t.tokens().first().map(|x| (x.line, x.col));
        let Some(first) = self.templates.get(base) else {
            return Ok(base.to_string());
        };
        if at(first) == at(t) {
            return Ok(base.to_string());
        }
        let list = self.overloads.get(base).cloned().unwrap_or_default();
        if let Some(k) = list
            .iter()
            .find(|k| self.templates.get(k.as_str()).map(at) == Some(at(t)))
        {
            return Ok(k.clone());
        }
        if list.len() + 1 >= super::sfinae::MAX_OVERLOADS {
            let t = self.tok();
            return Err(KernelError::new(
                t.line,
                t.col,
                format!(
                    "more than {} member function templates named `{base}`",
                    super::sfinae::MAX_OVERLOADS
                ),
            ));
        }
        let key = format!("{base}#{}", list.len() + 2);
        self.overloads
            .entry(base.to_string())
            .or_default()
            .push(key.clone());
        Ok(key)
    }

    /// A member call operator template (`template <class F> __device__ void operator()(F f)
    /// const { … }`, composable_kernel's `static_for`; a functor's `template <typename T> T
    /// operator()(T a, T b) const`), the `operator` word at token `op`: recorded as the
    /// member template `__call` of `sname` over the same tokens, which a call of an object
    /// of the class instantiates for its arguments ([over.call]/1: `x(args)` is
    /// `x.operator()(args)`, whose template arguments are deduced, [temp.deduct.call]).
    ///
    /// # Errors
    /// A bracket never closed; the template's own errors.
    fn call_operator_template(&mut self, sname: &str, op: usize) -> PResult<()> {
        let at = self.span();
        let never = || KernelError::new(at.line, at.col, "bracket never closed");
        let close = self.closing(op + 3).ok_or_else(never)?;
        let mut k = close + 1;
        let end = loop {
            match self.toks.get(k).map(|t| &t.tok) {
                None | Some(Tok::Eof) => return self.err("the call operator's body"),
                Some(Tok::Punct(";")) => break k,
                Some(Tok::Punct("{")) => break self.closing(k).ok_or_else(never)?,
                _ => k += 1,
            }
        };
        let mut synth: Vec<Token> = Vec::with_capacity(end + 2 - self.pos);
        synth.extend_from_slice(&self.toks[self.pos..op]);
        synth.push(Token {
            tok: Tok::Ident(CALL.into()),
            ..self.toks[op].clone()
        });
        synth.extend_from_slice(&self.toks[op + 3..=end]);
        let last = self.toks[end].clone();
        synth.push(Token {
            tok: Tok::Eof,
            ..last
        });
        let mut sub = Parser::new(&synth, self.comments, self.max_depth);
        sub.class_nest = self.class_nest;
        sub.aliases = self.aliases.clone();
        sub.consts = self.consts.clone();
        sub.struct_alias = self.struct_alias.clone();
        self.lend(&mut sub);
        sub.templates = std::mem::take(&mut self.templates);
        let r = sub.member_template(sname);
        self.take_back(&mut sub);
        self.templates = std::mem::take(&mut sub.templates);
        self.diags.append(&mut sub.diags);
        r?;
        self.pos = end + 1;
        Ok(())
    }

    /// A default template argument of a call's template read where its class's names are in
    /// scope: a member template's defaults may name its class's parameters and constants
    /// (`template <typename T, int W = kSeg>` inside `template <int kSeg> struct S`), since
    /// [temp.param]/10 reads a default in the scope of the template, the class's included;
    /// `env` is the class's bindings (`MemberEnv`), `None` for a free
    /// function template. The caller's names are restored after.
    ///
    /// # Errors
    /// The default's own ([`Parser::default_arg_bound`]).
    pub(super) fn default_in_class(
        &mut self,
        default: &[Token],
        is_type: bool,
        prior: &[(super::targs::TParam, super::targs::TArg)],
        env: Option<&MemberEnv>,
    ) -> PResult<Option<super::targs::TArg>> {
        let Some(env) = env else {
            return self.default_arg_bound(default, is_type, prior);
        };
        let kept = (self.consts.clone(), self.aliases.clone());
        for (n, v) in &env.consts {
            self.consts.insert(n.clone(), v.clone());
        }
        for (n, v) in &env.aliases {
            self.aliases.insert(n.clone(), *v);
        }
        let r = self.default_arg_bound(default, is_type, prior);
        (self.consts, self.aliases) = kept;
        r
    }
}
