//! `__attribute__((packed))` on a struct: GCC's type attribute, which nvcc and clang (hipcc)
//! honour in device code. GCC manual, "Common Type Attributes", `packed`: "This attribute,
//! attached to a struct, union, or C++ class type definition, specifies that each of its
//! members (other than zero-width bit-fields) is placed to minimize the memory required. This
//! is equivalent to specifying the `packed` attribute on each of the members"; and "Common
//! Variable Attributes", `packed`: a member so marked "should have the smallest possible
//! alignment — one bit for a bit-field and one byte otherwise, unless a larger value is
//! specified with the `aligned` attribute". So in a packed struct every member sits at the
//! next byte (no padding), the struct's alignment is 1 (or the `aligned(N)` it also declares)
//! and its size is the sum of its members' (rounded to that alignment). A member that is itself
//! a struct keeps its own inner layout; only its placement in the packed struct is packed.
//!
//! Read from the tokens before the attributes are dropped ([`packed_structs`]): the attribute
//! between `struct`/`class` and the name (`struct __attribute__((packed)) P { … };`) or after
//! the closing `}` (`struct Q { … } __attribute__((packed));`, `typedef struct { … }
//! __attribute__((packed)) R;`). Anywhere else (a member, a variable, a typedef of another
//! type, a union, an unnamed struct that is not a typedef's) it is refused at its line:column,
//! naming the form that is modelled: dropping it would give the wrong `sizeof` and offsets.

use std::collections::{HashMap, HashSet};

use crate::lexer::{Tok, Token};
use crate::KernelError;

/// What GNU attributes say of a struct's layout, by struct name (a class template's name
/// stands for all its instances).
#[derive(Debug, Default)]
pub(super) struct StructAttrs {
    /// The structs declared packed (see the module's text).
    pub(super) packed: HashSet<String>,
    /// The alignment written after a struct's body (`struct G { … }
    /// __attribute__((aligned(8)));`): `Some(N)` for literals (the largest), `None` for an
    /// expression or a bare `aligned`.
    pub(super) tail_aligns: HashMap<String, Option<u64>>,
}

/// Reads the packed structs and the alignments written after a struct's body (see the
/// module's text).
///
/// # Errors
/// A `packed` attribute anywhere else, at its line:column, with what to write instead.
pub(super) fn packed_structs(tokens: &[Token]) -> Result<StructAttrs, KernelError> {
    let word = |k: usize| match tokens.get(k).map(|t| &t.tok) {
        Some(Tok::Ident(w)) => Some(w.as_str()),
        _ => None,
    };
    let punct =
        |k: usize, p: &str| matches!(tokens.get(k).map(|t| &t.tok), Some(Tok::Punct(q)) if *q == p);
    // Attribute spans (first token, last token), and each token's span.
    let mut spans: Vec<(usize, usize)> = Vec::new();
    let mut span_of: Vec<Option<usize>> = vec![None; tokens.len()];
    // `{` ↔ `}` matches, found in one pass.
    let mut open_of: HashMap<usize, usize> = HashMap::new();
    let mut close_of: HashMap<usize, usize> = HashMap::new();
    let mut braces: Vec<usize> = Vec::new();
    let mut k = 0;
    while k < tokens.len() {
        let attr = matches!(
            word(k),
            Some("__attribute__" | "alignas" | "__align__" | "__declspec")
        ) && punct(k + 1, "(");
        if attr {
            let mut depth = 0usize;
            let mut j = k + 1;
            while j < tokens.len() {
                if punct(j, "(") {
                    depth += 1;
                } else if punct(j, ")") {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        break;
                    }
                }
                j += 1;
            }
            let end = j.min(tokens.len() - 1);
            for s in span_of.iter_mut().take(end + 1).skip(k) {
                *s = Some(spans.len());
            }
            spans.push((k, end));
            k = end + 1;
            continue;
        }
        if punct(k, "{") {
            braces.push(k);
        } else if punct(k, "}") {
            if let Some(o) = braces.pop() {
                open_of.insert(k, o);
                close_of.insert(o, k);
            }
        }
        k += 1;
    }
    // The nearest token before / after `k` outside every attribute.
    let before = |k: usize| -> Option<usize> {
        let mut i = k.checked_sub(1)?;
        while let Some(s) = span_of.get(i).copied().flatten() {
            i = spans[s].0.checked_sub(1)?;
        }
        Some(i)
    };
    let after = |k: usize| -> usize {
        let mut i = k + 1;
        while let Some(s) = span_of.get(i).copied().flatten() {
            i = spans[s].1 + 1;
        }
        i
    };
    // The struct an attribute span belongs to: `Ok(Some((name, after_body)))`, `Ok(None)` for
    // none, `Err(what)` for a union or an unnamed struct.
    let attached = |start: usize, end: usize| -> Result<Option<(String, bool)>, &'static str> {
        let prev = before(start);
        let next = after(end);
        // `struct __attribute__((packed)) P {`: the name after the attributes.
        if let Some(kw) = prev.and_then(&word) {
            if matches!(kw, "struct" | "class" | "union") {
                if kw == "union" {
                    return Err("on a union");
                }
                if let Some(name) = word(next) {
                    return Ok(Some((name.to_string(), false)));
                }
                // `typedef struct __attribute__((packed)) { … } R;`
                let typedef = prev.and_then(before).and_then(&word) == Some("typedef");
                if let (true, Some(&close)) = (typedef && punct(next, "{"), close_of.get(&next)) {
                    if let Some(name) = word(after(close)) {
                        return Ok(Some((name.to_string(), false)));
                    }
                }
                return Err("on an unnamed struct");
            }
        }
        // `struct Q { … } __attribute__((packed));`
        let Some(&open) = prev
            .filter(|&p| punct(p, "}"))
            .and_then(|p| open_of.get(&p))
        else {
            return Ok(None);
        };
        let head = before(open);
        match head.and_then(&word) {
            Some("union") => Err("on a union"),
            Some("struct" | "class") => {
                let typedef = head.and_then(before).and_then(&word) == Some("typedef");
                match word(next) {
                    Some(name) if typedef => Ok(Some((name.to_string(), true))),
                    _ => Err("on an unnamed struct"),
                }
            }
            Some(name) => match head.and_then(before).and_then(&word) {
                Some("struct" | "class") => Ok(Some((name.to_string(), true))),
                Some("union") => Err("on a union"),
                _ => Ok(None),
            },
            None => Ok(None),
        }
    };
    let mut out = StructAttrs::default();
    for &(start, end) in &spans {
        if word(start) != Some("__attribute__") {
            continue;
        }
        let packed_at = (start..=end).find(|&i| matches!(word(i), Some("packed" | "__packed__")));
        let inner: Vec<&Tok> = tokens[(start + 1).min(end)..=end]
            .iter()
            .map(|t| &t.tok)
            .collect();
        let inner = match inner.as_slice() {
            [Tok::Punct("("), rest @ .., Tok::Punct(")")] => rest.to_vec(),
            _ => Vec::new(),
        };
        let aligned = super::attributes::gnu_aligned(&inner);
        if packed_at.is_none() && aligned.is_empty() {
            continue;
        }
        let found = attached(start, end);
        if let (Ok(Some((name, true))), false) = (&found, aligned.is_empty()) {
            // `struct G { … } __attribute__((aligned(8)));`: its alignment, as
            // `attributes::struct_alignments` reads the one before the name.
            let mut v = Some(1u64);
            for a in &aligned {
                v = match (v, a) {
                    (Some(m), [Tok::Int { value, .. }]) => Some(m.max(*value)),
                    _ => None,
                };
            }
            out.tail_aligns.insert(name.clone(), v);
        }
        let Some(at) = packed_at else {
            continue;
        };
        let refuse = |what: &str| {
            let t = &tokens[at];
            KernelError::new(
                t.line,
                t.col,
                format!(
                    "`__attribute__((packed))` {what} is not modelled, and dropping it would \
                     give the wrong sizeof and member offsets: put it on a named struct's \
                     definition (`struct __attribute__((packed)) S {{ … }};` or `struct S {{ … }} \
                     __attribute__((packed));`), or write the members so that none needs padding"
                ),
            )
        };
        match found {
            Ok(Some((name, _))) => {
                out.packed.insert(name);
            }
            Ok(None) => {
                return Err(refuse(
                    "here (on a member, a variable or a type other than a struct)",
                ))
            }
            Err(what) => return Err(refuse(what)),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex_with;

    fn packed(src: &str) -> Result<Vec<String>, (u32, u32)> {
        let lexed = lex_with(src, 10_000).expect("lexes");
        let mut v: Vec<String> = packed_structs(&lexed.tokens)
            .map_err(|e| (e.line, e.col))?
            .packed
            .into_iter()
            .collect();
        v.sort();
        Ok(v)
    }

    #[test]
    fn packed_structs_are_read_before_and_after_the_body() {
        assert_eq!(
            packed(
                "struct __attribute__((packed)) A { char c; int i; };
                    struct B { char c; int i; } __attribute__((packed));
                    typedef struct { char c; } __attribute__((__packed__)) C;
                    typedef struct __attribute__((packed)) { char c; } D;
                    struct __attribute__((aligned(4), packed)) E { char c; };
                    template <typename T> struct __attribute__((packed)) F { T v; char c; };
                    struct G { int i; } __attribute__((aligned(8)));"
            ),
            Ok(["A", "B", "C", "D", "E", "F"].map(String::from).to_vec())
        );
    }

    #[test]
    fn an_alignment_after_the_body_is_read() {
        let lexed = lex_with(
            "struct G { int i; } __attribute__((aligned(8)));
             struct H { char c; } __attribute__((packed, aligned(2), aligned(4)));
             typedef struct { int i; } __attribute__((aligned)) J;",
            10_000,
        )
        .expect("lexes");
        let a = packed_structs(&lexed.tokens).expect("reads").tail_aligns;
        assert_eq!(a.get("G"), Some(&Some(8)));
        assert_eq!(a.get("H"), Some(&Some(4)));
        assert_eq!(a.get("J"), Some(&None));
    }

    #[test]
    fn packed_elsewhere_is_refused_where_it_stands() {
        assert_eq!(
            packed("struct S { char c; int i __attribute__((packed)); };"),
            Err((1, 41))
        );
        assert_eq!(
            packed("union __attribute__((packed)) U { char c; int i; };"),
            Err((1, 22))
        );
        assert_eq!(
            packed("union U { char c; int i; } __attribute__((packed));"),
            Err((1, 43))
        );
        assert!(packed("struct { char c; } __attribute__((packed)) v;").is_err());
        assert!(packed("int packed = 1; struct S { int packed; };").is_ok());
    }
}
