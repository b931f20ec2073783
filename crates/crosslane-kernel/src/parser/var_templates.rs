//! Variable templates at file scope (C++17 [temp]/1, [temp.spec]/1): `template <typename T>
//! constexpr bool is_big_v = sizeof(T) > 4;` and their explicit specializations
//! (`template <> constexpr bool is_big_v<char> = true;`).
//!
//! A token pass after preprocessing: each declaration is rewritten as a class template of
//! the same name whose static member `value` holds the initializer (`template <typename T>
//! struct is_big_v { static constexpr bool value = sizeof(T) > 4; };`), and each use
//! `is_big_v<double>` as `is_big_v<double>::value`. A variable template's specialization is
//! a constant named by its arguments, which is what a class template's static constant is
//! ([temp.inst]/1: instantiated once per argument list). Only `constexpr` / `const`
//! declarations with an `=` initializer are read (a variable template that is written at run
//! time has no class template counterpart and is left for the parser to refuse).

use super::scopes::{punct, word};
use crate::lexer::{Tok, Token};

/// The most declarations rewritten (a budget on the input-driven scan).
const MAX_DECLS: usize = 4096;

/// The index just past the `>` closing the `<` at `open` (a `>>` closing it and the list
/// around counts as two), and whether that closing token was a `>>` ending two lists.
fn close_of(toks: &[Token], open: usize) -> Option<(usize, bool)> {
    let mut depth = 0i64;
    let mut parens = 0i64;
    for (k, t) in toks.iter().enumerate().skip(open) {
        match &t.tok {
            Tok::Punct("(" | "[" | "{") => parens += 1,
            Tok::Punct(")" | "]" | "}") => {
                parens -= 1;
                if parens < 0 {
                    return None;
                }
            }
            Tok::Punct(";") => return None,
            _ if parens > 0 => {}
            Tok::Punct("<") => depth += 1,
            Tok::Punct(">") => {
                depth -= 1;
                if depth == 0 {
                    return Some((k + 1, false));
                }
            }
            Tok::Punct(">>") => {
                depth -= 2;
                if depth <= 0 {
                    return Some((k + 1, depth < 0));
                }
            }
            _ => {}
        }
    }
    None
}

const SPECIFIERS: [&str; 7] = [
    "inline",
    "static",
    "constexpr",
    "const",
    "__device__",
    "__host__",
    "__constant__",
];

/// A variable template declaration at `k` (its `template`): the end of its header (past the
/// `>`), the range of its type, the name's index, the range of its initializer (after `=`,
/// up to the `;`), and the `;`'s index.
struct Decl {
    head_end: usize,
    ty: (usize, usize),
    name: usize,
    /// The explicit specialization's argument list (`<char>`) between the name and `=`.
    spec: Option<(usize, usize)>,
    init: (usize, usize),
    semi: usize,
}

fn decl_at(toks: &[Token], k: usize) -> Option<Decl> {
    if word(toks.get(k)) != Some("template") || !punct(toks.get(k + 1), "<") {
        return None;
    }
    let (head_end, _) = close_of(toks, k + 1)?;
    let mut j = head_end;
    let mut constant = false;
    while let Some(w) = word(toks.get(j)) {
        if !SPECIFIERS.contains(&w) {
            break;
        }
        constant |= w == "constexpr" || w == "const";
        j += 1;
    }
    if !constant {
        return None;
    }
    if matches!(
        word(toks.get(j)),
        Some("struct" | "class" | "union" | "using" | "typedef")
    ) {
        return None;
    }
    // The declarator: the last identifier before `=` (or before its `<…>` specialization).
    let ty_from = j;
    let mut e = j;
    while e < toks.len() && !punct(toks.get(e), "=") {
        if matches!(toks[e].tok, Tok::Punct("(" | ";" | "{" | "[")) || e - j > 64 {
            return None;
        }
        e += 1;
    }
    let (name, spec) = if punct(toks.get(e - 1), ">") {
        // `is_big_v<char> =`: find the `<` opening the specialization's arguments.
        let mut open = None;
        for s in (ty_from..e).rev() {
            if punct(toks.get(s), "<") && close_of(toks, s).map(|c| c.0) == Some(e) {
                open = Some(s);
                break;
            }
        }
        let open = open?;
        (open.checked_sub(1)?, Some((open, e)))
    } else {
        (e - 1, None)
    };
    if name <= ty_from || word(toks.get(name)).is_none() {
        return None;
    }
    let mut semi = e + 1;
    let mut parens = 0i64;
    while semi < toks.len() {
        match &toks[semi].tok {
            Tok::Punct("(" | "[" | "{") => parens += 1,
            Tok::Punct(")" | "]" | "}") => parens -= 1,
            Tok::Punct(";") if parens == 0 => break,
            _ => {}
        }
        semi += 1;
    }
    if semi >= toks.len() {
        return None;
    }
    Some(Decl {
        head_end,
        ty: (ty_from, name),
        name,
        spec,
        init: (e + 1, semi),
        semi,
    })
}

fn synth(like: &Token, tok: Tok) -> Token {
    Token {
        tok,
        ..like.clone()
    }
}

/// `tokens` with file-scope variable templates rewritten as class templates with a `value`
/// member and their uses as that member; `tokens` unchanged when it declares none.
pub(super) fn var_templates(tokens: Vec<Token>) -> Vec<Token> {
    if !tokens
        .iter()
        .any(|t| matches!(&t.tok, Tok::Ident(w) if w == "template"))
    {
        return tokens;
    }
    // The declarations at brace depth 0 (file scope), each with its `template`'s index.
    let mut decls: Vec<(usize, Decl)> = Vec::new();
    let mut names = std::collections::HashSet::new();
    let mut depth = 0i64;
    let mut k = 0;
    while k < tokens.len() && decls.len() < MAX_DECLS {
        match &tokens[k].tok {
            Tok::Punct("{") => depth += 1,
            Tok::Punct("}") => depth -= 1,
            Tok::Ident(w) if w == "template" && depth == 0 => {
                if let Some(d) = decl_at(&tokens, k) {
                    if let Some(n) = word(tokens.get(d.name)) {
                        names.insert(n.to_string());
                    }
                    let next = d.semi + 1;
                    decls.push((k, d));
                    k = next;
                    continue;
                }
            }
            _ => {}
        }
        k += 1;
    }
    if decls.is_empty() {
        return tokens;
    }
    let declared: std::collections::HashSet<usize> = decls.iter().map(|(_, d)| d.name).collect();
    let closes = uses(&tokens, &names, &declared);
    let mut out = Vec::with_capacity(tokens.len() + decls.len() * 8);
    let emit = |out: &mut Vec<Token>, k: usize| {
        let t = &tokens[k];
        match closes.get(&k) {
            None => out.push(t.clone()),
            Some(split) => {
                // A `>>` closing this list and one inside it is written as two `>`, which the
                // parser reads as two closings ([temp.names]/3).
                out.push(synth(t, Tok::Punct(">")));
                if !*split && punct(Some(t), ">>") {
                    out.push(synth(t, Tok::Punct(">")));
                }
                out.push(synth(t, Tok::Punct("::")));
                out.push(synth(t, Tok::Ident("value".into())));
                if *split {
                    out.push(synth(t, Tok::Punct(">")));
                }
            }
        }
    };
    let mut k = 0;
    let mut next = decls.iter().peekable();
    while k < tokens.len() {
        match next.peek() {
            Some((start, d)) if *start == k => {
                let like = tokens[d.name].clone();
                out.extend_from_slice(&tokens[k..d.head_end]);
                out.push(synth(&like, Tok::Ident("struct".into())));
                out.push(tokens[d.name].clone());
                if let Some((a, b)) = d.spec {
                    for j in a..b {
                        emit(&mut out, j);
                    }
                }
                out.push(synth(&like, Tok::Punct("{")));
                out.push(synth(&like, Tok::Ident("static".into())));
                out.push(synth(&like, Tok::Ident("constexpr".into())));
                out.extend(
                    tokens[d.ty.0..d.ty.1]
                        .iter()
                        .filter(|t| {
                            !matches!(&t.tok, Tok::Ident(w) if SPECIFIERS.contains(&w.as_str()))
                        })
                        .cloned(),
                );
                out.push(synth(&like, Tok::Ident("value".into())));
                out.push(synth(&like, Tok::Punct("=")));
                for j in d.init.0..d.init.1 {
                    emit(&mut out, j);
                }
                out.push(synth(&like, Tok::Punct(";")));
                out.push(synth(&like, Tok::Punct("}")));
                out.push(synth(&like, Tok::Punct(";")));
                k = d.semi + 1;
                next.next();
            }
            _ => {
                emit(&mut out, k);
                k += 1;
            }
        }
    }
    out
}

/// The uses `NAME<args>` of the variable templates `names` (not their declarations' names,
/// at `declared`): for each, the index of the token
/// closing its argument list, and whether that token is a `>>` closing the enclosing list too
/// (split into `> ::value >`).
fn uses(
    toks: &[Token],
    names: &std::collections::HashSet<String>,
    declared: &std::collections::HashSet<usize>,
) -> std::collections::HashMap<usize, bool> {
    let mut closes = std::collections::HashMap::new();
    for k in 0..toks.len() {
        let prev = k.checked_sub(1).and_then(|p| toks.get(p));
        let is_use = !declared.contains(&k)
            && matches!(&toks[k].tok, Tok::Ident(w) if names.contains(w))
            && punct(toks.get(k + 1), "<")
            && !matches!(word(prev), Some("struct" | "class"))
            && !punct(prev, ".")
            && !punct(prev, "->")
            // `std::is_same_v<…>` is the library's, whatever the source declares.
            && !(punct(prev, "::") && word(k.checked_sub(2).and_then(|p| toks.get(p))) == Some("std"));
        if !is_use {
            continue;
        }
        if let Some((end, split)) = close_of(toks, k + 1) {
            closes.insert(end - 1, split);
        }
    }
    closes
}
