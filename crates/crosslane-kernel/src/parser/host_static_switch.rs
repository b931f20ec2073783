//! A compile-time switch over a list of constants calling a generic lambda with the one that
//! equals a host value: `tmp::static_switch<std::array{32, 64, 128}>(block_size, [&]<int B>()
//! { k<B><<<g, B>>>(…); })`, as rocm-examples' reduction tutorial chooses its kernel's block
//! size. The callee is a function template the file defines whose body (or a helper's) calls
//! its functor as `f.template operator()<Range[I]>()` after comparing `s == Range[I]`; the
//! lambda's body is read as host code with its template parameter bound to the matching
//! constant (C++20 [expr.prim.lambda.closure]/3: a generic lambda's call operator is a member
//! function template, instantiated with the explicit argument `<Range[I]>`; the `[&]` capture
//! makes its names the caller's). No constant matching: the switch calls nothing. The value
//! unknown: nothing inside is read, and a warning names the launch left out.

use super::const_eval::HostVal;
use super::host::HostState;
use super::host_text::split_commas;
use super::Parser;
use crate::ast::Span;
use crate::lexer::Tok;
use crosslane_core::result::Level;

/// Most constants read in one switch's list.
const MAX_CHOICES: usize = 256;

impl Parser<'_> {
    /// The statement at `k` when it is such a switch, read; the index after it. `None` for any
    /// other statement (or a switch whose value is unknown here).
    pub(super) fn host_static_switch(
        &mut self,
        st: &mut HostState,
        k: usize,
        close: usize,
    ) -> Option<usize> {
        let toks = self.toks;
        let tok = |i: usize| toks.get(i).map(|t| &t.tok);
        // `a::b::name<`
        let mut i = k;
        let mut name = None;
        while let Some(Tok::Ident(n)) = tok(i) {
            name = Some(n.clone());
            if matches!(tok(i + 1), Some(Tok::Punct("::"))) {
                i += 2;
            } else {
                i += 1;
                break;
            }
        }
        let name = name?;
        if !matches!(tok(i), Some(Tok::Punct("<"))) || !self.templates_fn_switch(&name) {
            return None;
        }
        // The template argument list: its constants are the `{…}` list's integers.
        let mut depth = 0usize;
        let mut j = i;
        let mut choices = Vec::new();
        let end_targs = loop {
            match tok(j)? {
                Tok::Punct("<" | "(" | "{" | "[") => depth += 1,
                Tok::Punct(">" | ")" | "}" | "]") => {
                    depth = depth.checked_sub(1)?;
                    if depth == 0 {
                        break j;
                    }
                }
                Tok::Punct(">>") => return None,
                Tok::Int { value, .. } if depth == 2 => {
                    if choices.len() >= MAX_CHOICES {
                        return None;
                    }
                    choices.push(i128::from(*value));
                }
                Tok::Punct(",") | Tok::Ident(_) | Tok::Punct("::") => {}
                _ => return None,
            }
            j += 1;
            if j >= close {
                return None;
            }
        };
        let open = end_targs + 1;
        if !matches!(tok(open), Some(Tok::Punct("("))) || choices.is_empty() {
            return None;
        }
        let shut = self.closing(open).filter(|&c| c < close)?;
        if !matches!(tok(shut + 1), Some(Tok::Punct(";"))) {
            return None;
        }
        let parts = split_commas(toks, open + 1, shut);
        let [(va, vb), (la, lb)] = parts[..] else {
            return None;
        };
        // `[&]<int P>() noexcept { body }`
        if !matches!(tok(la), Some(Tok::Punct("["))) {
            return None;
        }
        let cap = self.closing(la)?;
        if !matches!(tok(cap + 1), Some(Tok::Punct("<"))) {
            return None;
        }
        let (param, after) = match (tok(cap + 2), tok(cap + 3), tok(cap + 4)) {
            (Some(Tok::Ident(_)), Some(Tok::Ident(p)), Some(Tok::Punct(">"))) => {
                (p.clone(), cap + 5)
            }
            _ => return None,
        };
        if !matches!(tok(after), Some(Tok::Punct("(")))
            || !matches!(tok(after + 1), Some(Tok::Punct(")")))
        {
            return None;
        }
        let body = (after + 2..lb).find(|&b| matches!(tok(b), Some(Tok::Punct("{"))))?;
        let body_end = self.closing(body).filter(|&c| c + 1 == lb)?;
        let value = match self.host_value(st, va, vb) {
            Some(HostVal::Int(v) | HostVal::Typed(v, _)) => v,
            _ => {
                // Said, so that the launches inside are never left out silently.
                if super::host::launches_in(&toks[body..body_end]) {
                    let text = super::host::source_text(&toks[va..vb]);
                    self.diag(
                        Span {
                            line: toks[k].line,
                            col: toks[k].col,
                        },
                        Level::Warning,
                        format!(
                            "the launch inside this `{name}` is not read, so the run leaves it \
                             out: the value it switches on, `{text}`, has no constant value in \
                             host code (set the kernel's template arguments with --entry)"
                        ),
                        super::host_template_launch::UNREAD_LAUNCH_RULE,
                    );
                }
                return Some(shut + 2);
            }
        };
        if let Some(&c) = choices.iter().find(|&&c| c == value) {
            let saved = st.env.insert(param.clone(), HostVal::Int(c));
            let mut s = body + 1;
            while s < body_end {
                s = self.host_statement(st, s, body_end).max(s + 1);
            }
            match saved {
                Some(v) => st.env.insert(param, v),
                None => st.env.remove(&param),
            };
        }
        Some(shut + 2)
    }

    /// Whether `name` is a function the file defines that calls a functor's call operator
    /// template (`f.template operator()<…>()`), itself or through a helper whose name begins
    /// with it (`static_switch` → `static_switch_impl`).
    fn templates_fn_switch(&self, name: &str) -> bool {
        if !self.defines_fn(name) {
            return false;
        }
        let toks = self.toks;
        (0..toks.len()).take(1 << 22).any(|i| {
            matches!(&toks[i].tok, Tok::Ident(w) if w == "template")
                && matches!(toks.get(i + 1).map(|t| &t.tok), Some(Tok::Ident(w)) if w == "operator")
                && i > 0
                && matches!(toks[i - 1].tok, Tok::Punct("."))
        })
    }

    /// `hipLaunchKernelGGL(k<B, W>, …)`'s arguments split at commas, with the kernel's
    /// template argument list kept whole: with `HIP_TEMPLATE_KERNEL_LAUNCH` defined HIP
    /// declares `hipLaunchKernelGGL` as a variadic function template rather than a macro
    /// (`hip_runtime.h`), so `k<B, W>` is one argument (C++17 [temp.names]/3: the `<` after a
    /// template's name opens its list).
    pub(super) fn ggl_parts(&self, parts: Vec<(usize, usize)>) -> Vec<(usize, usize)> {
        let toks = self.toks;
        let Some(&(a, _)) = parts.first() else {
            return parts;
        };
        let opens = (a..a + 3).find(|&i| {
            matches!(toks.get(i).map(|t| &t.tok), Some(Tok::Ident(n)) if self.templates.contains_key(n))
                && matches!(toks.get(i + 1).map(|t| &t.tok), Some(Tok::Punct("<")))
        });
        if opens.is_none() {
            return parts;
        }
        let mut depth = 0i64;
        for (n, &(pa, pb)) in parts.iter().enumerate() {
            for t in &toks[pa..pb] {
                match t.tok {
                    Tok::Punct("<") => depth += 1,
                    Tok::Punct(">") => depth -= 1,
                    Tok::Punct(">>") => depth -= 2,
                    _ => {}
                }
            }
            if depth <= 0 {
                if n == 0 {
                    return parts;
                }
                let mut out = vec![(a, pb)];
                out.extend_from_slice(&parts[n + 1..]);
                return out;
            }
        }
        parts
    }
}
