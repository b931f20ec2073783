//! A host pointer declared as a view of a `std::vector`'s storage (`T* p =
//! reinterpret_cast<T*>(h.data());`): which vector it looks at, read back from its declaration.
//! Its own module so that `host.rs` and `host_mem.rs` ask it without depending on the pointer
//! reading (`host_ptr.rs`), which depends on them.

use crate::lexer::Tok;

/// Most tokens looked back over for a pointer's declaration (here and in `host_ptr.rs`).
pub(super) const DECL_LOOKBACK: usize = 4096;

/// The host array a byte view `p` looks at: the nearest declaration of host pointer `p` before
/// `toks`' end initialized from a `std::vector` `h`'s storage — `T* p =
/// reinterpret_cast<T*>(h.data());` (also `static_cast`, a C cast `(T*)h.data()`, `h.data()`
/// alone, `&h[0]`) — returns `h` and its element word from its declaration `std::vector<E> h`
/// (C++17 [vector.data]: `data()` points at the elements; [expr.reinterpret.cast]/7: the cast
/// keeps the address). Ascend C's samples copy a `float` vector through such a `uint8_t*`
/// view (`aclrtMemcpy(d, bytes, input_host, bytes, …)`); the caller takes the view for the
/// vector only where the device buffer holds the vector's element type, so the bytes copied
/// are the vector's values. `None` for anything else. Bounded by [`DECL_LOOKBACK`] tokens.
pub(super) fn vector_view(toks: &[crate::lexer::Token], p: &str) -> Option<(String, String)> {
    let window = &toks[toks.len().saturating_sub(DECL_LOOKBACK)..];
    let tok = |i: usize| window.get(i).map(|t| &t.tok);
    // `* p =` of a declaration.
    let j = window.windows(3).rposition(|w| {
        matches!((&w[0].tok, &w[1].tok, &w[2].tok),
            (Tok::Punct("*"), Tok::Ident(n), Tok::Punct("=")) if n == p)
    })?;
    let start = j + 3;
    let end = (start..window.len()).find(|&i| matches!(tok(i), Some(Tok::Punct(";"))))?;
    let init = &window[start..end];
    // The vector named before `.data()` or as `&h[0]`: the last identifier followed by
    // `. data ( )`, else `& h [ 0 ]`.
    let named = init.windows(5).find_map(|w| {
        match (&w[0].tok, &w[1].tok, &w[2].tok, &w[3].tok, &w[4].tok) {
            (Tok::Ident(h), Tok::Punct("."), Tok::Ident(d), Tok::Punct("("), Tok::Punct(")"))
                if d == "data" =>
            {
                Some(h.clone())
            }
            (
                Tok::Punct("&"),
                Tok::Ident(h),
                Tok::Punct("["),
                Tok::Int { value: 0, .. },
                Tok::Punct("]"),
            ) => Some(h.clone()),
            _ => None,
        }
    })?;
    // Only casts, parentheses and type words around it.
    let plain = init.iter().all(|t| {
        matches!(&t.tok, Tok::Ident(_) | Tok::Int { value: 0, .. })
            || matches!(
                t.tok,
                Tok::Punct("(" | ")" | "<" | ">" | "*" | "." | "&" | "[" | "]" | "::")
            )
    });
    if !plain {
        return None;
    }
    // `vector < E > h` before the view.
    let decl = window[..j].windows(5).rposition(|w| {
        matches!((&w[0].tok, &w[1].tok, &w[3].tok, &w[4].tok),
            (Tok::Ident(v), Tok::Punct("<"), Tok::Punct(">"), Tok::Ident(n)) if v == "vector" && *n == named)
    })?;
    let Some(Tok::Ident(elem)) = tok(decl + 2) else {
        return None;
    };
    Some((named, elem.clone()))
}

/// The operand of a cast to `void*` around a copy's argument (`(void*)h_p`, `(const void *)h`,
/// `static_cast<void*>(h)`, `reinterpret_cast<const void*>(h)`), else the tokens themselves.
/// `cudaMemcpy`'s parameters are `void*` and `const void*` (CUDA Runtime API, cudaMemcpy), so
/// such a cast names the same address and the same bytes as its operand does (C++17
/// [conv.ptr]/2, [expr.static.cast]/13): the copy reads as one from the operand. Only `void`
/// pointers: a cast to another element type would view the bytes as other values. Bounded:
/// one look at the tokens' ends.
pub(super) fn void_cast_operand(toks: &[crate::lexer::Token]) -> &[crate::lexer::Token] {
    let word =
        |i: usize, w: &str| matches!(toks.get(i).map(|t| &t.tok), Some(Tok::Ident(x)) if x == w);
    let punct =
        |i: usize, p: &str| matches!(toks.get(i).map(|t| &t.tok), Some(Tok::Punct(x)) if *x == p);
    // `(void*)x`, `(const void*)x`, `(void const*)x`.
    let c_cast = |from: usize| -> Option<usize> {
        let mut i = from;
        if word(i, "const") {
            i += 1;
        }
        if !word(i, "void") {
            return None;
        }
        i += 1;
        if word(i, "const") {
            i += 1;
        }
        (punct(i, "*") && punct(i + 1, ")")).then_some(i + 2)
    };
    if punct(0, "(") {
        if let Some(rest) = c_cast(1).filter(|&r| r < toks.len()) {
            return &toks[rest..];
        }
    }
    // `static_cast<void*>(x)` / `reinterpret_cast<const void*>(x)`: the operand between the
    // parentheses that close the tokens.
    if (word(0, "static_cast") || word(0, "reinterpret_cast")) && punct(1, "<") {
        let mut i = 2;
        if word(i, "const") {
            i += 1;
        }
        if word(i, "void") {
            i += 1;
            if word(i, "const") {
                i += 1;
            }
            if punct(i, "*") && punct(i + 1, ">") && punct(i + 2, "(") && punct(toks.len() - 1, ")")
            {
                let inner = &toks[i + 3..toks.len() - 1];
                if !inner.is_empty() {
                    return inner;
                }
            }
        }
    }
    toks
}

/// Whether an initializer is one fresh host allocation: `malloc(…)`, `calloc(…)`, `new T[…]`,
/// behind a C cast or a `static_cast` / `reinterpret_cast` to a pointer (`(float
/// *)malloc(n * sizeof(float))`). Bounded: one look at the first tokens.
pub(super) fn allocation(toks: &[crate::lexer::Token]) -> bool {
    let tok = |i: usize| toks.get(i).map(|t| &t.tok);
    let mut i = 0;
    // `(T *)` / `(T **)`: a cast's closing parenthesis after at least one `*`.
    if matches!(tok(0), Some(Tok::Punct("("))) {
        let close = (1..toks.len().min(16)).find(|&j| matches!(tok(j), Some(Tok::Punct(")"))));
        match close {
            Some(c) if matches!(tok(c - 1), Some(Tok::Punct("*"))) => i = c + 1,
            _ => return false,
        }
    } else if matches!(tok(0), Some(Tok::Ident(w)) if w == "static_cast" || w == "reinterpret_cast")
    {
        let close = (1..toks.len().min(16)).find(|&j| matches!(tok(j), Some(Tok::Punct(">"))));
        match close {
            Some(c) if matches!(tok(c + 1), Some(Tok::Punct("("))) => i = c + 2,
            _ => return false,
        }
    }
    match tok(i) {
        Some(Tok::Ident(w)) if w == "malloc" || w == "calloc" => {
            matches!(tok(i + 1), Some(Tok::Punct("(")))
        }
        Some(Tok::Ident(w)) if w == "new" => true,
        _ => false,
    }
}
