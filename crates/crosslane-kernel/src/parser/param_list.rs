//! A function declaration's parameter list as tokens: where it is and its parameters one
//! by one (what overload resolution and host template launches read).

use crate::lexer::{Tok, Token};

/// The top-level pieces of a parameter list's tokens (from after `(` to before `)`).
pub(super) fn split_params(toks: &[Token]) -> Vec<Vec<Token>> {
    let mut depth = 0usize;
    let mut out: Vec<Vec<Token>> = vec![Vec::new()];
    for tk in toks {
        match &tk.tok {
            Tok::Punct("(" | "<" | "[" | "{") => depth += 1,
            Tok::Punct(")" | ">" | "]" | "}") => depth = depth.saturating_sub(1),
            Tok::Punct(">>") => depth = depth.saturating_sub(2),
            Tok::Punct(",") if depth == 0 => {
                out.push(Vec::new());
                continue;
            }
            _ => {}
        }
        if let Some(p) = out.last_mut() {
            p.push(tk.clone());
        }
    }
    if out.len() == 1 && out[0].is_empty() {
        return Vec::new();
    }
    // `(void)`: no parameters.
    if out.len() == 1
        && matches!(out[0].as_slice(), [t] if matches!(&t.tok, Tok::Ident(w) if w == "void"))
    {
        return Vec::new();
    }
    out
}

/// The parameter list of a function's tokens (from its return type): the tokens between the
/// first `(` that is no attribute's and its `)`.
pub(super) fn param_tokens(toks: &[Token]) -> Option<&[Token]> {
    // A `(` inside a template argument list of the return type (`std::enable_if<(sizeof(T) ==
    // 4), T>::type`) is an argument's, skipped with its group.
    let mut angles = 0usize;
    let mut parens = 0usize;
    let mut open = None;
    for (i, tk) in toks.iter().enumerate() {
        let after_word =
            |w: fn(&str) -> bool| i > 0 && matches!(&toks[i - 1].tok, Tok::Ident(x) if w(x));
        match tk.tok {
            Tok::Punct("(") if parens > 0 => parens += 1,
            Tok::Punct(")") if parens > 0 => parens -= 1,
            _ if parens > 0 => {}
            Tok::Punct("<") if after_word(|x| x != "operator") => angles += 1,
            Tok::Punct(">") if angles > 0 => angles -= 1,
            Tok::Punct(">>") if angles > 0 => angles = angles.saturating_sub(2),
            Tok::Punct("(") if angles > 0 => parens = 1,
            Tok::Punct("(") if !after_word(|x| x.starts_with("__") && x.ends_with("__")) => {
                open = Some(i);
                break;
            }
            _ => {}
        }
    }
    let open = open?;
    let mut depth = 0usize;
    for (i, tk) in toks.iter().enumerate().skip(open) {
        match &tk.tok {
            Tok::Punct("(") => depth += 1,
            Tok::Punct(")") => {
                depth -= 1;
                if depth == 0 {
                    return toks.get(open + 1..i);
                }
            }
            _ => {}
        }
    }
    None
}
