//! A file-scope alias of a type the front end does not model (aiter's `using buffer_rsrc_t =
//! __amdgpu_buffer_rsrc_t;`, `using bf16x8 = __attribute__((ext_vector_type(8))) __bf16;` in
//! a header whose kernels never name them): the alias is not declared, and its refusal is the
//! error of the functions that name it, not of the file. A use of the name is then an unknown
//! type, which [`super::deferred_types`] gives to the function it stands in, with this
//! refusal as its reason ([`Parser::unknown_type`]), so that a run reaching such a function
//! still stops before it starts, at the use, naming the alias's line (C++17 [dcl.typedef]/2:
//! an alias introduces a name for a type, which only the code that names it needs).
//!
//! Only a plain declaration of one reserved identifier is taken (`using NAME = __T;`, `typedef
//! __T NAME;`, C++17 [lex.name]/3: such names belong to the implementation, so they are the
//! compiler's types); anything else keeps the parse's reading.

use super::{PResult, Parser};
use crate::lexer::Tok;
use crate::types::ValTy;

/// The identifier [`super::ext_vector`] leaves in place of a clang extended vector type it
/// does not model, for [`Parser::alias`] to refuse where it stands.
pub(super) const UNMODELLED_VECTOR: &str = "__crosslane_ext_vector_not_modelled";

/// Most tokens a refused alias-declaration may span.
const MAX_ALIAS_TOKENS: usize = 64;

impl Parser<'_> {
    /// An alias-declaration at file scope (the parser at its `using` or `typedef`): declared
    /// as [`Parser::alias`] reads it, or, when that refuses it, skipped and its refusal kept
    /// for the uses of its name (the module's rules). `None` for a skipped one.
    ///
    /// # Errors
    /// The alias's error when it is not of the plain shape, or is a budget (`--max-…`).
    pub(super) fn file_scope_alias(&mut self) -> PResult<Option<(String, ValTy)>> {
        let (start, diags) = (self.pos, self.diags.len());
        let e = match self.alias() {
            Ok(a) => return Ok(Some(a)),
            Err(e) => e,
        };
        let Some((name, semi)) = self
            .plain_alias(start)
            .filter(|_| !e.message.contains("--max-") && self.names_builtin_type(start))
        else {
            return Err(e);
        };
        self.pos = semi + 1;
        self.diags.truncate(diags);
        let line = self.toks[start].line;
        // Shown on every run, as a refused device function's body is (`refused_kernel`).
        self.diag(
            crate::ast::Span {
                line: e.line,
                col: e.col,
            },
            crosslane_core::result::Level::Warning,
            format!(
                "alias `{name}` is not declared: {}; a function naming it stops with this \
                 error, the others run",
                e.message
            ),
            "C++17 [dcl.typedef]/2",
        );
        self.refused_aliases.insert(
            name,
            format!(
                "its alias-declaration at line {line} is refused: {}",
                e.message
            ),
        );
        Ok(None)
    }

    /// At an alias's aliased type: the clang vector type [`super::ext_vector`] left as
    /// [`UNMODELLED_VECTOR`] refused where it stands.
    ///
    /// # Errors
    /// That refusal ([`super::attributes::vector_refusal`]).
    pub(super) fn refuse_unmodelled_vector(&mut self) -> PResult<()> {
        if !self.is_word(UNMODELLED_VECTOR) {
            return Ok(());
        }
        let at = self.span();
        Err(crate::KernelError::new(
            at.line,
            at.col,
            super::attributes::vector_refusal("ext_vector_type"),
        ))
    }

    /// Whether the alias-declaration starting at `start` aliases one identifier reserved to
    /// the implementation (C++17 [lex.name]/3: a name with a double underscore, or an
    /// underscore and a capital letter): a compiler's builtin type (`__amdgpu_buffer_rsrc_t`)
    /// or [`UNMODELLED_VECTOR`]. A user's or a library's type (`::testing::Types<int>`) keeps
    /// the parse's reading (a host declaration, skipped).
    fn names_builtin_type(&self, start: usize) -> bool {
        let toks = self.toks;
        let word = |i: usize| match toks.get(i).map(|t| &t.tok) {
            Some(Tok::Ident(w)) => Some(w.as_str()),
            _ => None,
        };
        let reserved = |w: &str| {
            w.contains("__")
                || (w.starts_with('_') && w[1..].starts_with(|c: char| c.is_ascii_uppercase()))
        };
        // `using NAME = T ;` or `typedef T NAME ;`: `T` one word.
        let aliased = match word(start) {
            Some("using") => word(start + 3)
                .filter(|_| matches!(toks.get(start + 4).map(|t| &t.tok), Some(Tok::Punct(";")))),
            Some("typedef") => word(start + 1).filter(|_| {
                word(start + 2).is_some()
                    && matches!(toks.get(start + 3).map(|t| &t.tok), Some(Tok::Punct(";")))
            }),
            _ => None,
        };
        aliased.is_some_and(reserved)
    }

    /// The name and `;` of the plain alias-declaration starting at `start` (see the module).
    fn plain_alias(&self, start: usize) -> Option<(String, usize)> {
        let toks = self.toks;
        let semi = (start..toks.len().min(start + MAX_ALIAS_TOKENS))
            .take_while(|&i| !matches!(toks[i].tok, Tok::Punct("{" | "}") | Tok::Eof))
            .find(|&i| matches!(toks[i].tok, Tok::Punct(";")))?;
        let name = match (&toks[start].tok, toks.get(start + 1).map(|t| &t.tok)) {
            (Tok::Ident(w), Some(Tok::Ident(n))) if w == "using" => {
                matches!(toks.get(start + 2).map(|t| &t.tok), Some(Tok::Punct("=")))
                    .then(|| n.clone())?
            }
            (Tok::Ident(w), _) if w == "typedef" => match &toks[semi - 1].tok {
                Tok::Ident(n) if semi - 1 > start + 1 => n.clone(),
                _ => return None,
            },
            _ => return None,
        };
        Some((name, semi))
    }
}
