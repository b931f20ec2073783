//! `extern __shared__` arrays declared at file scope (`extern __shared__ float smem[];` above
//! the kernels and device functions that use it, the shape of the CUDA samples and of code
//! sharing one dynamic buffer between helpers), moved on the token stream before parsing into
//! each function body at file scope that names them: the declaration is read there as a
//! function's own `extern __shared__` array, which is the same buffer.
//!
//! Source: CUDA C++ Programming Guide, Variable Memory Space Specifiers, `__shared__`: all
//! `extern __shared__` variables "start at the same address in memory", the size being the
//! launch's dynamic shared bytes; whether a function or the file declares one makes no
//! difference to where it points. A body that declares the same name itself keeps its own
//! declaration.
//!
//! First, [`hoist_shared`] puts a `__shared__` written after the type (`extern double
//! __shared__ sdata[];`, `float __shared__ smem[];`, the order of some CUDA samples) before
//! it: C++17 [dcl.spec]/1 lets decl-specifiers come in any order, and nvcc reads the memory
//! space specifier as one of them, so both orders declare the same shared variable.

use super::scopes::{punct, word};
use crate::lexer::{Tok, Token};

/// One file-scope declaration: the name it declares and its tokens, `extern` to `;`.
struct Decl {
    name: String,
    toks: Vec<Token>,
}

/// At `k` (an `extern` at file scope): an `extern __shared__ … name[];` declaration and the
/// index after its `;`, or `None` when no such declaration starts there.
fn shared_decl(toks: &[Token], k: usize) -> Option<(Decl, usize)> {
    if word(toks.get(k)) != Some("extern") || word(toks.get(k + 1)) != Some("__shared__") {
        return None;
    }
    let mut j = k + 2;
    let mut depth = 0usize;
    let mut name = None;
    while let Some(t) = toks.get(j) {
        match &t.tok {
            Tok::Punct("(") => depth += 1,
            Tok::Punct(")") => depth = depth.saturating_sub(1),
            // `name [ ]`: the unsized array of the dynamic buffer.
            Tok::Punct("[") if depth == 0 && punct(toks.get(j + 1), "]") => {
                name = word(toks.get(j.wrapping_sub(1))).map(str::to_string);
            }
            Tok::Punct(";") if depth == 0 => break,
            Tok::Punct("{" | "}") | Tok::Eof => return None,
            _ => {}
        }
        j += 1;
    }
    let name = name?;
    Some((
        Decl {
            name,
            toks: toks[k..=j.min(toks.len() - 1)].to_vec(),
        },
        j + 1,
    ))
}

/// The tokens with every `__shared__` that follows a declaration's type words
/// (`extern float __shared__ s[];`) moved before them, after the leading storage words
/// (`extern __shared__ float s[];`); other tokens are kept in order. One pass, linear in the
/// tokens: a walk back from a `__shared__` stops at the declaration's start (`;`, `{`, `}`,
/// `:`, `)` or the file's start) or at any token that is not a word, when nothing moves.
pub(super) fn hoist_shared(mut toks: Vec<Token>) -> Vec<Token> {
    let mut j = 0;
    while j < toks.len() {
        if word(toks.get(j)) != Some("__shared__") {
            j += 1;
            continue;
        }
        // The run of words before it, back to the declaration's start.
        let mut start = j;
        while start > 0 && matches!(toks[start - 1].tok, Tok::Ident(_)) {
            start -= 1;
        }
        let at_decl_start =
            start == 0 || matches!(toks[start - 1].tok, Tok::Punct(";" | "{" | "}" | ":" | ")"));
        // Leading storage words (`extern`, `static`, `__device__` …) stay first.
        let mut head = start;
        while head < j
            && matches!(&toks[head].tok, Tok::Ident(w) if super::types::QUALIFIERS.contains(&w.as_str()) || w == "static")
        {
            head += 1;
        }
        if at_decl_start && head < j {
            let t = toks.remove(j);
            toks.insert(head, t);
        }
        j += 1;
    }
    toks
}

/// The tokens with each file-scope `extern __shared__ T name[];` removed and copied to the
/// start of every file-scope function body that uses `name` (and does not declare it itself).
/// Linear in the tokens times the (few) declarations.
pub(super) fn scope_file_shared(toks: Vec<Token>) -> Vec<Token> {
    // Pass 1: take the declarations out of file scope.
    let mut decls: Vec<Decl> = Vec::new();
    let mut rest = Vec::with_capacity(toks.len());
    let mut depth = 0usize;
    let mut k = 0;
    while k < toks.len() {
        if depth == 0 {
            if let Some((d, next)) = shared_decl(&toks, k) {
                decls.push(d);
                k = next;
                continue;
            }
        }
        match &toks[k].tok {
            Tok::Punct("{") => depth += 1,
            Tok::Punct("}") => depth = depth.saturating_sub(1),
            _ => {}
        }
        rest.push(toks[k].clone());
        k += 1;
    }
    if decls.is_empty() {
        return rest;
    }
    // The closing brace of each file-scope `{`, found with one stack.
    let mut close = vec![usize::MAX; rest.len()];
    let mut open = Vec::new();
    for (i, t) in rest.iter().enumerate() {
        match &t.tok {
            Tok::Punct("{") => open.push(i),
            Tok::Punct("}") => {
                if let Some(o) = open.pop() {
                    close[o] = i;
                }
            }
            _ => {}
        }
    }
    // Pass 2: a function body at file scope (`{` after the parameter list's `)`, or after a
    // `const` / `noexcept` following it) gets the declarations it uses.
    let mut out = Vec::with_capacity(rest.len());
    let mut depth = 0usize;
    for (i, t) in rest.iter().enumerate() {
        out.push(t.clone());
        match &t.tok {
            Tok::Punct("{") => {
                let is_body = depth == 0
                    && (punct(rest.get(i.wrapping_sub(1)), ")")
                        || (matches!(
                            word(rest.get(i.wrapping_sub(1))),
                            Some("const" | "noexcept")
                        ) && punct(rest.get(i.wrapping_sub(2)), ")")));
                depth += 1;
                if is_body && close[i] != usize::MAX {
                    let body = &rest[i + 1..close[i]];
                    for d in &decls {
                        if uses(body, &d.name) && !declares(body, &d.name) {
                            out.extend(d.toks.iter().cloned());
                        }
                    }
                }
            }
            Tok::Punct("}") => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    out
}

/// Whether `body` names `name` (not as a member after `.` or `->`).
fn uses(body: &[Token], name: &str) -> bool {
    body.iter().enumerate().any(|(i, t)| {
        matches!(&t.tok, Tok::Ident(w) if w == name)
            && !punct(body.get(i.wrapping_sub(1)), ".")
            && !punct(body.get(i.wrapping_sub(1)), "->")
    })
}

/// Whether `body` declares its own `extern __shared__ … name[]`.
fn declares(body: &[Token], name: &str) -> bool {
    (0..body.len()).any(|i| shared_decl(body, i).is_some_and(|(d, _)| d.name == name))
}
