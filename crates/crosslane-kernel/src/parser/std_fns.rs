//! `std::min<T>(a, b)` / `std::max<T>(a, b)` with an explicit template argument, and
//! `std::swap(a, b)` as a statement (`cuda::std::` reads as `std::`, [`super::cuda_std`]).
//!
//! C++17 [alg.min.max]: `min<T>(const T& a, const T& b)` compares `a` and `b` converted to `T`
//! (the explicit argument fixes `T`; each argument converts to it, [temp.arg.explicit]/6), so
//! `std::min<int>(t, 3)` is `min((int)t, (int)3)`. C++17 [utility.swap]: `swap(a, b)` exchanges
//! the values of `a` and `b` — read as `{ auto t = a; a = b; b = t; }` (a token pass, linear in
//! the tokens). After `using namespace std;` ([namespace.udir]/2: std's names are visible
//! unqualified from the directive to the end of its block or file) the bare `swap(a, b);` and
//! `min<int>(a, b)` are the same calls, unless the source declares its own `swap`.
//!
//! `std::move(x)` is its operand (C++17 [utility.syn], [forward]/6: `static_cast<
//! remove_reference_t<T>&&>(t)`, an xvalue of the same object): read as `(x)`, the value the
//! model's copies and moves both give (`bar.wait(std::move(token))`); `std::forward<T>(x)`
//! likewise ([forward]/2), vLLM's `std::forward<ScaOp>(scalar_op)`.

use super::{PResult, Parser};
use crate::ast::*;
use crate::lexer::{Tok, Token};

impl Parser<'_> {
    /// `min<T>(a, b)` / `max<T>(a, b)` after `std::` (the name just read): the call with both
    /// arguments converted to `T`. `None` (position unchanged) for any other name or form.
    ///
    /// # Errors
    /// A type or argument list that does not parse.
    pub(super) fn std_min_max_explicit(&mut self, name: &str, at: Span) -> PResult<Option<Expr>> {
        if !matches!(name, "min" | "max") || !self.is_punct("<") {
            return Ok(None);
        }
        self.expect_punct("<")?;
        let base = self.base_type()?;
        let (ty, _) = self.pointers(base)?;
        self.expect_punct(">")?;
        let args = self.call_args()?;
        let args = args
            .into_iter()
            .map(|a| {
                let s = a.span;
                Expr::new(ExprKind::Cast(ty, Box::new(a)), s)
            })
            .collect();
        self.node(ExprKind::Call(name.to_string(), args), at)
            .map(Some)
    }
}

fn is_word(t: Option<&Token>, w: &str) -> bool {
    matches!(t.map(|t| &t.tok), Some(Tok::Ident(x)) if x == w)
}

fn is_punct(t: Option<&Token>, p: &str) -> bool {
    matches!(t.map(|t| &t.tok), Some(Tok::Punct(x)) if *x == p)
}

/// The two argument token ranges of the call whose `(` is at `open`, and the index of its `)`:
/// `None` unless exactly two arguments at bracket depth zero.
fn two_args(tokens: &[Token], open: usize) -> Option<(Vec<Token>, Vec<Token>, usize)> {
    let mut depth = 0usize;
    let mut comma = None;
    for (k, t) in tokens.iter().enumerate().skip(open + 1) {
        match &t.tok {
            Tok::Punct("(" | "[" | "{") => depth += 1,
            Tok::Punct(")") if depth == 0 => {
                let c = comma?;
                let a = tokens[open + 1..c].to_vec();
                let b = tokens[c + 1..k].to_vec();
                return (!a.is_empty() && !b.is_empty()).then_some((a, b, k));
            }
            Tok::Punct(")" | "]" | "}") => depth = depth.checked_sub(1)?,
            Tok::Punct(",") if depth == 0 => {
                if comma.is_some() {
                    return None;
                }
                comma = Some(k);
            }
            Tok::Punct(";") | Tok::Eof => return None,
            _ => {}
        }
    }
    None
}

/// Whether the source declares a function named `swap` itself (`void swap(…)`,
/// `T swap(…)`, `> swap(…)`): then a bare `swap(a, b)` is its call, not `std::swap`.
fn declares_swap(tokens: &[Token]) -> bool {
    tokens.windows(3).any(|w| {
        matches!(&w[0].tok, Tok::Ident(x) if x != "return" && x != "else" && x != "do")
            || matches!(&w[0].tok, Tok::Punct(">" | "*" | "&"))
    } && is_word(Some(&w[1]), "swap")
        && is_punct(Some(&w[2]), "("))
}

/// The `>` closing the template argument list opened by the `<` at `open` (`>>` closing two
/// levels), looked for over at most 256 tokens; `None` past that or at a `;`, `{` or `}`.
fn forward_close(tokens: &[Token], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (k, t) in tokens.iter().enumerate().skip(open).take(256) {
        match &t.tok {
            Tok::Punct("<") => depth += 1,
            Tok::Punct(">") => depth = depth.checked_sub(1)?,
            Tok::Punct(">>") => depth = depth.checked_sub(2)?,
            Tok::Punct(";" | "{" | "}") => return None,
            _ => {}
        }
        if depth == 0 {
            return Some(k);
        }
    }
    None
}

/// `tokens` with each `std::move(` written `(` (module doc), and each `std::forward<T>(` too
/// ([forward]/2: `forward<T>(t)` is `static_cast<T&&>(t)`, the same object); one after `::`,
/// `.` or `->` (another scope's or a member's) is kept. One pass, linear in the tokens (each
/// `forward`'s list scanned once, at most 256 tokens).
pub(super) fn std_move(tokens: Vec<Token>) -> Vec<Token> {
    let word =
        |t: Option<&Token>, w: &str| matches!(t.map(|t| &t.tok), Some(Tok::Ident(x)) if x == w);
    let punct =
        |t: Option<&Token>, p: &str| matches!(t.map(|t| &t.tok), Some(Tok::Punct(q)) if *q == p);
    let mut out = Vec::with_capacity(tokens.len());
    let mut k = 0;
    while k < tokens.len() {
        // `std :: move (` (not a member `x.std::move`, not after another scope) → `(`.
        let after_scope =
            punct(out.last(), "::") || punct(out.last(), ".") || punct(out.last(), "->");
        if !after_scope
            && word(tokens.get(k), "std")
            && punct(tokens.get(k + 1), "::")
            && word(tokens.get(k + 2), "move")
            && punct(tokens.get(k + 3), "(")
        {
            k += 3;
            continue;
        }
        // `std :: forward < T > (` → `(` (module doc), the `>` found within a bounded scan.
        if !after_scope
            && word(tokens.get(k), "std")
            && punct(tokens.get(k + 1), "::")
            && word(tokens.get(k + 2), "forward")
            && punct(tokens.get(k + 3), "<")
        {
            if let Some(close) = forward_close(&tokens, k + 3) {
                if punct(tokens.get(close + 1), "(") {
                    k = close + 1;
                    continue;
                }
            }
        }
        out.push(tokens[k].clone());
        k += 1;
    }
    out
}

/// `tokens` with each statement `std::swap(a, b);` (at a statement start: after `;`, `{`, `}`,
/// `)`, a label's `:`, `else` or `do`) written as `{ auto __swapN = a; a = b; b = __swapN; }`;
/// also a bare `swap(a, b);` where a `using namespace std;` before it is in scope (its block
/// not yet closed). Other uses are kept.
pub(super) fn std_swap(tokens: Vec<Token>) -> Vec<Token> {
    let mut out: Vec<Token> = Vec::with_capacity(tokens.len());
    let mut k = 0;
    let mut n = 0usize;
    let own_swap = declares_swap(&tokens);
    // The brace depth of the innermost `using namespace std;` in scope, if any.
    let mut using_at: Option<usize> = None;
    let mut depth = 0usize;
    while k < tokens.len() {
        match &tokens[k].tok {
            Tok::Punct("{") => depth += 1,
            Tok::Punct("}") => {
                depth = depth.saturating_sub(1);
                if using_at.is_some_and(|d| d > depth) {
                    using_at = None;
                }
            }
            _ => {}
        }
        if using_at.is_none()
            && is_word(tokens.get(k), "using")
            && is_word(tokens.get(k + 1), "namespace")
            && is_word(tokens.get(k + 2), "std")
            && is_punct(tokens.get(k + 3), ";")
        {
            using_at = Some(depth);
        }
        let qualified = is_word(tokens.get(k), "std") && is_punct(tokens.get(k + 1), "::");
        let bare = using_at.is_some() && !own_swap && is_word(tokens.get(k), "swap");
        let name_at = if qualified { k + 2 } else { k };
        let starts = out.last().is_none_or(|t| match &t.tok {
            Tok::Punct(p) => matches!(*p, ";" | "{" | "}" | ")" | ":"),
            Tok::Ident(w) => matches!(w.as_str(), "else" | "do"),
            _ => false,
        });
        if starts
            && (qualified || bare)
            && is_word(tokens.get(name_at), "swap")
            && is_punct(tokens.get(name_at + 1), "(")
        {
            if let Some((a, b, close)) = two_args(&tokens, name_at + 1) {
                if is_punct(tokens.get(close + 1), ";") {
                    let at = &tokens[k];
                    let mk = |tok: Tok| Token {
                        tok,
                        line: at.line,
                        col: at.col,
                        end: at.end,
                    };
                    let tmp = format!("__swap{n}");
                    n += 1;
                    out.push(mk(Tok::Punct("{")));
                    out.push(mk(Tok::Ident("auto".into())));
                    out.push(mk(Tok::Ident(tmp.clone())));
                    out.push(mk(Tok::Punct("=")));
                    out.extend(a.iter().cloned());
                    out.push(mk(Tok::Punct(";")));
                    out.extend(a.iter().cloned());
                    out.push(mk(Tok::Punct("=")));
                    out.extend(b.iter().cloned());
                    out.push(mk(Tok::Punct(";")));
                    out.extend(b.iter().cloned());
                    out.push(mk(Tok::Punct("=")));
                    out.push(mk(Tok::Ident(tmp)));
                    out.push(mk(Tok::Punct(";")));
                    out.push(mk(Tok::Punct("}")));
                    k = close + 2;
                    continue;
                }
            }
        }
        out.push(tokens[k].clone());
        k += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;

    fn words(src: &str) -> String {
        std_swap(lex(src).expect("lexes").tokens)
            .iter()
            .map(|t| crate::pp::spell(&t.tok))
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn swap_statement_becomes_three_assignments() {
        assert_eq!(
            words("x; std::swap(a[i], b);"),
            "x ; { auto __swap0 = a [ i ] ; a [ i ] = b ; b = __swap0 ; }"
        );
        // Not a statement, or not two arguments: kept.
        assert_eq!(
            words("f(std::swap(a, b));"),
            "f ( std :: swap ( a , b ) ) ;"
        );
        assert_eq!(words("; std::swap(a);"), "; std :: swap ( a ) ;");
        assert_eq!(
            words("else std::swap(a, b);"),
            "else { auto __swap0 = a ; a = b ; b = __swap0 ; }"
        );
    }

    #[test]
    fn bare_swap_is_std_swap_only_where_using_namespace_std_is_in_scope() {
        // Before the directive, and after the block holding it closes: kept.
        assert_eq!(
            words("{ swap(a, b); } { using namespace std; swap(a, b); } { swap(a, b); }"),
            "{ swap ( a , b ) ; } { using namespace std ; { auto __swap0 = a ; a = b ; b = \
             __swap0 ; } } { swap ( a , b ) ; }"
        );
        // The source's own `swap` is called as written.
        assert_eq!(
            words("void swap(int& a, int& b); using namespace std; { swap(a, b); }"),
            "void swap ( int & a , int & b ) ; using namespace std ; { swap ( a , b ) ; }"
        );
    }
}
