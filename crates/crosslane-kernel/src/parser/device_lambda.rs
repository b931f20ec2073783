//! A captureless `__device__` lambda held in a host variable and given to a kernel
//! (`auto op = [] __device__ (unsigned a, unsigned b) { return max(a, b); };` then
//! `k<<<g, b>>>(…, op, …)`, as rocm-examples' reduction tutorial passes its operator): the
//! lambda's closure type is a unique class with a `const` call operator of the lambda's
//! parameters and body (C++20 [expr.prim.lambda.closure]/1, /4), which a kernel template's
//! type parameter deduces from the argument ([temp.deduct.call]/2). A token pass writes that
//! class before the top-level declaration holding the lambda (its tokens keep their lines)
//! and the variable as a value of it (`__cl_lambda_op op{};`), so the launch deduces and
//! calls it as it does a functor struct (the class holds one byte, `__cl_byte`, as an empty
//! class's object has). A lambda with captures is left as written.

use super::scopes::{punct, word};
use crate::lexer::{Tok, Token};

/// Most lambdas rewritten in one file.
const MAX_LAMBDAS: usize = 64;

/// The tokens with each such lambda rewritten as its closure class.
pub(super) fn device_lambdas(mut toks: Vec<Token>) -> Vec<Token> {
    for _ in 0..MAX_LAMBDAS {
        match rewrite_one(&toks) {
            Some(t) => toks = t,
            None => break,
        }
    }
    toks
}

/// The index of the bracket closing the one at `open`.
fn close_of(toks: &[Token], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (k, t) in toks.iter().enumerate().skip(open) {
        match &t.tok {
            Tok::Punct("(" | "[" | "{") => depth += 1,
            Tok::Punct(")" | "]" | "}") => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(k);
                }
            }
            _ => {}
        }
    }
    None
}

fn ident(at: &Token, s: &str) -> Token {
    Token {
        tok: Tok::Ident(s.to_string()),
        ..at.clone()
    }
}

fn punct_tok(at: &Token, s: &'static str) -> Token {
    Token {
        tok: Tok::Punct(s),
        ..at.clone()
    }
}

fn rewrite_one(toks: &[Token]) -> Option<Vec<Token>> {
    let mut depth = 0usize;
    let mut decl_start = 0usize;
    for k in 0..toks.len() {
        match &toks[k].tok {
            Tok::Punct("{" | "(" | "[") => depth += 1,
            Tok::Punct("}") => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    decl_start = k + 1;
                }
                continue;
            }
            Tok::Punct(")" | "]") => depth = depth.saturating_sub(1),
            Tok::Punct(";") if depth == 0 => decl_start = k + 1,
            _ => {}
        }
        // `auto NAME = [ ] __device__ ( … ) { … } ;`
        if depth == 0 || word(toks.get(k)) != Some("auto") {
            continue;
        }
        let Some(Tok::Ident(name)) = toks.get(k + 1).map(|t| &t.tok) else {
            continue;
        };
        if !punct(toks.get(k + 2), "=")
            || !punct(toks.get(k + 3), "[")
            || !punct(toks.get(k + 4), "]")
        {
            continue;
        }
        let mut p = k + 5;
        let mut device = false;
        while let Some(Tok::Ident(w)) = toks.get(p).map(|t| &t.tok) {
            match w.as_str() {
                "__device__" => device = true,
                "__host__" => {}
                _ => break,
            }
            p += 1;
        }
        if !device || !punct(toks.get(p), "(") {
            continue;
        }
        let params_end = close_of(toks, p)?;
        // `-> R` and specifiers up to the body.
        let body =
            (params_end + 1..toks.len().min(params_end + 32)).find(|&i| punct(toks.get(i), "{"))?;
        if (params_end + 1..body).any(|i| matches!(toks[i].tok, Tok::Punct(";" | "(" | "="))) {
            continue;
        }
        let body_end = close_of(toks, body)?;
        if !punct(toks.get(body_end + 1), ";") {
            continue;
        }
        let cls = format!("__cl_lambda_{name}_{}", toks[k].line);
        let at = &toks[k];
        let mut out = Vec::with_capacity(toks.len() + 16);
        out.extend_from_slice(&toks[..decl_start]);
        // `struct C { __device__ auto operator()(params) const -> R { body } };`
        out.push(ident(at, "struct"));
        out.push(ident(at, &cls));
        out.push(punct_tok(at, "{"));
        // One byte, as every object of an empty class has ([intro.object]/8), so that the
        // kernel's parameter of this type is a parameter of its own.
        out.push(ident(at, "char"));
        out.push(ident(at, "__cl_byte"));
        out.push(punct_tok(at, ";"));
        out.push(ident(at, "__device__"));
        out.push(ident(at, "auto"));
        out.push(ident(at, "operator"));
        out.push(punct_tok(at, "("));
        out.push(punct_tok(at, ")"));
        out.extend_from_slice(&toks[p..=params_end]);
        out.push(ident(at, "const"));
        out.extend(
            toks[params_end + 1..=body_end]
                .iter()
                .filter(|t| word(Some(t)) != Some("mutable"))
                .cloned(),
        );
        out.push(punct_tok(at, "}"));
        out.push(punct_tok(at, ";"));
        out.extend_from_slice(&toks[decl_start..k]);
        // `C name{};`
        out.push(ident(at, &cls));
        out.push(toks[k + 1].clone());
        out.push(punct_tok(at, "{"));
        out.push(punct_tok(at, "}"));
        out.push(punct_tok(at, ";"));
        out.extend_from_slice(&toks[body_end + 2..]);
        return Some(out);
    }
    None
}
