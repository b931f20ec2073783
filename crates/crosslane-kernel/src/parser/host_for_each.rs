//! A host fill by `std::for_each(first, last, f)` (C++17 [alg.foreach]: `f` applied to each
//! element in order) with a lambda that rewrites its reference parameter from its own value,
//! `[](float& x) { x = 10.f * x; }` or `x *= 2;` — rocm-examples' warp_shuffle scales an
//! `std::iota` fill so. Read only over the whole of an array whose cells host code already
//! knows; anything else leaves the array unknown, as before.

use super::const_eval::{binary, decl_scalar, HostVal};
use super::host::HostState;
use super::Parser;
use crate::lexer::Tok;
use crate::types::BinOp;

/// The cells after applying the lambda at token range `lambda` to each of `cells` (their
/// texts); `None` when the lambda is not of the form read or a value cannot be evaluated.
/// Bounded by the cells (at most [`super::host::MAX_FILL`], the fill's own bound).
pub(super) fn apply(
    p: &mut Parser<'_>,
    st: &HostState,
    cells: &[String],
    (a, b): (usize, usize),
) -> Option<Vec<String>> {
    let toks = p.toks;
    let t = |k: usize| toks.get(k).map(|x| &x.tok);
    // `[` captures `]` `(` type words `&` name `)` `{` name op expr `;` `}`.
    if t(a) != Some(&Tok::Punct("[")) {
        return None;
    }
    let close_cap = (a..b).find(|&k| t(k) == Some(&Tok::Punct("]")))?;
    let open = close_cap + 1;
    if t(open) != Some(&Tok::Punct("(")) {
        return None;
    }
    let close = p.closing(open)?;
    let params = &toks[open + 1..close];
    let (name, words) = match params {
        [ws @ .., amp, n] if amp.tok == Tok::Punct("&") => match &n.tok {
            Tok::Ident(n) => (n.clone(), ws),
            _ => return None,
        },
        _ => return None,
    };
    let words: Vec<&str> = words
        .iter()
        .filter_map(|x| match &x.tok {
            Tok::Ident(w) if w != "const" => Some(w.as_str()),
            _ => None,
        })
        .collect();
    let scalar = decl_scalar(&words)?;
    let body = close + 1;
    if t(body) != Some(&Tok::Punct("{")) || p.closing(body)? + 1 != b {
        return None;
    }
    // `name op expr ;` and the closing brace.
    if !matches!(t(body + 1), Some(Tok::Ident(n)) if *n == name) {
        return None;
    }
    let op = match t(body + 2)? {
        Tok::Punct("=") => None,
        Tok::Punct("+=") => Some(BinOp::Add),
        Tok::Punct("-=") => Some(BinOp::Sub),
        Tok::Punct("*=") => Some(BinOp::Mul),
        Tok::Punct("/=") => Some(BinOp::Div),
        _ => return None,
    };
    let semi = b.checked_sub(2)?;
    if t(semi) != Some(&Tok::Punct(";")) || semi <= body + 3 {
        return None;
    }
    let rhs = p.sub_expr(body + 3, semi)?;
    let mut env = st.env.clone();
    let mut out = Vec::with_capacity(cells.len());
    for c in cells {
        let v = match c.parse::<i128>() {
            Ok(n) => HostVal::Int(n),
            Err(_) => HostVal::Float(c.parse::<f64>().ok()?),
        }
        .convert(scalar)?;
        env.insert(name.clone(), v);
        let r = p.host_fold(&rhs, &env)?;
        let r = match op {
            None => r,
            Some(op) => binary(op, v, r)?,
        };
        out.push(r.convert(scalar)?.text()?);
    }
    Some(out)
}
