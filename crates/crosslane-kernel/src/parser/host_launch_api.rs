//! The runtime's launch call, read as `k<<<grid, block, shared, stream>>>(args…)` is:
//! `cudaLaunchKernel(func, gridDim, blockDim, args, sharedMem, stream)` (CUDA Runtime API,
//! cudaLaunchKernel: `args` is "an array of pointers to the kernel's arguments", one per
//! parameter, in order), `cudaLaunchCooperativeKernel` (same parameters) and HIP's
//! `hipLaunchKernel` / `hipLaunchCooperativeKernel` (HIP Runtime API, same order). The array is
//! read where host code declares it as a list of addresses, `void* args[] = {&d, &n};`, or
//! declares `void* args[3];` and sets its elements by index, `args[0] = (void*)&d;` (each
//! element `&x`, `(void*)&x`, `reinterpret_cast<void*>(&x)` or `static_cast<void*>(&x)`: the
//! kernel's parameter at that index takes `x`'s value). An element never set leaves its
//! parameter unknown, said with the element's name; a launch whose array is not read at all is
//! still read for its grid and block, and says that its arguments are not set from it.

use super::const_eval::HostVal;
use super::host_state::HostState;
use super::host_text::{source_text, split_commas};
use super::Parser;
use crate::ast::Span;
use crate::lexer::{Tok, Token};
use crosslane_core::result::Level;

/// The runtime launch calls read like `<<<…>>>` (`host_launch_api`; the `…Ex` forms by
/// `host_launch_ex`).
pub(super) const LAUNCH_APIS: &[&str] = &[
    "cudaLaunchKernel",
    "hipLaunchKernel",
    "cudaLaunchCooperativeKernel",
    "hipLaunchCooperativeKernel",
    "cudaLaunchKernelEx",
    "hipLaunchKernelEx",
];

impl Parser<'_> {
    /// `cudaLaunchKernel((void*)k, grid, block, args, shared, stream)` (or one of
    /// [`LAUNCH_APIS`]) at `k`, its `(` at `k + 1`: recorded as a launch.
    pub(super) fn host_launch_api(&mut self, st: &mut HostState, call: &str, k: usize) {
        if call.ends_with("KernelEx") {
            return self.host_launch_ex(st, k);
        }
        let toks = self.toks;
        let Some(c) = self.closing(k + 1) else { return };
        let parts = split_commas(toks, k + 2, c);
        if parts.len() < 4 {
            return;
        }
        let (a, b) = parts[0];
        let kernel = self.launched_kernel(st, a, b);
        let mut cfg = vec![parts[1], parts[2]];
        if let Some(&shared) = parts.get(4) {
            cfg.push(shared);
        }
        let (aa, ab) = parts[3];
        let array = match &toks[aa..ab] {
            [t] => match &t.tok {
                Tok::Ident(n) => Some(n.clone()),
                _ => None,
            },
            _ => None,
        };
        let slots = array.as_ref().and_then(|n| st.arg_arrays.get(n).cloned());
        // An element never set: the array's own name stands in, its parameter told unknown
        // below.
        let args = slots
            .as_ref()
            .map(|s| s.iter().map(|r| r.unwrap_or((aa, ab))).collect::<Vec<_>>());
        let span = Span {
            line: toks[k].line,
            col: toks[k].col,
        };
        if args.is_none() {
            self.diag(
                span,
                Level::Warning,
                format!(
                    "the argument array of this `{call}` (`{}`) is not read (read is an array \
                     declared as a list of addresses, `void* args[] = {{&a, &b}};`): the \
                     kernel's parameters are not set from this launch; set them (CLI: --arg \
                     NAME=VALUE, --buffer NAME=FILL)",
                    source_text(&toks[aa..ab])
                ),
                "CUDA Runtime API, cudaLaunchKernel",
            );
        }
        let before = self.launches.len();
        let args_unread = args.is_none();
        self.launch(st, kernel, k, &cfg, &args.unwrap_or_default());
        // Only the cooperative API's launch may synchronize its grid
        // (`machine/coop_launch.rs`).
        if self.launches.len() > before {
            if args_unread {
                if let Some(d) = self.diags.last() {
                    let key = (d.line, d.col, d.message.clone());
                    self.launch_diags.push((self.launches.len() - 1, key));
                }
            }
            if let Some(l) = self.launches.last_mut() {
                l.cooperative = call.contains("Cooperative");
                let unset = slots
                    .iter()
                    .flatten()
                    .enumerate()
                    .filter(|(_, r)| r.is_none());
                for (x, _) in unset {
                    if let Some(a) = l.args.get_mut(x) {
                        let name = array.clone().unwrap_or_default();
                        a.text = format!("*{name}[{x}]");
                        a.scalar = None;
                        a.fields.clear();
                        a.unknown = Some(format!(
                            "element {x} of the argument array `{name}` is not set to a \
                             variable's address before this `{call}` at line {} (read: \
                             `{name}[{x}] = &x;` with a constant index)",
                            span.line
                        ));
                    }
                }
            }
        }
    }
}

/// At most this many elements of an argument array declared `void* args[N];` are followed.
pub(super) const MAX_ARG_SLOTS: usize = 256;

/// The variable an argument array's element `toks[a..b]` points at (its token range): `&x`,
/// `(void*)&x`, `(void*)(&x)`, `reinterpret_cast<void*>(&x)`, `static_cast<void*>(&x)` (C++17
/// [expr.reinterpret.cast], [expr.static.cast]: the address itself). Anything else: `None`.
pub(super) fn arg_address(toks: &[Token], a: usize, b: usize) -> Option<(usize, usize)> {
    // Closing parentheses after the name.
    let mut end = b;
    while end > a && matches!(toks[end - 1].tok, Tok::Punct(")")) {
        end -= 1;
    }
    if end < a + 2
        || !matches!(toks[end - 2].tok, Tok::Punct("&"))
        || !matches!(toks[end - 1].tok, Tok::Ident(_))
    {
        return None;
    }
    // Before the `&`: casts to `void*` only.
    let cast = toks[a..end - 2].iter().all(|t| match &t.tok {
        Tok::Punct(p) => matches!(*p, "(" | ")" | "*" | "<" | ">"),
        Tok::Ident(n) => matches!(
            n.as_str(),
            "void" | "const" | "reinterpret_cast" | "static_cast" | "const_cast"
        ),
        _ => false,
    });
    cast.then_some((end - 1, end))
}

/// Whether the declaration starting at `k`, its name just before `i`, declares `void*`
/// elements (`void* args[3];`, `const void* args[3];`).
pub(super) fn is_void_ptr_decl(toks: &[Token], k: usize, i: usize) -> bool {
    let ty = &toks[k..i.saturating_sub(1).max(k)];
    ty.iter()
        .any(|t| matches!(&t.tok, Tok::Ident(n) if n == "void"))
        && ty.iter().any(|t| matches!(t.tok, Tok::Punct("*")))
}

impl Parser<'_> {
    /// `args[1] = (void*)&n;` of an argument array (`name` in `arg_arrays`; `[` at `i`, its `]`
    /// at `c`, the statement ending before `end`): that element now points at `n`. Another
    /// write to the array (an index or value not read) leaves the element unset. Returns
    /// whether the statement was such a write.
    pub(super) fn arg_array_cell(
        &mut self,
        st: &mut HostState,
        name: &str,
        (i, c, end): (usize, usize, usize),
    ) -> bool {
        if !st.arg_arrays.contains_key(name)
            || !matches!(self.toks.get(c + 1).map(|t| &t.tok), Some(Tok::Punct("=")))
        {
            return false;
        }
        let index = self
            .host_value(st, i + 1, c)
            .and_then(HostVal::int)
            .and_then(|x| usize::try_from(x).ok())
            .filter(|&x| x < MAX_ARG_SLOTS);
        let elem = arg_address(self.toks, c + 2, end);
        let Some(slots) = st.arg_arrays.get_mut(name) else {
            return false;
        };
        match index {
            Some(x) => {
                if slots.len() <= x {
                    slots.resize(x + 1, None);
                }
                slots[x] = elem;
            }
            // Which element changed is not known: none is trusted.
            None => slots.iter_mut().for_each(|s| *s = None),
        }
        true
    }
}

impl Parser<'_> {
    /// The kernel a launch call's kernel argument (tokens `a..b`) names: a template's
    /// instance (`k<16>`, rocm-examples' `hipLaunchCooperativeKernel(vector_reduce_kernel<
    /// partition_size>, …)`, its arguments read as host constants,
    /// [`super::host_template_launch`]), else the last name that is no type word (`(void*)k`,
    /// `reinterpret_cast<const void*>(&k)`, `k`); empty when there is none.
    pub(super) fn launched_kernel(&mut self, st: &mut HostState, a: usize, b: usize) -> String {
        let toks = self.toks;
        let template_at = (a..b).find(|&i| {
            matches!(&toks[i].tok, Tok::Ident(n) if !matches!(n.as_str(), "void" | "const"))
                && matches!(toks.get(i + 1).map(|t| &t.tok), Some(Tok::Punct("<")))
                && !matches!(&toks[i].tok, Tok::Ident(n) if n.ends_with("_cast"))
        });
        let instance = template_at.and_then(|i| self.host_template_kernel(st, i, b + 1, &[]));
        match instance {
            Some((m, _)) => m,
            None => toks[a..b]
                .iter()
                .rev()
                .find_map(|t| match &t.tok {
                    Tok::Ident(n) if !matches!(n.as_str(), "void" | "const") => Some(n.clone()),
                    _ => None,
                })
                .unwrap_or_default(),
        }
    }
}
