//! Alias templates (C++17 [temp.alias]): `template <typename T> using Vec = MyVec<T, 4>;` and
//! `template <index_t N> using Number = integral_constant<index_t, N>;`. [temp.alias]/2: "When a
//! template-id refers to the specialization of an alias template, it is equivalent to the
//! associated type obtained by substitution of its template-arguments for the
//! template-parameters in the type-id of the alias template." A token pass after preprocessing
//! does exactly that substitution: each declaration is dropped and each `Name<args>` replaced by
//! the aliased tokens with the arguments in place of the parameters (a value argument in
//! parentheses, so that `N * 2` stays one operand). An alias naming another alias is replaced
//! again, at most [`MAX_ROUNDS`] times; each round is linear in the tokens.

use super::scopes::{punct, word};
use crate::lexer::{Tok, Token};
use std::collections::HashMap;

/// The most rounds of replacement: an alias of an alias of … deeper than this is left as
/// written (and the parser names it as undeclared).
const MAX_ROUNDS: usize = 16;

/// One alias template's parameter.
struct AParam {
    name: String,
    /// A type parameter (`typename T`, `class T`), whose argument is put in as written.
    is_type: bool,
    /// A parameter pack (`typename... Ts`): the remaining arguments, comma-separated.
    pack: bool,
    /// The default argument's tokens ([temp.param]/10).
    default: Option<Vec<Token>>,
}

/// One alias template: its parameters and the aliased type's tokens.
struct Alias {
    params: Vec<AParam>,
    rhs: Vec<Token>,
}

/// The template argument list opening at `open` (a `<`): each argument's tokens, the index
/// after the list, and whether its closing `>` was the first half of a `>>` (whose second half
/// closes an enclosing list). Parentheses nest apart. `None` when the list does not close.
fn split_args(toks: &[Token], open: usize) -> Option<(Vec<Vec<Token>>, usize, bool)> {
    let mut args: Vec<Vec<Token>> = vec![Vec::new()];
    let mut depth = 0usize;
    let mut parens = 0usize;
    let mut k = open + 1;
    loop {
        let t = toks.get(k)?;
        match &t.tok {
            Tok::Eof | Tok::Punct(";" | "{" | "}") if parens == 0 => return None,
            Tok::Punct("(" | "[") => parens += 1,
            Tok::Punct(")" | "]") => parens = parens.saturating_sub(1),
            _ if parens > 0 => {}
            Tok::Punct("<") => depth += 1,
            Tok::Punct(">") if depth == 0 => break,
            Tok::Punct(">") => depth -= 1,
            Tok::Punct(">>") if depth == 0 => {
                if args.len() == 1 && args[0].is_empty() {
                    args.clear();
                }
                return Some((args, k, true));
            }
            Tok::Punct(">>") if depth == 1 => {
                if let Some(last) = args.last_mut() {
                    last.push(Token {
                        tok: Tok::Punct(">"),
                        ..t.clone()
                    });
                }
                break;
            }
            Tok::Punct(">>") => depth -= 2,
            Tok::Punct(",") if depth == 0 => {
                args.push(Vec::new());
                k += 1;
                continue;
            }
            _ => {}
        }
        if let Some(last) = args.last_mut() {
            last.push(t.clone());
        }
        k += 1;
    }
    if args.len() == 1 && args[0].is_empty() {
        args.clear();
    }
    Some((args, k + 1, false))
}

/// The alias template declared at `at` (`template`), and the index after its `;`.
fn declaration(toks: &[Token], at: usize) -> Option<(String, Alias, usize)> {
    if word(toks.get(at)) != Some("template") || !punct(toks.get(at + 1), "<") {
        return None;
    }
    let (ps, after, half) = split_args(toks, at + 1)?;
    if half || word(toks.get(after)) != Some("using") || !punct(toks.get(after + 2), "=") {
        return None;
    }
    let name = word(toks.get(after + 1))?.to_string();
    let mut params = Vec::new();
    for p in ps {
        let eq = p.iter().position(|t| punct(Some(t), "="));
        let head = &p[..eq.unwrap_or(p.len())];
        let pname = head.iter().rev().find_map(|t| word(Some(t)))?.to_string();
        params.push(AParam {
            name: pname,
            is_type: matches!(word(head.first()), Some("typename" | "class")),
            pack: head.iter().any(|t| punct(Some(t), "...")),
            default: eq.map(|e| p[e + 1..].to_vec()),
        });
    }
    let mut k = after + 3;
    let mut depth = 0usize;
    while k < toks.len() {
        match &toks[k].tok {
            Tok::Punct("(" | "[" | "{") => depth += 1,
            Tok::Punct(")" | "]" | "}") => depth = depth.saturating_sub(1),
            Tok::Punct(";") if depth == 0 => break,
            Tok::Eof => return None,
            _ => {}
        }
        k += 1;
    }
    let rhs = toks.get(after + 3..k)?.to_vec();
    Some((name, Alias { params, rhs }, k + 1))
}

/// `alias`'s tokens with `args` substituted, each token placed at `site` (the use's name).
fn substitute(alias: &Alias, args: &[Vec<Token>], site: &Token) -> Vec<Token> {
    let mut bound: HashMap<&str, Vec<Token>> = HashMap::new();
    for (i, p) in alias.params.iter().enumerate() {
        let given: Vec<Token> = if p.pack {
            let mut all = Vec::new();
            for (j, a) in args.iter().enumerate().skip(i) {
                if j > i {
                    all.push(Token {
                        tok: Tok::Punct(","),
                        ..site.clone()
                    });
                }
                all.extend_from_slice(a);
            }
            all
        } else {
            match args.get(i).or(p.default.as_ref()) {
                Some(a) => a.clone(),
                None => continue,
            }
        };
        let mut put = Vec::new();
        let wrap = !p.is_type && !p.pack && given.len() > 1;
        if wrap {
            put.push(Token {
                tok: Tok::Punct("("),
                ..site.clone()
            });
        }
        put.extend(given);
        if wrap {
            put.push(Token {
                tok: Tok::Punct(")"),
                ..site.clone()
            });
        }
        bound.insert(&p.name, put);
    }
    let packs: Vec<&str> = alias
        .params
        .iter()
        .filter(|p| p.pack)
        .map(|p| p.name.as_str())
        .collect();
    let mut out = Vec::new();
    let mut skip_dots = false;
    for t in &alias.rhs {
        // `Ts...` of a pack parameter: its arguments in place, the `...` with it
        // ([temp.variadic]/7).
        if std::mem::take(&mut skip_dots) && punct(Some(t), "...") {
            continue;
        }
        if let Tok::Ident(w) = &t.tok {
            if let Some(b) = bound.get(w.as_str()) {
                out.extend(b.iter().cloned());
                skip_dots = packs.contains(&w.as_str());
                continue;
            }
        }
        out.push(Token {
            tok: t.tok.clone(),
            ..site.clone()
        });
    }
    out
}

/// `tokens` with every alias template's declaration dropped and its uses replaced by what it
/// aliases ([temp.alias]/2).
pub(super) fn alias_templates(tokens: Vec<Token>) -> Vec<Token> {
    let mut aliases: HashMap<String, Alias> = HashMap::new();
    let mut kept = Vec::with_capacity(tokens.len());
    let mut k = 0;
    while k < tokens.len() {
        if let Some((name, a, next)) = declaration(&tokens, k) {
            aliases.insert(name, a);
            k = next;
            continue;
        }
        kept.push(tokens[k].clone());
        k += 1;
    }
    if aliases.is_empty() {
        return tokens;
    }
    let mut toks = kept;
    for _ in 0..MAX_ROUNDS {
        let mut changed = false;
        let mut out = Vec::with_capacity(toks.len());
        let mut k = 0;
        while k < toks.len() {
            let member = k > 0 && (punct(toks.get(k - 1), ".") || punct(toks.get(k - 1), "->"));
            if let (Some(w), false, true) = (word(toks.get(k)), member, punct(toks.get(k + 1), "<"))
            {
                if let Some(a) = aliases.get(w) {
                    if let Some((args, next, half)) = split_args(&toks, k + 1) {
                        out.extend(substitute(a, &args, &toks[k]));
                        if half {
                            out.push(Token {
                                tok: Tok::Punct(">"),
                                ..toks[next].clone()
                            });
                        }
                        k = if half { next + 1 } else { next };
                        changed = true;
                        continue;
                    }
                }
            }
            out.push(toks[k].clone());
            k += 1;
        }
        toks = out;
        if !changed {
            break;
        }
    }
    toks
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;

    fn words(src: &str) -> String {
        alias_templates(lex(src).expect("lexes").tokens)
            .iter()
            .map(|t| crate::pp::spell(&t.tok))
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn uses_become_the_aliased_type_with_the_arguments_in_place() {
        assert_eq!(
            words("template <int N> using Num = IC<int, N>; Num<3 + 1> a; f<Num<2>>();"),
            "IC < int , ( 3 + 1 ) > a ; f < IC < int , 2 > > ( ) ;"
        );
        // An alias of an alias, and a default argument.
        assert_eq!(
            words(
                "template <typename T, int N = 4> using V = MV<T, N>; \
                 template <typename T> using W = V<T>; W<float> w;"
            ),
            "MV < float , 4 > w ;"
        );
        // A pack parameter's arguments replace its expansion `Ts...`.
        assert_eq!(
            words("template <typename... Ts> using L = TL<int, Ts...>; L<a, b> x; L<Us...> y;"),
            "TL < int , a , b > x ; TL < int , Us ... > y ;"
        );
    }
}
