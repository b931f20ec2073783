//! The preprocessor: `#define` macros expanded over the token list.

use std::collections::HashMap;

use crate::kernel::ast::Span;
use crate::kernel::lexer::{lex, Tok, Token};
use crate::kernel::{KernelDiagnostic, KernelError};
use crate::result::Level;

/// Expands object-like `#define NAME tokens` macros (each expansion takes the use site's
/// position; a macro is not expanded inside itself). Function-like macros are reported, not
/// expanded. Every token produced and every expansion call costs one unit of `max_tokens`, so
/// nested macros that expand to nothing cannot loop for long either.
pub(super) fn expand_macros(
    tokens: &[Token],
    directives: &[(u32, String)],
    diags: &mut Vec<KernelDiagnostic>,
    max_tokens: u64,
) -> Result<Vec<Token>, KernelError> {
    if tokens.len() as u64 > max_tokens {
        let t = tokens.get(max_tokens as usize).unwrap_or(&tokens[0]);
        return Err(KernelError::new(
            t.line,
            t.col,
            format!(
                "token limit of {max_tokens} reached by the source ({} tokens); raise it with --max-tokens",
                tokens.len()
            ),
        ));
    }
    let mut defs: HashMap<String, Vec<Token>> = HashMap::new();
    let mut funcs: HashMap<String, FnMacro> = HashMap::new();
    for (line, text) in directives {
        let body = text.trim_start().trim_start_matches('#').trim_start();
        let Some(rest) = body.strip_prefix("define") else {
            continue;
        };
        if !rest.starts_with(char::is_whitespace) {
            continue;
        }
        let rest = rest.trim_start();
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let (name, after) = rest.split_at(end);
        if name.is_empty() {
            continue;
        }
        if let Some(inner) = after.strip_prefix('(') {
            let warn = |diags: &mut Vec<KernelDiagnostic>, why: &str| {
                diags.push(KernelDiagnostic::new(
                    Span {
                        line: *line,
                        col: 1,
                    },
                    Level::Warning,
                    format!("function-like macro `{name}` is not expanded: {why}"),
                    "",
                ));
            };
            let Some((params, body)) = inner.split_once(')') else {
                warn(diags, "its parameter list does not close");
                continue;
            };
            let params: Vec<String> = params
                .split(',')
                .map(|p| p.trim().to_string())
                .filter(|p| !p.is_empty())
                .collect();
            if params.iter().any(|p| p == "...") || body.contains('#') {
                warn(diags, "`...`, `#` and `##` are not supported");
                continue;
            }
            let mut repl = lex(body)
                .map_err(|e| {
                    KernelError::new(*line, 1, format!("in #define {name}: {}", e.message))
                })?
                .tokens;
            repl.pop();
            funcs.insert(name.to_string(), (params, repl));
            continue;
        }
        let mut repl = lex(after)
            .map_err(|e| KernelError::new(*line, 1, format!("in #define {name}: {}", e.message)))?
            .tokens;
        repl.pop();
        defs.insert(name.to_string(), repl);
    }
    // Function-like macros, rescanned while one expands (a macro's body may call another), at
    // most `FN_PASSES` times; then object-like ones.
    let mut spent = 0u64;
    let mut cur: Vec<Token> = tokens.to_vec();
    for _ in 0..FN_PASSES {
        if funcs.is_empty() {
            break;
        }
        let (next, expanded) = expand_fn_macros(&cur, &funcs, &mut spent, max_tokens)?;
        cur = next;
        if !expanded {
            break;
        }
    }
    let tokens = &cur[..];
    if defs.is_empty() {
        return Ok(tokens.to_vec());
    }
    struct Cost {
        spent: u64,
        max: u64,
    }
    fn push(
        t: &Token,
        at: Option<&Token>,
        defs: &HashMap<String, Vec<Token>>,
        active: &mut Vec<String>,
        out: &mut Vec<Token>,
        cost: &mut Cost,
    ) -> Result<(), KernelError> {
        let site = at.unwrap_or(t);
        cost.spent += 1;
        if cost.spent > cost.max {
            let name = active.first().map_or("", String::as_str);
            return Err(KernelError::new(
                site.line,
                site.col,
                format!(
                    "token limit of {} reached expanding macro `{name}` (every expansion counts, even an empty one); raise it with --max-tokens",
                    cost.max
                ),
            ));
        }
        if let Tok::Ident(n) = &t.tok {
            if let Some(body) = defs.get(n).filter(|_| !active.contains(n)) {
                if active.len() >= 32 {
                    return Err(KernelError::new(
                        site.line,
                        site.col,
                        "macros nested deeper than 32 levels",
                    ));
                }
                active.push(n.clone());
                for b in body {
                    push(b, Some(site), defs, active, out, cost)?;
                }
                active.pop();
                return Ok(());
            }
        }
        out.push(Token {
            tok: t.tok.clone(),
            line: site.line,
            col: site.col,
            end: site.end,
        });
        Ok(())
    }
    let mut out = Vec::with_capacity(tokens.len());
    let mut active = Vec::new();
    let mut cost = Cost {
        spent,
        max: max_tokens,
    };
    for t in tokens {
        push(t, None, &defs, &mut active, &mut out, &mut cost)?;
    }
    Ok(out)
}

/// A function-like macro: its parameter names and its body.
type FnMacro = (Vec<String>, Vec<Token>);

/// Most rescans for function-like macros calling one another.
const FN_PASSES: usize = 8;

/// One pass expanding every call `NAME(args…)` of a function-like macro: each parameter in the
/// body is replaced by its argument's tokens; the result takes the call's position. Returns the
/// tokens and whether anything expanded. Every token produced costs one unit of `max_tokens`.
///
/// # Errors
/// When the token budget runs out, or a call's parentheses do not close.
fn expand_fn_macros(
    tokens: &[Token],
    funcs: &HashMap<String, FnMacro>,
    spent: &mut u64,
    max_tokens: u64,
) -> Result<(Vec<Token>, bool), KernelError> {
    let mut out = Vec::with_capacity(tokens.len());
    let mut expanded = false;
    let mut k = 0;
    let charge = |spent: &mut u64, n: u64, at: &Token, name: &str| {
        *spent = spent.saturating_add(n);
        if *spent > max_tokens {
            Err(KernelError::new(
                at.line,
                at.col,
                format!(
                    "token limit of {max_tokens} reached expanding macro `{name}`; raise it with --max-tokens"
                ),
            ))
        } else {
            Ok(())
        }
    };
    while k < tokens.len() {
        let t = &tokens[k];
        let call = match (&t.tok, tokens.get(k + 1).map(|n| &n.tok)) {
            (Tok::Ident(n), Some(Tok::Punct("("))) => funcs.get(n).map(|m| (n, m)),
            _ => None,
        };
        let Some((name, (params, body))) = call else {
            out.push(t.clone());
            k += 1;
            continue;
        };
        // The arguments: tokens between the parentheses, split at top-level commas.
        let mut args: Vec<Vec<Token>> = vec![Vec::new()];
        let mut depth = 0usize;
        let mut j = k + 2;
        loop {
            let Some(a) = tokens.get(j) else {
                return Err(KernelError::new(
                    t.line,
                    t.col,
                    format!("the call of macro `{name}` does not close its `(`"),
                ));
            };
            match &a.tok {
                Tok::Eof => {
                    return Err(KernelError::new(
                        t.line,
                        t.col,
                        format!("the call of macro `{name}` does not close its `(`"),
                    ))
                }
                Tok::Punct("(" | "[" | "{") => depth += 1,
                Tok::Punct(")") if depth == 0 => break,
                Tok::Punct(")" | "]" | "}") => depth -= 1,
                Tok::Punct(",") if depth == 0 => {
                    args.push(Vec::new());
                    j += 1;
                    continue;
                }
                _ => {}
            }
            if let Some(last) = args.last_mut() {
                last.push(a.clone());
            }
            j += 1;
        }
        if params.is_empty() && args.len() == 1 && args[0].is_empty() {
            args.clear();
        }
        if args.len() != params.len() {
            return Err(KernelError::new(
                t.line,
                t.col,
                format!(
                    "macro `{name}` takes {} argument(s), given {}",
                    params.len(),
                    args.len()
                ),
            ));
        }
        // Positions: an argument keeps its own (it is source text); a body token takes the
        // call's, and each distinct free name of the body a column of its own inside the
        // macro's name, so that two names never share a position (names are resolved by
        // position).
        let mut free: Vec<String> = Vec::new();
        let mut at = |b: &Token| {
            let mut col = t.col;
            if let Tok::Ident(n) = &b.tok {
                let k = free.iter().position(|f| f == n).unwrap_or_else(|| {
                    free.push(n.clone());
                    free.len() - 1
                });
                col = t
                    .col
                    .saturating_add(k.min(name.len().saturating_sub(1)) as u32);
            }
            Token {
                tok: b.tok.clone(),
                line: t.line,
                col,
                end: t.end,
            }
        };
        for b in body {
            let arg = match &b.tok {
                Tok::Ident(n) => params.iter().position(|p| p == n),
                _ => None,
            };
            match arg {
                Some(i) => {
                    charge(spent, args[i].len() as u64 + 1, t, name)?;
                    out.extend(args[i].iter().cloned());
                }
                None => {
                    charge(spent, 1, t, name)?;
                    out.push(at(b));
                }
            }
        }
        expanded = true;
        k = j + 1;
    }
    Ok((out, expanded))
}
