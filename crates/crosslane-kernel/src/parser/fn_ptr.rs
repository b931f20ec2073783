//! Function pointers and templates as template arguments, bound when the template is
//! instantiated: vLLM's `template <typename T, T (*ACT_FN)(const T&)> __global__ void
//! act_and_mul_kernel(…)` launched as `act_and_mul_kernel<float, silu_kernel<float>>`, a
//! parameter of a `using fn_t = float (*)(float);` type, and template template parameters
//! (`template <template <typename> class Op>` given `Op = Neg`).
//!
//! Such an argument is a constant of the instantiation ([temp.arg.nontype]/1: a function
//! pointer template argument designates a function; [temp.arg.template]/1: a template
//! template argument names a class template), so each instance calls the function it was
//! given directly: the instance's tokens name the argument where the template named the
//! parameter (`ACT_FN(x)` is `silu_kernel<float>(x)` in that instance). A function pointer
//! held in a variable or passed as a call argument is chosen at run time: see
//! [`super::fn_ptr_run`].

use super::templates::TParam;
use super::{PResult, Parser};
use crate::ast::Span;
use crate::lexer::{Tok, Token};
use crate::KernelError;

use super::targs::TArg;

impl Parser<'_> {
    /// A function pointer (`T (*NAME)(…)`, `fn_t NAME` for a function pointer alias) or
    /// template template (`template <…> class NAME`) parameter at the position: its name,
    /// with the position after it. `None` (position kept) for any other parameter.
    ///
    /// # Errors
    /// A default argument for such a parameter.
    pub(super) fn named_tparam(&mut self) -> PResult<Option<String>> {
        let at = self.span();
        let save = self.pos;
        if self.is_word("template") && matches!(self.peek(1), Tok::Punct("<")) {
            // `template <typename, int> class Op`: the inner list is skipped (its arguments
            // are checked where `Op<…>` is used).
            self.bump();
            let mut depth = 0usize;
            loop {
                match self.peek(0) {
                    Tok::Punct("<") => depth += 1,
                    Tok::Punct(">") => {
                        depth = depth.saturating_sub(1);
                        if depth == 0 {
                            self.bump();
                            break;
                        }
                    }
                    Tok::Eof => return self.err("`>` to close the template template parameter"),
                    _ => {}
                }
                self.bump();
            }
            if !(self.eat_word("class") || self.eat_word("typename")) {
                return self.err("`class` after a template template parameter's `template <…>`");
            }
            let name = self.ident()?;
            return self.no_default(name, at).map(Some);
        }
        // `cub::BlockReduceAlgorithm ALGORITHM` (`cub_alg_param.rs`): bound to the
        // enumerator's name.
        if let Some(name) = self.cub_algorithm_tparam() {
            return self.no_default(name, at).map(Some);
        }
        if let Tok::Ident(w) = self.peek(0).clone() {
            if self.fn_ptr_types.contains(&w) && matches!(self.peek(1), Tok::Ident(_)) {
                self.bump();
                let name = self.ident()?;
                return self.no_default(name, at).map(Some);
            }
        }
        // `const int* P`: a pointer non-type parameter ([temp.param]/4.2), whose argument names
        // a file-scope `__constant__`/`__device__` array ([temp.arg.nontype]/1: the address of
        // an object with static storage duration); the instance names that array.
        {
            let mut k = 0;
            while matches!(self.peek(k), Tok::Ident(w) if w != "typename" && w != "class" && w != "template")
                && !matches!(self.peek(k + 1), Tok::Punct("*"))
            {
                k += 1;
            }
            let typed = k > 0
                || matches!(self.peek(0), Tok::Ident(w) if super::types::TYPE_WORDS.contains(&w.as_str()));
            if typed
                && matches!(self.peek(k), Tok::Ident(_))
                && matches!(self.peek(k + 1), Tok::Punct("*"))
            {
                let mut j = k + 2;
                while matches!(self.peek(j), Tok::Ident(w) if w == "const" || w == "volatile" || w == "__restrict__")
                {
                    j += 1;
                }
                if let (Tok::Ident(name), Tok::Punct("," | ">" | ">>" | "=")) =
                    (self.peek(j).clone(), self.peek(j + 1))
                {
                    self.pos += j + 1;
                    return self.no_default(name, at).map(Some);
                }
            }
        }
        // `RET (*NAME)(PARAMS)`: `(`, `*`, a name, `)`, `(` before the parameter's end.
        let mut k = 0;
        let mut depth = 0usize;
        loop {
            match self.peek(k) {
                Tok::Punct("(") => {
                    if depth == 0
                        && matches!(self.peek(k + 1), Tok::Punct("*"))
                        && matches!(self.peek(k + 2), Tok::Ident(_))
                        && matches!(self.peek(k + 3), Tok::Punct(")"))
                        && matches!(self.peek(k + 4), Tok::Punct("("))
                    {
                        let Tok::Ident(name) = self.peek(k + 2).clone() else {
                            break;
                        };
                        self.pos += k + 4;
                        let close = self
                            .closing(self.pos)
                            .ok_or_else(|| KernelError::new(at.line, at.col, "`(` never closed"))?;
                        self.pos = close + 1;
                        return self.no_default(name, at).map(Some);
                    }
                    depth += 1;
                }
                Tok::Punct(")") => depth = depth.saturating_sub(1),
                Tok::Punct("," | ">" | ">>" | "=") if depth == 0 => break,
                Tok::Eof => break,
                _ => {}
            }
            k += 1;
        }
        self.pos = save;
        Ok(None)
    }

    fn no_default(&mut self, name: String, at: Span) -> PResult<String> {
        if self.is_punct("=") {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!(
                    "a default for the function pointer or template template parameter `{name}` \
                     is not supported; give the argument at each use"
                ),
            ));
        }
        Ok(name)
    }

    /// A template argument naming a function (`silu`, `&silu`, `silu_kernel<float>`, whose
    /// instance it records) or a class template given without arguments (`Neg` for a
    /// template template parameter), if one is here: its name. The position is kept
    /// otherwise.
    ///
    /// # Errors
    /// A function template named without its arguments.
    pub(super) fn named_targ(&mut self, at: Span) -> PResult<Option<String>> {
        if let Some(alg) = self.cub_algorithm_targ() {
            return Ok(Some(alg));
        }
        let save = self.pos;
        let amp = self.eat("&");
        let Tok::Ident(w) = self.peek(0).clone() else {
            self.pos = save;
            return Ok(None);
        };
        let ends = |p: &Self, k: usize| matches!(p.peek(k), Tok::Punct("," | ">" | ">>"));
        if !amp && self.class_templates.contains_key(&w) && ends(self, 1) {
            self.bump();
            return Ok(Some(w));
        }
        // A file-scope `__constant__`/`__device__` array for a pointer parameter: its name
        // (the array converts to a pointer to its first element, [conv.array]).
        if !amp && self.global_vars.contains(&w) && ends(self, 1) {
            self.bump();
            return Ok(Some(w));
        }
        if amp
            && self.global_vars.contains(&w)
            && !(matches!(self.peek(1), Tok::Punct("["))
                && matches!(self.peek(2), Tok::Int { value: 0, .. })
                && matches!(self.peek(3), Tok::Punct("]"))
                && ends(self, 4))
        {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!(
                    "a pointer template argument here is the name of a file-scope \
                     `__constant__`/`__device__` array, as `{w}` or `&{w}[0]` (the instance \
                     reads that array); write `{w}` and index it in the template, or pass the \
                     address as a function argument"
                ),
            ));
        }
        if amp && self.global_vars.contains(&w) {
            self.pos += 4;
            return Ok(Some(w));
        }
        let is_var = self.var_type(&w).is_some() || self.consts.contains_key(&w);
        if self.templates.contains_key(&w) && !is_var {
            self.bump();
            if !self.is_punct("<") {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    format!(
                        "`{w}` is a function template: give its arguments (`{w}<float>`) where \
                         it is a template argument"
                    ),
                ));
            }
            let given = self.template_args()?;
            return self.instantiate_call(&w, given, &[], at).map(Some);
        }
        if self.fn_types.contains_key(&w) && !is_var && ends(self, 1) {
            self.bump();
            return Ok(Some(w));
        }
        self.pos = save;
        Ok(None)
    }

    /// `using NAME = RET (*)(PARAMS);` or `typedef RET (*NAME)(PARAMS);` at the position (after
    /// `using` / `typedef`): recorded as a function pointer type (for template parameters), the
    /// position after its `;`. `None` (position kept) for another alias.
    pub(super) fn fn_ptr_alias(&mut self, using: bool) -> PResult<Option<()>> {
        let save = self.pos;
        let sig = self.fn_ptr_alias_sig(save, using);
        let mut k = 0;
        let mut name = None;
        if using {
            if let (Tok::Ident(n), Tok::Punct("=")) = (self.peek(0).clone(), self.peek(1)) {
                name = Some(n);
            }
        }
        let mut found = false;
        loop {
            match self.peek(k) {
                Tok::Punct("(") if matches!(self.peek(k + 1), Tok::Punct("*")) => {
                    match (self.peek(k + 2), self.peek(k + 3)) {
                        (Tok::Punct(")"), Tok::Punct("(")) if using => found = true,
                        (Tok::Ident(n), Tok::Punct(")")) if !using => {
                            if matches!(self.peek(k + 4), Tok::Punct("(")) {
                                name = Some(n.clone());
                                found = true;
                            }
                        }
                        _ => {}
                    }
                }
                Tok::Punct(";") | Tok::Eof => break,
                _ => {}
            }
            if found {
                break;
            }
            k += 1;
        }
        let (true, Some(name)) = (found, name) else {
            self.pos = save;
            return Ok(None);
        };
        while !matches!(self.peek(0), Tok::Punct(";") | Tok::Eof) {
            self.bump();
        }
        self.expect_punct(";")?;
        if let Some(sig) = sig {
            self.fn_ptr_sigs.insert(name.clone(), sig);
        }
        self.fn_ptr_types.insert(name);
        Ok(Some(()))
    }
}

/// An instance's tokens with each function pointer and template template parameter's name
/// replaced by its argument's (the instance `silu_kernel<float>` stands as one name).
pub(super) fn substitute_named(
    mut tokens: Vec<Token>,
    params: &[TParam],
    args: &[TArg],
) -> Vec<Token> {
    let named: Vec<(&str, &str)> = params
        .iter()
        .zip(args)
        .filter_map(|(p, a)| match a {
            TArg::Named(n) if p.named => Some((p.name.as_str(), n.as_str())),
            _ => None,
        })
        .collect();
    if named.is_empty() {
        return tokens;
    }
    for t in &mut tokens {
        if let Tok::Ident(w) = &t.tok {
            if let Some((_, n)) = named.iter().find(|(p, _)| p == w) {
                t.tok = Tok::Ident((*n).to_string());
            }
        }
    }
    tokens
}
