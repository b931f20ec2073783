//! Deducing a function template's parameters from a class template argument
//! ([temp.deduct.type]/8: a parameter of type `TT<T, i>` is deduced from an argument of type
//! `TT<float, 4>` by matching the template arguments position by position).
//!
//! The shapes real code uses: composable_kernel's `template <index_t N> f(Number<N>)` called
//! with `Number<4>{}`, and rocPRIM's / CK's `template <class T, int N> g(const vec_t<T, N>& v)`.
//! A function parameter whose type is a class template's id (`const`, `&` around it) records,
//! per template argument, the template parameter it names when it is that name alone
//! ([`ClassPattern`]); a call's argument whose struct is an instance of that class template
//! (recorded in [`super::structs::StructDef::instance_of`]) gives those parameters the
//! instance's arguments. A position that is not a bare template parameter (`float`, `N + 1`)
//! deduces nothing ([temp.deduct.type]/5: a non-deduced context).

use super::targs::{TArg, TParam};
use super::Parser;
use crate::ast::Expr;
use crate::lexer::{Tok, Token};

/// A function parameter's class template type: the class template's name and, per template
/// argument, the template parameter it names alone.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct ClassPattern {
    pub(super) class: String,
    pub(super) args: Vec<Option<String>>,
}

impl Parser<'_> {
    /// Per function parameter (the tokens between the parentheses, `params_toks`): its class
    /// template pattern, if its type is one.
    pub(super) fn class_patterns(
        &self,
        params_toks: &[Token],
        tparams: &[TParam],
    ) -> Vec<Option<ClassPattern>> {
        let mut out = Vec::new();
        let mut depth = 0usize;
        let mut start = 0;
        for (k, t) in params_toks.iter().enumerate() {
            match &t.tok {
                Tok::Punct("(" | "<" | "[") => depth += 1,
                Tok::Punct(")" | ">" | "]") => depth = depth.saturating_sub(1),
                Tok::Punct(">>") => depth = depth.saturating_sub(2),
                Tok::Punct(",") if depth == 0 => {
                    out.push(self.class_pattern(&params_toks[start..k], tparams));
                    start = k + 1;
                }
                _ => {}
            }
        }
        if !params_toks.is_empty() {
            out.push(self.class_pattern(&params_toks[start..], tparams));
        }
        out
    }

    /// One parameter's pattern: `[const] TT<a, b, …> [const] [&|&&] name`.
    fn class_pattern(&self, toks: &[Token], tparams: &[TParam]) -> Option<ClassPattern> {
        let mut k = 0;
        while matches!(&toks.get(k)?.tok, Tok::Ident(w) if matches!(w.as_str(), "const" | "volatile" | "typename"))
        {
            k += 1;
        }
        let Tok::Ident(class) = &toks.get(k)?.tok else {
            return None;
        };
        if !self.class_templates.contains_key(class) || toks.get(k + 1)?.tok != Tok::Punct("<") {
            return None;
        }
        let mut args = Vec::new();
        let mut depth = 0usize;
        let mut arg: Vec<&Tok> = Vec::new();
        for t in &toks[k + 2..] {
            match &t.tok {
                Tok::Punct("(" | "<" | "[") => depth += 1,
                Tok::Punct(")" | "]") => depth = depth.saturating_sub(1),
                // A nested template's `>>` closes this one too: no pattern kept.
                Tok::Punct(">>") => return None,
                Tok::Punct(">") if depth == 0 => {
                    args.push(bare_param(&arg, tparams));
                    return Some(ClassPattern {
                        class: class.clone(),
                        args,
                    });
                }
                Tok::Punct(">") => depth -= 1,
                Tok::Punct(",") if depth == 0 => {
                    args.push(bare_param(&arg, tparams));
                    arg.clear();
                    continue;
                }
                _ => {}
            }
            arg.push(&t.tok);
        }
        None
    }

    /// Template parameter `name` deduced from the call arguments `args` through the function
    /// parameters' class patterns, when one names it and its argument is an instance of that
    /// class template.
    pub(super) fn deduce_from_class(
        &mut self,
        name: &str,
        patterns: &[Option<ClassPattern>],
        args: &[Expr],
    ) -> Option<TArg> {
        for (i, pat) in patterns.iter().enumerate() {
            let Some(pat) = pat else { continue };
            let Some(m) = pat.args.iter().position(|a| a.as_deref() == Some(name)) else {
                continue;
            };
            let Some(e) = args.get(i) else { continue };
            let Some(st) = self.struct_of(e) else {
                continue;
            };
            let Some((class, bound)) = self.structs.get(&st).and_then(|d| d.instance_of.clone())
            else {
                continue;
            };
            if class == pat.class {
                if let Some(a) = bound.get(m) {
                    return Some(a.clone());
                }
            }
        }
        None
    }
}

/// The template parameter a template argument's tokens name alone.
fn bare_param(arg: &[&Tok], tparams: &[TParam]) -> Option<String> {
    match arg {
        [Tok::Ident(n)] if tparams.iter().any(|p| !p.pack && p.name == *n) => Some(n.clone()),
        // `Is...` of a value pack (`integer_sequence<int, Is...>`): the instance's pack.
        [Tok::Ident(n), Tok::Punct("...")] if tparams.iter().any(|p| p.pack && p.name == *n) => {
            Some(n.clone())
        }
        _ => None,
    }
}
