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
        if after.starts_with('(') {
            diags.push(KernelDiagnostic::new(
                Span {
                    line: *line,
                    col: 1,
                },
                Level::Warning,
                format!("function-like macro `{name}` is not expanded"),
                "",
            ));
            continue;
        }
        let mut repl = lex(after)
            .map_err(|e| KernelError::new(*line, 1, format!("in #define {name}: {}", e.message)))?
            .tokens;
        repl.pop();
        defs.insert(name.to_string(), repl);
    }
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
        spent: 0,
        max: max_tokens,
    };
    for t in tokens {
        push(t, None, &defs, &mut active, &mut out, &mut cost)?;
    }
    Ok(out)
}
