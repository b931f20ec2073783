//! The curiously recurring template pattern: `template <typename D> struct Base { __device__
//! int run() { return static_cast<D*>(this)->impl(); } }; struct Der : Base<Der> { … };`.
//!
//! C++17 instantiates a class template's member function only where it is used
//! ([temp.inst]/2), by which point `Der` is complete, so `static_cast<D*>(this)` names the
//! `Der` object whose base subobject `this` points at ([expr.static.cast]/11). The parser here
//! makes a base's member functions with the base, before `Der` is complete, so a token pass
//! after preprocessing writes the base's members into `Der` itself with the arguments in
//! place of the parameters ([temp.alias]-like substitution): the base's data members, types
//! and constants first (a base subobject comes first, [class.derived]/5's layout as the other
//! bases here), `Der`'s own members, then the base's member functions, where every member of
//! `Der` is declared ([class.mem]/6: a member function body is a complete-class context). In
//! them `static_cast<D*>(this)` is `this` and `static_cast<D&>(*this)` is `*this`: the same
//! object. What this rewrite cannot keep is refused by the parser's earlier message
//! (`crtp_refusal` of the parser's structs): a base with a constructor or destructor, a base
//! of its own, or a `Der` that is itself a template — those clauses are left as written.
//! `Base<Der>` named as a type elsewhere (a `Base<Der>&` parameter) is not the copied
//! members' class: such a use reads the base alone.

use super::scopes::{punct, word};
use crate::lexer::{Tok, Token};
use std::collections::HashMap;

/// A class template the pass may copy from: its parameters and its body's tokens (inside
/// the braces).
struct ClassTemplate {
    params: Vec<(String, bool)>,
    body: Vec<Token>,
}

/// The index of the bracket closing the one at `open` (`(`, `[`, `{` or `<` as a template
/// list, where parentheses nest apart), or `None`.
fn close_of(toks: &[Token], open: usize) -> Option<usize> {
    let angle = punct(toks.get(open), "<");
    let mut depth = 0usize;
    let mut parens = 0usize;
    for (k, t) in toks.iter().enumerate().skip(open) {
        match &t.tok {
            Tok::Punct("(" | "[" | "{") if angle => parens += 1,
            Tok::Punct(")" | "]" | "}") if angle => parens = parens.saturating_sub(1),
            _ if angle && parens > 0 => {}
            Tok::Punct("<") if angle => depth += 1,
            Tok::Punct(">") if angle => {
                depth -= 1;
                if depth == 0 {
                    return Some(k);
                }
            }
            Tok::Punct(">>") if angle => return None,
            Tok::Punct("(" | "[" | "{") => depth += 1,
            Tok::Punct(")" | "]" | "}") => {
                depth -= 1;
                if depth == 0 {
                    return Some(k);
                }
            }
            Tok::Eof => return None,
            _ => {}
        }
    }
    None
}

/// `toks[from..to]` split at top-level commas.
fn split_commas(toks: &[Token], from: usize, to: usize) -> Vec<Vec<Token>> {
    let mut out = vec![Vec::new()];
    let mut depth = 0usize;
    for t in &toks[from..to] {
        match &t.tok {
            Tok::Punct("<" | "(" | "[" | "{") => depth += 1,
            Tok::Punct(">" | ")" | "]" | "}") => depth = depth.saturating_sub(1),
            Tok::Punct(">>") => depth = depth.saturating_sub(2),
            Tok::Punct(",") if depth == 0 => {
                out.push(Vec::new());
                continue;
            }
            _ => {}
        }
        if let Some(last) = out.last_mut() {
            last.push(t.clone());
        }
    }
    out
}

/// The class templates of `toks` a derived class may copy: `template <…> struct NAME { … };`
/// with no base of its own, no partial specialization, no constructor or destructor.
fn class_templates(toks: &[Token]) -> HashMap<String, ClassTemplate> {
    let mut out = HashMap::new();
    for k in 0..toks.len() {
        if word(toks.get(k)) != Some("template") || !punct(toks.get(k + 1), "<") {
            continue;
        }
        let Some(close) = close_of(toks, k + 1) else {
            continue;
        };
        if !matches!(word(toks.get(close + 1)), Some("struct" | "class")) {
            continue;
        }
        let Some(name) = word(toks.get(close + 2)) else {
            continue;
        };
        if !punct(toks.get(close + 3), "{") {
            continue;
        }
        let Some(end) = close_of(toks, close + 3) else {
            continue;
        };
        let body = toks[close + 4..end].to_vec();
        let own = body.iter().enumerate().any(|(i, t)| {
            word(Some(t)) == Some(name)
                && (punct(body.get(i + 1), "(") || (i > 0 && punct(body.get(i - 1), "~")))
        });
        if own {
            continue;
        }
        let mut params = Vec::new();
        for p in split_commas(toks, k + 2, close) {
            let eq = p.iter().position(|t| punct(Some(t), "="));
            let head = &p[..eq.unwrap_or(p.len())];
            let Some(n) = head.iter().rev().find_map(|t| word(Some(t))) else {
                continue;
            };
            let is_type = matches!(word(head.first()), Some("typename" | "class"));
            params.push((n.to_string(), is_type));
        }
        out.insert(name.to_string(), ClassTemplate { params, body });
    }
    out
}

/// The base's body with `args` for its parameters and `static_cast<D*>(this)` read as
/// `this`, split into its data members (and types, constants) and its member functions.
fn instance_members(t: &ClassTemplate, args: &[Vec<Token>], der: &str) -> (Vec<Token>, Vec<Token>) {
    let mut toks = Vec::with_capacity(t.body.len());
    for tok in &t.body {
        if let Tok::Ident(w) = &tok.tok {
            if let Some(i) = t.params.iter().position(|(n, _)| n == w) {
                if let Some(a) = args.get(i) {
                    let wrap = !t.params[i].1 && a.len() > 1;
                    if wrap {
                        toks.push(Token {
                            tok: Tok::Punct("("),
                            ..tok.clone()
                        });
                    }
                    toks.extend(a.iter().map(|x| Token {
                        tok: x.tok.clone(),
                        ..tok.clone()
                    }));
                    if wrap {
                        toks.push(Token {
                            tok: Tok::Punct(")"),
                            ..tok.clone()
                        });
                    }
                    continue;
                }
            }
        }
        toks.push(tok.clone());
    }
    let toks = self_casts(&toks, der);
    // The members: each up to a top-level `;`, or a function body's closing `}`.
    let (mut data, mut funcs) = (Vec::new(), Vec::new());
    let mut member: Vec<Token> = Vec::new();
    let mut k = 0;
    while k < toks.len() {
        let t = &toks[k];
        // `public:` and kin: every copied member is reachable as the base's public ones are.
        if matches!(word(Some(t)), Some("public" | "private" | "protected"))
            && punct(toks.get(k + 1), ":")
            && member.is_empty()
        {
            k += 2;
            continue;
        }
        if punct(Some(t), "{") {
            let Some(end) = close_of(&toks, k) else {
                break;
            };
            member.extend_from_slice(&toks[k..=end]);
            k = end + 1;
            let function = member
                .iter()
                .take_while(|x| !punct(Some(x), "{"))
                .any(|x| punct(Some(x), "("))
                && !member
                    .iter()
                    .take_while(|x| !punct(Some(x), "{"))
                    .any(|x| punct(Some(x), "="));
            if function {
                if punct(toks.get(k), ";") {
                    k += 1;
                }
                funcs.append(&mut member);
            }
            continue;
        }
        member.push(t.clone());
        k += 1;
        if punct(Some(t), ";") {
            data.append(&mut member);
        }
    }
    data.append(&mut member);
    (data, funcs)
}

/// `toks` with `static_cast<[const] DER*>(this)` as `this` and `static_cast<[const] DER&>(*this)`
/// as `(*this)`.
fn self_casts(toks: &[Token], der: &str) -> Vec<Token> {
    let mut out = Vec::with_capacity(toks.len());
    let mut k = 0;
    while k < toks.len() {
        if word(toks.get(k)) == Some("static_cast") && punct(toks.get(k + 1), "<") {
            let mut j = k + 2;
            if word(toks.get(j)) == Some("const") {
                j += 1;
            }
            if word(toks.get(j)) == Some(der)
                && punct(toks.get(j + 2), ">")
                && punct(toks.get(j + 3), "(")
            {
                let ptr = punct(toks.get(j + 1), "*");
                let reference = punct(toks.get(j + 1), "&");
                if ptr && word(toks.get(j + 4)) == Some("this") && punct(toks.get(j + 5), ")") {
                    out.push(toks[j + 4].clone());
                    k = j + 6;
                    continue;
                }
                if reference
                    && punct(toks.get(j + 4), "*")
                    && word(toks.get(j + 5)) == Some("this")
                    && punct(toks.get(j + 6), ")")
                {
                    out.push(toks[j + 3].clone());
                    out.push(toks[j + 4].clone());
                    out.push(toks[j + 5].clone());
                    out.push(toks[j + 6].clone());
                    k = j + 7;
                    continue;
                }
            }
        }
        out.push(toks[k].clone());
        k += 1;
    }
    out
}

/// `tokens` with each non-template class deriving from a class template given the class
/// itself as an argument holding that base's members instead (see the module's text).
pub(super) fn crtp(tokens: Vec<Token>) -> Vec<Token> {
    let templates = class_templates(&tokens);
    if templates.is_empty() {
        return tokens;
    }
    let mut out = Vec::with_capacity(tokens.len());
    let mut k = 0;
    while k < tokens.len() {
        if let Some(next) = rewrite_at(&tokens, k, &templates, &mut out) {
            k = next;
            continue;
        }
        out.push(tokens[k].clone());
        k += 1;
    }
    out
}

/// At `k`, a class `struct DER : …Base<…DER…>… { … }` (not itself a template): writes the
/// rewritten class to `out` and returns the index after its body; `None` (nothing written)
/// for anything else.
fn rewrite_at(
    toks: &[Token],
    k: usize,
    templates: &HashMap<String, ClassTemplate>,
    out: &mut Vec<Token>,
) -> Option<usize> {
    if !matches!(word(toks.get(k)), Some("struct" | "class")) || !punct(toks.get(k + 2), ":") {
        return None;
    }
    // A class template's own definition (`template <…> struct Der : Base<Der<T>>`) is kept.
    if k > 0 && punct(toks.get(k - 1), ">") {
        return None;
    }
    let der = word(toks.get(k + 1))?;
    let open = (k + 3..toks.len()).find(|&j| punct(toks.get(j), "{") || punct(toks.get(j), ";"))?;
    if !punct(toks.get(open), "{") {
        return None;
    }
    let end = close_of(toks, open)?;
    let mut kept: Vec<Vec<Token>> = Vec::new();
    let mut copied: Option<(Vec<Token>, Vec<Token>)> = None;
    for base in split_commas(toks, k + 3, open) {
        let mut b = 0;
        while matches!(
            word(base.get(b)),
            Some("public" | "private" | "protected" | "virtual")
        ) {
            b += 1;
        }
        let crtp_base = word(base.get(b))
            .and_then(|n| templates.get(n))
            .filter(|_| punct(base.get(b + 1), "<"))
            .filter(|_| base[b + 2..].iter().any(|t| word(Some(t)) == Some(der)));
        match crtp_base {
            Some(t) if copied.is_none() => {
                let close = close_of(&base, b + 1)?;
                if close + 1 != base.len() {
                    return None;
                }
                let args = split_commas(&base, b + 2, close);
                copied = Some(instance_members(t, &args, der));
            }
            Some(_) => return None,
            None => kept.push(base),
        }
    }
    let (data, funcs) = copied?;
    out.extend_from_slice(&toks[k..k + 2]);
    for (i, b) in kept.iter().enumerate() {
        out.push(Token {
            tok: Tok::Punct(if i == 0 { ":" } else { "," }),
            ..toks[k + 2].clone()
        });
        out.extend(b.iter().cloned());
    }
    out.push(toks[open].clone());
    out.extend(data);
    out.extend_from_slice(&toks[open + 1..end]);
    // The base's functions after the class's own members, behind an access label that keeps
    // them reachable in a `class`.
    if !funcs.is_empty() {
        out.push(Token {
            tok: Tok::Ident("public".into()),
            ..toks[end].clone()
        });
        out.push(Token {
            tok: Tok::Punct(":"),
            ..toks[end].clone()
        });
    }
    out.extend(funcs);
    out.push(toks[end].clone());
    Some(end + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;

    fn words(src: &str) -> String {
        crtp(lex(src).expect("lexes").tokens)
            .iter()
            .map(|t| crate::pp::spell(&t.tok))
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn the_base_members_go_into_the_derived_class_around_its_own() {
        assert_eq!(
            words(
                "template <typename D, int N> struct B { int c; int run() { return \
                 static_cast<D*>(this)->f() + N; } }; struct S : B<S, 2> { int f() { return 1; } };"
            ),
            "template < typename D , int N > struct B { int c ; int run ( ) { return \
             static_cast < D * > ( this ) -> f ( ) + N ; } } ; struct S { int c ; int f ( ) \
             { return 1 ; } public : int run ( ) { return this -> f ( ) + 2 ; } } ;"
        );
    }
}
