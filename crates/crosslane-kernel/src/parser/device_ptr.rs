//! A token pass: rocPRIM's (and hipCUB's) host-side device buffer `common::device_ptr<T>`
//! (`common/utils_device_ptr.hpp`, which rocPRIM's examples and tests include through
//! `example_utils.hpp` / `test_utils.hpp`), written as the HIP runtime calls it makes, so that
//! the host reading follows the allocation and the copy into it ([`super::host_ptr`] reads
//! `hipMalloc` and `hipMemcpy`).
//!
//! What the class does (its header, `common::device_ptr`): the constructor from a count
//! `device_ptr<T> d(n);` allocates `n` elements (`hipMalloc`, contents not set); the
//! constructor from a host vector `device_ptr<T> d(v);` allocates `v.size()` elements and
//! copies `v` into them (`hipMemcpy … hipMemcpyHostToDevice`); `d.get()` is the raw device
//! pointer; `d.store(v)` copies `v` to the start of the buffer. Forms read, at statement
//! start: `[common::]device_ptr<T> NAME(ARG);` (also `{ARG}`), where `ARG` is a vector when it
//! is one identifier the file declares as a `std::vector` (`std::vector<int> input = …;`,
//! `std::vector<int> h(n);`), else a count. The declaration becomes `T* NAME;` and those
//! calls; `NAME.get()` becomes `NAME` and `NAME.store(v);` the copy, to the end of the
//! declaration's block. Other members (`load()`, `resize`, …) stay as written: host code's
//! reads of the results are not evaluated anyway. A source that declares its own
//! `device_ptr` class is left alone. One walk over the tokens (linear in the source).

use super::std_constants::word;
use crate::lexer::{Tok, Token};

fn punct(t: &[Token], k: usize, p: &str) -> bool {
    matches!(t.get(k).map(|t| &t.tok), Some(Tok::Punct(q)) if *q == p)
}

/// The index just past the bracket group opening at `k` (`(`, `{` or `<`), `None` when it is
/// not closed. `<` counts only angle brackets, as template arguments without `>>` do.
fn close(t: &[Token], k: usize) -> Option<usize> {
    let (open, shut) = match t.get(k).map(|t| &t.tok) {
        Some(Tok::Punct("(")) => ("(", ")"),
        Some(Tok::Punct("{")) => ("{", "}"),
        Some(Tok::Punct("<")) => ("<", ">"),
        _ => return None,
    };
    let mut depth = 0usize;
    for (i, tok) in t.iter().enumerate().skip(k) {
        match &tok.tok {
            Tok::Punct(p) if *p == open => depth += 1,
            Tok::Punct(p) if *p == shut => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            Tok::Punct(">>") if open == "<" => {
                if depth <= 2 {
                    return None;
                }
                depth -= 2;
            }
            Tok::Punct(";") => return None,
            _ => {}
        }
    }
    None
}

/// The names the file declares as `std::vector<…> NAME` (or `vector<…> NAME`).
fn vector_names(t: &[Token]) -> Vec<String> {
    let mut names = Vec::new();
    for k in 0..t.len() {
        if word(t.get(k)) != Some("vector") || !punct(t, k + 1, "<") {
            continue;
        }
        let Some(after) = close(t, k + 1) else {
            continue;
        };
        if let Some(n) = word(t.get(after)) {
            names.push(n.to_string());
        }
    }
    names
}

/// A declaration at `k` (a statement's first token): the element type's tokens, the name,
/// the argument's tokens and the index after its `;`.
fn decl_at(t: &[Token], k: usize) -> Option<(Vec<Token>, String, Vec<Token>, usize)> {
    let mut i = k;
    if word(t.get(i)) == Some("common") && punct(t, i + 1, "::") {
        i += 2;
    }
    if word(t.get(i)) != Some("device_ptr") || !punct(t, i + 1, "<") {
        return None;
    }
    let targs_end = close(t, i + 1)?;
    let elem = t[i + 2..targs_end - 1].to_vec();
    if elem.is_empty() {
        return None;
    }
    let name = word(t.get(targs_end))?.to_string();
    let args_end = close(t, targs_end + 1)?;
    let arg = t[targs_end + 2..args_end - 1].to_vec();
    if arg.is_empty() || arg.iter().any(|a| matches!(a.tok, Tok::Punct(","))) {
        return None;
    }
    punct(t, args_end, ";").then(|| (elem, name, arg, args_end + 1))
}

/// `V . size ( )` at `at`'s position.
fn size_of(at: &Token, v: &str) -> Vec<Token> {
    let mk = |tok: Tok| Token { tok, ..at.clone() };
    vec![
        mk(Tok::Ident(v.to_string())),
        mk(Tok::Punct(".")),
        mk(Tok::Ident("size".into())),
        mk(Tok::Punct("(")),
        mk(Tok::Punct(")")),
    ]
}

/// Tokens built at `at`'s position.
struct Emit<'a> {
    at: &'a Token,
    out: Vec<Token>,
}

impl Emit<'_> {
    fn p(&mut self, p: &'static str) -> &mut Self {
        self.out.push(Token {
            tok: Tok::Punct(p),
            ..self.at.clone()
        });
        self
    }
    fn w(&mut self, w: &str) -> &mut Self {
        self.out.push(Token {
            tok: Tok::Ident(w.to_string()),
            ..self.at.clone()
        });
        self
    }
    fn ts(&mut self, ts: &[Token]) -> &mut Self {
        self.out.extend(ts.iter().map(|t| Token {
            tok: t.tok.clone(),
            ..self.at.clone()
        }));
        self
    }
    /// `( COUNT ) * sizeof ( T )`.
    fn bytes(&mut self, count: &[Token], elem: &[Token]) -> &mut Self {
        self.p("(")
            .ts(count)
            .p(")")
            .p("*")
            .w("sizeof")
            .p("(")
            .ts(elem)
            .p(")")
    }
    /// `hipMemcpy ( NAME , V . data ( ) , ( V . size ( ) ) * sizeof ( T ) , H2D ) ;`.
    fn copy_in(&mut self, name: &str, v: &str, elem: &[Token]) -> &mut Self {
        let size = size_of(self.at, v);
        self.w("hipMemcpy")
            .p("(")
            .w(name)
            .p(",")
            .w(v)
            .p(".")
            .w("data")
            .p("(")
            .p(")");
        self.p(",")
            .bytes(&size, elem)
            .p(",")
            .w("hipMemcpyHostToDevice")
            .p(")")
            .p(";")
    }
}

/// `tokens` with each `common::device_ptr<T>` declaration written as a pointer and the HIP
/// calls its constructor makes, and its `.get()` / `.store(v)` uses as the pointer and the
/// copy; unchanged when the source names no `device_ptr<` or declares its own.
pub(super) fn device_ptr(tokens: Vec<Token>) -> Vec<Token> {
    let named = tokens
        .windows(2)
        .any(|w| word(w.first()) == Some("device_ptr") && punct(w, 1, "<"));
    let own = tokens.windows(2).any(|w| {
        matches!(word(w.first()), Some("class" | "struct")) && word(w.get(1)) == Some("device_ptr")
    });
    if !named || own {
        return tokens;
    }
    let vectors = vector_names(&tokens);
    let mut out = Vec::with_capacity(tokens.len());
    // (name, element type, brace depth of its block)
    let mut live: Vec<(String, Vec<Token>, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut k = 0;
    while k < tokens.len() {
        let start = k == 0 || matches!(tokens[k - 1].tok, Tok::Punct(";" | "{" | "}"));
        if start {
            if let Some((elem, name, arg, next)) = decl_at(&tokens, k) {
                let mut e = Emit {
                    at: &tokens[k],
                    out: Vec::new(),
                };
                e.ts(&elem).p("*").w(&name).p(";");
                let vector = match arg.as_slice() {
                    [one] => word(Some(one)).filter(|w| vectors.iter().any(|v| v == w)),
                    _ => None,
                };
                match vector {
                    Some(v) => {
                        let size = size_of(&tokens[k], v);
                        e.w("hipMalloc")
                            .p("(")
                            .p("&")
                            .w(&name)
                            .p(",")
                            .bytes(&size, &elem);
                        e.p(")").p(";").copy_in(&name, v, &elem);
                    }
                    None => {
                        e.w("hipMalloc")
                            .p("(")
                            .p("&")
                            .w(&name)
                            .p(",")
                            .bytes(&arg, &elem);
                        e.p(")").p(";");
                    }
                }
                out.extend(e.out);
                live.retain(|(n, _, _)| *n != name);
                live.push((name, elem, depth));
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
            Tok::Ident(w) if punct(&tokens, k + 1, ".") => {
                let member = k > 0 && matches!(tokens[k - 1].tok, Tok::Punct("." | "->" | "::"));
                let found = live
                    .iter()
                    .rev()
                    .find(|(n, _, _)| n == w)
                    .filter(|_| !member);
                if let Some((name, elem, _)) = found {
                    let method = word(tokens.get(k + 2));
                    // `NAME.get()`: the pointer.
                    if method == Some("get")
                        && punct(&tokens, k + 3, "(")
                        && punct(&tokens, k + 4, ")")
                    {
                        out.push(tokens[k].clone());
                        k += 5;
                        continue;
                    }
                    // `NAME.store(v);` at statement start: the copy.
                    let v = word(tokens.get(k + 4)).filter(|v| vectors.iter().any(|x| x == v));
                    if method == Some("store")
                        && start
                        && punct(&tokens, k + 3, "(")
                        && punct(&tokens, k + 5, ")")
                        && punct(&tokens, k + 6, ";")
                    {
                        if let Some(v) = v {
                            let mut e = Emit {
                                at: &tokens[k],
                                out: Vec::new(),
                            };
                            e.copy_in(name, v, elem);
                            out.extend(e.out);
                            k += 7;
                            continue;
                        }
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
