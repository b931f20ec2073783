//! Attributes, dropped from the token stream before parsing wherever they stand: the standard
//! attribute-specifier `[[…]]` (`[[likely]]`, `[[maybe_unused]]`, `[[nodiscard]]`; C++17
//! [dcl.attr.grammar]: two consecutive `[` tokens begin nothing else), `alignas(…)`
//! ([dcl.align]), CUDA's `__align__(N)` (CUDA C++ Programming Guide, "Alignment
//! Requirements") and GNU `__attribute__((…))`. None changes a value the emulator computes:
//! alignment fixes addresses and the others advise the compiler. `__launch_bounds__` is no
//! attribute here: the parser reads its bound.

use crate::lexer::{Tok, Token};

/// `tokens` without their attributes. One pass; a bracket or parenthesis left open drops
/// the rest of the attribute only (the parser then reports what is missing).
pub(super) fn strip_attributes(tokens: Vec<Token>) -> Vec<Token> {
    let is =
        |t: Option<&Token>, p: &str| matches!(t.map(|t| &t.tok), Some(Tok::Punct(q)) if *q == p);
    let mut out = Vec::with_capacity(tokens.len());
    let mut k = 0;
    while k < tokens.len() {
        let t = &tokens[k];
        // `[[ … ]]`: to the `]` that closes the first `[`.
        if is(Some(t), "[") && is(tokens.get(k + 1), "[") {
            let mut depth = 0usize;
            let mut j = k;
            while j < tokens.len() {
                if is(tokens.get(j), "[") {
                    depth += 1;
                } else if is(tokens.get(j), "]") {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        break;
                    }
                }
                j += 1;
            }
            k = j + 1;
            continue;
        }
        let word = matches!(&t.tok, Tok::Ident(w) if matches!(w.as_str(), "alignas" | "__align__" | "__attribute__" | "__declspec"));
        if word && is(tokens.get(k + 1), "(") {
            let mut depth = 0usize;
            let mut j = k + 1;
            while j < tokens.len() {
                if is(tokens.get(j), "(") {
                    depth += 1;
                } else if is(tokens.get(j), ")") {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        break;
                    }
                }
                j += 1;
            }
            k = j + 1;
            continue;
        }
        out.push(t.clone());
        k += 1;
    }
    // An attribute never closed (`[ [` at the end) must not swallow the end of input: the
    // parser relies on the token list ending in Eof.
    if !matches!(out.last().map(|t| &t.tok), Some(Tok::Eof)) {
        if let Some(eof) = tokens.last().filter(|t| matches!(t.tok, Tok::Eof)) {
            out.push(eof.clone());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex_with;

    fn words(src: &str) -> Vec<String> {
        let lexed = lex_with(src, 10_000).expect("lexes");
        strip_attributes(lexed.tokens)
            .iter()
            .filter_map(|t| match &t.tok {
                Tok::Ident(w) => Some(w.clone()),
                Tok::Punct(p) => Some(p.to_string()),
                Tok::Int { value, .. } => Some(value.to_string()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn an_unclosed_attribute_keeps_the_end_of_input() {
        let lexed = lex_with("[ [", 10_000).expect("lexes");
        let out = strip_attributes(lexed.tokens);
        assert!(matches!(out.last().map(|t| &t.tok), Some(Tok::Eof)));
    }

    #[test]
    fn attributes_go_and_everything_else_stays() {
        assert_eq!(
            words("alignas(16) int x [[maybe_unused]] = a[b[0]];"),
            ["int", "x", "=", "a", "[", "b", "[", "0", "]", "]", ";"]
        );
        assert_eq!(
            words("struct __align__(8) P { int a; } __attribute__((packed));"),
            ["struct", "P", "{", "int", "a", ";", "}", ";"]
        );
        assert_eq!(
            words("if (c) [[likely]] { f(); }"),
            ["if", "(", "c", ")", "{", "f", "(", ")", ";", "}"]
        );
    }
}
