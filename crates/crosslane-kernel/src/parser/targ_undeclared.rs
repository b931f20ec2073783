//! Names a template argument uses that the file does not declare: a default template
//! argument naming an undefined macro (`template <int W = WIDTH_NOT_DEFINED>`, reported at the
//! name as a compiler does, [basic.lookup]/1) and a qualified type or constant from a header
//! crosslane does not read.

use super::Parser;
use crate::ast::Span;
use crate::lexer::{Tok, Token};
use crate::KernelError;

impl Parser<'_> {
    /// The first identifier of a default template argument's tokens that names nothing this
    /// file declares before it: not an earlier template parameter (`params`), a constant, a
    /// struct, a type word or a keyword, and not called, qualified or a member (`f(…)`,
    /// `S::v`, `a.b`, `X<…>`, which other lookups judge). `None` when every name is known.
    pub(super) fn undeclared_in_default<'t>(
        &self,
        default: &'t [Token],
        params: &[super::targs::TParam],
    ) -> Option<&'t Token> {
        const KNOWN_WORDS: &[&str] = &[
            "sizeof",
            "alignof",
            "true",
            "false",
            "nullptr",
            "decltype",
            "typename",
            "warpSize",
            "const",
            "unsigned",
            "signed",
            "int",
            "long",
            "short",
            "char",
            "float",
            "double",
            "bool",
            "void",
            "auto",
            "static_cast",
            "std",
            "cuda",
        ];
        let punct = |j: usize, p: &str| {
            default
                .get(j)
                .is_some_and(|t| matches!(&t.tok, Tok::Punct(q) if *q == p))
        };
        default
            .iter()
            .enumerate()
            .find(|(j, t)| {
                let Tok::Ident(w) = &t.tok else { return false };
                let used_otherwise = ["(", "<", "::"].iter().any(|p| punct(j + 1, p))
                    || (*j > 0 && [".", "::", "->"].iter().any(|p| punct(j - 1, p)));
                !used_otherwise
                    && !KNOWN_WORDS.contains(&w.as_str())
                    && !params.iter().any(|p| &p.name == w)
                    && !self.consts.contains_key(w)
                    && !self.structs.contains_key(w)
                    && !self.aliases.contains_key(w)
                    && !super::types::TYPE_WORDS.contains(&w.as_str())
                    && !super::types::QUALIFIERS.contains(&w.as_str())
            })
            .map(|(_, t)| t)
    }
}

/// The refusal of a template argument that names `name`, a qualified name the source does not
/// declare: headers are not read, so their types are unknown here.
pub(super) fn undeclared_targ(at: Span, name: &str) -> KernelError {
    KernelError::new(
        at.line,
        at.col,
        format!(
            "`{name}` is not declared in this file: a type or constant from a header, which \
             crosslane does not read (it reads this one file); declare it in the source (a \
             struct of the same members) or write the type it stands for"
        ),
    )
}

impl Parser<'_> {
    /// The qualified name at the position (`thrust::pair`, `torch::headeronly::Half`) when it
    /// has a `::` and names nothing the source declares (no struct, class template, alias,
    /// variable, function or enumerator of that full name or of its last part): a name from
    /// a header crosslane does not read. The position is kept.
    pub(super) fn undeclared_qualified_name(&self) -> Option<String> {
        let mut k = 0;
        let mut parts = Vec::new();
        while let Tok::Ident(w) = self.peek(k) {
            parts.push(w.clone());
            if !matches!(self.peek(k + 1), Tok::Punct("::")) {
                break;
            }
            k += 2;
        }
        // The namespaces whose names crosslane knows without their headers.
        const KNOWN_NS: &[&str] = &[
            "std",
            "cub",
            "hipcub",
            "cuda",
            "cooperative_groups",
            "nvcuda",
        ];
        if parts.len() < 2 || KNOWN_NS.contains(&parts[0].as_str()) {
            return None;
        }
        let full = parts.join("::");
        let last = parts.last()?;
        let known = |n: &str| {
            self.structs.contains_key(n)
                || self.class_templates.contains_key(n)
                || self.aliases.contains_key(n)
                || self.templates.contains_key(n)
                || self.fn_types.contains_key(n)
                || self.var_type(n).is_some()
        };
        (!known(&full) && !known(last)).then_some(full)
    }
}
