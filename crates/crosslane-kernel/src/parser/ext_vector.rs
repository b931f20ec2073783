//! clang's extended vector typedefs, `typedef float floatx4 __attribute__((ext_vector_type(4)));`
//! (ROCm's composable_kernel, rocWMMA and MFMA code write them), read as an alias of the
//! vector type of the same element and count (`float4`). clang, "Vectors and Extended
//! Vectors": such a vector takes element access `v[i]` and `.x .y .z .w`, element-wise
//! arithmetic, a scalar operand broadcast to every element, and construction from one value
//! per element (`floatx4{a, b, c, d}`) — what this interpreter's `float4` does too
//! ([`crate::vector_types`]; HIP's `hip_vector_types.h` builds `float4` on the same attribute).
//! Eight or sixteen such elements, and `_Float16`, `short` or `unsigned short` elements (2, 4,
//! 8 or 16), are vector types of their own ([`crate::vector_types::ext_vector`]); their
//! swizzles are [`super::swizzle`]'s. The alias-declaration `using NAME =
//! __attribute__((ext_vector_type(N))) T;` (or with the attribute after `T`) is read the same
//! way. Other elements and counts (`char`, `__bf16` ×8, 5 elements) in such a declaration
//! become [`UNMODELLED_VECTOR`], which the alias's reading refuses naming what is modelled
//! (at file scope, for the functions that name the alias: [`super::refused_alias`]); anywhere
//! else they are left to [`super::attributes::refuse_value_attributes`].

use super::refused_alias::UNMODELLED_VECTOR;
use crate::lexer::{Tok, Token};

/// The vector type `count` elements of the scalar `words` make (`["float"]`, 4 → `float4`),
/// when one is modelled with clang's semantics: `float`, `double`, `int` and `unsigned` with 1
/// to 4 elements are HIP's and CUDA's vector types of that name; 8 or 16 of them, and `half`
/// (`_Float16`), `short` and `unsigned short` with 2, 4, 8 or 16, are this module's
/// own vector types ([`crate::vector_types::ext_vector`]).
pub(super) fn vector_name(words: &[&str], count: u64) -> Option<String> {
    let base = match words {
        ["float"] => "float",
        ["double"] => "double",
        ["int"] | ["signed"] | ["signed", "int"] | ["int32_t"] => "int",
        ["unsigned"] | ["unsigned", "int"] | ["uint32_t"] | ["uint"] => "uint",
        ["_Float16"] | ["half"] => "half",
        ["short"] | ["short", "int"] | ["signed", "short"] | ["int16_t"] => "short",
        ["unsigned", "short"] | ["ushort"] | ["uint16_t"] => "ushort",
        _ => return None,
    };
    let wide = matches!(base, "float" | "double" | "int" | "uint");
    if wide && (1..=4).contains(&count) {
        return Some(format!("{base}{count}"));
    }
    matches!(count, 2 | 4 | 8 | 16)
        .then(|| format!("{}{base}{count}", crate::vector_types::EXT_PREFIX))
}

/// `tokens` with each `typedef T NAME __attribute__((ext_vector_type(N)));` whose `T` and
/// `N` [`vector_name`] models rewritten to `typedef TN NAME;`, and each alias-declaration of
/// one, `using NAME = __attribute__((ext_vector_type(N))) T;` or `using NAME = T
/// __attribute__((ext_vector_type(N)));` (aiter's and composable_kernel's spelling; C++17
/// [dcl.typedef]/2: an alias-declaration has the same semantics as a typedef), to `using NAME
/// = TN;`. One pass over the tokens.
pub(super) fn ext_vector_typedefs(tokens: Vec<Token>) -> Vec<Token> {
    let mut out = Vec::with_capacity(tokens.len());
    let mut k = 0;
    while k < tokens.len() {
        if let Some(d) = using_at(&tokens, k) {
            // `using NAME =`, then the vector type and the `;`.
            out.extend_from_slice(&tokens[k..k + 3]);
            out.push(Token {
                tok: Tok::Ident(d.vector),
                ..tokens[d.at].clone()
            });
            out.push(tokens[d.semicolon].clone());
            k = d.semicolon + 1;
            continue;
        }
        if let Some(d) = typedef_at(&tokens, k) {
            out.push(tokens[k].clone());
            out.push(Token {
                tok: Tok::Ident(d.vector),
                ..tokens[d.at].clone()
            });
            out.push(tokens[d.name_at].clone());
            out.push(tokens[d.semicolon].clone());
            k = d.semicolon + 1;
            continue;
        }
        out.push(tokens[k].clone());
        k += 1;
    }
    out
}

/// A modelled extended vector typedef found by [`typedef_at`].
struct VectorTypedef {
    /// The vector type it names (`float4`).
    vector: String,
    /// The index of the typedef's name.
    name_at: usize,
    /// The index of the token whose place the vector type takes (its `ext_vector_type` when
    /// the vector is not modelled, so that the refusal stands there).
    at: usize,
    /// The index of its `;`.
    semicolon: usize,
}

/// At `typedef` (index `k`), a modelled extended vector typedef.
fn typedef_at(tokens: &[Token], k: usize) -> Option<VectorTypedef> {
    let word = |j: usize| match tokens.get(j).map(|t| &t.tok) {
        Some(Tok::Ident(w)) => Some(w.as_str()),
        _ => None,
    };
    let punct =
        |j: usize, p: &str| matches!(tokens.get(j).map(|t| &t.tok), Some(Tok::Punct(q)) if *q == p);
    if word(k) != Some("typedef") {
        return None;
    }
    // The element type's words (at most two: `unsigned int`), then the name.
    let mut j = k + 1;
    let mut words = Vec::new();
    while let Some(w) = word(j) {
        if w == "__attribute__" || words.len() > 2 {
            break;
        }
        words.push(w);
        j += 1;
    }
    let name_at = j - 1;
    let elem = words.get(..words.len().checked_sub(1)?)?;
    let attr = [
        word(j) == Some("__attribute__"),
        punct(j + 1, "("),
        punct(j + 2, "("),
        matches!(word(j + 3), Some("ext_vector_type" | "__ext_vector_type__")),
        punct(j + 4, "("),
        punct(j + 6, ")"),
        punct(j + 7, ")"),
        punct(j + 8, ")"),
        punct(j + 9, ";"),
    ];
    if !attr.iter().all(|x| *x) {
        return None;
    }
    let Some(Tok::Int { value, .. }) = tokens.get(j + 5).map(|t| &t.tok) else {
        return None;
    };
    Some(match vector_name(elem, *value) {
        Some(vector) => VectorTypedef {
            vector,
            name_at,
            at: k + 1,
            semicolon: j + 9,
        },
        None => VectorTypedef {
            vector: UNMODELLED_VECTOR.to_string(),
            name_at,
            at: j + 3,
            semicolon: j + 9,
        },
    })
}

/// The `(`, `(`, `ext_vector_type`, `(`, count, `)`, `)`, `)` of `__attribute__((…))`
/// starting at `j` (the `__attribute__` token): the element count, when they are there.
fn attribute_count(tokens: &[Token], j: usize) -> Option<u64> {
    let word = |i: usize| match tokens.get(i).map(|t| &t.tok) {
        Some(Tok::Ident(w)) => Some(w.as_str()),
        _ => None,
    };
    let punct =
        |i: usize, p: &str| matches!(tokens.get(i).map(|t| &t.tok), Some(Tok::Punct(q)) if *q == p);
    let shape = word(j) == Some("__attribute__")
        && punct(j + 1, "(")
        && punct(j + 2, "(")
        && matches!(word(j + 3), Some("ext_vector_type" | "__ext_vector_type__"))
        && punct(j + 4, "(")
        && punct(j + 6, ")")
        && punct(j + 7, ")")
        && punct(j + 8, ")");
    match tokens.get(j + 5).map(|t| &t.tok) {
        Some(Tok::Int { value, .. }) if shape => Some(*value),
        _ => None,
    }
}

/// At `using` (index `k`), a modelled extended vector alias-declaration: `using NAME =
/// __attribute__((ext_vector_type(N))) T;` or `using NAME = T __attribute__((ext_vector_type(N)));`
/// with `T` at most three words. Its `vector` and `semicolon` are set; `name_at` is `k + 1`.
fn using_at(tokens: &[Token], k: usize) -> Option<VectorTypedef> {
    let word = |i: usize| match tokens.get(i).map(|t| &t.tok) {
        Some(Tok::Ident(w)) if w != "__attribute__" => Some(w.as_str()),
        _ => None,
    };
    if !matches!(tokens.get(k).map(|t| &t.tok), Some(Tok::Ident(w)) if w == "using")
        || word(k + 1).is_none()
        || !matches!(tokens.get(k + 2).map(|t| &t.tok), Some(Tok::Punct("=")))
    {
        return None;
    }
    let words_from = |mut i: usize| {
        let mut words = Vec::new();
        while let Some(w) = word(i) {
            if words.len() == 3 {
                return None;
            }
            words.push(w);
            i += 1;
        }
        Some((words, i))
    };
    let (count, words, semicolon, attr) = match attribute_count(tokens, k + 3) {
        // `using NAME = __attribute__((ext_vector_type(N))) T;`
        Some(n) => {
            let (words, end) = words_from(k + 12)?;
            (n, words, end, k + 3)
        }
        // `using NAME = T __attribute__((ext_vector_type(N)));`
        None => {
            let (words, end) = words_from(k + 3)?;
            (attribute_count(tokens, end)?, words, end + 9, end)
        }
    };
    if words.is_empty() || !matches!(tokens.get(semicolon).map(|t| &t.tok), Some(Tok::Punct(";"))) {
        return None;
    }
    Some(match vector_name(&words, count) {
        Some(vector) => VectorTypedef {
            vector,
            name_at: k + 1,
            at: k + 3,
            semicolon,
        },
        None => VectorTypedef {
            vector: UNMODELLED_VECTOR.to_string(),
            name_at: k + 1,
            at: attr + 3,
            semicolon,
        },
    })
}
