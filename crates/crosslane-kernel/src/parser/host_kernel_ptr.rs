//! Kernel launches through a function pointer variable in host code: `auto kernel =
//! &softmax<float, 4>; … kernel<<<grid, block>>>(args);` and `void (*f)(float*, int) = k;
//! f<<<…>>>(…);` (C++17 [over.over]/1: a function template's name with its arguments given
//! names that instance; [expr.call]/1: a call through a pointer to function calls the function
//! it points to). The variable's initializer (or a later assignment) names the kernel; the
//! launch reads as a launch of that kernel.

use super::host::HostState;
use super::Parser;
use crate::lexer::Tok;

use super::host_state::KernelRef;

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
        // `fp_kernel k = pick_kernel(n);`: the kernel the function returns for these arguments.
        let picked = if chosen.is_none()
            && matches!(toks.get(at + 1).map(|t| &t.tok), Some(Tok::Punct("(")))
            && self.closing(at + 1) == Some(end - 1)
        {
            self.host_kernel_pick(st, at, end - 1)
        } else {
            None
        };
        let chosen = chosen.or(picked);
        if let Some(c) = picked {
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

    /// `f(args)` at `at` (its `)` at `rp`), `f` a function of the source whose body chooses a
    /// kernel by its parameters: exllamav2's `fp_rms_norm_kernel pick_rms_norm_kernel(const
    /// int blocks_per_warp) { if (blocks_per_warp == 1) return rms_norm_kernel<1>; … return
    /// NULL; }`. The body's statements are read in order with the parameters bound to the
    /// arguments' values (C++17 [expr.call]/4): an `if (COND) return K;` whose condition holds,
    /// or a `return K;`, gives the position of the kernel's name `K` (a kernel or a kernel
    /// template's instance); a condition with no constant value, a `return` of anything else
    /// or another statement gives `None`. Bounded by the body's tokens.
    fn host_kernel_pick(&mut self, st: &HostState, at: usize, rp: usize) -> Option<usize> {
        let toks = self.toks;
        let Tok::Ident(f) = &toks[at].tok else {
            return None;
        };
        if self.is_kernel_name(f) {
            return None;
        }
        // The definition: `f ( … ) {` at file scope.
        let def = (0..toks.len()).take(MAX_SCAN).find(|&i| {
            i != at
                && matches!(&toks[i].tok, Tok::Ident(n) if n == f)
                && matches!(toks.get(i + 1).map(|t| &t.tok), Some(Tok::Punct("(")))
                && self
                    .closing(i + 1)
                    .and_then(|c| toks.get(c + 1))
                    .is_some_and(|t| matches!(t.tok, Tok::Punct("{")))
        })?;
        let params_close = self.closing(def + 1)?;
        let open = params_close + 1;
        let close = self.closing(open)?;
        let params = super::host::param_names(&toks[def + 2..params_close]);
        let args = super::host::split_commas(toks, at + 2, rp);
        if params.len() != args.len() {
            return None;
        }
        let mut inner = HostState {
            env: st.env.clone(),
            ..HostState::default()
        };
        for (p, (a, b)) in params.iter().zip(args) {
            let v = self.host_value(st, a, b)?;
            inner.env.insert(p.clone(), v);
        }
        // The kernel a `return` names: `[&]K[<…>] ;` from `r` (the `return`) to `semi`.
        let kernel_at = |this: &Self, r: usize, semi: usize| -> Option<usize> {
            let mut k = r + 1;
            if matches!(toks.get(k).map(|t| &t.tok), Some(Tok::Punct("&"))) {
                k += 1;
            }
            let Tok::Ident(n) = &toks.get(k)?.tok else {
                return None;
            };
            let whole = k + 1 == semi
                || (matches!(toks[k + 1].tok, Tok::Punct("<"))
                    && matches!(toks[semi - 1].tok, Tok::Punct(">" | ">>")));
            (whole && this.is_kernel_name(n)).then_some(k)
        };
        let mut k = open + 1;
        while k < close {
            match &toks[k].tok {
                Tok::Ident(w) if w == "if" => {
                    let lp = k + 1;
                    let c = self.closing(lp).filter(|&c| c < close)?;
                    if !matches!(toks.get(c + 1).map(|t| &t.tok), Some(Tok::Ident(w)) if w == "return")
                    {
                        return None;
                    }
                    let semi = (c + 2..close).find(|&i| matches!(toks[i].tok, Tok::Punct(";")))?;
                    let v = self
                        .host_value(&inner, lp + 1, c)
                        .and_then(super::const_eval::HostVal::int)?;
                    if v != 0 {
                        return kernel_at(self, c + 1, semi);
                    }
                    k = semi + 1;
                }
                Tok::Ident(w) if w == "return" => {
                    let semi = (k + 1..close).find(|&i| matches!(toks[i].tok, Tok::Punct(";")))?;
                    return kernel_at(self, k, semi);
                }
                Tok::Punct(";") => k += 1,
                _ => return None,
            }
        }
        None
    }

    /// The kernel launched through function pointer variable `var` with launch arguments
    /// `args`: its name, or a template's instance; `None` when `var` holds no kernel read.
    pub(super) fn kernel_var_instance(
        &mut self,
        st: &HostState,
        var: &str,
        args: &[(usize, usize)],
    ) -> Option<String> {
        if let Some((name, targs)) = st.kernel_insts.get(var).cloned() {
            if !self.templates.contains_key(&name) {
                return Some(name);
            }
            let span = crate::ast::Span::default();
            return self.instantiate_launch(st, &name, targs, args, span).ok();
        }
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

    /// The kernels a host function's body (read into `inner`) left in its parameters `params`:
    /// each parameter holding a kernel, with the kernel's name and its template arguments, read
    /// now, while the call's template arguments are bound (the instance is made at the launch,
    /// from the launch's arguments as well).
    pub(super) fn kernel_params_set(
        &mut self,
        inner: &HostState,
        params: &[String],
    ) -> Vec<(String, KernelRef)> {
        let toks = self.toks;
        let mut out = Vec::new();
        for p in params {
            if let Some(r) = inner.kernel_insts.get(p) {
                out.push((p.clone(), r.clone()));
                continue;
            }
            let Some(&at) = inner.kernel_vars.get(p) else {
                continue;
            };
            let Tok::Ident(name) = &toks[at].tok else {
                continue;
            };
            if !self.templates.contains_key(name) {
                out.push((p.clone(), (name.clone(), Vec::new())));
                continue;
            }
            // `k<A, B, 2>`: its argument list.
            if !matches!(toks.get(at + 1).map(|t| &t.tok), Some(Tok::Punct("<"))) {
                continue;
            }
            let mut depth = 0usize;
            let Some(gt) = (at + 1..toks.len()).take(512).find(|&i| {
                match toks[i].tok {
                    Tok::Punct("<") => depth += 1,
                    Tok::Punct(">") => {
                        depth = depth.saturating_sub(1);
                        return depth == 0;
                    }
                    _ => {}
                }
                false
            }) else {
                continue;
            };
            if let Some(targs) = self.host_kernel_targs(inner, at + 2, gt) {
                out.push((p.clone(), (name.clone(), targs)));
            }
        }
        out
    }

    /// After a host call: each of `set` (a parameter and the kernel the body left in it) that is
    /// a reference parameter (`fn_t& kernel`, `softmax_forward_func<T, U> &kernel`) bound to the
    /// caller's variable (`args`, by position as `params`) makes that variable hold the kernel
    /// (C++17 [dcl.init.ref]/5: the reference names the caller's object; [expr.call]/1: a launch
    /// through it launches the kernel it points to).
    pub(super) fn kernel_ref_out(
        &self,
        st: &mut HostState,
        open: usize,
        params: &[String],
        args: &[&str],
        set: Vec<(String, KernelRef)>,
    ) {
        if set.is_empty() {
            return;
        }
        let refs = self.reference_params(open);
        for (p, inst) in set {
            let Some(i) = params.iter().position(|q| *q == p) else {
                continue;
            };
            let Some(&arg) = args.get(i) else { continue };
            let plain = !arg.is_empty() && arg.chars().all(|c| c.is_alphanumeric() || c == '_');
            if plain && refs.get(i).copied().unwrap_or(false) {
                st.kernel_vars.remove(arg);
                st.kernel_insts.insert(arg.to_string(), inst);
            }
        }
    }

    /// Whether the function whose body is `open..close` assigns a kernel to one of its
    /// reference parameters (`kernel = &softmax_warp_forward<T, 2, 1>;` of a `fn_t& kernel`
    /// parameter): a host function that chooses a kernel for its caller.
    pub(super) fn kernel_ref_param(&self, open: usize, close: usize) -> bool {
        let toks = self.toks;
        let refs = self.reference_params(open);
        if !refs.iter().any(|&r| r) {
            return false;
        }
        let Some(close_params) = (open.saturating_sub(8)..open)
            .rev()
            .find(|&i| matches!(toks[i].tok, Tok::Punct(")")))
        else {
            return false;
        };
        let Some(lp) = (0..close_params)
            .rev()
            .take(4096)
            .find(|&i| self.closing(i) == Some(close_params))
        else {
            return false;
        };
        let names = super::host::param_names(&toks[lp + 1..close_params]);
        let body = toks.get(open..close.min(toks.len())).unwrap_or_default();
        body.windows(4)
            .any(|w| match (&w[0].tok, &w[1].tok, &w[2].tok, &w[3].tok) {
                (Tok::Ident(p), Tok::Punct("="), Tok::Punct("&"), Tok::Ident(k))
                | (Tok::Ident(p), Tok::Punct("="), Tok::Ident(k), _) => {
                    names.iter().zip(&refs).any(|(n, &r)| r && n == p) && self.is_kernel_name(k)
                }
                _ => false,
            })
    }

    /// Per parameter of the host function whose body opens at `open`: whether it is declared a
    /// non-`const` lvalue reference, `… & name` (its type any tokens before the `&`).
    fn reference_params(&self, open: usize) -> Vec<bool> {
        let toks = self.toks;
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
                // `const` of the referenced type itself, not one inside a function type's
                // parameters or a template's arguments (`void (*)(const T*)`, written out).
                let mut depth = 0usize;
                let konst = p.iter().any(|t| match &t.tok {
                    Tok::Punct("(" | "<") => {
                        depth += 1;
                        false
                    }
                    Tok::Punct(")" | ">") => {
                        depth = depth.saturating_sub(1);
                        false
                    }
                    Tok::Ident(w) => depth == 0 && w == "const",
                    _ => false,
                });
                p.len() >= 3
                    && matches!(p[p.len() - 2].tok, Tok::Punct("&"))
                    && matches!(p[p.len() - 1].tok, Tok::Ident(_))
                    && !konst
            })
            .collect()
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
