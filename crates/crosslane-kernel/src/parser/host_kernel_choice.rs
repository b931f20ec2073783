//! A kernel function pointer chosen by a conditional expression in host code: `auto k = useA ?
//! kA : kB; k<<<grid, block>>>(args);` (also `void (*k)(float*, int) = fast ? kF : kS;`).
//! C++17 [expr.cond]/1: the condition is evaluated and the second or the third operand is the
//! result; both name functions, which convert to pointers ([conv.func]), so the variable holds
//! the chosen kernel. The condition is evaluated as host code's other constants are; one with
//! no constant value chooses neither, and the launch says which kernels it could be.

use super::host::HostState;
use super::Parser;
use crate::ast::Span;
use crate::lexer::Tok;
use crosslane_core::result::Level;

impl Parser<'_> {
    /// The right side `toks[from..end]` of a function pointer's initializer when it is `cond ?
    /// [&]kA : [&]kB` (parenthesized or not), each a kernel name: the position of the kernel
    /// the condition chooses. `None` when the side is no such choice, or the condition has no
    /// constant value (said at `at`, naming both kernels and `--entry`).
    pub(super) fn host_kernel_choice(
        &mut self,
        st: &HostState,
        from: usize,
        end: usize,
        at: Span,
    ) -> Option<usize> {
        let toks = self.toks;
        let (mut a, mut b) = (from, end);
        if matches!(toks.get(a).map(|t| &t.tok), Some(Tok::Punct("(")))
            && self.closing(a) == Some(b.checked_sub(1)?)
        {
            a += 1;
            b -= 1;
        }
        // The `?` and its `:` at the top level.
        let mut depth = 0usize;
        let mut q = None;
        let mut colon = None;
        for (i, t) in toks.iter().enumerate().take(b).skip(a) {
            match t.tok {
                Tok::Punct("(" | "[" | "{") => depth += 1,
                Tok::Punct(")" | "]" | "}") => depth = depth.saturating_sub(1),
                Tok::Punct("?") if depth == 0 && q.is_none() => q = Some(i),
                Tok::Punct(":") if depth == 0 && q.is_some() && colon.is_none() => colon = Some(i),
                _ => {}
            }
        }
        let (q, colon) = (q?, colon?);
        let name_at = |from: usize, to: usize| -> Option<usize> {
            let at = if matches!(toks.get(from).map(|t| &t.tok), Some(Tok::Punct("&"))) {
                from + 1
            } else {
                from
            };
            (at + 1 == to && matches!(toks.get(at).map(|t| &t.tok), Some(Tok::Ident(_))))
                .then_some(at)
        };
        let (yes, no) = (name_at(q + 1, colon)?, name_at(colon + 1, b)?);
        let name = |i: usize| match &toks[i].tok {
            Tok::Ident(n) => n.clone(),
            _ => String::new(),
        };
        let (ka, kb) = (name(yes), name(no));
        // Only kernels (not template kernels, whose arguments a branch cannot give here).
        if [&ka, &kb]
            .iter()
            .any(|k| !self.is_kernel_name(k) || self.templates.contains_key(*k))
        {
            return None;
        }
        match self
            .host_value(st, a, q)
            .and_then(super::const_eval::HostVal::int)
        {
            Some(v) => Some(if v != 0 { yes } else { no }),
            None => {
                let cond = super::host::source_text(&toks[a..q]);
                self.diag(
                    at,
                    Level::Warning,
                    format!(
                        "`{cond} ? {ka} : {kb}` has no constant value in host code: the launch \
                         through this pointer is not read; choose the kernel (CLI: --entry \
                         {ka} or --entry {kb})"
                    ),
                    "C++17 [expr.cond]/1",
                );
                None
            }
        }
    }
}
