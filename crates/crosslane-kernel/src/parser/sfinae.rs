//! Overload sets of function templates chosen by substitution failure (SFINAE, C++17
//! [temp.deduct]/8): several templates of one name whose `std::enable_if` conditions exclude
//! each other, in the two forms kernels write —
//!
//! - a constrained template parameter: `template <typename T, std::enable_if_t<C, int> = 0>`
//!   (also `typename std::enable_if<C, int>::type = 0` and `std::enable_if_t<C>* = nullptr`),
//!   read as an unnamed parameter whose default is the `enable_if` type;
//! - the return type: `typename std::enable_if<C, R>::type f(T)`, `std::enable_if_t<C, R> f(T)`.
//!
//! The first template of a name keeps its name; each later one is kept under `name#N` (N = 2,
//! 3, …). A call of the name tries every template: deduction and defaults
//! ([`Parser::bind_call`]) and the return type with the arguments bound; a template whose
//! `enable_if` names no type (its condition is false) is dropped from the set. Exactly one
//! left is called. None left is an error listing each template's reason; several left is an
//! error too: choosing by conversions and partial ordering ([over.match.best],
//! [temp.func.order]) is not modelled, so the constraints must exclude each other.
//!
//! Bounded: each call tries each template of the name once; at most [`MAX_OVERLOADS`]
//! templates share a name.

use super::targs::{TArg, TParam};
use super::{PResult, Parser};
use crate::ast::Span;
use crate::lexer::{Tok, Token};
use crate::KernelError;

/// Most function templates that share one name.
pub const MAX_OVERLOADS: usize = 16;

/// Words before a function template's return type that are no part of it.
const SPECIFIERS: &[&str] = &[
    "__device__",
    "__host__",
    "__global__",
    "__forceinline__",
    "__noinline__",
    "inline",
    "__inline__",
    "__inline",
    "static",
    "constexpr",
];

impl Parser<'_> {
    /// The key a new function template `name` is kept under: `name`, or `name#N` when a
    /// template of that name exists (an overload).
    ///
    /// # Errors
    /// More than [`MAX_OVERLOADS`] templates of one name.
    pub(super) fn template_key(&mut self, name: String, at: Span) -> PResult<String> {
        if !self.templates.contains_key(&name) {
            return Ok(name);
        }
        let list = self.overloads.entry(name.clone()).or_default();
        if list.len() + 1 >= MAX_OVERLOADS {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!("more than {MAX_OVERLOADS} function templates named `{name}`"),
            ));
        }
        let key = format!("{name}#{}", list.len() + 2);
        list.push(key.clone());
        Ok(key)
    }

    /// The function of the overload set `name` that this call selects, when `name` has
    /// several templates or non-template functions besides its template (`None`: one template,
    /// nothing to choose). The choice is a template's key (`true`) or a non-template
    /// function's (`false`), ranked as [`super::overload`] describes.
    ///
    /// # Errors
    /// No candidate accepts the arguments, or several are equally good.
    pub(super) fn choose_overload(
        &mut self,
        name: &str,
        given: &[TArg],
        args: &[crate::ast::Expr],
        at: Span,
    ) -> PResult<Option<(String, bool)>> {
        let alts = self.overloads.get(name).cloned();
        // Explicit template arguments name a template ([temp.arg.explicit]).
        let plain = if given.is_empty() {
            self.plain_candidates(name)
        } else {
            Vec::new()
        };
        if alts.is_none() && plain.is_empty() {
            return Ok(None);
        }
        let mut cands = plain;
        let mut reasons = Vec::new();
        // The kinds of the explicit arguments `given`, when they are this call's (a count that
        // differs is another list's: none applies).
        let kinds = std::mem::take(&mut self.call_targ_kinds);
        let kinds = if kinds.len() == given.len() {
            kinds
        } else {
            Vec::new()
        };
        for key in std::iter::once(name.to_string()).chain(alts.unwrap_or_default()) {
            let line = self
                .templates
                .get(&key)
                .and_then(|t| t.tokens().first())
                .map_or(0, |t| t.line);
            if let Some(why) = self.not_viable(&key, args) {
                reasons.push(format!("line {line}: {why}"));
                continue;
            }
            let params = self.templates.get(&key).map(|t| t.params().to_vec());
            if let Some(why) = params.and_then(|p| self.enum_targ_mismatch(&p, &kinds)) {
                reasons.push(format!("line {line}: {why}"));
                continue;
            }
            let r = self
                .bind_call(&key, given.to_vec(), args, at)
                .and_then(|(params, bound)| {
                    self.return_type_holds(&key, &params, &bound)?;
                    Ok((params, bound))
                });
            match r {
                Ok((params, bound)) => {
                    let c = self.template_candidate(&key, line, &params, &bound);
                    cands.push(c);
                }
                Err(e) => reasons.push(format!("line {line}: {}", e.message)),
            }
        }
        if cands.is_empty() {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!(
                    "no template of the overload set `{name}` accepts these arguments \
                     (substitution failed in each: {})",
                    reasons.join("; ")
                ),
            ));
        }
        let best = self.best_candidate(name, cands, args, reasons, at)?;
        Ok(Some((best.key, best.template)))
    }

    /// Why template `key` cannot take `args` at all, whatever its template arguments: a
    /// parameter of a fixed scalar or vector type given an argument of another component count
    /// (`float2 f(float2)` given a `float`: no implicit conversion between a scalar and a
    /// vector type exists, [over.match.viable]/4; the CUDA vector types are structs). `None`
    /// when each such parameter can take its argument, or the types are not known here.
    fn not_viable(&self, key: &str, args: &[crate::ast::Expr]) -> Option<String> {
        let t = self.templates.get(key)?;
        let params = super::overload::split_params(super::overload::param_tokens(t.tokens())?);
        for (param, arg) in params.iter().zip(args) {
            if param.iter().any(|t| matches!(t.tok, Tok::Punct("*" | "<"))) {
                continue;
            }
            let fixed = param.iter().find_map(|t| match &t.tok {
                Tok::Ident(w) => {
                    super::types::word_type(w).or_else(|| super::types::cuda_vector(w))
                }
                _ => None,
            });
            let (Some(fixed), Some(given)) = (fixed, self.expr_type(arg)) else {
                continue;
            };
            if fixed.lanes != given.lanes {
                return Some(format!(
                    "a parameter of type {} cannot take an argument of type {}",
                    crate::vector_types::cuda_name(fixed),
                    crate::vector_types::cuda_name(given)
                ));
            }
        }
        None
    }

    /// Whether template `key`'s return type names a type with `bound` (an `enable_if` in it
    /// whose condition is false does not).
    pub(super) fn return_type_holds(
        &mut self,
        key: &str,
        params: &[TParam],
        bound: &[TArg],
    ) -> PResult<()> {
        let Some(t) = self.templates.get(key) else {
            return Ok(());
        };
        // A member template's key is `S::name` (`S::name#2`): its declaration names `name`.
        let base = crate::ast::overload_base(key);
        let base = base.rsplit("::").next().unwrap_or(base);
        let toks = t.tokens();
        let Some(named) = toks
            .iter()
            .position(|x| matches!(&x.tok, Tok::Ident(n) if n == base))
        else {
            return Ok(());
        };
        let mut head: Vec<Token> = toks[..named]
            .iter()
            .filter(|x| !matches!(&x.tok, Tok::Ident(w) if SPECIFIERS.contains(&w.as_str())))
            .cloned()
            .collect();
        // `auto f(…) -> std::enable_if_t<C>` ([dcl.fct]/2, a trailing return type): the type
        // after `->` is the return type, substituted the same way ([temp.deduct]/7: "the
        // substitution occurs in all types and expressions … in the function type").
        if matches!(head.as_slice(), [t] if matches!(&t.tok, Tok::Ident(w) if w == "auto")) {
            if let Some(trailing) = trailing_return_type(toks, named + 1) {
                head = trailing;
            }
        }
        let names_enable_if = head
            .iter()
            .any(|x| matches!(&x.tok, Tok::Ident(w) if w.starts_with("enable_if")));
        if !names_enable_if {
            return Ok(());
        }
        let prior: Vec<(TParam, TArg)> =
            params.iter().cloned().zip(bound.iter().cloned()).collect();
        self.default_arg_bound(&head, true, &prior).map(|_| ())
    }

    /// A constrained template parameter at the cursor (`std::enable_if_t<C, int> = 0`,
    /// `typename std::enable_if<C>::type* = nullptr`), read to its end and returned as an
    /// unnamed type parameter whose default is the `enable_if` type; `None` (nothing read)
    /// when the parameter is of another form.
    pub(super) fn enable_if_param(&mut self, index: usize) -> Option<TParam> {
        let mut k = self.pos;
        let word = |k: usize| match self.toks.get(k).map(|t| &t.tok) {
            Some(Tok::Ident(w)) => Some(w.as_str()),
            _ => None,
        };
        if word(k) == Some("typename") {
            k += 1;
        }
        let from = k;
        if word(k) == Some("std")
            && matches!(self.toks.get(k + 1).map(|t| &t.tok), Some(Tok::Punct("::")))
        {
            k += 2;
        }
        let trait_name = word(k)?;
        if !matches!(trait_name, "enable_if" | "enable_if_t") {
            return None;
        }
        let suffix = trait_name == "enable_if";
        k += 1;
        if !matches!(self.toks.get(k).map(|t| &t.tok), Some(Tok::Punct("<"))) {
            return None;
        }
        // To the `>` that closes the trait's list (`>>` closes two).
        let mut depth = 0usize;
        let mut owed = false;
        loop {
            match self.toks.get(k).map(|t| &t.tok) {
                None | Some(Tok::Eof | Tok::Punct(";" | "{")) => return None,
                Some(Tok::Punct("<")) => depth += 1,
                Some(Tok::Punct(">")) => depth -= 1,
                Some(Tok::Punct(">>")) if depth >= 2 => depth -= 2,
                // The trait's list and the template parameter list end together.
                Some(Tok::Punct(">>")) if depth == 1 => {
                    owed = true;
                    depth = 0;
                }
                _ => {}
            }
            k += 1;
            if depth == 0 {
                break;
            }
        }
        let mut ty: Vec<Token> = self.toks[from..k].to_vec();
        if owed {
            // `enable_if_t<C>>`: the `>>`'s first `>` ends the trait, its second the list.
            if let Some(last) = ty.last_mut() {
                last.tok = Tok::Punct(">");
            }
            self.pos = k;
            self.gt_owed = Some(self.pos);
            return Some(unnamed(index, ty));
        }
        if suffix {
            if !(matches!(self.toks.get(k).map(|t| &t.tok), Some(Tok::Punct("::")))
                && word(k + 1) == Some("type"))
            {
                return None;
            }
            ty.extend_from_slice(&self.toks[k..k + 2]);
            k += 2;
        }
        // `* = nullptr`, a name, `= 0`: nothing to keep.
        if matches!(self.toks.get(k).map(|t| &t.tok), Some(Tok::Punct("*"))) {
            k += 1;
        }
        if word(k).is_some() {
            k += 1;
        }
        if matches!(self.toks.get(k).map(|t| &t.tok), Some(Tok::Punct("="))) {
            k += 1;
            let mut d = 0usize;
            loop {
                match self.toks.get(k).map(|t| &t.tok) {
                    None | Some(Tok::Eof | Tok::Punct(";" | "{")) => return None,
                    Some(Tok::Punct("(" | "<")) => d += 1,
                    Some(Tok::Punct(")")) => d = d.saturating_sub(1),
                    Some(Tok::Punct(">" | "," | ">>")) if d == 0 => break,
                    Some(Tok::Punct(">")) => d -= 1,
                    _ => {}
                }
                k += 1;
            }
        }
        self.pos = k;
        Some(unnamed(index, ty))
    }
}

/// The trailing return type of a declaration whose parameter list opens at `toks[open]`:
/// the tokens after the `->` that follows the list's `)` (and its qualifiers), to the body's
/// `{` or the declaration's `;` ([dcl.decl]/4, `parameters-and-qualifiers trailing-return-type`).
/// `None` when no `(` opens there or no `->` follows. Bounded by the declaration's tokens.
fn trailing_return_type(toks: &[Token], open: usize) -> Option<Vec<Token>> {
    if !matches!(toks.get(open).map(|t| &t.tok), Some(Tok::Punct("("))) {
        return None;
    }
    let mut depth = 0usize;
    let mut k = open;
    loop {
        match toks.get(k).map(|t| &t.tok) {
            None | Some(Tok::Eof) => return None,
            Some(Tok::Punct("(")) => depth += 1,
            Some(Tok::Punct(")")) => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    break;
                }
            }
            _ => {}
        }
        k += 1;
    }
    k += 1;
    // Qualifiers between the list and the `->` (`const`, `noexcept`, `&`): none names a type.
    while let Some(t) = toks.get(k) {
        match &t.tok {
            Tok::Punct("->") => break,
            Tok::Ident(w) if matches!(w.as_str(), "const" | "volatile" | "noexcept") => k += 1,
            Tok::Punct("&" | "&&") => k += 1,
            _ => return None,
        }
    }
    k += 1;
    let from = k;
    let mut depth = 0usize;
    while let Some(t) = toks.get(k) {
        match &t.tok {
            Tok::Eof => break,
            Tok::Punct("(" | "[") => depth += 1,
            Tok::Punct(")" | "]") => depth = depth.saturating_sub(1),
            Tok::Punct("{" | ";") if depth == 0 => break,
            _ => {}
        }
        k += 1;
    }
    (k > from).then(|| toks[from..k].to_vec())
}

/// The unnamed type parameter number `index` whose default is the type `ty`.
fn unnamed(index: usize, ty: Vec<Token>) -> TParam {
    TParam {
        name: format!("<unnamed {index}>"),
        value: None,
        default: Some(ty),
        pack: false,
        named: false,
        placeholder: false,
        enumeration: None,
    }
}
