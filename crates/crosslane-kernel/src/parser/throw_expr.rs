//! Which tokens of a function body are a throw-expression's operand: device code has no
//! exceptions, so the statement reader discards them and host detection does not look at them.

use crate::lexer::{Tok, Token};

/// For each of `toks`, whether it is in a throw-expression (`throw` to its `;`).
pub(super) fn thrown_operands(toks: &[Token]) -> Vec<bool> {
    let mut thrown = vec![false; toks.len()];
    let mut k = 0;
    while k < toks.len() {
        if matches!(&toks[k].tok, Tok::Ident(w) if w == "throw") {
            while k < toks.len() && !matches!(toks[k].tok, Tok::Punct(";")) {
                thrown[k] = true;
                k += 1;
            }
        }
        k += 1;
    }
    thrown
}
