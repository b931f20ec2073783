//! `std::aligned_storage<sizeof(T), alignof(T)>::type` (C++17 [meta.trans.other]: "the member
//! typedef `type` shall be a trivial standard-layout type suitable for use as uninitialized
//! storage for any object whose size is at most `Len` and whose alignment is a divisor of
//! `Align`"), as PyTorch's normalization kernels declare a shared array of a struct without its
//! constructors running (`__shared__ typename std::aligned_storage<sizeof(WelfordType),
//! alignof(WelfordType)>::type val_shared[C10_WARP_SIZE];` then `reinterpret_cast<WelfordType*>
//! (val_shared)`).
//!
//! A token pass after preprocessing: where both arguments name one type `T` (`sizeof(T)`,
//! `alignof(T)` or `__alignof__(T)`), the storage type is read as `T` itself: an element of
//! the same size and alignment, whose cells hold no value until written, as uninitialized
//! storage does. The `_t` alias is read the same. Other arguments are left as written (and
//! refused where the type is read).

use super::scopes::punct;
use super::std_constants::word;
use crate::lexer::{Tok, Token};

/// The tokens of `op(TYPE)` at `k` (`op` one of `ops`): the type's tokens and the position
/// after the `)`; `None` when no such operator is there.
fn operand<'a>(tokens: &'a [Token], k: usize, ops: &[&str]) -> Option<(&'a [Token], usize)> {
    if !word(tokens.get(k)).is_some_and(|w| ops.contains(&w)) || !punct(tokens.get(k + 1), "(") {
        return None;
    }
    let mut depth = 0usize;
    for (j, t) in tokens.iter().enumerate().skip(k + 1) {
        match &t.tok {
            Tok::Punct("(") => depth += 1,
            Tok::Punct(")") => {
                depth -= 1;
                if depth == 0 {
                    return Some((&tokens[k + 2..j], j + 1));
                }
            }
            Tok::Punct(";" | "{" | "}") | Tok::Eof => return None,
            _ => {}
        }
    }
    None
}

/// The same tokens, spelled alike (positions aside).
fn same(a: &[Token], b: &[Token]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.tok == y.tok)
}

/// At `k` (`aligned_storage` or `aligned_storage_t`, its `std::` before it): the type both
/// arguments name and the position after the whole type (`…>::type` or `…>`).
fn storage_at(tokens: &[Token], k: usize) -> Option<(Vec<Token>, usize)> {
    let alias = match word(tokens.get(k))? {
        "aligned_storage" => false,
        "aligned_storage_t" => true,
        _ => return None,
    };
    if !punct(tokens.get(k + 1), "<") {
        return None;
    }
    let (size_of, after) = operand(tokens, k + 2, &["sizeof"])?;
    if !punct(tokens.get(after), ",") {
        return None;
    }
    let (align_of, after) = operand(tokens, after + 1, &["alignof", "__alignof__", "_Alignof"])?;
    if !punct(tokens.get(after), ">") || !same(size_of, align_of) || size_of.is_empty() {
        return None;
    }
    let mut end = after + 1;
    if !alias {
        if !(punct(tokens.get(end), "::") && word(tokens.get(end + 1)) == Some("type")) {
            return None;
        }
        end += 2;
    }
    Some((size_of.to_vec(), end))
}

/// `tokens` with each `[typename] [::]std::aligned_storage<sizeof(T), alignof(T)>::type` and
/// `std::aligned_storage_t<sizeof(T), alignof(T)>` replaced by `T`.
pub(super) fn aligned_storage(tokens: Vec<Token>) -> Vec<Token> {
    if !tokens
        .iter()
        .any(|t| matches!(&t.tok, Tok::Ident(w) if w.starts_with("aligned_storage")))
    {
        return tokens;
    }
    let mut out: Vec<Token> = Vec::with_capacity(tokens.len());
    let mut k = 0;
    while k < tokens.len() {
        if word(tokens.get(k)) == Some("std") && punct(tokens.get(k + 1), "::") {
            if let Some((ty, end)) = storage_at(&tokens, k + 2) {
                // `typename` and a global `::` before `std` go with it.
                if punct(out.last(), "::") {
                    out.pop();
                }
                if word(out.last()) == Some("typename") {
                    out.pop();
                }
                out.extend(ty);
                k = end;
                continue;
            }
        }
        out.push(tokens[k].clone());
        k += 1;
    }
    out
}
