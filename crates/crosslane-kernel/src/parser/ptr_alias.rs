//! Pointer type aliases (C++17 [dcl.typedef]): `typedef float* fptr;`, `typedef const float
//! *cfptr;` and `using fp = const float*;`, at file scope, in a class or in a block.
//! [dcl.typedef]/2: a typedef-name "is thus a synonym for another type"; it "does not
//! introduce a new type". A token pass after preprocessing writes that synonym out: each
//! declaration is dropped and each later use of the name in its scope replaced by the aliased
//! tokens, so that parameters, locals, casts, template arguments and host code read the
//! pointer type as if spelled there.
//!
//! Two spellings differ from a plain substitution and are written as C++ reads them:
//! - a cv-qualifier before the name qualifies the type the name stands for, the pointer itself
//!   ([dcl.type.cv]/1 with [dcl.typedef]/2: `const fptr p` is `float* const p`), so it is
//!   moved after the aliased `*`;
//! - each declarator of `fptr a, b;` has the aliased type ([dcl.dcl]/3: "each init-declarator
//!   … in the declaration"), so the `*` is written again after each top-level `,`.
//!
//! Only the plain forms are taken: a type of identifiers, `::`, template arguments and `*`,
//! ending in one or more `*` (with `const`, `volatile` or `__restrict__` after them); a
//! function pointer or array alias keeps its own readers. The pass is one left-to-right walk;
//! its output is at most the tokens times the longest alias.

use super::scopes::{punct, word};
use crate::lexer::{Tok, Token};

/// The most tokens an aliased pointer type may hold: longer ones are left to the parser.
const MAX_RHS: usize = 64;

/// Qualifiers that may follow a pointer's `*`.
fn ptr_qualifier(w: &str) -> bool {
    matches!(
        w,
        "const" | "volatile" | "__restrict__" | "__restrict" | "restrict"
    )
}

/// Whether `rhs` is a plain pointer type: type tokens, then `*`s with qualifiers.
fn pointer_type(rhs: &[Token]) -> bool {
    if rhs.is_empty() || rhs.len() > MAX_RHS {
        return false;
    }
    let Some(star) = rhs.iter().position(|t| punct(Some(t), "*")) else {
        return false;
    };
    if star == 0 {
        return false;
    }
    let head_ok = rhs[..star].iter().all(|t| match &t.tok {
        Tok::Ident(_) | Tok::Int { .. } => true,
        Tok::Punct(p) => matches!(*p, "::" | "<" | ">" | ">>" | ","),
        _ => false,
    });
    let tail_ok = rhs[star..].iter().all(|t| match &t.tok {
        Tok::Punct("*") => true,
        Tok::Ident(w) => ptr_qualifier(w),
        _ => false,
    });
    // The type itself names something (not only `const`).
    let named = rhs[..star]
        .iter()
        .any(|t| matches!(&t.tok, Tok::Ident(w) if !ptr_qualifier(w)));
    head_ok && tail_ok && named
}

/// A pointer alias declared at `k`: (its name, the aliased tokens, the index after its `;`).
fn declaration(tokens: &[Token], k: usize) -> Option<(String, Vec<Token>, usize)> {
    let end = (k..tokens.len().min(k + MAX_RHS + 8)).find(|&j| {
        matches!(
            tokens[j].tok,
            Tok::Punct(";" | "{" | "}" | "(" | ")" | "[" | "=") | Tok::Eof
        ) && !(j == k + 2 && punct(tokens.get(j), "="))
    })?;
    if !punct(tokens.get(end), ";") {
        return None;
    }
    match word(tokens.get(k)) {
        Some("typedef") => {
            let name = word(tokens.get(end - 1))?.to_string();
            let rhs = tokens.get(k + 1..end - 1)?.to_vec();
            pointer_type(&rhs).then_some((name, rhs, end + 1))
        }
        Some("using") => {
            // `template <…> using P = T*;` is an alias template ([`super::alias_templates`]).
            if k > 0 && punct(tokens.get(k - 1), ">") {
                return None;
            }
            let name = word(tokens.get(k + 1))?.to_string();
            if !punct(tokens.get(k + 2), "=") {
                return None;
            }
            let rhs = tokens.get(k + 3..end)?.to_vec();
            pointer_type(&rhs).then_some((name, rhs, end + 1))
        }
        _ => None,
    }
}

/// An alias in scope: the brace depth it was declared at, its name and aliased tokens.
struct Alias {
    depth: usize,
    name: String,
    rhs: Vec<Token>,
}

/// `tokens` with each pointer alias's declaration dropped and its uses written out.
pub(super) fn pointer_aliases(tokens: Vec<Token>) -> Vec<Token> {
    let declares = tokens.iter().enumerate().any(|(k, t)| {
        matches!(&t.tok, Tok::Ident(w) if w == "typedef" || w == "using")
            && declaration(&tokens, k).is_some()
    });
    if !declares {
        return tokens;
    }
    let mut out: Vec<Token> = Vec::with_capacity(tokens.len());
    let mut aliases: Vec<Alias> = Vec::new();
    // Per open brace: whether it opens a scope (a block or class, not a namespace or
    // `extern "C"`, whose aliases stay in the flattened file's scope).
    let mut braces: Vec<bool> = Vec::new();
    // Per open brace: whether it opens a class body (`struct S {`, `class C : B {`).
    let mut class_body: Vec<bool> = Vec::new();
    // A declaration whose first declarator's type was an alias: its nesting depth and the
    // pointer part (`*`, `* const`) each further declarator gets.
    let mut pending: Option<(usize, Vec<Token>)> = None;
    let mut nest = 0usize;
    let mut k = 0;
    while k < tokens.len() {
        let t = &tokens[k];
        if matches!(&t.tok, Tok::Ident(w) if w == "typedef" || w == "using") {
            if let Some((name, rhs, after)) = declaration(&tokens, k) {
                let rhs = substitute(&rhs, &aliases);
                if class_body.last() == Some(&true) {
                    // A class member: kept (as `using NAME = RHS;`) so that `C::NAME` names
                    // it from outside ([`super::member_types`]).
                    let at = |tok: Tok| Token {
                        tok,
                        ..tokens[k].clone()
                    };
                    out.push(at(Tok::Ident("using".into())));
                    out.push(at(Tok::Ident(name.clone())));
                    out.push(at(Tok::Punct("=")));
                    out.extend(rhs.iter().cloned());
                    out.push(at(Tok::Punct(";")));
                }
                let depth = braces.iter().filter(|&&s| s).count();
                aliases.push(Alias { depth, name, rhs });
                k = after;
                continue;
            }
        }
        match &t.tok {
            Tok::Punct("{") => {
                let n = out.len();
                let namespace = (n >= 1 && word(out.get(n - 1)) == Some("namespace"))
                    || (n >= 2 && word(out.get(n - 2)) == Some("namespace"))
                    || (n >= 2
                        && matches!(out.get(n - 1).map(|t| &t.tok), Some(Tok::Str(_)))
                        && word(out.get(n - 2)) == Some("extern"));
                if pending.as_ref().is_some_and(|(d, _)| *d == nest) && !punct(out.last(), "=") {
                    // A function body after `fptr f(…)`.
                    pending = None;
                }
                braces.push(!namespace);
                class_body.push(opens_class(&out));
                nest += 1;
            }
            Tok::Punct("}") => {
                let depth = braces.iter().filter(|&&s| s).count();
                class_body.pop();
                if braces.pop() == Some(true) {
                    aliases.retain(|a| a.depth < depth);
                }
                nest = nest.saturating_sub(1);
            }
            Tok::Punct("(" | "[") => nest += 1,
            Tok::Punct(")" | "]") => nest = nest.saturating_sub(1),
            _ => {}
        }
        if let Some((d, _)) = &pending {
            if nest < *d || (nest == *d && punct(Some(t), ";")) {
                pending = None;
            } else if nest == *d && punct(Some(t), ",") {
                let stars = pending.as_ref().map(|p| p.1.clone()).unwrap_or_default();
                out.push(t.clone());
                out.extend(stars.into_iter().map(|s| Token {
                    line: t.line,
                    col: t.col,
                    end: t.end,
                    ..s
                }));
                k += 1;
                continue;
            }
        }
        let alias = match &t.tok {
            Tok::Ident(w) => aliases.iter().rev().find(|a| a.name == *w),
            _ => None,
        };
        let member = out.last().is_some_and(|p| {
            matches!(p.tok, Tok::Punct("." | "->" | "::"))
                || matches!(&p.tok, Tok::Ident(w) if matches!(w.as_str(), "struct" | "class" | "union" | "enum"))
        }) || punct(tokens.get(k + 1), "::");
        let Some(alias) = alias.filter(|_| !member) else {
            out.push(t.clone());
            k += 1;
            continue;
        };
        // `const fptr p`: the pointer is const ([dcl.type.cv]); written after the `*`.
        let mut cv = Vec::new();
        while word(out.last()).is_some_and(|w| w == "const" || w == "volatile") {
            cv.extend(out.pop());
        }
        cv.reverse();
        let start = declaration_start(&out);
        let at = |s: &Token| Token {
            line: t.line,
            col: t.col,
            end: t.end,
            ..s.clone()
        };
        out.extend(alias.rhs.iter().map(at));
        out.extend(cv.iter().cloned());
        if start && pending.is_none() {
            let star = alias
                .rhs
                .iter()
                .position(|s| punct(Some(s), "*"))
                .unwrap_or(0);
            let mut part: Vec<Token> = alias.rhs[star..].to_vec();
            part.extend(cv.iter().cloned());
            pending = Some((nest, part));
        }
        k += 1;
    }
    out
}

/// `rhs` with the aliases already declared written out (`typedef fptr fptr2;` is not a pointer
/// form itself, but `typedef fptr* fpp;` is).
fn substitute(rhs: &[Token], aliases: &[Alias]) -> Vec<Token> {
    let mut out = Vec::with_capacity(rhs.len());
    for t in rhs {
        let found = match &t.tok {
            Tok::Ident(w) => aliases.iter().rev().find(|a| a.name == *w),
            _ => None,
        };
        match found {
            Some(a) if !punct(out.last(), "::") => out.extend(a.rhs.iter().cloned()),
            _ => out.push(t.clone()),
        }
    }
    out
}

/// Whether the tokens written so far end where a declaration starts (after `;`, `{`, `}`, a
/// label's or access specifier's `:`, or `for (`), storage and function specifiers skipped.
fn declaration_start(out: &[Token]) -> bool {
    let mut k = out.len();
    while k > 0
        && word(out.get(k - 1)).is_some_and(|w| {
            matches!(
                w,
                "static"
                    | "extern"
                    | "register"
                    | "constexpr"
                    | "inline"
                    | "__inline__"
                    | "__inline"
                    | "__shared__"
                    | "__device__"
                    | "__constant__"
                    | "__managed__"
                    | "__host__"
                    | "__forceinline__"
                    | "volatile"
                    | "const"
            )
        })
    {
        k -= 1;
    }
    if k == 0 {
        return true;
    }
    match &out[k - 1].tok {
        Tok::Punct(";" | "{" | "}" | ":") => true,
        Tok::Punct("(") => k >= 2 && word(out.get(k - 2)) == Some("for"),
        _ => false,
    }
}

/// Whether a `{` written after `out` opens a class body: a `struct`, `class` or `union` key
/// among the tokens since the last `;`, `{`, `}`, `)` or `=` (at most 64 back), not after
/// `enum`.
fn opens_class(out: &[Token]) -> bool {
    for k in (out.len().saturating_sub(64)..out.len()).rev() {
        match &out[k].tok {
            Tok::Punct(";" | "{" | "}" | ")" | "=") => return false,
            Tok::Ident(w) if matches!(w.as_str(), "struct" | "class" | "union") => {
                return k == 0 || word(out.get(k - 1)) != Some("enum");
            }
            _ => {}
        }
    }
    false
}
