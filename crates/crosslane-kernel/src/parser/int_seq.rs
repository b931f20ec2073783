//! `<utility>`'s compile-time integer sequences (C++17 [intseq]): `std::integer_sequence<T,
//! I...>`, `std::index_sequence<I...>`, `std::make_integer_sequence<T, N>`,
//! `std::make_index_sequence<N>` and `std::index_sequence_for<T...>`.
//!
//! A token pass after preprocessing: where a source names one of them (and defines no
//! `integer_sequence` of its own), the `std::` before each is dropped and declarations are put
//! before the source: `integer_sequence` as a class template with `size()` ([intseq.intseq]),
//! the other names as alias templates ([intseq.general]/1's synopsis), read by
//! [`super::alias_templates`]. `make_integer_sequence<T, N>` is "an alias for
//! `integer_sequence<T, 0, 1, ..., N-1>`" ([intseq.make]/1); the parser makes that instance
//! from the builtin class template [`MAKE_SEQ`] ([`crate::parser`]'s `instantiate_class`), and
//! `index_sequence_for<T...>` from [`SEQ_FOR`] with the pack's length.

use crate::lexer::{Tok, Token};

/// The builtin class template `__crosslane_make_seq<T, N>`: the instance
/// `integer_sequence<T, 0, …, N-1>`.
pub(super) const MAKE_SEQ: &str = "__crosslane_make_seq";
/// The builtin class template `__crosslane_seq_for<Ts...>`: the instance
/// `integer_sequence<size_t, 0, …, sizeof...(Ts)-1>`.
pub(super) const SEQ_FOR: &str = "__crosslane_seq_for";

/// The most elements [`MAKE_SEQ`] makes: each element is a template argument and, expanded,
/// a copy of its pattern.
pub(super) const MAX_SEQ: i128 = 1024;

const NAMES: [&str; 5] = [
    "integer_sequence",
    "index_sequence",
    "make_integer_sequence",
    "make_index_sequence",
    "index_sequence_for",
];

const PRELUDE: &str = "\
template <typename T, T... Ints> struct integer_sequence {
  __host__ __device__ static constexpr size_t size() { return sizeof...(Ints); }
};
template <typename T, int N> struct __crosslane_make_seq;
template <typename... Ts> struct __crosslane_seq_for;
template <size_t... Ints> using index_sequence = integer_sequence<size_t, Ints...>;
template <typename T, T N> using make_integer_sequence = __crosslane_make_seq<T, N>;
template <size_t N> using make_index_sequence = __crosslane_make_seq<size_t, N>;
template <typename... Ts> using index_sequence_for = __crosslane_seq_for<Ts...>;
";

fn word(t: Option<&Token>) -> Option<&str> {
    match t.map(|t| &t.tok) {
        Some(Tok::Ident(w)) => Some(w),
        _ => None,
    }
}

/// `tokens` with the integer sequences declared before them and `std::` dropped before their
/// names, when the source names one; else `tokens` unchanged.
pub(super) fn int_seq(tokens: Vec<Token>) -> Vec<Token> {
    let Some(first) = tokens
        .iter()
        .find(|t| matches!(&t.tok, Tok::Ident(w) if NAMES.contains(&w.as_str())))
        .cloned()
    else {
        return tokens;
    };
    let defines_own = tokens.windows(2).any(|w| {
        matches!(word(w.first()), Some("struct" | "class"))
            && word(w.get(1)) == Some("integer_sequence")
    });
    if defines_own {
        return tokens;
    }
    let Ok(lexed) = crate::lexer::lex(PRELUDE) else {
        return tokens;
    };
    let mut out: Vec<Token> = lexed
        .tokens
        .into_iter()
        .filter(|t| !matches!(t.tok, Tok::Eof))
        .map(|t| Token {
            tok: t.tok,
            ..first.clone()
        })
        .collect();
    out.reserve(tokens.len());
    let mut k = 0;
    while k < tokens.len() {
        let std_scope = word(tokens.get(k)) == Some("std")
            && matches!(tokens.get(k + 1).map(|t| &t.tok), Some(Tok::Punct("::")))
            && word(tokens.get(k + 2)).is_some_and(|w| NAMES.contains(&w));
        if std_scope {
            // `::std::make_index_sequence`: the global `::` goes with it.
            if matches!(out.last().map(|t| &t.tok), Some(Tok::Punct("::"))) {
                out.pop();
            }
            k += 2;
            continue;
        }
        out.push(tokens[k].clone());
        k += 1;
    }
    out
}
