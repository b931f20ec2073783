//! A host call that sets the caller's scalars through reference parameters: llama.cpp's
//! `uint32_t mp, L; init_fastdiv_values(d, mp, L);` beside `static void
//! init_fastdiv_values(uint32_t d, uint32_t & mp, uint32_t & L) { L = 0; while (…) L++; mp =
//! …; }`. C++17 [dcl.init.ref]/5: a reference parameter binds to the argument itself, so what
//! the body assigns to the parameter is the caller's variable's value after the call. The
//! body is read with its parameters bound ([`super::host_calls`]); each non-`const` reference
//! parameter given a plain variable takes the value the reading left in it, or becomes unknown
//! (with the callee's reason) when the reading left none.

use super::host::HostState;
use super::Parser;
use crate::lexer::Tok;

impl Parser<'_> {
    /// Per parameter of the host function whose body opens at `open`: whether it is a
    /// non-`const` lvalue reference to a scalar (`uint32_t & mp`, `int& n`).
    pub(super) fn host_ref_params(&self, open: usize) -> Vec<bool> {
        let toks = self.toks;
        // The parameter list ends just before the body (after qualifiers such as `noexcept`).
        let Some(close) = (open.saturating_sub(8)..open)
            .rev()
            .find(|&i| matches!(toks[i].tok, Tok::Punct(")")))
        else {
            return Vec::new();
        };
        let Some(lp) = (0..close)
            .rev()
            .take(4096)
            .find(|&i| self.closing(i) == Some(close))
        else {
            return Vec::new();
        };
        super::host::split_commas(toks, lp + 1, close)
            .into_iter()
            .map(|(a, b)| {
                let p = &toks[a..b];
                let amp = p.iter().position(|t| matches!(t.tok, Tok::Punct("&")));
                let konst = p
                    .iter()
                    .any(|t| matches!(&t.tok, Tok::Ident(w) if w == "const"));
                // `T& name` of a scalar type named by words only (`uint32_t & mp`): `T (&a)[N]`,
                // `T*&` and a class's reference (`std::vector<int>& b`, whose cells the fill
                // readers follow) are other shapes.
                amp.is_some_and(|i| {
                    i + 2 == p.len()
                        && i > 0
                        && matches!(p[i + 1].tok, Tok::Ident(_))
                        && p[..i].iter().all(|t| matches!(t.tok, Tok::Ident(_)))
                }) && !konst
            })
            .collect()
    }

    /// [`alloc_null_test`] of `from..to`, or of the condition of `COND ? A : B` spanning it
    /// (FlashInfer's `float weight_bias = (weight == nullptr) ? 1.f : 0.f;`): then the value of
    /// the operand it chooses (C++17 [expr.cond]/1).
    pub(super) fn alloc_null_value(
        &mut self,
        st: &HostState,
        from: usize,
        to: usize,
    ) -> Option<super::const_eval::HostVal> {
        let toks = self.toks;
        if let Some(v) = alloc_null_test(toks, st, from, to) {
            return Some(v);
        }
        // The top-level `?` and its `:`.
        let mut depth = 0usize;
        let (mut q, mut colon) = (None, None);
        for (i, t) in toks.get(from..to)?.iter().enumerate() {
            match t.tok {
                Tok::Punct("(" | "[" | "{") => depth += 1,
                Tok::Punct(")" | "]" | "}") => depth = depth.checked_sub(1)?,
                Tok::Punct("?") if depth == 0 && q.is_none() => q = Some(from + i),
                Tok::Punct("?") if depth == 0 => return None,
                Tok::Punct(":") if depth == 0 && q.is_some() && colon.is_none() => {
                    colon = Some(from + i)
                }
                _ => {}
            }
        }
        let (q, colon) = (q?, colon?);
        let c = alloc_null_test(toks, st, from, q)?.int()?;
        if c != 0 {
            self.host_value(st, q + 1, colon)
        } else {
            self.host_value(st, colon + 1, to)
        }
    }

    /// After a host call's body was read into `inner`: each reference parameter (`refs`)
    /// whose argument is the caller's variable (`args`, empty for another expression) gives
    /// that variable the parameter's value, or leaves it unknown with the reason.
    pub(super) fn host_ref_out(
        st: &mut HostState,
        inner: &HostState,
        params: &[String],
        refs: &[bool],
        args: &[&str],
        callee: &str,
    ) {
        for ((p, &is_ref), &arg) in params.iter().zip(refs).zip(args) {
            if !is_ref || arg.is_empty() || arg.contains(['.', '[', '(', '*']) {
                continue;
            }
            match inner.env.get(p) {
                Some(v) => {
                    st.env.insert(arg.to_string(), *v);
                    st.unknown.remove(arg);
                }
                None => {
                    let why = inner.unknown.get(p).cloned().unwrap_or_else(|| {
                        format!("`{callee}(…)` sets it through its reference parameter `{p}` with a value host code does not evaluate")
                    });
                    Self::mark_unknown(st, &[arg.to_string()], &why);
                }
            }
        }
    }
}

/// `p == nullptr`, `p != NULL`, `nullptr == p` or `!p`, `p` a device pointer host
/// code allocated (`cudaMalloc(&p, n)` succeeded: CUDA Runtime API, "cudaMalloc": `*devPtr`
/// is set to the allocated memory, which is not null): the comparison's value, `1` or `0`.
/// `None` for any other expression.
pub(super) fn alloc_null_test(
    toks: &[crate::lexer::Token],
    st: &HostState,
    from: usize,
    to: usize,
) -> Option<super::const_eval::HostVal> {
    let mut e = toks.get(from..to)?;
    // Parentheses around the whole test.
    while e.len() >= 2
        && matches!(e[0].tok, Tok::Punct("("))
        && matches!(e[e.len() - 1].tok, Tok::Punct(")"))
    {
        e = &e[1..e.len() - 1];
    }
    let alloc = |t: &Tok| matches!(t, Tok::Ident(n) if st.mallocs.contains_key(n));
    let null = |t: &Tok| {
        matches!(t, Tok::Ident(n) if n == "nullptr" || n == "NULL")
            || matches!(t, Tok::Int { value: 0, .. })
    };
    let yes = |b: bool| Some(super::const_eval::HostVal::Int(i128::from(b)));
    match e {
        [n, a] if matches!(n.tok, Tok::Punct("!")) && alloc(&a.tok) => yes(false),
        [a, op, b] | [b, op, a] if alloc(&a.tok) && null(&b.tok) => match op.tok {
            Tok::Punct("==") => yes(false),
            Tok::Punct("!=") => yes(true),
            _ => None,
        },
        _ => None,
    }
}
