//! `cudaLaunchKernelEx(&config, kernel, args…)` (CUDA Runtime API, "cudaLaunchKernelEx": the
//! C++ template form takes the configuration, the kernel and the kernel's arguments themselves)
//! and HIP's `hipLaunchKernelEx`, read as `kernel<<<config.gridDim, config.blockDim,
//! config.dynamicSmemBytes>>>(args…)`. The configuration is the `cudaLaunchConfig_t` whose
//! members host code assigns before the call (`config.gridDim = nblks; config.blockDim =
//! nthrs; config.dynamicSmemBytes = smem_size;`, FlashInfer's launchers): the last assignment
//! of each member before the launch gives it. The launch attributes (programmatic stream
//! serialization, PDL) change when a launch may start, not what it computes, and are not
//! read. A configuration whose grid or block is not assigned so is said, and the launch is not
//! read.
//!
//! Bounded: the assignments are looked for at most [`MAX_BACK`] tokens before the call.

use super::host::{split_commas, HostState};
use super::Parser;
use crate::ast::Span;
use crate::lexer::Tok;
use crosslane_core::result::Level;

/// Most tokens scanned back from the launch for the configuration's member assignments.
const MAX_BACK: usize = 1 << 14;

impl Parser<'_> {
    /// `cudaLaunchKernelEx(&config, kernel, args…)` at `k`, its `(` at `k + 1`.
    pub(super) fn host_launch_ex(&mut self, st: &mut HostState, k: usize) {
        let toks = self.toks;
        let Some(c) = self.closing(k + 1) else { return };
        let parts = split_commas(toks, k + 2, c);
        if parts.len() < 2 {
            return;
        }
        let span = Span {
            line: toks[k].line,
            col: toks[k].col,
        };
        // The configuration's name: `&config` or `cfg_ptr`.
        let (a, b) = parts[0];
        let Some(cfg) = toks[a..b].iter().rev().find_map(|t| match &t.tok {
            Tok::Ident(n) => Some(n.clone()),
            _ => None,
        }) else {
            return;
        };
        // The last `cfg.member = …;` (or `cfg->member = …;`) before the launch.
        let member =
            |name: &str| -> Option<(usize, usize)> {
                let lo = k.saturating_sub(MAX_BACK);
                (lo..k).rev().find_map(|i| {
                let is = matches!(&toks[i].tok, Tok::Ident(n) if *n == cfg)
                    && matches!(toks.get(i + 1).map(|t| &t.tok), Some(Tok::Punct("." | "->")))
                    && matches!(toks.get(i + 2).map(|t| &t.tok), Some(Tok::Ident(m)) if m == name)
                    && matches!(toks.get(i + 3).map(|t| &t.tok), Some(Tok::Punct("=")));
                if !is {
                    return None;
                }
                let semi = (i + 4..k).find(|&j| matches!(toks[j].tok, Tok::Punct(";")))?;
                Some((i + 4, semi))
            })
            };
        let (Some(grid), Some(block)) = (member("gridDim"), member("blockDim")) else {
            self.diag(
                span,
                Level::Warning,
                format!(
                    "this launch's configuration `{cfg}` is not read (read are assignments \
                     `{cfg}.gridDim = …;` and `{cfg}.blockDim = …;` before the launch): the \
                     launch is left out; run its kernel with --entry, --blocks and \
                     --threads-per-block"
                ),
                "CUDA Runtime API, cudaLaunchKernelEx",
            );
            return;
        };
        let mut cfg_parts = vec![grid, block];
        if let Some(shared) = member("dynamicSmemBytes") {
            cfg_parts.push(shared);
        }
        // The kernel: a name (a kernel, or a variable holding one), or a template's instance.
        let (ka, kb) = parts[1];
        let kernel = self.launched_kernel(st, ka, kb);
        let args: Vec<(usize, usize)> = parts[2..].to_vec();
        self.launch(st, kernel, k, &cfg_parts, &args);
    }
}
