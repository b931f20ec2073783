//! Kernel launches through a function pointer variable in host code: `auto kernel =
//! &softmax<float, 4>; … kernel<<<grid, block>>>(args);` and `void (*f)(float*, int) = k;
//! f<<<…>>>(…);` (C++17 [over.over]/1: a function template's name with its arguments given
//! names that instance; [expr.call]/1: a call through a pointer to function calls the function
//! it points to). The variable's initializer (or a later assignment) names the kernel; the
//! launch reads as a launch of that kernel.

use super::host::HostState;
use super::Parser;
use crate::lexer::Tok;

/// Most tokens scanned for a kernel's `__global__` definition.
const MAX_SCAN: usize = 1 << 22;

impl Parser<'_> {
    /// Statement `k..` (ending at its `;` before `close`) setting a function pointer variable
    /// to a kernel: `[auto|T (*)] NAME = [&]kernel[<args>];`. Records the variable and returns
    /// where the next statement starts; `None` when the statement is no such one.
    pub(super) fn host_kernel_ptr_decl(
        &mut self,
        st: &mut HostState,
        k: usize,
        close: usize,
    ) -> Option<usize> {
        let toks = self.toks;
        let end = (k..close.min(toks.len()))
            .take(256)
            .find(|&i| matches!(toks[i].tok, Tok::Punct(";" | "{" | "}")))?;
        if !matches!(toks[end].tok, Tok::Punct(";")) {
            return None;
        }
        let eq = (k..end).find(|&i| matches!(toks[i].tok, Tok::Punct("=")))?;
        // The right side: `&`? name, then a template argument list reaching the `;`.
        let mut at = eq + 1;
        if matches!(toks.get(at).map(|t| &t.tok), Some(Tok::Punct("&"))) {
            at += 1;
        }
        // `cond ? kA : kB` (`host_kernel_choice`): the chosen kernel's position.
        let chosen = if (eq + 1..end).any(|i| matches!(toks[i].tok, Tok::Punct("?"))) {
            let span = crate::ast::Span {
                line: toks[k].line,
                col: toks[k].col,
            };
            Some(self.host_kernel_choice(st, eq + 1, end, span)?)
        } else {
            None
        };
        if let Some(c) = chosen {
            at = c;
        }
        let Some(Tok::Ident(kernel)) = toks.get(at).map(|t| &t.tok) else {
            return None;
        };
        let ends_here = chosen.is_some()
            || at + 1 == end
            || (matches!(toks[at + 1].tok, Tok::Punct("<"))
                && matches!(toks[end - 1].tok, Tok::Punct(">" | ">>")));
        if !ends_here {
            return None;
        }
        // The left side's variable: `(*NAME)` of a declarator, else its last name.
        let lhs = &toks[k..eq];
        // A host variable's value on the right is no function's name.
        let host_var = st.env.contains_key(kernel)
            || st.mallocs.contains_key(kernel)
            || st.fills.contains_key(kernel)
            || st.arrays.contains_key(kernel);
        if lhs.is_empty() || host_var || !self.is_kernel_name(kernel) {
            return None;
        }
        let star = lhs
            .windows(3)
            .find_map(|w| match (&w[0].tok, &w[1].tok, &w[2].tok) {
                (Tok::Punct("("), Tok::Punct("*"), Tok::Ident(n)) => Some(n.clone()),
                _ => None,
            });
        let has_star = star.is_some();
        let name = star.or_else(|| {
            lhs.iter().rev().find_map(|t| match &t.tok {
                Tok::Ident(n) if n != "auto" && n != "const" => Some(n.clone()),
                _ => None,
            })
        })?;
        if !has_star
            && lhs
                .iter()
                .any(|t| matches!(t.tok, Tok::Punct("(" | "[" | ".")))
        {
            return None;
        }
        st.kernel_vars.insert(name, at);
        Some(end + 1)
    }

    /// The kernel launched through function pointer variable `var` with launch arguments
    /// `args`: its name, or a template's instance; `None` when `var` holds no kernel read.
    pub(super) fn kernel_var_instance(
        &mut self,
        st: &HostState,
        var: &str,
        args: &[(usize, usize)],
    ) -> Option<String> {
        let &at = st.kernel_vars.get(var)?;
        let toks = self.toks;
        let Tok::Ident(name) = &toks[at].tok else {
            return None;
        };
        if !self.templates.contains_key(name) {
            return Some(name.clone());
        }
        let end = (at..toks.len())
            .take(256)
            .find(|&i| matches!(toks[i].tok, Tok::Punct(";")))?;
        self.host_template_kernel(st, at, end, args).map(|m| m.0)
    }

    /// Whether `name` is defined `__global__` in the source (a kernel or kernel template).
    pub(super) fn is_kernel_name(&self, name: &str) -> bool {
        let toks = self.toks;
        let mut global_at: Option<usize> = None;
        for (i, t) in toks.iter().enumerate().take(MAX_SCAN) {
            match &t.tok {
                Tok::Ident(w) if w == "__global__" => global_at = Some(i),
                Tok::Punct(";" | "{" | "}") => global_at = None,
                Tok::Ident(w)
                    if w == name
                        && global_at.is_some()
                        && matches!(toks.get(i + 1).map(|t| &t.tok), Some(Tok::Punct("("))) =>
                {
                    return true;
                }
                _ => {}
            }
        }
        false
    }
}
