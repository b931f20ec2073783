//! clang's extended vector typedefs, `typedef float floatx4 __attribute__((ext_vector_type(4)));`
//! (ROCm's composable_kernel, rocWMMA and MFMA code write them), read as an alias of the
//! vector type of the same element and count (`float4`). clang, "Vectors and Extended
//! Vectors": such a vector takes element access `v[i]` and `.x .y .z .w`, element-wise
//! arithmetic, a scalar operand broadcast to every element, and construction from one value
//! per element (`floatx4{a, b, c, d}`) — what this interpreter's `float4` does too
//! ([`crate::vector_types`]; HIP's `hip_vector_types.h` builds `float4` on the same attribute).
//! Eight or sixteen such elements, and `_Float16`, `short` or `unsigned short` elements (2, 4,
//! 8 or 16), are vector types of their own ([`crate::vector_types::ext_vector`]); their
//! swizzles are [`super::swizzle`]'s. Other elements and counts (`char`, 5 elements) are left
//! to [`super::attributes::refuse_value_attributes`], which refuses them naming what is
//! modelled.

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
/// `N` [`vector_name`] models rewritten to `typedef TN NAME;`. One pass over the tokens.
pub(super) fn ext_vector_typedefs(tokens: Vec<Token>) -> Vec<Token> {
    let mut out = Vec::with_capacity(tokens.len());
    let mut k = 0;
    while k < tokens.len() {
        if let Some(d) = typedef_at(&tokens, k) {
            out.push(tokens[k].clone());
            out.push(Token {
                tok: Tok::Ident(d.vector),
                ..tokens[k + 1].clone()
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
    Some(VectorTypedef {
        vector: vector_name(elem, *value)?,
        name_at,
        semicolon: j + 9,
    })
}
