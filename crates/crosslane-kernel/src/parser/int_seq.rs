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

use super::std_constants::word;
use super::targs::TArg;
use super::{PResult, Parser};
use crate::ast::Span;
use crate::lexer::Token;
use crate::types::{Scalar, ValTy};
use crate::KernelError;

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

/// `tokens` with the integer sequences declared before them and `std::` dropped before their
/// names, when the source names one; else `tokens` unchanged.
pub(super) fn int_seq(tokens: Vec<Token>) -> Vec<Token> {
    let Some(first) = super::std_constants::first_naming(&tokens, &NAMES) else {
        return tokens;
    };
    let defines_own = tokens.windows(2).any(|w| {
        matches!(word(w.first()), Some("struct" | "class"))
            && word(w.get(1)) == Some("integer_sequence")
    });
    if defines_own {
        return tokens;
    }
    super::std_constants::with_prelude(tokens, &first, PRELUDE, &NAMES)
}

impl Parser<'_> {
    /// The instance `integer_sequence<T, 0, …, N-1>` that `make_integer_sequence<T, N>`
    /// ([`MAKE_SEQ`]) or `index_sequence_for<Ts...>`
    /// ([`SEQ_FOR`], `N = sizeof...(Ts)`) names (C++17 [intseq.make]/1).
    ///
    /// # Errors
    /// A negative `N` ([intseq.make]/1: ill-formed), more than
    /// [`MAX_SEQ`] elements, or arguments of another shape.
    pub(super) fn make_int_seq(
        &mut self,
        name: &str,
        given: Vec<TArg>,
        at: Span,
    ) -> PResult<String> {
        let (elem, n) = if name == SEQ_FOR {
            let n = given
                .iter()
                .map(|a| match a {
                    TArg::Pack(items) => items.len(),
                    _ => 1,
                })
                .sum::<usize>();
            (TArg::Type(ValTy::scalar(Scalar::U64)), n as i128)
        } else {
            match given.as_slice() {
                [t @ TArg::Type(_), TArg::Value(n)] => (t.clone(), *n),
                _ => {
                    return Err(KernelError::new(
                        at.line,
                        at.col,
                        "`make_integer_sequence<T, N>` takes an integer type and a constant",
                    ))
                }
            }
        };
        if !(0..=MAX_SEQ).contains(&n) {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!(
                    "`make_integer_sequence` of {n} elements: a negative length is ill-formed \
                     (C++17 [intseq.make]/1) and crosslane makes at most {} elements",
                    MAX_SEQ
                ),
            ));
        }
        let items = (0..n).map(TArg::Value).collect();
        self.instantiate_class("integer_sequence", vec![elem, TArg::Pack(items)], at)
    }
}
