//! Class template partial specializations (C++17 [temp.class.spec]):
//! `template <int N> struct Reduce<float, N> { … };` is kept beside its primary template and
//! chosen for an instance whose arguments it matches (`Reduce<float, 16>`, with `N = 16`).
//!
//! Matching ([temp.class.spec.match]): each argument of the specialization is either one of
//! its own parameters (which binds to the instance's argument, the same one wherever it
//! repeats) or a concrete type or value (which must equal it). Among the specializations that
//! match, the one with the most concrete arguments is taken — [temp.class.order]'s partial
//! ordering for these forms; two equally specialized matches are an ambiguity, reported.
//! Pointer patterns (`Traits<T*>`) are refused: the emulator's template arguments are value
//! types.

use super::targs::{TArg, TParam};
use super::templates::Template;
use super::{PResult, Parser};
use crate::ast::Span;
use crate::lexer::{Tok, Token};
use crate::KernelError;

/// One argument of a specialization's pattern.
#[derive(Clone, Debug)]
enum Pat {
    /// One of the specialization's parameters, by name.
    Param(String),
    /// A type or value the instance's argument must equal.
    Concrete(TArg),
    /// An argument naming the specialization's parameters inside a larger form
    /// (`std::enable_if_t<std::is_floating_point_v<T>>`): a non-deduced context
    /// ([temp.deduct.type]/5.1), substituted once the other arguments deduced the parameters.
    /// A substitution that fails (an `enable_if` whose condition is false) makes the
    /// specialization not match ([temp.class.spec.match]/2, [temp.deduct]/8).
    Dependent(Vec<Token>),
}

/// A partial specialization: its parameters, its pattern and its tokens (the class with the
/// pattern removed: `struct Name { … };`).
#[derive(Clone, Debug)]
pub struct PartialSpec {
    params: Vec<TParam>,
    pattern: Vec<Pat>,
    tokens: Vec<Token>,
}

impl Parser<'_> {
    /// At `struct Name <` after `template <params>`: records the partial specialization.
    ///
    /// # Errors
    /// A pattern argument that is neither a parameter nor a type or constant, a pointer
    /// pattern, or an unclosed class body.
    pub(super) fn partial_spec_def(&mut self, at: Span, params: Vec<TParam>) -> PResult<()> {
        let from = self.pos;
        let Tok::Ident(name) = self.peek(1).clone() else {
            return self.err("the class template's name");
        };
        // The pattern's arguments: tokens split at top-level commas up to the closing `>`.
        let mut k = from + 3;
        let mut depth = 0usize;
        // Parentheses nest apart: `<` and `>` inside them are comparisons (`(N > 4)`).
        let mut parens = 0usize;
        let mut args: Vec<Vec<Token>> = vec![Vec::new()];
        loop {
            let Some(t) = self.toks.get(k) else {
                return self.err("`>` closing the specialization's arguments");
            };
            match &t.tok {
                Tok::Eof => return self.err("`>` closing the specialization's arguments"),
                Tok::Punct("(" | "[") => parens += 1,
                Tok::Punct(")" | "]") => parens = parens.saturating_sub(1),
                _ if parens > 0 => {}
                Tok::Punct("<") => depth += 1,
                Tok::Punct(">") if depth == 0 => break,
                Tok::Punct(">") => depth -= 1,
                // `Op<T, enable_if_t<C>>`: the `>>` closes an inner list and the pattern
                // ([temp.names]/3); its first half stays with the argument.
                Tok::Punct(">>") if depth == 1 => {
                    if let Some(last) = args.last_mut() {
                        last.push(Token {
                            tok: Tok::Punct(">"),
                            ..t.clone()
                        });
                    }
                    break;
                }
                Tok::Punct(">>") => depth = depth.saturating_sub(2),
                Tok::Punct(",") if depth == 0 => {
                    args.push(Vec::new());
                    k += 1;
                    continue;
                }
                Tok::Punct("*" | "&") if depth == 0 && parens == 0 => {
                    return Err(KernelError::new(
                        t.line,
                        t.col,
                        "pointer and reference patterns in a partial specialization are not \
                         supported: template arguments here are value types",
                    ))
                }
                _ => {}
            }
            if let Some(last) = args.last_mut() {
                last.push(t.clone());
            }
            k += 1;
        }
        let args_end = k + 1;
        let mut pattern = Vec::new();
        for a in &args {
            pattern.push(self.pattern_arg(a, &params, at)?);
        }
        // The body, as an explicit specialization keeps it.
        let mut j = args_end;
        while !matches!(
            self.toks[j.min(self.toks.len() - 1)].tok,
            Tok::Punct("{" | ";") | Tok::Eof
        ) {
            j += 1;
        }
        if matches!(self.toks[j.min(self.toks.len() - 1)].tok, Tok::Punct(";")) {
            self.pos = j + 1;
            return Ok(());
        }
        let close = self
            .closing(j)
            .ok_or_else(|| KernelError::new(at.line, at.col, "`{` never closed"))?;
        let end = (close + 1).min(self.toks.len() - 1);
        let mut tokens = self.toks[from..from + 2].to_vec();
        tokens.extend_from_slice(&self.toks[args_end..=end]);
        let last = tokens.last().map_or((1, 1), |t| t.end);
        tokens.push(Token {
            tok: Tok::Eof,
            line: last.0,
            col: last.1,
            end: last,
        });
        self.partial_specs
            .entry(name)
            .or_default()
            .push(PartialSpec {
                params,
                pattern,
                tokens,
            });
        self.pos = end + 1;
        Ok(())
    }

    /// One pattern argument's tokens.
    fn pattern_arg(&mut self, toks: &[Token], params: &[TParam], at: Span) -> PResult<Pat> {
        if let [Token {
            tok: Tok::Ident(w), ..
        }] = toks
        {
            if params.iter().any(|p| p.name == *w) {
                return Ok(Pat::Param(w.clone()));
            }
        }
        if toks
            .iter()
            .any(|t| matches!(&t.tok, Tok::Ident(w) if params.iter().any(|p| p.name == *w)))
        {
            return Ok(Pat::Dependent(toks.to_vec()));
        }
        let (Some(first), Some(last)) = (toks.first(), toks.last()) else {
            return Err(KernelError::new(
                at.line,
                at.col,
                "an empty specialization argument",
            ));
        };
        let mut list = vec![Token {
            tok: Tok::Punct("<"),
            ..first.clone()
        }];
        list.extend_from_slice(toks);
        list.push(Token {
            tok: Tok::Punct(">"),
            ..last.clone()
        });
        list.push(Token {
            tok: Tok::Eof,
            ..last.clone()
        });
        let mut sub = Parser::new(&list, self.comments, self.max_depth);
        sub.aliases = self.aliases.clone();
        sub.consts = self.consts.clone();
        sub.constexpr_fns = self.constexpr_fns.clone();
        sub.structs = std::mem::take(&mut self.structs);
        let r = sub.template_args();
        self.structs = std::mem::take(&mut sub.structs);
        match r?.as_slice() {
            [one] => Ok(Pat::Concrete(one.clone())),
            _ => Err(KernelError::new(
                first.line,
                first.col,
                "a specialization argument: a parameter of the specialization, a type or a \
                 constant",
            )),
        }
    }

    /// The partial specialization of class template `name` that the instance arguments
    /// `bound` select, as a template and the arguments its parameters bind to.
    ///
    /// # Errors
    /// Two equally specialized matches.
    pub(super) fn match_partial(
        &mut self,
        name: &str,
        bound: &[TArg],
        at: Span,
    ) -> PResult<Option<(Template, Vec<TArg>)>> {
        let Some(specs) = self.partial_specs.get(name) else {
            return Ok(None);
        };
        let specs = specs.clone();
        let primary = self
            .class_templates
            .get(name)
            .map(|t| t.params().to_vec())
            .unwrap_or_default();
        let mut best: Option<(usize, &PartialSpec, Vec<TArg>)> = None;
        let mut tied = false;
        for s in &specs {
            let Some(args) = matches(s, bound) else {
                continue;
            };
            if !self.dependent_hold(s, &args, bound, &primary) {
                continue;
            }
            let concrete = s
                .pattern
                .iter()
                .filter(|p| !matches!(p, Pat::Param(_)))
                .count();
            match &best {
                Some((c, _, _)) if *c > concrete => {}
                Some((c, _, _)) if *c == concrete => tied = true,
                _ => {
                    tied = false;
                    best = Some((concrete, s, args));
                }
            }
        }
        if tied {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!(
                    "two partial specializations of `{name}` match these arguments equally \
                     ([temp.class.spec.match]/1: ambiguous)"
                ),
            ));
        }
        Ok(best.map(|(_, s, args)| (Template::class(s.params.clone(), s.tokens.clone()), args)))
    }
}

impl Parser<'_> {
    /// Whether each [`Pat::Dependent`] argument of `s`, with its parameters bound to `args`,
    /// names the instance's argument at its position. A substitution failure is no match.
    fn dependent_hold(
        &mut self,
        s: &PartialSpec,
        args: &[TArg],
        bound: &[TArg],
        primary: &[TParam],
    ) -> bool {
        let prior: Vec<(TParam, TArg)> =
            s.params.iter().cloned().zip(args.iter().cloned()).collect();
        for (i, (p, a)) in s.pattern.iter().zip(bound).enumerate() {
            let Pat::Dependent(toks) = p else {
                continue;
            };
            let is_type = primary.get(i).is_none_or(|q| q.value.is_none());
            match self.default_arg_bound(toks, is_type, &prior) {
                Ok(Some(got)) if got == *a => {}
                _ => return false,
            }
        }
        true
    }
}

/// The arguments of `s`'s parameters when its pattern matches `bound`.
fn matches(s: &PartialSpec, bound: &[TArg]) -> Option<Vec<TArg>> {
    if s.pattern.len() != bound.len() {
        return None;
    }
    let mut got: Vec<Option<TArg>> = vec![None; s.params.len()];
    for (p, a) in s.pattern.iter().zip(bound) {
        match p {
            Pat::Concrete(c) if c == a => {}
            // `Q<T, 0u>` of `template <typename T, unsigned N>`: the primary's parameter has
            // a declared type, so the argument was settled to a plain value
            // ([`super::targs::settle`]) and the pattern's type is the parameter's too.
            Pat::Concrete(c @ TArg::Typed(..)) if matches!(a, TArg::Value(_)) => {
                if c.clone().untyped() != *a {
                    return None;
                }
            }
            Pat::Concrete(_) => return None,
            // Checked after deduction ([`Parser::dependent_hold`]).
            Pat::Dependent(_) => {}
            Pat::Param(n) => {
                let k = s.params.iter().position(|q| q.name == *n)?;
                match &got[k] {
                    Some(prev) if prev != a => return None,
                    _ => got[k] = Some(a.clone()),
                }
            }
        }
    }
    // A parameter no pattern argument names cannot be deduced ([temp.class.spec]/8).
    got.into_iter().collect()
}
