//! `thrust::pair`, `thrust::make_pair` and `thrust::tie(a, b) = p;` (Thrust API, "Pair" and
//! "Tuple"; the same as `std::pair` [pairs.pair] and `std::tie` [tuple.creation]/5), as
//! PyTorch's reductions return a `thrust::pair<T_ACC, T_ACC>` from `WelfordOps::project` and
//! unpack it with `thrust::tie(m2, m1) = welford_op.project(val);`.
//!
//! `std::pair`, `std::make_pair` and `std::tie(a, b) = p;` are read the same way, also where no
//! `thrust::` name is written (PyTorch's group norm instantiates `WelfordOps<…,
//! std::pair<T_ACC, T_ACC>>` and unpacks `auto [m2, m1] = welford_op.project(val);`, a
//! structured binding of the pair's two members, [dcl.struct.bind]/4 as for any class of two
//! public members).
//!
//! A token pass after preprocessing, as [`super::std_constants`] is: where a source names them
//! (and declares no `pair` of its own), `thrust::` (or `std::`) is dropped before them, a `pair` class
//! template (members `first`, `second`, the default constructor value-initializing both as
//! [pairs.pair]/2 and Thrust's `pair(void)` do, and the two-value constructor) and
//! `make_pair` are declared before the source, and each statement `thrust::tie(a, b) = e;` is
//! written `{ auto t = e; a = t.first; b = t.second; }`: `tie` makes a pair of references to
//! `a` and `b`, and assigning a pair to it assigns each member ([tuple.assign]/2).

use super::scopes::punct;
use super::std_constants::{first_naming, word};
use crate::lexer::{Tok, Token};

const NAMES: [&str; 3] = ["pair", "make_pair", "tie"];

const PRELUDE: &str = "\
template <typename T1, typename T2> struct pair {
  T1 first;
  T2 second;
  __host__ __device__ pair() : first(), second() {}
  __host__ __device__ pair(const T1& a, const T2& b) : first(a), second(b) {}
};
template <typename T1, typename T2>
__host__ __device__ pair<T1, T2> make_pair(T1 a, T2 b) { return pair<T1, T2>(a, b); }
";

/// The name of the temporary a `tie` assignment unpacks (reserved: two underscores).
pub(super) const TIED: &str = "__crosslane_tied";

/// A token spelling `tok` at `at`'s position (so a message about it points at the source).
fn at(at: &Token, tok: Tok) -> Token {
    Token { tok, ..at.clone() }
}

/// A `tie(a, b) = e;` statement: the two names' tokens, the expression's tokens and the
/// position after the `;`.
struct Tie {
    first: Vec<Token>,
    second: Vec<Token>,
    value: Vec<Token>,
    end: usize,
}

/// At `k` (`tie`, its `thrust::` already dropped): the `tie(a, b) = e;` statement there.
fn tie_at(tokens: &[Token], k: usize) -> Option<Tie> {
    if word(tokens.get(k)) != Some("tie") || !punct(tokens.get(k + 1), "(") {
        return None;
    }
    // The two names: identifiers (members `s.x` too), split at the one top-level comma.
    let mut j = k + 2;
    let mut names: Vec<Vec<Token>> = vec![Vec::new()];
    loop {
        match tokens.get(j).map(|t| &t.tok) {
            Some(Tok::Punct(")")) => break,
            Some(Tok::Punct(",")) => names.push(Vec::new()),
            Some(Tok::Ident(_) | Tok::Punct("." | "->")) => {
                names.last_mut()?.push(tokens[j].clone())
            }
            _ => return None,
        }
        j += 1;
    }
    if names.len() != 2 || names.iter().any(Vec::is_empty) || !punct(tokens.get(j + 1), "=") {
        return None;
    }
    let from = j + 2;
    let mut depth = 0usize;
    let mut e = from;
    loop {
        match tokens.get(e).map(|t| &t.tok) {
            Some(Tok::Punct("(" | "[" | "{")) => depth += 1,
            Some(Tok::Punct(")" | "]" | "}")) => depth = depth.checked_sub(1)?,
            Some(Tok::Punct(";")) if depth == 0 => break,
            None | Some(Tok::Eof) => return None,
            _ => {}
        }
        e += 1;
    }
    if e == from {
        return None;
    }
    let second = names.pop()?;
    let first = names.pop()?;
    Some(Tie {
        first,
        second,
        value: tokens[from..e].to_vec(),
        end: e + 1,
    })
}

/// Whether `tokens[k..]` is `thrust::NAME` or `std::NAME` of one of [`NAMES`] (a `tie` of
/// `std::` only as the two-name statement [`tie_at`] reads: `std::tie` of three names, or of a
/// tuple, stays as written and is refused where it is used).
fn names_pair(tokens: &[Token], k: usize) -> bool {
    let ns = word(tokens.get(k));
    if !matches!(ns, Some("thrust" | "std")) || !punct(tokens.get(k + 1), "::") {
        return false;
    }
    match word(tokens.get(k + 2)) {
        Some("tie") if ns == Some("std") => tie_at(tokens, k + 2).is_some(),
        Some(n) => NAMES.contains(&n),
        None => false,
    }
}

/// `tokens` with Thrust's pair declared and used as the module says, when the source names
/// `thrust::pair`, `thrust::make_pair` or `thrust::tie` (or their `std::` twins) and declares
/// no `pair`; else unchanged.
pub(super) fn thrust_pair(tokens: Vec<Token>) -> Vec<Token> {
    let named = (0..tokens.len()).any(|k| names_pair(&tokens, k));
    let defines_own = tokens.windows(2).any(|w| {
        matches!(word(w.first()), Some("struct" | "class")) && word(w.get(1)) == Some("pair")
    });
    if !named || defines_own {
        return tokens;
    }
    let Some(first) = first_naming(&tokens, &["thrust", "std"]) else {
        return tokens;
    };
    let Ok(lexed) = crate::lexer::lex(PRELUDE) else {
        return tokens;
    };
    let mut out: Vec<Token> = lexed
        .tokens
        .into_iter()
        .filter(|t| !matches!(t.tok, Tok::Eof))
        .map(|t| at(&first, t.tok))
        .collect();
    let mut k = 0;
    while k < tokens.len() {
        if !names_pair(&tokens, k) {
            out.push(tokens[k].clone());
            k += 1;
            continue;
        }
        if punct(out.last(), "::") {
            out.pop();
        }
        if let Some(Tie {
            first: a,
            second: b,
            value: e,
            end,
        }) = tie_at(&tokens, k + 2)
        {
            let t = &tokens[k];
            let id = || at(t, Tok::Ident(TIED.to_string()));
            out.push(at(t, Tok::Punct("{")));
            out.push(at(t, Tok::Ident("auto".to_string())));
            out.push(id());
            out.push(at(t, Tok::Punct("=")));
            out.extend(e);
            out.push(at(t, Tok::Punct(";")));
            for (name, member) in [(a, "first"), (b, "second")] {
                out.extend(name);
                out.push(at(t, Tok::Punct("=")));
                out.push(id());
                out.push(at(t, Tok::Punct(".")));
                out.push(at(t, Tok::Ident(member.to_string())));
                out.push(at(t, Tok::Punct(";")));
            }
            out.push(at(t, Tok::Punct("}")));
            k = end;
            continue;
        }
        k += 2;
    }
    out
}
