//! `<type_traits>`'s helper classes (C++17 [meta.help]): `std::integral_constant<T, v>`, the
//! alias template `std::bool_constant<B>`, and `std::true_type` / `std::false_type`, the
//! aliases `integral_constant<bool, true>` / `<bool, false>`.
//!
//! A token pass after preprocessing, as [`super::int_seq`] is: where a source names one of them
//! (and declares none of those names itself), the `std::` before each is dropped and the
//! declarations of [meta.help]'s synopsis are put before the source. `integral_constant` has
//! the static member `value`, the member types `value_type` and `type`, the conversion to
//! `value_type` and `operator()` returning `value` ([meta.help]/1). Traits deriving from them
//! (`template <> struct is_f<float> : std::true_type {};`) then read `value` as their base's
//! static member, and tag dispatch on `std::true_type` / `std::false_type` picks the overload
//! of that class.

pub(super) use super::scopes::word;
use crate::lexer::{Tok, Token};

const NAMES: [&str; 4] = [
    "integral_constant",
    "bool_constant",
    "true_type",
    "false_type",
];

const PRELUDE: &str = "\
template <typename T, T v> struct integral_constant {
  static constexpr T value = v;
  using value_type = T;
  using type = integral_constant;
  __host__ __device__ constexpr operator value_type() const { return value; }
  __host__ __device__ constexpr value_type operator()() const { return value; }
};
template <bool B> using bool_constant = integral_constant<bool, B>;
using true_type = integral_constant<bool, true>;
using false_type = integral_constant<bool, false>;
";

/// The first token of `tokens` naming one of `names` (where a prelude is placed).
pub(super) fn first_naming(tokens: &[Token], names: &[&str]) -> Option<Token> {
    tokens
        .iter()
        .find(|t| matches!(&t.tok, Tok::Ident(w) if names.contains(&w.as_str())))
        .cloned()
}

/// `tokens` with [meta.help]'s helper classes declared before them and `std::` dropped before
/// their names, when the source names one and declares none of those names; else `tokens`
/// unchanged.
pub(super) fn std_constants(tokens: Vec<Token>) -> Vec<Token> {
    let Some(first) = first_naming(&tokens, &NAMES) else {
        return tokens;
    };
    // `struct integral_constant`, `using true_type = …`, `typedef … false_type;`: the source's
    // own (a library's namespace), left as it is.
    let defines_own = tokens.windows(2).any(|w| {
        let named = word(w.get(1)).is_some_and(|n| NAMES.contains(&n));
        named && matches!(word(w.first()), Some("struct" | "class" | "using"))
    }) || tokens.windows(2).any(|w| {
        word(w.first()).is_some_and(|n| NAMES.contains(&n))
            && matches!(w.get(1).map(|t| &t.tok), Some(Tok::Punct(";")))
            && tokens
                .iter()
                .any(|t| matches!(&t.tok, Tok::Ident(x) if x == "typedef"))
    });
    if defines_own {
        return tokens;
    }
    with_prelude(tokens, &first, PRELUDE, &NAMES)
}

/// `prelude` (declarations of this crate's own, lexed) placed before `tokens` at the place of
/// `first` (the first token naming one of `names`, so that a message about them points there),
/// and `std::` (with a global `::` before it) dropped before each of `names`: the library names
/// become the prelude's. Shared by `std_constants` and `int_seq`.
pub(super) fn with_prelude(
    tokens: Vec<Token>,
    first: &Token,
    prelude: &str,
    names: &[&str],
) -> Vec<Token> {
    let Ok(lexed) = crate::lexer::lex(prelude) else {
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
            && word(tokens.get(k + 2)).is_some_and(|w| names.contains(&w));
        if std_scope {
            // `::std::true_type`, `::std::make_index_sequence`: the global `::` goes with it.
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
