//! A token pass: a local variable holding one of hipCUB's stateless operators, `auto
//! reduce_op = hipcub::Sum();` (hipCUB's tests) or `hipcub::Max op;`, written out at its uses
//! as the temporary `hipcub::Sum()`, which the collectives' operator reading knows
//! ([`super::cub`]). CUB's own (`cub::Sum op;`) are read as objects already, and a CCCL 3.0
//! note stays at their declaration, so `cub::` is left as written.
//!
//! CUB API, `cub::Sum`, `cub::Max`, `cub::Min` (`cub/thread/thread_operators.cuh`; hipCUB
//! declares the same in `hipcub/thread/thread_operators.hpp`): empty structs whose
//! `operator()` reads nothing but its arguments, so every object of one is the same
//! function and a use of the variable is a use of a temporary. Forms read, at statement
//! start: `[const] auto NAME = NS::OP();` (also `{}`), `NS::OP NAME;`, `NS::OP NAME{};`,
//! `NS::OP NAME = NS::OP();`, with `NS` `hipcub` and `OP` `Sum`, `Max` or `Min`.
//! The declaration is dropped and `NAME` replaced to the end of its block (a later such
//! declaration of the same name takes over). The pass runs over the tokens once (the work is
//! linear in the source).

use super::std_constants::word;
use crate::lexer::{Tok, Token};

const NAMESPACES: &[&str] = &["hipcub"];
const OPERATORS: &[&str] = &["Sum", "Max", "Min"];

/// `NS :: OP` at `k`: the operator's name.
fn op_at(t: &[Token], k: usize) -> Option<&str> {
    let ns = word(t.get(k))?;
    if !NAMESPACES.contains(&ns) || !matches!(t.get(k + 1).map(|t| &t.tok), Some(Tok::Punct("::")))
    {
        return None;
    }
    word(t.get(k + 2)).filter(|o| OPERATORS.contains(o))
}

fn punct(t: &[Token], k: usize, p: &str) -> bool {
    matches!(t.get(k).map(|t| &t.tok), Some(Tok::Punct(q)) if *q == p)
}

/// `()` or `{}` at `k`: the index after it.
fn empty_parens(t: &[Token], k: usize) -> Option<usize> {
    ((punct(t, k, "(") && punct(t, k + 1, ")")) || (punct(t, k, "{") && punct(t, k + 1, "}")))
        .then_some(k + 2)
}

/// The declaration at `k` (a statement's first token): the variable, the operator and the
/// index after its `;`.
fn decl_at(t: &[Token], k: usize) -> Option<(String, String, usize)> {
    let mut i = k;
    if word(t.get(i)) == Some("const") {
        i += 1;
    }
    if word(t.get(i)) == Some("auto") {
        let name = word(t.get(i + 1))?.to_string();
        if !punct(t, i + 2, "=") {
            return None;
        }
        let op = op_at(t, i + 3)?.to_string();
        let after = empty_parens(t, i + 6)?;
        return punct(t, after, ";").then(|| (name, op, after + 1));
    }
    let op = op_at(t, i)?.to_string();
    let name = word(t.get(i + 3))?.to_string();
    let mut j = i + 4;
    if let Some(after) = empty_parens(t, j) {
        if punct(t, j, "{") {
            j = after;
        }
    }
    if punct(t, j, "=") {
        let again = op_at(t, j + 1)?;
        if again != op {
            return None;
        }
        j = empty_parens(t, j + 4)?;
    }
    punct(t, j, ";").then(|| (name, op, j + 1))
}

/// `tokens` with each such variable's declaration dropped and its uses written as the
/// operator's temporary; unchanged when the source declares none.
pub(super) fn cub_functor_vars(tokens: Vec<Token>) -> Vec<Token> {
    let any = tokens.windows(3).any(|w| op_at(w, 0).is_some());
    if !any {
        return tokens;
    }
    let mut out = Vec::with_capacity(tokens.len());
    // (name, operator's tokens, brace depth of its block)
    let mut live: Vec<(String, Vec<Token>, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut k = 0;
    while k < tokens.len() {
        let start = k == 0 || matches!(tokens[k - 1].tok, Tok::Punct(";" | "{" | "}"));
        if start {
            if let Some((name, op, next)) = decl_at(&tokens, k) {
                let at = &tokens[k];
                let ns = word(tokens.get(k)).filter(|w| NAMESPACES.contains(w));
                let ns = ns.or_else(|| {
                    (k..next).find_map(|i| word(tokens.get(i)).filter(|w| NAMESPACES.contains(w)))
                });
                let ns = ns.unwrap_or("hipcub").to_string();
                let mk = |tok: Tok| Token { tok, ..at.clone() };
                let temp = vec![
                    mk(Tok::Ident(ns)),
                    mk(Tok::Punct("::")),
                    mk(Tok::Ident(op)),
                    mk(Tok::Punct("(")),
                    mk(Tok::Punct(")")),
                ];
                live.retain(|(n, _, _)| *n != name);
                live.push((name, temp, depth));
                k = next;
                continue;
            }
        }
        match &tokens[k].tok {
            Tok::Punct("{") => depth += 1,
            Tok::Punct("}") => {
                depth = depth.saturating_sub(1);
                live.retain(|(_, _, d)| *d <= depth);
            }
            Tok::Ident(w) => {
                let member = k > 0 && matches!(tokens[k - 1].tok, Tok::Punct("." | "->" | "::"));
                if !member {
                    if let Some((_, temp, _)) = live.iter().rev().find(|(n, _, _)| n == w) {
                        let here = &tokens[k];
                        out.extend(temp.iter().map(|t| Token {
                            tok: t.tok.clone(),
                            ..here.clone()
                        }));
                        k += 1;
                        continue;
                    }
                }
            }
            _ => {}
        }
        out.push(tokens[k].clone());
        k += 1;
    }
    out
}
