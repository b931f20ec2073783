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
//! storage does. The `_t` alias is read the same. Where both arguments are the same multiple
//! of one type's size and alignment (`aligned_storage<ILP*sizeof(T), ILP*alignof(T)>::type`,
//! the vector load type of PyTorch's and Apex's softmax `ilpReduce`), the storage is read as a
//! struct of `ILP` elements of `T` ([`STORAGE_STRUCT`], declared before the source): the same
//! size, copied whole by assignment (its alignment, a multiple of `T`'s, is not modelled). The
//! alignment may be written as the size too (`aligned_storage<N * sizeof(T), N * sizeof(T)>`,
//! OneFlow's `PackType`): a multiple of `T`'s size is a multiple of its alignment
//! ([basic.align]/4: alignments are powers of two dividing the size). Other arguments are left
//! as written (and refused where the type is read).

use super::scopes::punct;
use super::std_constants::word;
use crate::lexer::{Tok, Token};

/// The struct template standing for `aligned_storage<N*sizeof(T), N*alignof(T)>::type`: `N`
/// elements of `T` in one object (C++17 [meta.trans.other]: storage "suitable for use as
/// uninitialized storage for any object whose size is at most `Len`").
pub(crate) const STORAGE_STRUCT: &str = "aligned_storage_of";

/// The declaration of [`STORAGE_STRUCT`], read before the source where a storage type uses it.
fn storage_prelude() -> String {
    format!("template <typename T, int N> struct {STORAGE_STRUCT} {{ T elems[N]; }};")
}

/// The type a storage type's arguments name: one `T`, or `N` of them in a row.
enum Storage {
    One(Vec<Token>),
    Many { ty: Vec<Token>, count: Vec<Token> },
}

/// `sizeof(T)` (or `alignof(T)`, by `ops`) alone, or multiplied by a factor on either side
/// (`ILP*sizeof(T)`, `sizeof(T) * 4`), the whole argument `tokens`: `T`'s tokens and the
/// factor's (empty when alone).
fn scaled_operand<'a>(tokens: &'a [Token], ops: &[&str]) -> Option<(&'a [Token], &'a [Token])> {
    let at = tokens
        .iter()
        .position(|t| word(Some(t)).is_some_and(|w| ops.contains(&w)))?;
    let (ty, after) = operand(tokens, at, ops)?;
    let before = &tokens[..at];
    let rest = &tokens[after..];
    match (before, rest) {
        ([], []) => Some((ty, &[])),
        ([f @ .., star], []) if punct(Some(star), "*") && !f.is_empty() => Some((ty, f)),
        ([], [star, f @ ..]) if punct(Some(star), "*") && !f.is_empty() => Some((ty, f)),
        _ => None,
    }
}

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

/// At `k` (`aligned_storage` or `aligned_storage_t`, its `std::` before it): the type the
/// arguments name and the position after the whole type (`…>::type` or `…>`).
fn storage_at(tokens: &[Token], k: usize) -> Option<(Storage, usize)> {
    let alias = match word(tokens.get(k))? {
        "aligned_storage" => false,
        "aligned_storage_t" => true,
        _ => return None,
    };
    if !punct(tokens.get(k + 1), "<") {
        return None;
    }
    // The two arguments: split at the `,` and the closing `>` outside parentheses.
    let mut depth = 0usize;
    let mut comma = None;
    let mut close = None;
    for (j, t) in tokens.iter().enumerate().skip(k + 2) {
        match &t.tok {
            Tok::Punct("(") => depth += 1,
            Tok::Punct(")") => depth = depth.checked_sub(1)?,
            Tok::Punct(",") if depth == 0 && comma.is_none() => comma = Some(j),
            Tok::Punct(">") if depth == 0 => {
                close = Some(j);
                break;
            }
            Tok::Punct(";" | "{" | "}" | "<" | ">>") | Tok::Eof => return None,
            _ => {}
        }
    }
    let (comma, after) = (comma?, close?);
    let (size_of, n1) = scaled_operand(&tokens[k + 2..comma], &["sizeof"])?;
    let (align_of, n2) = scaled_operand(
        &tokens[comma + 1..after],
        &["alignof", "__alignof__", "_Alignof", "sizeof"],
    )?;
    if !same(size_of, align_of) || size_of.is_empty() || !same(n1, n2) {
        return None;
    }
    let mut end = after + 1;
    if !alias {
        if !(punct(tokens.get(end), "::") && word(tokens.get(end + 1)) == Some("type")) {
            return None;
        }
        end += 2;
    }
    let storage = if n1.is_empty() {
        Storage::One(size_of.to_vec())
    } else {
        Storage::Many {
            ty: size_of.to_vec(),
            count: n1.to_vec(),
        }
    };
    Some((storage, end))
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
    let mut first_many: Option<Token> = None;
    let mut k = 0;
    while k < tokens.len() {
        if word(tokens.get(k)) == Some("std") && punct(tokens.get(k + 1), "::") {
            if let Some((storage, end)) = storage_at(&tokens, k + 2) {
                // `typename` and a global `::` before `std` go with it.
                if punct(out.last(), "::") {
                    out.pop();
                }
                if word(out.last()) == Some("typename") {
                    out.pop();
                }
                match storage {
                    Storage::One(ty) => out.extend(ty),
                    Storage::Many { ty, count } => {
                        // `aligned_storage_of<T, (N)>`.
                        let at = &tokens[k];
                        let tok = |t: Tok| Token {
                            tok: t,
                            ..at.clone()
                        };
                        first_many.get_or_insert_with(|| at.clone());
                        out.push(tok(Tok::Ident(STORAGE_STRUCT.to_string())));
                        out.push(tok(Tok::Punct("<")));
                        out.extend(ty);
                        out.push(tok(Tok::Punct(",")));
                        out.push(tok(Tok::Punct("(")));
                        out.extend(count);
                        out.push(tok(Tok::Punct(")")));
                        out.push(tok(Tok::Punct(">")));
                    }
                }
                k = end;
                continue;
            }
        }
        out.push(tokens[k].clone());
        k += 1;
    }
    match first_many {
        Some(first) => with_prelude(out, &first),
        None => out,
    }
}

/// `tokens` after the declaration of [`STORAGE_STRUCT`], its tokens placed at `first` (the
/// first storage type that uses it), each with its own synthesized column
/// ([`super::asc_big_tile::prepend_at`]).
fn with_prelude(tokens: Vec<Token>, first: &Token) -> Vec<Token> {
    super::asc_big_tile::prepend_at(&storage_prelude(), tokens, first)
}
