//! A lambda without `-> T` that returns a struct: `[](float a) { Pair p; p.v = a; return p; }`.
//!
//! [expr.prim.lambda.closure]/4 with [dcl.spec.auto]/3-4: the return type is deduced from the
//! `return` statements' operands (decayed, cv dropped). The closure's call operator returns a
//! struct through `__ret.*` parameters here, which must be known before its body is read, so
//! the body's tokens are looked at first: a `return x;` of a variable the body declares with a
//! struct type (`Pair p;`, `Pair p{…}`, `const Pair p = …;`) or of a struct the lambda sees
//! from outside (a capture or a parameter), or a `return Pair{…};` / `return Pair(…);`, gives
//! that struct. A body whose first such `return` names no struct deduces as before (a scalar
//! or `void`); if another `return` then has a struct value, the lambda is refused at its
//! start, asking for `-> Type`, as before; so is one whose returns disagree (the body's
//! `return` statements are then checked against the struct, [dcl.spec.auto]/8).

use super::structs::SVar;
use super::Parser;
use crate::lexer::Tok;

impl Parser<'_> {
    /// The struct the lambda body opening at the current token (`{`) returns, read off its
    /// tokens as the module says; `own` are the lambda's struct parameters. `None` when the
    /// first `return` with a value gives no struct. Bounded by the body's tokens.
    pub(super) fn lambda_struct_return(&self, own: &[(String, SVar)]) -> Option<String> {
        let open = self.pos;
        let close = self.closing(open)?;
        let body = self.toks.get(open + 1..close)?;
        let word = |i: usize| match body.get(i).map(|t| &t.tok) {
            Some(Tok::Ident(w)) => Some(w.as_str()),
            _ => None,
        };
        let punct = |i: usize, p: &str| matches!(body.get(i).map(|t| &t.tok), Some(Tok::Punct(q)) if *q == p);
        let is_struct = |w: &str| self.structs.contains_key(w) && !w.starts_with("lambda#");
        let first_return =
            (0..body.len()).find(|&i| word(i) == Some("return") && !punct(i + 1, ";"))?;
        // `return Pair{…};` / `return Pair(…);`
        if let Some(s) = word(first_return + 1).filter(|s| is_struct(s)) {
            if punct(first_return + 2, "{") || punct(first_return + 2, "(") {
                return Some(s.to_string());
            }
        }
        let x = word(first_return + 1)?;
        if !punct(first_return + 2, ";") {
            return None;
        }
        // `S x` declared in the body before the `return` (the last such declaration).
        let declared = (0..first_return).rev().find_map(|i| {
            let s = word(i)?;
            (is_struct(s) && word(i + 1) == Some(x)).then(|| s.to_string())
        });
        if declared.is_some() {
            return declared;
        }
        if let Some((_, sv)) = own.iter().find(|(n, _)| n == x) {
            return Some(sv.sname.clone());
        }
        self.var_struct(x).map(|sv| sv.sname.clone())
    }
}
