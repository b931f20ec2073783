//! Explicit specializations, `template <>` (C++17 [temp.expl.spec]): a class template's
//! `struct Name<ARGS> { … };` or a function template's `RET name<ARGS>(…) { … }`, kept under the
//! instance's mangled name for that instance to parse ([`super::fn_spec`] reads the function
//! specializations whose arguments are deduced).

use super::templates::{mangle, Template};
use super::*;

impl Parser<'_> {
    /// `template <>` and what follows (C++17 [temp.expl.spec]): a class template's explicit
    /// specialization `struct Name<ARGS> { … };` or a function template's
    /// `RET name<ARGS>(…) { … }`. The specialization is kept under the instance's mangled
    /// name (the arguments with the primary's defaults) and is what that instance parses.
    ///
    /// # Errors
    /// A specialization of no template declared before it, or a function specialization whose
    /// arguments are left to deduction (`template <> int f(int)`: write `f<int>`).
    pub(super) fn explicit_specialization(&mut self, at: Span) -> PResult<()> {
        let from = self.pos;
        let eof = |toks: &[Token]| {
            let last = toks.last().map_or((1, 1), |t| t.end);
            Token {
                tok: Tok::Eof,
                line: last.0,
                col: last.1,
                end: last,
            }
        };
        if self.is_word("struct") || self.is_word("class") || self.is_word("union") {
            let Tok::Ident(name) = self.peek(1).clone() else {
                return self.err("the specialized class template's name");
            };
            let Some(t) = self.class_templates.get(&name).cloned() else {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    format!("`template <>` specializes a class template declared before it; `{name}` is none"),
                ));
            };
            self.pos = from + 2;
            let args_from = self.pos;
            let given = self.template_args()?;
            let args_to = self.pos;
            let bound = self.with_defaults(&name, t.params(), given, at)?;
            let mangled = mangle(&name, &bound);
            let mut k = args_to;
            while !matches!(
                self.toks[k.min(self.toks.len() - 1)].tok,
                Tok::Punct("{") | Tok::Eof
            ) {
                k += 1;
            }
            let close = self
                .closing(k)
                .ok_or_else(|| KernelError::new(at.line, at.col, "`{` never closed"))?;
            let end = (close + 1).min(self.toks.len() - 1);
            let mut tokens = self.toks[from..args_from].to_vec();
            tokens.extend_from_slice(&self.toks[args_to..=end]);
            tokens.push(eof(&tokens));
            self.class_templates
                .insert(mangled, Template::class(Vec::new(), tokens));
            self.pos = end + 1;
            return Ok(());
        }
        // A function: its template's name followed by `<` and the arguments, or by its
        // parameter list with the arguments deduced from the signature ([`super::fn_spec`]).
        let mut k = from;
        let named = loop {
            match &self.toks[k.min(self.toks.len() - 1)].tok {
                Tok::Eof | Tok::Punct("(" | "{" | ";") => break None,
                Tok::Ident(n)
                    if self.templates.contains_key(n)
                        && matches!(
                            self.toks.get(k + 1).map(|t| &t.tok),
                            Some(Tok::Punct("<" | "("))
                        ) =>
                {
                    break Some(n.clone())
                }
                _ => k += 1,
            }
        };
        let Some(name) = named else {
            // A host function template's specialization ([`super::host_fn_spec`]).
            if let Some(next) = self.host_fn_specialization(from) {
                self.pos = next;
                return Ok(());
            }
            return Err(KernelError::new(
                at.line,
                at.col,
                "`template <>` before a function specializes a function template declared \
                 before it; this names none",
            ));
        };
        let (name, args_from, bound, args_to) =
            if matches!(self.toks.get(k + 1).map(|t| &t.tok), Some(Tok::Punct("<"))) {
                self.pos = k + 1;
                let args_from = self.pos;
                let given = self.template_args()?;
                let args_to = self.pos;
                let (key, bound) = self.spec_given(from, k, args_to, &name, given, at)?;
                (key, args_from, bound, args_to)
            } else {
                let (key, bound) = self.spec_deduced(from, k, &name, at)?;
                (key, k + 1, bound, k + 1)
            };
        let params = self
            .templates
            .get(&name)
            .map(|t| t.params().to_vec())
            .unwrap_or_default();
        let bound = self.with_defaults(&name, &params, bound, at)?;
        let mangled = mangle(&name, &bound);
        let mut j = args_to;
        let end = loop {
            let Some(t) = self.toks.get(j) else {
                return self.err("the specialized function's body");
            };
            match &t.tok {
                Tok::Eof => return self.err("the specialized function's body"),
                Tok::Punct("(") => {
                    j = self
                        .closing(j)
                        .ok_or_else(|| KernelError::new(t.line, t.col, "`(` never closed"))?;
                }
                Tok::Punct(";") => {
                    // A declaration of the specialization: nothing to keep.
                    self.pos = j + 1;
                    return Ok(());
                }
                Tok::Punct("{") => {
                    break self
                        .closing(j)
                        .ok_or_else(|| KernelError::new(t.line, t.col, "`{` never closed"))?;
                }
                _ => {}
            }
            j += 1;
        };
        let mut tokens = self.toks[from..args_from].to_vec();
        tokens.extend_from_slice(&self.toks[args_to..=end]);
        tokens.push(eof(&tokens));
        self.templates
            .insert(mangled, Template::class(Vec::new(), tokens));
        self.pos = end + 1;
        Ok(())
    }
}
