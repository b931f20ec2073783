//! Attributes, dropped from the token stream before parsing wherever they stand: the standard
//! attribute-specifier `[[…]]` (`[[likely]]`, `[[maybe_unused]]`, `[[nodiscard]]`; C++17
//! [dcl.attr.grammar]: two consecutive `[` tokens begin nothing else), `alignas(…)`
//! ([dcl.align]), CUDA's `__align__(N)` (CUDA C++ Programming Guide, "Alignment
//! Requirements") and GNU `__attribute__((…))`. None of those dropped changes a value the
//! emulator computes: alignment fixes addresses and the others advise the compiler.
//! `__launch_bounds__` is no attribute here: the parser reads its bound. The class-virt-specifier
//! `final` after a class head's name (`struct Element final { … };`, `struct S<T> final : B`;
//! C++17 [class]/1) goes too: it only forbids deriving from the class.
//!
//! Two kinds are refused before anything is dropped ([`refuse_value_attributes`]): clang's
//! `ext_vector_type(N)` and GNU `vector_size(N)` make a *vector type* (clang, "Vectors and
//! Extended Vectors"), so dropping them would run `floatx4` as one `float` with wrong numbers;
//! and an `alignas(N)` / `__align__(N)` / `aligned(N)` whose `N` is not a power of two is
//! ill-formed (C++17 [dcl.align]/2: "an alignment value shall be a power of two"; nvcc and
//! clang refuse it).

use std::collections::HashMap;

use crate::lexer::{Tok, Token};
use crate::KernelError;

/// The alignment attributes written between `struct` / `class` and the struct's name
/// (`struct alignas(16) S`, `struct __align__(8) H3`, `struct __attribute__((aligned(16))) S`),
/// by struct name, read before the attributes are dropped: `Some(N)` for a literal alignment
/// (the largest, when several), `None` for one that is an expression (`alignas(sizeof(T) * N)`),
/// which the layout then refuses rather than ignore (C++17 [dcl.align]/4: the strictest
/// alignment applies; [expr.sizeof]/2: the size includes the padding it brings).
pub(super) fn struct_alignments(tokens: &[Token]) -> HashMap<String, Option<u64>> {
    let mut out = HashMap::new();
    let word = |k: usize| match tokens.get(k).map(|t| &t.tok) {
        Some(Tok::Ident(w)) => Some(w.as_str()),
        _ => None,
    };
    let punct =
        |k: usize, p: &str| matches!(tokens.get(k).map(|t| &t.tok), Some(Tok::Punct(q)) if *q == p);
    let mut k = 0;
    while k < tokens.len() {
        if !matches!(word(k), Some("struct" | "class")) {
            k += 1;
            continue;
        }
        let mut j = k + 1;
        // The largest literal alignment, and whether one is an expression.
        let (mut literal_max, mut seen, mut expression) = (1u64, false, false);
        while matches!(word(j), Some("alignas" | "__align__" | "__attribute__"))
            && punct(j + 1, "(")
        {
            // To the `)` closing the attribute's first `(`.
            let (open, mut depth, mut end) = (j + 1, 0usize, j + 1);
            while end < tokens.len() {
                if punct(end, "(") {
                    depth += 1;
                } else if punct(end, ")") {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                end += 1;
            }
            let inner: Vec<&Tok> = tokens[(open + 1).min(end)..end.min(tokens.len())]
                .iter()
                .map(|t| &t.tok)
                .collect();
            // `__attribute__((aligned(N)))`, also in a list (`((packed, aligned(4)))`); another
            // GNU attribute says nothing here; a bare `aligned` (the target's largest
            // alignment) counts as an expression.
            let values: Vec<&[&Tok]> = match word(j) {
                Some("__attribute__") => gnu_aligned(&inner),
                _ => vec![&inner[..]],
            };
            for value in values {
                match value {
                    [Tok::Int { value, .. }] => {
                        literal_max = literal_max.max(*value);
                        seen = true;
                    }
                    _ => expression = true,
                }
            }
            j = end + 1;
        }
        if let Some(name) = word(j).filter(|_| seen || expression) {
            out.insert(name.to_string(), (!expression).then_some(literal_max));
        }
        k = j.max(k + 1);
    }
    out
}

/// The arguments of each `aligned(…)` / `__aligned__(…)` in a GNU attribute list's tokens
/// (`( aligned ( 4 ) , packed )`, the outer parentheses included); a bare `aligned` gives an
/// empty argument (the target's largest alignment, not modelled: read as an expression).
pub(super) fn gnu_aligned<'t>(inner: &'t [&'t Tok]) -> Vec<&'t [&'t Tok]> {
    let list = match inner {
        [Tok::Punct("("), rest @ .., Tok::Punct(")")] => rest,
        _ => return Vec::new(),
    };
    let mut out = Vec::new();
    let (mut depth, mut from) = (0usize, 0usize);
    for k in 0..=list.len() {
        let end = k == list.len();
        if !end {
            match list[k] {
                Tok::Punct("(") => depth += 1,
                Tok::Punct(")") => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
        if end || (depth == 0 && matches!(list[k], Tok::Punct(","))) {
            match &list[from..k] {
                [Tok::Ident(a), Tok::Punct("("), arg @ .., Tok::Punct(")")]
                    if a == "aligned" || a == "__aligned__" =>
                {
                    out.push(arg)
                }
                [Tok::Ident(a)] if a == "aligned" || a == "__aligned__" => out.push(&list[0..0]),
                _ => {}
            }
            from = k + 1;
        }
    }
    out
}

/// Refuses the attributes whose dropping would change what the kernel computes, or that the
/// vendors' compilers refuse (see the module's text), at their line:column.
///
/// Why the vector attribute `word` (`ext_vector_type`, `vector_size`, …) is refused: what is
/// modelled, and what to write instead (clang, "Vectors and Extended Vectors").
pub(super) fn vector_refusal(word: &str) -> String {
    format!(
        "`{word}` makes a clang vector type, modelled here only as \
         `typedef E NAME __attribute__((ext_vector_type(N)));` (or `using NAME = …`) with E \
         `float`, `double`, `int` or `unsigned` and N 1 to 4 (an alias of `float4`, …) or 8 or \
         16, or E `_Float16`, `short` or `unsigned short` and N 2, 4, 8 or 16; this one is not \
         (dropping it would run the vector as one scalar): write such a typedef, HIP's vector \
         types or an array"
    )
}

/// # Errors
/// The first such attribute, with what to write instead.
pub(super) fn refuse_value_attributes(tokens: &[Token]) -> Result<(), KernelError> {
    let word = |k: usize| match tokens.get(k).map(|t| &t.tok) {
        Some(Tok::Ident(w)) => Some(w.as_str()),
        _ => None,
    };
    let punct =
        |k: usize, p: &str| matches!(tokens.get(k).map(|t| &t.tok), Some(Tok::Punct(q)) if *q == p);
    for (k, t) in tokens.iter().enumerate() {
        match word(k) {
            Some("ext_vector_type" | "vector_size" | "__vector_size__" | "__ext_vector_type__")
                if punct(k + 1, "(") =>
            {
                return Err(KernelError::new(
                    t.line,
                    t.col,
                    vector_refusal(word(k).unwrap_or_default()),
                ));
            }
            Some("alignas" | "__align__" | "aligned" | "__aligned__") if punct(k + 1, "(") => {
                if let (Some(Tok::Int { value, .. }), true) =
                    (tokens.get(k + 2).map(|t| &t.tok), punct(k + 3, ")"))
                {
                    if !value.is_power_of_two() {
                        return Err(KernelError::new(
                            t.line,
                            t.col,
                            format!(
                                "`{}({value})`: an alignment must be a power of two \
                                 (C++17 [dcl.align]/2), so nvcc and clang refuse it",
                                word(k).unwrap_or_default()
                            ),
                        ));
                    }
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// Whether `out` ends with a class head's name: `struct|class|union Name`, or
/// `struct|class|union Name<…>` of a specialization (the `<…>` matched back, at most a few
/// hundred tokens).
fn class_head_before(out: &[Token]) -> bool {
    let word = |k: Option<usize>| match k.and_then(|k| out.get(k)).map(|t| &t.tok) {
        Some(Tok::Ident(w)) => Some(w.as_str()),
        _ => None,
    };
    let Some(last) = out.len().checked_sub(1) else {
        return false;
    };
    let mut name_at = Some(last);
    if matches!(out[last].tok, Tok::Punct(">" | ">>")) {
        let mut depth = 0usize;
        name_at = None;
        for j in (last.saturating_sub(400)..=last).rev() {
            match &out[j].tok {
                Tok::Punct(">") => depth += 1,
                Tok::Punct(">>") => depth += 2,
                Tok::Punct("<") => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        name_at = j.checked_sub(1);
                        break;
                    }
                }
                Tok::Punct(";" | "{" | "}") => return false,
                _ => {}
            }
        }
    }
    word(name_at).is_some()
        && matches!(
            word(name_at.and_then(|n| n.checked_sub(1))),
            Some("struct" | "class" | "union")
        )
}

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
        if matches!(&t.tok, Tok::Ident(w) if w == "final")
            && (is(tokens.get(k + 1), "{") || is(tokens.get(k + 1), ":"))
            && class_head_before(&out)
        {
            k += 1;
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
    fn vector_types_and_odd_alignments_are_refused_where_they_stand() {
        let refused = |src: &str| {
            let lexed = lex_with(src, 10_000).expect("lexes");
            refuse_value_attributes(&lexed.tokens).map_err(|e| (e.line, e.col, e.message))
        };
        let e = refused("typedef float floatx4 __attribute__((ext_vector_type(4)));").unwrap_err();
        assert_eq!((e.0, e.1), (1, 38));
        assert!(e.2.contains("clang vector type"), "{e:?}");
        assert!(refused("using v = float __attribute__((__vector_size__(16)));").is_err());
        let e = refused("struct alignas(12) S { int a[3]; };").unwrap_err();
        assert!(
            e.2.contains("power of two") && e.2.contains("alignas(12)"),
            "{e:?}"
        );
        assert!(refused("struct __align__(16) S { float a[4]; };").is_ok());
        assert!(refused("struct S { int a; } __attribute__((aligned(8), packed));").is_ok());
        assert!(refused("int vector_size = 3;").is_ok());
    }

    #[test]
    fn struct_alignments_are_read_by_name() {
        let lexed = lex_with(
            "struct alignas(16) A { float x; }; struct __align__(8) B { short a; };
             struct __attribute__((aligned(32))) C { int c; };
             template <typename T, int N> struct alignas(sizeof(T) * N) V { T v[N]; };
             struct D { int d; };",
            10_000,
        )
        .expect("lexes");
        let m = struct_alignments(&lexed.tokens);
        assert_eq!(m.get("A"), Some(&Some(16)));
        assert_eq!(m.get("B"), Some(&Some(8)));
        assert_eq!(m.get("C"), Some(&Some(32)));
        assert_eq!(m.get("V"), Some(&None));
        assert_eq!(m.get("D"), None);
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
