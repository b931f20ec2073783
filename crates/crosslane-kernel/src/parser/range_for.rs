//! Range-based `for` over an array (C++17 [stmt.ranged]): `for (float v : vals) sum += v;`,
//! `for (auto& v : vals) v *= 2;`, `for (const auto& x : blk.qs)`, over a local, `__shared__`
//! or member array. [stmt.ranged]/1 defines the statement as
//! `{ auto&& __range = range; for (auto __begin = __range, __end = __range + bound; __begin !=
//! __end; ++__begin) { decl = *__begin; body } }`, where for an array `__end` is `__range +
//! bound` (/1.3.1: "if the _for-range-initializer_ is an expression of array type `R`, …
//! _end-expr_ is `__range + __bound`, where `__bound` is the array bound"). A token pass after
//! preprocessing writes that out with an index in place of the pointer:
//!
//! ```text
//! for ( int __rfN = 0 ; __rfN < __crosslane_extent ( RANGE ) ; ++ __rfN ) { DECL = RANGE [ __rfN ] ; BODY }
//! ```
//!
//! `RANGE` is evaluated once per use, which is the same value as long as it names an array (a
//! name or a member chain: `vals`, `blk.qs`, `this->v`); `__crosslane_extent` (read by the
//! parser, [`super::Parser::range_extent`]) refuses anything else at its line:column, and an
//! array whose bound it cannot tell (a pointer, an `extern __shared__` array: C++ refuses a
//! range over a pointer too). `DECL` keeps its form: `auto& v` is a reference to the cell (a
//! local reference, `super::local_ref`), `float v` a copy. The body's end is found by the
//! statement grammar ([stmt.stmt]): a block, a statement to its `;`, or `if`/`else`, `for`,
//! `while`, `do … while ( … ) ;`, `switch` around one; one pass with an explicit stack, linear
//! in the tokens.

use std::collections::BTreeMap;

use super::structs::FieldTy;
use super::{PResult, Parser};
use crate::ast::{Expr, ExprKind, Span};
use crate::lexer::{Tok, Token};
use crate::KernelError;

/// Most range-based `for`s rewritten one inside another.
const MAX_NEST: usize = 64;

/// The parser's name for an array's bound in a rewritten loop.
pub(super) const EXTENT: &str = "__crosslane_extent";

fn punct(toks: &[Token], k: usize, p: &str) -> bool {
    matches!(toks.get(k).map(|t| &t.tok), Some(Tok::Punct(q)) if *q == p)
}

fn word(toks: &[Token], k: usize) -> Option<&str> {
    match toks.get(k).map(|t| &t.tok) {
        Some(Tok::Ident(w)) => Some(w.as_str()),
        _ => None,
    }
}

/// For each opening bracket (`(`, `[` or `{`), the index of the one closing it (any kind
/// closes any, as a depth count would); `usize::MAX` for none. One pass with a stack, so every
/// later lookup is constant time.
fn bracket_pairs(toks: &[Token]) -> Vec<usize> {
    let mut pair = vec![usize::MAX; toks.len()];
    let mut open: Vec<usize> = Vec::new();
    for (k, t) in toks.iter().enumerate() {
        match t.tok {
            Tok::Punct("(" | "[" | "{") => open.push(k),
            // A closer without an opener pairs nothing (the parser reports the stray one).
            Tok::Punct(")" | "]" | "}") => {
                if let Some(o) = open.pop() {
                    pair[o] = k;
                }
            }
            _ => {}
        }
    }
    pair
}

/// The bracket closing the one at `open`, if `open` is an opening bracket that closes.
fn closing(pairs: &[usize], open: usize) -> Option<usize> {
    pairs.get(open).copied().filter(|&c| c != usize::MAX)
}

/// One past the last token of the statement starting at `k` ([stmt.stmt]); `None` when the
/// input ends first. Each token is looked at a bounded number of times: brackets are
/// skipped through [`bracket_pairs`], and the `if`s waiting for an `else` are a stack.
fn statement_end(toks: &[Token], pairs: &[usize], mut k: usize) -> Option<usize> {
    enum Wait {
        /// An `if` whose statement ended: an `else` may follow.
        If,
        /// A `do` whose body ended: `while ( … ) ;` follows.
        Do,
    }
    let mut waiting: Vec<Wait> = Vec::new();
    loop {
        // The statement at `k`: its prefix pushed, or its end found.
        let mut end = None;
        match word(toks, k) {
            Some("if") => {
                let mut open = k + 1;
                if word(toks, open) == Some("constexpr") {
                    open += 1;
                }
                if !punct(toks, open, "(") {
                    return None;
                }
                k = closing(pairs, open)? + 1;
                waiting.push(Wait::If);
                continue;
            }
            Some("for" | "while" | "switch") if punct(toks, k + 1, "(") => {
                k = closing(pairs, k + 1)? + 1;
                continue;
            }
            Some("do") => {
                k += 1;
                waiting.push(Wait::Do);
                continue;
            }
            _ => {}
        }
        if punct(toks, k, "{") {
            end = Some(closing(pairs, k)? + 1);
        }
        let mut end = match end {
            Some(e) => e,
            None => {
                // An expression or declaration statement: to its `;` outside brackets.
                let mut j = k;
                loop {
                    match toks.get(j).map(|t| &t.tok) {
                        None | Some(Tok::Eof) => return None,
                        Some(Tok::Punct(";")) => break j + 1,
                        Some(Tok::Punct("(" | "[" | "{")) => j = closing(pairs, j)? + 1,
                        Some(Tok::Punct(")" | "]" | "}")) => return None,
                        _ => j += 1,
                    }
                }
            }
        };
        // Close what waited for this statement.
        loop {
            match waiting.last() {
                None => return Some(end),
                Some(Wait::If) => {
                    waiting.pop();
                    if word(toks, end) == Some("else") {
                        k = end + 1;
                        break;
                    }
                }
                Some(Wait::Do) => {
                    waiting.pop();
                    if word(toks, end) != Some("while") || !punct(toks, end + 1, "(") {
                        return None;
                    }
                    let close = closing(pairs, end + 1)?;
                    if !punct(toks, close + 1, ";") {
                        return None;
                    }
                    end = close + 2;
                }
            }
        }
    }
}

/// The `:` of a range-based `for` whose `(` is at `open` and `)` at `close`: a `:` outside
/// brackets with no `;` in the head.
fn range_colon(toks: &[Token], pairs: &[usize], open: usize, close: usize) -> Option<usize> {
    let mut j = open + 1;
    let mut colon = None;
    while j < close {
        match toks[j].tok {
            Tok::Punct(";") => return None,
            Tok::Punct(":") if colon.is_none() => colon = Some(j),
            Tok::Punct("(" | "[" | "{") => j = closing(pairs, j)?,
            _ => {}
        }
        j += 1;
    }
    colon
}

fn at(t: &Token, tok: Tok) -> Token {
    Token {
        tok,
        line: t.line,
        col: t.col,
        end: t.end,
    }
}

/// `tokens` with each range-based `for` over an array written as the index loop above.
pub(super) fn range_for(tokens: Vec<Token>) -> Vec<Token> {
    let toks = &tokens;
    let pairs = bracket_pairs(toks);
    let mut out: Vec<Token> = Vec::with_capacity(tokens.len());
    // Before which original token a rewritten body's `}` goes (how many).
    let mut closes: BTreeMap<usize, usize> = BTreeMap::new();
    let mut n = 0usize;
    let mut k = 0;
    while k < toks.len() {
        if let Some(c) = closes.remove(&k) {
            for _ in 0..c {
                out.push(at(&toks[k], Tok::Punct("}")));
            }
        }
        // Each rewritten loop finds its body's end by walking it: nested ones each walk theirs,
        // so at most MAX_NEST deep keeps the pass linear (the parser's nesting budget refuses
        // far less deep code anyway; a deeper one is left as written and refused there).
        let nested: usize = closes.values().sum();
        let rewrite =
            (word(toks, k) == Some("for") && punct(toks, k + 1, "(") && nested < MAX_NEST)
                .then(|| closing(&pairs, k + 1))
                .flatten()
                .and_then(|close| {
                    let colon = range_colon(toks, &pairs, k + 1, close)?;
                    let end = statement_end(toks, &pairs, close + 1)?;
                    Some((close, colon, end))
                });
        let Some((close, colon, end)) = rewrite else {
            out.push(toks[k].clone());
            k += 1;
            continue;
        };
        let f = &toks[k];
        let i = format!("__rf{n}");
        n += 1;
        let id = |t: &Token, w: &str| at(t, Tok::Ident(w.to_string()));
        let p = |t: &Token, s: &'static str| at(t, Tok::Punct(s));
        let zero = Tok::Int {
            value: 0,
            unsigned: false,
            long: false,
        };
        let range = &toks[colon + 1..close];
        let c = &toks[colon];
        out.extend([
            f.clone(),
            toks[k + 1].clone(),
            id(f, "int"),
            id(f, &i),
            p(f, "="),
            at(f, zero),
            p(f, ";"),
            id(c, &i),
            p(c, "<"),
            id(c, EXTENT),
            p(c, "("),
        ]);
        out.extend(range.iter().cloned());
        out.extend([
            p(c, ")"),
            p(c, ";"),
            p(f, "++"),
            id(f, &i),
            toks[close].clone(),
            p(&toks[close], "{"),
        ]);
        // `DECL = RANGE [ i ] ;`
        out.extend(toks[k + 2..colon].iter().cloned());
        out.push(p(c, "="));
        out.extend(range.iter().cloned());
        out.extend([p(c, "["), id(c, &i), p(c, "]"), p(c, ";")]);
        *closes.entry(end).or_insert(0) += 1;
        k = close + 1;
    }
    // A body that ends the input (never: the token list ends in Eof) still gets its `}`.
    for (_, c) in closes {
        for _ in 0..c {
            if let Some(last) = toks.last() {
                let eof = out.pop();
                out.push(at(last, Tok::Punct("}")));
                out.extend(eof);
            }
        }
    }
    out
}

impl Parser<'_> {
    /// `__crosslane_extent ( RANGE )` after its name: the bound of the array `RANGE` names,
    /// as an integer literal ([stmt.ranged]/1.3.1).
    ///
    /// # Errors
    /// A range that is not a name or a member chain, or names no array of known bound (a
    /// pointer, an `extern __shared__` or run-time-sized array), or an array of arrays.
    pub(super) fn range_extent(&mut self, span: Span) -> PResult<Expr> {
        self.expect_punct("(")?;
        let at = self.span();
        let e = self.expr()?;
        self.expect_punct(")")?;
        match self.array_bound(&e) {
            Ok(n) => Ok(self.folded_literal(i128::from(n), span)),
            Err(why) => Err(KernelError::new(
                at.line,
                at.col,
                format!(
                    "a range-based `for` runs here over an array whose bound is known: a \
                     local, `__shared__` or member array ([stmt.ranged]/1); {why}: write the \
                     index loop (`for (int i = 0; i < n; ++i)`)"
                ),
            )),
        }
    }

    /// The bound of the array `e` names (a name or a member chain).
    fn array_bound(&self, e: &Expr) -> Result<u32, &'static str> {
        let field = match &e.kind {
            ExprKind::Ident(n) => {
                if let Some(d) = self.array_len(n) {
                    return u32::try_from(d).map_err(|_| "the array is too long");
                }
                if let Some(dims) = self.dims_of(n) {
                    return match dims.as_slice() {
                        [d] => u32::try_from(*d).map_err(|_| "the array is too long"),
                        _ => Err("an array of arrays (its rows) is not supported as a range"),
                    };
                }
                if self.var_struct(n).is_some() {
                    // An array of structs (`KV pairs[3]`): its length as its declaration noted it.
                    return match self.array_len(&format!("struct:{n}")) {
                        Some(len) => u32::try_from(len).map_err(|_| "the array is too long"),
                        None => Err("this range is a pointer or an array of unknown bound"),
                    };
                }
                if self.var_type(n).is_some() {
                    return Err("this range is a pointer or an array of unknown bound");
                }
                self.self_field(n)
            }
            ExprKind::Member(b, f) => {
                let s = match &b.kind {
                    ExprKind::Ident(t) if t == "this" => self.self_struct.clone(),
                    _ => self.struct_of(b),
                };
                s.and_then(|s| {
                    self.structs
                        .get(&s)?
                        .fields
                        .iter()
                        .find(|x| x.name == *f)
                        .map(|x| x.ty.clone())
                })
            }
            _ => return Err("the range must name an array (a name or a member: `vals`, `blk.qs`)"),
        };
        match field {
            Some(FieldTy::Arr(_, n) | FieldTy::SArr(_, n)) => Ok(n),
            Some(_) => Err("this member is not an array"),
            None => Err("this range names no array the front end knows"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;

    fn text(src: &str) -> String {
        range_for(lex(src).expect("lexes").tokens)
            .iter()
            .filter_map(|t| match &t.tok {
                Tok::Ident(w) => Some(w.clone()),
                Tok::Punct(p) => Some(p.to_string()),
                Tok::Int { value, .. } => Some(value.to_string()),
                _ => None,
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn a_range_for_becomes_an_index_loop_around_its_body() {
        assert_eq!(
            text("for (float v : vals) s += v; t = 1;"),
            "for ( int __rf0 = 0 ; __rf0 < __crosslane_extent ( vals ) ; ++ __rf0 ) { \
             float v = vals [ __rf0 ] ; s += v ; } t = 1 ;"
        );
        assert_eq!(
            text("for (auto& v : a.b) { v *= 2; }"),
            "for ( int __rf0 = 0 ; __rf0 < __crosslane_extent ( a . b ) ; ++ __rf0 ) { \
             auto & v = a . b [ __rf0 ] ; { v *= 2 ; } }"
        );
    }

    #[test]
    fn the_body_ends_where_the_statement_grammar_says() {
        // if/else chains, nested loops and do-while end where C++ ends them.
        let t = text("for (int x : a) if (x) if (y) f(); else g(); else h(); z();");
        assert!(t.ends_with("else h ( ) ; } z ( ) ;"), "{t}");
        let t = text("for (int x : a) do { x++; } while (x < 3); z();");
        assert!(t.ends_with("while ( x < 3 ) ; } z ( ) ;"), "{t}");
        let t = text("for (int x : a) for (int y : b) s += x * y; z();");
        assert!(t.contains("__rf1"), "{t}");
        assert!(t.ends_with("s += x * y ; } } z ( ) ;"), "{t}");
        // An ordinary `for` and a `?:` in one stay as they are.
        assert_eq!(
            text("for (int i = c ? 1 : 2; i < n; ++i) f();"),
            "for ( int i = c ? 1 : 2 ; i < n ; ++ i ) f ( ) ;"
        );
    }
}
