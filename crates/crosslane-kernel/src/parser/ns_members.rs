//! The names each namespace declares at its own scope (functions, variables and constants,
//! structs and classes, aliases, templates of these), read from the tokens before
//! [`super::scopes::flatten_scopes`] drops the namespace blocks: a name two scopes both declare
//! (`a::f` and `b::f`, or `a::K` and a global `K`) names two entities (ISO C++
//! [basic.namespace]/1, [basic.lookup.qual]/1), so [`clashing_members`] lists each such
//! declaration by its qualified name and the flattening spells every use of it that way.
//!
//! A declaration's name is found by its shape at namespace scope: the name before the `(` of a
//! function declarator, before the `=`, `[`, `;`, `,` or `{` of a variable's, after `struct`,
//! `class` or `union` of a class definition, before the `=` of `using T = …;` (template
//! headers `template <…>` and attributes `__launch_bounds__(…)` are skipped). Enumerations are
//! left to [`super::scopes`] (their enumerators are read unqualified). Linear in the tokens.

use crate::lexer::{Tok, Token};
use std::collections::{HashMap, HashSet};

use super::scopes::{namespace_name, punct, word};

/// Words followed by a parenthesis that are not a declarator's name.
const NOT_NAMES: &[&str] = &[
    "__launch_bounds__",
    "__attribute__",
    "__declspec",
    "__align__",
    "alignas",
    "decltype",
    "sizeof",
    "alignof",
    "static_assert",
    "noexcept",
    "operator",
    "throw",
    "__cluster_dims__",
    "__maxnreg__",
];

/// Words that make a namespace-scope declaration one this module leaves alone.
const SKIPPED_STARTS: &[&str] = &["enum", "namespace", "friend", "asm", "__asm__"];

/// The names declared directly in a namespace or at file scope, each as (name, its name
/// qualified by the enclosing named namespaces; the name itself at file scope or in an
/// anonymous namespace).
pub(super) fn namespace_members(toks: &[Token]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    // Brace depth; each open namespace block: the depth inside it and its name.
    let mut depth = 0usize;
    let mut open: Vec<(usize, String)> = Vec::new();
    // Within the current namespace-scope declaration: its first token's index, whether its
    // name was found, the nesting of `(`/`[`, and of a template header's `<…>`.
    let mut start = 0usize;
    let mut named = false;
    let mut parens = 0usize;
    let mut angles = 0usize;
    // Whether the declaration is a class's (its body's `}` is followed by declarators or `;`).
    let mut is_class = false;
    let mut k = 0;
    while k < toks.len() {
        let t = &toks[k];
        let scope_depth = open.last().map_or(0, |(d, _)| *d);
        if word(Some(t)) == Some("namespace") && depth == scope_depth {
            let (name, j) = namespace_name(toks, k + 1);
            if punct(toks.get(j), "{") {
                depth += 1;
                open.push((depth, name));
                k = j + 1;
                (start, named, parens, angles, is_class) = (k, false, 0, 0, false);
                continue;
            }
        }
        if word(Some(t)) == Some("inline") && word(toks.get(k + 1)) == Some("namespace") {
            k += 1;
            continue;
        }
        if depth != scope_depth {
            // Inside a body (a function's, a class's, an initializer's braces).
            match &t.tok {
                Tok::Punct("{") => depth += 1,
                Tok::Punct("}") => {
                    depth = depth.saturating_sub(1);
                    if depth == scope_depth && parens == 0 {
                        // A function or class body closed: the next declaration starts,
                        // unless a `;` ends this one (`struct P { … } p;`).
                        if !is_class {
                            (start, named, parens, angles, is_class) = (k + 1, false, 0, 0, false);
                        }
                    }
                }
                _ => {}
            }
            k += 1;
            continue;
        }
        let skipped = word(toks.get(start)).is_some_and(|w| SKIPPED_STARTS.contains(&w))
            || (word(toks.get(start)) == Some("using") && !punct(toks.get(start + 2), "="));
        match &t.tok {
            Tok::Punct("}") => {
                // A namespace block's end.
                if open.last().is_some_and(|(d, _)| *d == depth) {
                    open.pop();
                }
                depth = depth.saturating_sub(1);
                (start, named, parens, angles, is_class) = (k + 1, false, 0, 0, false);
                k += 1;
                continue;
            }
            Tok::Punct(";") if parens == 0 => {
                (start, named, parens, angles, is_class) = (k + 1, false, 0, 0, false);
                k += 1;
                continue;
            }
            Tok::Punct("(" | "[") => parens += 1,
            Tok::Punct(")" | "]") => parens = parens.saturating_sub(1),
            Tok::Punct("<")
                if word(toks.get(k.wrapping_sub(1))) == Some("template") || angles > 0 =>
            {
                angles += 1;
            }
            Tok::Punct(">") if angles > 0 => angles -= 1,
            Tok::Punct(">>") if angles > 0 => angles = angles.saturating_sub(2),
            Tok::Punct("{") => {
                depth += 1;
                k += 1;
                continue;
            }
            Tok::Ident(w)
                if matches!(w.as_str(), "struct" | "class" | "union")
                    && parens == 0
                    && angles == 0 =>
            {
                is_class = true;
            }
            Tok::Ident(w) if !named && !skipped && parens == 0 && angles == 0 => {
                let prev_scope = k > 0 && punct(toks.get(k - 1), "::");
                let class_head = k > 0
                    && matches!(word(toks.get(k - 1)), Some("struct" | "class" | "union"))
                    && (punct(toks.get(k + 1), "{")
                        || punct(toks.get(k + 1), ":")
                        || word(toks.get(k + 1)) == Some("final"));
                let next = toks.get(k + 1).map(|t| &t.tok);
                let declarator = !prev_scope
                    && !NOT_NAMES.contains(&w.as_str())
                    && matches!(next, Some(Tok::Punct("(" | "=" | "[" | ";" | "," | "{")))
                    && !matches!(
                        word(toks.get(k.wrapping_sub(1))),
                        Some("struct" | "class" | "union")
                    )
                    && k > start;
                if class_head || declarator {
                    let path: Vec<&str> = open
                        .iter()
                        .map(|(_, n)| n.as_str())
                        .filter(|n| !n.is_empty())
                        .collect();
                    let q = if path.is_empty() {
                        w.clone()
                    } else {
                        format!("{}::{w}", path.join("::"))
                    };
                    out.push((w.clone(), q));
                    named = true;
                }
            }
            _ => {}
        }
        k += 1;
    }
    out
}

/// The qualified names of the declarations `members` lists ([`namespace_members`]) whose
/// name another scope also declares: `a::f` and `b::f`, or `a::K` and the global `K` (which
/// is listed as `K`).
pub(super) fn clashing_members(members: &[(String, String)]) -> HashSet<String> {
    let mut by_name: HashMap<&str, HashSet<&str>> = HashMap::new();
    for (n, q) in members {
        by_name.entry(n).or_default().insert(q);
    }
    by_name
        .values()
        .filter(|qs| qs.len() > 1)
        .flat_map(|qs| qs.iter().map(|q| (*q).to_string()))
        .collect()
}
