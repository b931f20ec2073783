//! The runtime's launch call, read as `k<<<grid, block, shared, stream>>>(args…)` is:
//! `cudaLaunchKernel(func, gridDim, blockDim, args, sharedMem, stream)` (CUDA Runtime API,
//! cudaLaunchKernel: `args` is "an array of pointers to the kernel's arguments", one per
//! parameter, in order), `cudaLaunchCooperativeKernel` (same parameters) and HIP's
//! `hipLaunchKernel` / `hipLaunchCooperativeKernel` (HIP Runtime API, same order). The array is
//! read where host code declares it as a list of addresses, `void* args[] = {&d, &n};`; a launch
//! whose array is not read that way is still read for its grid and block, and says that its
//! arguments are not set from it.

use super::host::{split_commas, HostState};
use super::Parser;
use crate::ast::Span;
use crate::lexer::Tok;
use crosslane_core::result::Level;

impl Parser<'_> {
    /// `cudaLaunchKernel((void*)k, grid, block, args, shared, stream)` (or one of
    /// `host::LAUNCH_APIS`) at `k`, its `(` at `k + 1`: recorded as a launch.
    pub(super) fn host_launch_api(&mut self, st: &mut HostState, call: &str, k: usize) {
        let toks = self.toks;
        let Some(c) = self.closing(k + 1) else { return };
        let parts = split_commas(toks, k + 2, c);
        if parts.len() < 4 {
            return;
        }
        // `(void*)k`, `reinterpret_cast<const void*>(&k)`, `k`: the kernel is the last name
        // that is no type word.
        let (a, b) = parts[0];
        // `k<16>` (rocm-examples' `hipLaunchCooperativeKernel(vector_reduce_kernel<
        // partition_size>, …)`): the template's instance, its arguments read as host
        // constants ([`super::host_template_launch`]).
        let template_at = (a..b).find(|&i| {
            matches!(&toks[i].tok, Tok::Ident(n) if !matches!(n.as_str(), "void" | "const"))
                && matches!(toks.get(i + 1).map(|t| &t.tok), Some(Tok::Punct("<")))
                && !matches!(&toks[i].tok, Tok::Ident(n) if n.ends_with("_cast"))
        });
        let instance = template_at.and_then(|i| self.host_template_kernel(st, i, b + 1, &[]));
        let kernel = match instance {
            Some((m, _)) => m,
            None => toks[a..b]
                .iter()
                .rev()
                .find_map(|t| match &t.tok {
                    Tok::Ident(n) if !matches!(n.as_str(), "void" | "const") => Some(n.clone()),
                    _ => None,
                })
                .unwrap_or_default(),
        };
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
        let args = array.as_ref().and_then(|n| st.arg_arrays.get(n).cloned());
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
                    super::host::source_text(&toks[aa..ab])
                ),
                "CUDA Runtime API, cudaLaunchKernel",
            );
        }
        let before = self.launches.len();
        self.launch(st, kernel, k, &cfg, &args.unwrap_or_default());
        // Only the cooperative API's launch may synchronize its grid
        // (`machine/coop_launch.rs`).
        if self.launches.len() > before {
            if let Some(l) = self.launches.last_mut() {
                l.cooperative = call.contains("Cooperative");
            }
        }
    }
}
