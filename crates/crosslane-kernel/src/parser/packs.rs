//! Variadic templates (C++17 [temp.variadic]): a type parameter pack `typename... Ts`, a value
//! parameter pack `int... Ns` (its elements are constants of the declared type, given
//! explicitly: `sum<1, 2, 3>()`), a function parameter pack `Ts... xs` (also `const Ts&... xs`), `sizeof...(Ts)` /
//! `sizeof...(xs)`, pack expansions `xs...` and `g(xs)...` in argument and initializer lists,
//! and fold expressions `(xs + ...)`, `(... + xs)`, `(xs + ... + init)`, `(init + ... + xs)`
//! ([expr.prim.fold]).
//!
//! An instance knows its pack's length, so its tokens are rewritten before they are parsed:
//! the pack's `i`-th type is the alias `Ts…i`, the `i`-th function parameter `xs…i`; an
//! expansion repeats its pattern once per element, joined by commas; a fold nests its operator
//! over the elements (a right fold as `E0 op (E1 op E2)`, a left fold as `(E0 op E1) op E2`);
//! an empty unary fold is the operator's identity where [temp.variadic]/9 gives one (`&&`:
//! `true`, `||`: `false`, `,`: `void()`), and for `+` and `*`, which C++17 makes ill-formed
//! empty, an error. The rewrite is one left-to-right pass over the tokens; its output is at
//! most the tokens times the pack's length, and it counts against the token budget.

use crate::lexer::{Tok, Token};

use super::targs::element;

/// `tokens` (a function template's, ending in Eof) with every expansion of the packs `packs`
/// (the type pack's and the function parameter packs' names) of length `n` written out.
///
/// # Errors
/// The message of a form not rewritten here (an expansion whose pattern names no pack, an
/// empty fold of an operator without an identity).
pub(super) fn expand(
    tokens: &[Token],
    packs: &[String],
    n: usize,
    syn: &mut u32,
) -> Result<Vec<Token>, String> {
    let is_pack = |t: &Tok| matches!(t, Tok::Ident(w) if packs.iter().any(|p| p == w));
    let mut out: Vec<Token> = Vec::with_capacity(tokens.len());
    let mut k = 0;
    while k < tokens.len() {
        let t = &tokens[k];
        if !matches!(t.tok, Tok::Punct("...")) {
            out.push(t.clone());
            k += 1;
            continue;
        }
        let tok = |tk: Tok| Token {
            tok: tk,
            ..t.clone()
        };
        // `sizeof...(xs)`.
        if matches!(out.last().map(|x| &x.tok), Some(Tok::Ident(w)) if w == "sizeof") {
            let named = tokens.get(k + 2).is_some_and(|x| is_pack(&x.tok));
            if !named || !matches!(tokens.get(k + 3).map(|x| &x.tok), Some(Tok::Punct(")"))) {
                return Err("`sizeof...` takes a pack's name in parentheses".into());
            }
            out.pop();
            out.push(tok(Tok::Int {
                value: n as u64,
                unsigned: true,
                long: true,
            }));
            k += 4;
            continue;
        }
        // `Ts... xs` / `const Ts&... xs`: a function parameter pack.
        if let (Some(Tok::Ident(name)), Some(Tok::Punct("," | ")" | "="))) = (
            tokens.get(k + 1).map(|x| &x.tok),
            tokens.get(k + 2).map(|x| &x.tok),
        ) {
            let ty = pop_to_open(&mut out);
            trim_comma(&mut out, n);
            for i in 0..n {
                if i > 0 {
                    out.push(tok(Tok::Punct(",")));
                }
                out.extend(substitute(&ty, packs, i, syn));
                let named = substitute(&tokens[k + 1..k + 2], std::slice::from_ref(name), i, syn);
                out.extend(named);
            }
            k += 2;
            continue;
        }
        let prev_op = out.last().and_then(|x| fold_op(&x.tok));
        let next = tokens.get(k + 1).map(|x| &x.tok);
        let next_op = next.and_then(fold_op);
        if matches!(out.last().map(|x| &x.tok), Some(Tok::Punct("("))) && next_op.is_some() {
            // `( ... op E )` or: left fold.
            let op = next_op.unwrap_or(",");
            let (e, close) = group_rest(tokens, k + 2)?;
            cast_operand(&e)?;
            out.extend(left_fold(&e, None, op, packs, n, t, syn)?);
            k = close;
            continue;
        }
        if let Some(op) = prev_op {
            // `( E op ... )`, `( E op ... op I )` or `( I op ... op E )`.
            out.pop();
            let e = pop_to_open(&mut out);
            cast_operand(&e)?;
            if matches!(next, Some(Tok::Punct(")"))) {
                out.extend(right_fold(&e, None, op, packs, n, t, syn)?);
                k += 1;
                continue;
            }
            if next_op == Some(op) {
                let (rest, close) = group_rest(tokens, k + 2)?;
                cast_operand(&rest)?;
                if e.iter().any(|x| is_pack(&x.tok)) {
                    out.extend(right_fold(&e, Some(&rest), op, packs, n, t, syn)?);
                } else {
                    out.extend(left_fold(&rest, Some(&e), op, packs, n, t, syn)?);
                }
                k = close;
                continue;
            }
            return Err("a fold expression `( E op ... )` with one operator".into());
        }
        // `pattern...`: the pattern repeated, comma-separated. Closed by `>`, the expansion is
        // a template argument list's last (`Seq<Is...>`, [temp.variadic]/5): its pattern
        // starts after that list's `<`.
        let pattern = if matches!(next, Some(Tok::Punct(">" | ">>"))) {
            pop_to_angle(&mut out)
        } else {
            pop_to_open(&mut out)
        };
        if !pattern.iter().any(|x| is_pack(&x.tok)) {
            return Err("this `...` expands no pack of the template".into());
        }
        trim_comma(&mut out, n);
        for i in 0..n {
            if i > 0 {
                out.push(tok(Tok::Punct(",")));
            }
            out.extend(substitute(&pattern, packs, i, syn));
        }
        k += 1;
    }
    Ok(out)
}

/// The binary operators a fold may use ([expr.prim.fold]/2), as their tokens.
fn fold_op(t: &Tok) -> Option<&'static str> {
    match t {
        Tok::Punct(p)
            if matches!(
                *p,
                "+" | "-"
                    | "*"
                    | "/"
                    | "%"
                    | "^"
                    | "&"
                    | "|"
                    | "<<"
                    | ">>"
                    | "&&"
                    | "||"
                    | ","
                    | "=="
                    | "!="
                    | "<"
                    | ">"
                    | "<="
                    | ">="
            ) =>
        {
            Some(p)
        }
        _ => None,
    }
}

/// Checks that a fold's operand is a cast-expression ([expr.prim.fold]/1: `( cast-expression
/// fold-operator ... )`): a binary operator at its top level (`xs > 0 && ...`, `xs * 2 + ...`)
/// makes the fold ill-formed, as nvcc and clang say; the operand must be parenthesized. A `<`
/// after a name may open a template's arguments (`static_cast<int>(xs)`): it and the `>` that
/// closes it are not judged (so `xs < 3 && ...` goes unrefused; `xs > 0 && ...` is refused).
fn cast_operand(e: &[Token]) -> Result<(), String> {
    let mut depth = 0usize;
    let mut angles = 0usize;
    let mut after_operand = false;
    let mut after_name = false;
    for t in e {
        match &t.tok {
            Tok::Punct("(" | "[" | "{") => depth += 1,
            Tok::Punct(")" | "]" | "}") => depth = depth.saturating_sub(1),
            Tok::Punct("<") if depth == 0 && after_name => angles += 1,
            Tok::Punct(">") if depth == 0 && angles > 0 => angles -= 1,
            Tok::Punct(">>") if depth == 0 && angles > 0 => angles = angles.saturating_sub(2),
            Tok::Punct(p)
                if depth == 0
                    && angles == 0
                    && after_operand
                    && (fold_op(&t.tok).is_some()
                        || matches!(*p, "?" | "=" | "+=" | "-=" | "*=" | "/=")) =>
            {
                let text: Vec<String> = e.iter().map(|x| crate::pp::spell(&x.tok)).collect();
                return Err(format!(
                    "the operand of a fold expression must be a cast-expression ([expr.prim.fold]/1): \
                     `{}` has the operator `{p}` at its top level; parenthesize it: `({}) op ...`",
                    text.join(" "),
                    text.join(" ")
                ));
            }
            _ => {}
        }
        after_operand = match &t.tok {
            Tok::Punct(")" | "]" | ">") => true,
            Tok::Punct(_) => false,
            _ => true,
        };
        after_name = matches!(t.tok, Tok::Ident(_));
    }
    Ok(())
}

/// Removes and returns the tokens after the innermost unclosed `(`, `{` or `,` at the end of
/// `out` (the pattern before a `...`).
fn pop_to_open(out: &mut Vec<Token>) -> Vec<Token> {
    let mut depth = 0usize;
    let mut k = out.len();
    while k > 0 {
        match out[k - 1].tok {
            Tok::Punct(")" | "]" | "}") => depth += 1,
            Tok::Punct("(" | "[" | "{") if depth == 0 => break,
            Tok::Punct("(" | "[" | "{") => depth -= 1,
            Tok::Punct(",") if depth == 0 => break,
            _ => {}
        }
        k -= 1;
    }
    out.split_off(k)
}

/// Removes and returns the tokens after the innermost unclosed `<`, `(`, `{` or `,` at the end
/// of `out`: the pattern before a `...` that a `>` follows (`Seq<Is...>`, `Seq<(Is * 2)...>`).
/// A `>` met on the way closes a nested list (`Box<Pair<Ts>...>`).
fn pop_to_angle(out: &mut Vec<Token>) -> Vec<Token> {
    let mut depth = 0usize;
    let mut angles = 0usize;
    let mut k = out.len();
    while k > 0 {
        match out[k - 1].tok {
            Tok::Punct(")" | "]" | "}") => depth += 1,
            Tok::Punct("(" | "[" | "{") if depth == 0 => break,
            Tok::Punct("(" | "[" | "{") => depth -= 1,
            _ if depth > 0 => {}
            Tok::Punct(">") => angles += 1,
            Tok::Punct(">>") => angles += 2,
            Tok::Punct("<") if angles == 0 => break,
            Tok::Punct("<") => angles -= 1,
            Tok::Punct(",") if angles == 0 => break,
            _ => {}
        }
        k -= 1;
    }
    out.split_off(k)
}

/// With an empty pack, the `,` before the vanished expansion goes too (`f(a, xs...)` → `f(a)`).
fn trim_comma(out: &mut Vec<Token>, n: usize) {
    if n == 0 && matches!(out.last().map(|x| &x.tok), Some(Tok::Punct(","))) {
        out.pop();
    }
}

/// The tokens from `from` to the `)` closing the group they are in, and that `)`'s index
/// (which stays in the output: the caller continues there).
fn group_rest(tokens: &[Token], from: usize) -> Result<(Vec<Token>, usize), String> {
    let mut depth = 0usize;
    for (k, t) in tokens.iter().enumerate().skip(from) {
        match t.tok {
            Tok::Punct("(" | "[" | "{") => depth += 1,
            Tok::Punct(")") if depth == 0 => return Ok((tokens[from..k].to_vec(), k)),
            Tok::Punct(")" | "]" | "}") => depth = depth.saturating_sub(1),
            Tok::Eof => break,
            _ => {}
        }
    }
    Err("a fold expression's `)`".into())
}

/// `pattern` with every pack name replaced by its `i`-th element. Each copy's tokens get
/// columns of their own past [`crate::ast::SYNTH_COL`] (the compiler keys names and calls by
/// position; two copies of one source token must not share one).
fn substitute(pattern: &[Token], packs: &[String], i: usize, syn: &mut u32) -> Vec<Token> {
    use crate::ast::SYNTH_COL;
    *syn = syn.wrapping_add(1);
    let copy = *syn % (u32::MAX / SYNTH_COL) + 1;
    pattern
        .iter()
        .map(|t| {
            let col = t.col % SYNTH_COL + SYNTH_COL * copy;
            match &t.tok {
                Tok::Ident(w) if packs.iter().any(|p| p == w) => Token {
                    tok: Tok::Ident(element(w, i)),
                    col,
                    ..t.clone()
                },
                _ => Token { col, ..t.clone() },
            }
        })
        .collect()
}

/// The elements of a fold: the pattern per element, then the initial value when given.
fn operands(
    e: &[Token],
    init: Option<&[Token]>,
    packs: &[String],
    n: usize,
    syn: &mut u32,
) -> Vec<Vec<Token>> {
    let mut v: Vec<Vec<Token>> = (0..n).map(|i| substitute(e, packs, i, syn)).collect();
    if let Some(init) = init {
        v.push(init.to_vec());
    }
    v
}

/// The identity an empty unary fold of `op` is ([temp.variadic]/9).
fn empty_fold(op: &str, at: &Token) -> Result<Vec<Token>, String> {
    let t = |tk: Tok| Token {
        tok: tk,
        ..at.clone()
    };
    match op {
        "&&" => Ok(vec![t(Tok::Ident("true".into()))]),
        "||" => Ok(vec![t(Tok::Ident("false".into()))]),
        "," => Ok(vec![t(Tok::Int {
            value: 0,
            unsigned: false,
            long: false,
        })]),
        _ => Err(format!(
            "a fold over `{op}` of an empty pack is ill-formed (C++17 [temp.variadic]/9); give \
             it an initial value: `(xs {op} ... {op} init)`"
        )),
    }
}

/// `E0 op (E1 op (… op En))`, each operand parenthesized.
fn right_fold(
    e: &[Token],
    init: Option<&[Token]>,
    op: &'static str,
    packs: &[String],
    n: usize,
    at: &Token,
    syn: &mut u32,
) -> Result<Vec<Token>, String> {
    let ops = operands(e, init, packs, n, syn);
    if ops.is_empty() {
        return empty_fold(op, at);
    }
    let t = |tk: Tok| Token {
        tok: tk,
        ..at.clone()
    };
    let mut out = Vec::new();
    let last = ops.len() - 1;
    for (i, o) in ops.iter().enumerate() {
        out.push(t(Tok::Punct("(")));
        out.extend(o.iter().cloned());
        out.push(t(Tok::Punct(")")));
        if i < last {
            out.push(t(Tok::Punct(op)));
            out.push(t(Tok::Punct("(")));
        }
    }
    for _ in 0..last {
        out.push(t(Tok::Punct(")")));
    }
    Ok(out)
}

/// `((I op E0) op E1) op …`, each operand parenthesized.
fn left_fold(
    e: &[Token],
    init: Option<&[Token]>,
    op: &'static str,
    packs: &[String],
    n: usize,
    at: &Token,
    syn: &mut u32,
) -> Result<Vec<Token>, String> {
    let mut ops = operands(e, None, packs, n, syn);
    if let Some(init) = init {
        ops.insert(0, init.to_vec());
    }
    if ops.is_empty() {
        return empty_fold(op, at);
    }
    let t = |tk: Tok| Token {
        tok: tk,
        ..at.clone()
    };
    let mut out = Vec::new();
    for _ in 1..ops.len() {
        out.push(t(Tok::Punct("(")));
    }
    for (i, o) in ops.iter().enumerate() {
        if i > 0 {
            out.push(t(Tok::Punct(op)));
        }
        out.push(t(Tok::Punct("(")));
        out.extend(o.iter().cloned());
        out.push(t(Tok::Punct(")")));
        if i > 0 {
            out.push(t(Tok::Punct(")")));
        }
    }
    Ok(out)
}

use super::targs::{TArg, TParam};
use super::{PResult, Parser};
use crate::ast::{Expr, Span};
use crate::KernelError;

/// The type pack among `params` and its length in `args`, when the template has one.
pub(super) fn pack_of<'p>(params: &'p [TParam], args: &[TArg]) -> Option<(&'p str, usize)> {
    params.iter().zip(args).find_map(|(p, a)| match a {
        TArg::Pack(items) if p.pack => Some((p.name.as_str(), items.len())),
        _ => None,
    })
}

/// The pack names of a template's tokens: the type pack and each function parameter pack
/// (`Ts... xs` declares `xs`).
pub(super) fn pack_names(tokens: &[Token], type_pack: &str) -> Vec<String> {
    let mut names = vec![type_pack.to_string()];
    for w in tokens.windows(3) {
        if let (Tok::Punct("..."), Tok::Ident(n), Tok::Punct("," | ")" | "=")) =
            (&w[0].tok, &w[1].tok, &w[2].tok)
        {
            if !names.contains(n) {
                names.push(n.clone());
            }
        }
    }
    names
}

impl Parser<'_> {
    /// The elements of pack `name` from the call's arguments from the function parameter
    /// pack's position on ([temp.deduct.call]/1: each argument deduces one element).
    ///
    /// # Errors
    /// An argument whose type the front end cannot tell.
    pub(super) fn deduce_pack(
        &self,
        name: &str,
        deduce_from: &[Option<String>],
        args: &[Expr],
        at: Span,
    ) -> PResult<TArg> {
        let Some(first) = deduce_from.iter().position(|d| d.as_deref() == Some(name)) else {
            // No function parameter expands it: an empty pack.
            return Ok(TArg::Pack(Vec::new()));
        };
        let mut items = Vec::new();
        for e in args.iter().skip(first) {
            if let Some(v) = self.expr_type(e) {
                items.push(TArg::Type(v));
            } else if let Some(st) = self.struct_of(e) {
                items.push(TArg::Struct(st));
            } else {
                return Err(KernelError::new(
                    e.span.line.max(at.line),
                    e.span.col,
                    format!(
                        "cannot tell this argument's type for the pack `{name}`; cast it \
                         (`(float)x`) or give the pack's types explicitly"
                    ),
                ));
            }
        }
        Ok(TArg::Pack(items))
    }
}
