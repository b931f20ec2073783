//! Two rewrites of the token stream after preprocessing, before parsing:
//!
//! - Adjacent string literals become one (C++17 [lex.phases]/1.6, translation phase 6, and
//!   [lex.string]/13: `"a" "b"` is `"ab"`), so a `printf` format or a `static_assert` message
//!   written in pieces, or split around a macro, reads as the one literal the compilers see.
//! - The `<cstdint>` / `<cstddef>` type names qualified as `std::uint32_t` or `::uint32_t` are
//!   read as their unqualified names: the headers declare each in namespace `std` and (in the
//!   `.h` forms nvcc and hipcc include) at global scope as the same type (C++17 [cstdint.syn],
//!   [support.types.layout], and [depr.c.headers]/3), so the qualifier names nothing else.
//!
//! One pass each, linear in the tokens.

use super::scopes::{punct, word};
use crate::lexer::{Tok, Token};

/// The `<cstdint>` / `<cstddef>` names the parser knows as types (its `TYPE_WORDS`).
const STD_TYPES: &[&str] = &[
    "size_t",
    "ptrdiff_t",
    "intptr_t",
    "uintptr_t",
    "int8_t",
    "uint8_t",
    "int16_t",
    "uint16_t",
    "int32_t",
    "uint32_t",
    "int64_t",
    "uint64_t",
];

/// `tokens` with each run of adjacent string literals joined into its first token (which then
/// ends where the last ended), and `std::` / `::` dropped before a `<cstdint>` type name.
pub(super) fn phase6(tokens: Vec<Token>) -> Vec<Token> {
    let mut out: Vec<Token> = Vec::with_capacity(tokens.len());
    let mut k = 0;
    while k < tokens.len() {
        let t = &tokens[k];
        if let Tok::Str(next) = &t.tok {
            if let Some(Token {
                tok: Tok::Str(text),
                end,
                ..
            }) = out.last_mut()
            {
                join(text, next);
                *end = t.end;
                k += 1;
                continue;
            }
        }
        // `std::uint32_t` and `::std::uint32_t`: the `std` and both `::` go.
        if word(Some(t)) == Some("std")
            && punct(tokens.get(k + 1), "::")
            && word(tokens.get(k + 2)).is_some_and(|w| STD_TYPES.contains(&w))
        {
            if punct(out.last(), "::") && !qualifies(out.len().checked_sub(2).map(|j| &out[j])) {
                out.pop();
            }
            k += 2;
            continue;
        }
        // `::uint32_t`: a global-scope qualifier, not `X::uint32_t` (a member of some `X`).
        if punct(Some(t), "::")
            && word(tokens.get(k + 1)).is_some_and(|w| STD_TYPES.contains(&w))
            && !qualifies(out.last())
        {
            k += 1;
            continue;
        }
        out.push(t.clone());
        k += 1;
    }
    out
}

/// Whether a `::` after `t` qualifies a name by what `t` ends (`X::`, `T<int>::`), rather than
/// starting a name at global scope.
fn qualifies(t: Option<&Token>) -> bool {
    matches!(
        t.map(|t| &t.tok),
        Some(Tok::Ident(_) | Tok::Punct(">" | ">>"))
    )
}

/// Appends the literal text `next` to `text` (both as written, escapes unresolved). Escapes are
/// resolved in phase 5, before the join, so an octal or hexadecimal escape ending `text` must
/// not take in digits that begin `next` (`"\x1" "2"` is the two characters 0x01 and `2`, not
/// 0x12): such an escape is rewritten as its three-digit octal form, which takes no more
/// digits ([lex.ccon]/8: at most three octal digits). A hexadecimal escape too large for three
/// octal digits (above 0o377, a wide character) is kept as written.
fn join(text: &mut String, next: &str) {
    if let Some(first) = next.chars().next() {
        if first.is_ascii_hexdigit() {
            if let Some((at, value)) = trailing_numeric_escape(text) {
                if value <= 0o377 {
                    text.truncate(at);
                    text.push_str(&format!("\\{value:03o}"));
                }
            }
        }
    }
    text.push_str(next);
}

/// Where a numeric escape that ends `text` starts (its `\`) and its value, if `text` ends in
/// one (`\7`, `\17`, `\x1f`); `None` for any other ending, an escaped backslash included.
fn trailing_numeric_escape(text: &str) -> Option<(usize, u32)> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    // The escapes in order: a `\` starts one unless it is itself escaped.
    let mut k = 0;
    let mut last = None;
    while k < chars.len() {
        if chars[k].1 != '\\' {
            k += 1;
            continue;
        }
        let start = k;
        k += 1;
        match chars.get(k).map(|c| c.1) {
            Some('x') => {
                k += 1;
                let from = k;
                while chars.get(k).is_some_and(|c| c.1.is_ascii_hexdigit()) {
                    k += 1;
                }
                last = Some((start, k, from, 16));
            }
            Some('0'..='7') => {
                let from = k;
                while k < from + 3 && chars.get(k).is_some_and(|c| ('0'..='7').contains(&c.1)) {
                    k += 1;
                }
                last = Some((start, k, from, 8));
            }
            _ => {
                k += 1;
                last = None;
            }
        }
    }
    let (start, end, from, radix) = last?;
    if end != chars.len() || from == end {
        return None;
    }
    // An octal escape of three digits already takes no more.
    if radix == 8 && end - from == 3 {
        return None;
    }
    let digits: String = chars[from..end].iter().map(|c| c.1).collect();
    let value = u32::from_str_radix(&digits, radix).ok()?;
    Some((chars[start].0, value))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;

    fn texts(src: &str) -> Vec<String> {
        phase6(lex(src).expect("lexes").tokens)
            .iter()
            .map(|t| match &t.tok {
                Tok::Str(s) => format!("\"{s}\""),
                Tok::Ident(w) => w.clone(),
                Tok::Punct(p) => p.to_string(),
                other => format!("{other:?}"),
            })
            .collect()
    }

    #[test]
    fn adjacent_literals_join_and_escapes_keep_their_digits() {
        assert_eq!(
            texts(r#"f("a" "b" "c")"#),
            ["f", "(", "\"abc\"", ")", "Eof"]
        );
        // "\x1" "2" is 0x01 then '2'; "\12" "3" is 0o12 then '3'; "\123" "4" needs no change.
        assert_eq!(texts(r#""\x1" "2""#)[0], r#""\0012""#);
        assert_eq!(texts(r#""\12" "3""#)[0], r#""\0123""#);
        assert_eq!(texts(r#""\123" "4""#)[0], r#""\1234""#);
        // An escaped backslash before `x1` is no escape of `x1`.
        assert_eq!(texts(r#""\\x1" "2""#)[0], r#""\\x12""#);
        assert_eq!(texts(r#""%d\n" "ok""#)[0], r#""%d\nok""#);
    }

    #[test]
    fn std_and_global_qualifiers_of_cstdint_names_go() {
        assert_eq!(
            texts("std::uint32_t a; ::std::size_t b; (::int64_t)c; X::size_t d; std::min"),
            [
                "uint32_t", "a", ";", "size_t", "b", ";", "(", "int64_t", ")", "c", ";", "X", "::",
                "size_t", "d", ";", "std", "::", "min", "Eof"
            ]
        );
    }
}
