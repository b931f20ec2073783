//! Parse errors made readable: when the parser stops with a bare "expected …" on a line that
//! holds a construct the interpreter does not run, the error names the construct and what to
//! write instead ("never a bare `expected ;`"). Only the error's own line, up to the
//! token where it stopped, is looked at: one bounded scan, after the parse failed.

use crate::lexer::{Tok, Token};
use crate::KernelError;

/// The construct a word starts, and what to write instead.
fn construct(word: &str) -> Option<&'static str> {
    Some(match word {
        "case" | "default" => {
            "a `case` or `default` label is read only at the top level of its `switch` body \
             (not inside a nested statement, as in Duff's device); move the label out, or write \
             an `if` / `else if` chain"
        }
        "goto" => {
            "`goto` and labels are not supported; restructure with a loop and `break` / \
                   `continue`"
        }
        "asm" | "__asm__" => {
            "inline `asm` is read only as a statement in a function body, in the shape \
             `asm(\"mov.u32 %0, %%laneid;\" : \"=r\"(id));`; otherwise call the vendor's \
             intrinsic (e.g. `__lane_id()` for `%laneid`, `__shfl_sync` for `shfl.sync`)"
        }
        "try" | "catch" | "throw" => "exceptions are not supported in device code",
        _ => return None,
    })
}

/// `e` with its message replaced by the construct's, when `e` is a bare "expected …" on a line
/// of `toks` that holds one ([`construct`]), or at an initializer list `= {` inside a function.
pub(super) fn name_unsupported(e: KernelError, toks: &[Token]) -> KernelError {
    if !e.message.starts_with("expected") {
        return e;
    }
    let line: Vec<&Token> = toks
        .iter()
        .filter(|t| t.line == e.line && t.col <= e.col)
        .collect();
    let named = line.iter().find_map(|t| match &t.tok {
        Tok::Ident(w) => construct(w),
        _ => None,
    });
    let message = match named {
        Some(m) => m.to_string(),
        None if matches!(line.last().map(|t| &t.tok), Some(Tok::Punct(":")))
            && line.len() == 2
            && matches!(line[0].tok, Tok::Ident(_)) =>
        {
            // `done:` at the start of a line: a label, the target of a `goto`.
            construct("goto").unwrap_or_default().to_string()
        }
        None => {
            // `int a[4] = {1, 2, 3, 4};` in a function: the parser stops at the `{`.
            let at_brace = matches!(line.last().map(|t| &t.tok), Some(Tok::Punct("{")));
            let after_eq = line.len() >= 2
                && matches!(
                    line.get(line.len() - 2).map(|t| &t.tok),
                    Some(Tok::Punct("="))
                );
            if !(at_brace && after_eq) {
                return e;
            }
            "an initializer list `= {…}` is read here for an array, a struct or a scalar \
             variable; for anything else assign the value after the declaration"
                .to_string()
        }
    };
    // The parser's own reason leads when it names the operand it wanted (an `asm` operand's
    // constraint), the construct's shape after it.
    if e.message.starts_with("expected a `\"") {
        return KernelError::new(e.line, e.col, format!("{}; {message}", e.message));
    }
    KernelError::new(e.line, e.col, format!("{message} ({})", e.message))
}
