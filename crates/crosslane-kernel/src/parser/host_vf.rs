//! Ascend C's `asc_vf_call<F>(dim3(…), args…)` in host-read code: a launch of the SIMT function
//! `F` from a `__global__ __vector__` launcher, completed from the launcher's own launch
//! (`launcher<<<blockDim, l2ctrl, stream>>>`). Split from `host.rs`, which reads the rest of
//! host code.

use super::const_eval::HostVal;
use super::host::{split_commas, text_of, HostState};
use super::Parser;
use crate::ast::*;
use crate::lexer::Tok;
use crosslane_core::result::Level;

/// An `asc_vf_call` launch read in an Ascend C SIMD-side kernel (the launcher): the launch's
/// index in [`Parser::launches`] and, per argument, the launcher parameter it forwards.
pub(super) struct VfCall {
    launcher: String,
    index: usize,
    forwards: Vec<Option<usize>>,
}

impl Parser<'_> {
    /// `asc_vf_call<F[<…>]>(dim3(x[, y[, z]]) or dim3{…}, args…);` at `k`: a launch of the SIMT
    /// function `F` (or of the instance `F<…>` of a function template) with that block (asc-devkit `include/simt_api/common_functions.h`; the
    /// asc-devkit SIMT examples launch `__simt_vf__` functions this way from a `__global__
    /// __vector__` kernel). Its grid and the arguments it forwards come from the launcher's own
    /// launch (`link_vf_calls`). A call without a leading `dim3` (a SIMD `__simd_vf__` call) is
    /// skipped.
    pub(super) fn vf_statement(&mut self, st: &HostState, k: usize, end: usize) {
        let toks = self.toks;
        let tok = |i: usize| toks.get(i).map(|t| &t.tok);
        // The template argument list: `>>` closes two (`asc_vf_call<f<T>>`).
        let mut depth = 0i32;
        let mut gt = None;
        for i in k + 1..end {
            match tok(i) {
                Some(Tok::Punct("<")) => depth += 1,
                Some(Tok::Punct(">")) => depth -= 1,
                Some(Tok::Punct(">>")) => depth -= 2,
                _ => {}
            }
            if depth <= 0 {
                gt = Some(i);
                break;
            }
        }
        let (Some(gt), Some(Tok::Ident(kernel))) = (gt, tok(k + 2)) else {
            return;
        };
        let mut kernel = kernel.clone();
        // `asc_vf_call<Scale<int32_t>>`: the callee is an instance of a `__simt_vf__` function
        // template, instantiated with those arguments as a host launch's `k<T><<<…>>>` is.
        if matches!(tok(k + 3), Some(Tok::Punct("<"))) {
            match self.host_template_kernel(st, k + 2, end, &[]) {
                Some((instance, _)) => kernel = instance,
                None => return,
            }
        }
        if !matches!(tok(gt + 1), Some(Tok::Punct("("))) {
            return;
        }
        let Some(close) = self.closing(gt + 1) else {
            return;
        };
        let parts = split_commas(toks, gt + 2, close);
        let Some(&(a, b)) = parts.first() else { return };
        if !matches!(tok(a), Some(Tok::Ident(n)) if n == "dim3") || b < a + 2 {
            return;
        }
        let block = match self.closing(a + 1).filter(|&c| c < b) {
            Some(c) => {
                let mut d = [1u64; 3];
                let mut ok = true;
                for (n, &(x, y)) in split_commas(toks, a + 2, c).iter().take(3).enumerate() {
                    match self
                        .host_value(st, x, y)
                        .and_then(HostVal::int)
                        .and_then(|v| u64::try_from(v).ok())
                    {
                        Some(v) => d[n] = v,
                        None => ok = false,
                    }
                }
                ok.then_some(d)
            }
            None => None,
        };
        let mut args = Vec::new();
        let mut forwards = Vec::new();
        for &(x, y) in &parts[1..] {
            // `(__gm__ half2*)x`, `static_cast<T>(n)`: the launcher parameter named in it.
            let forward = toks[x..y].iter().rev().find_map(|t| match &t.tok {
                Tok::Ident(n) => st.params.iter().position(|p| p == n),
                _ => None,
            });
            args.push(HostArg {
                text: text_of(&toks[x..y]),
                scalar: self.host_value(st, x, y).and_then(HostVal::text),
                from_param: forward.is_some(),
                ..HostArg::default()
            });
            forwards.push(forward);
        }
        self.launches.push(HostLaunch {
            kernel,
            span: Span {
                line: toks[k].line,
                col: toks[k].col,
            },
            grid: None,
            block,
            shared_bytes: None,
            args,
            id: u32::try_from(self.launches.len()).unwrap_or(u32::MAX),
            ..HostLaunch::default()
        });
        self.vf_calls.push(VfCall {
            launcher: st.name.clone(),
            index: self.launches.len() - 1,
            forwards,
        });
    }

    /// Completes each `asc_vf_call` launch from its launcher's own launch in host code,
    /// `launcher<<<blockDim, l2ctrl, stream>>>(args…)`: Ascend C's triple is the number of
    /// blocks (cores) the kernel runs on, an L2 control pointer (reserved, `nullptr`) and the
    /// stream (CANN Ascend C operator development guide, "Kernel function" / 核函数调用:
    /// `kernel_name<<<blockDim, l2ctrl, stream>>>(argument list)`), not CUDA's grid, block and
    /// shared bytes. (A pure SIMT `__global__` kernel is launched with CUDA's order,
    /// `<<<blocks, threads, dynUBufSize, stream>>>`, asc-devkit
    /// `examples/00_introduction/01_add/simt_add/add.asc`, and is read as CUDA's.) The SIMT launch gets blockDim blocks, and each argument that forwards a
    /// launcher parameter gets what the host passed for it.
    pub(super) fn link_vf_calls(&mut self) {
        for vf in std::mem::take(&mut self.vf_calls) {
            let Some(o) = self.launches.iter().position(|l| l.kernel == vf.launcher) else {
                continue;
            };
            let outer = {
                let l = &mut self.launches[o];
                // Ascend's second and third are l2ctrl and the stream: no block, no shared bytes.
                l.block = None;
                l.shared_bytes = None;
                l.vf_launcher = true;
                l.clone()
            };
            let Some(inner) = self.launches.get_mut(vf.index) else {
                continue;
            };
            inner.grid = outer.grid;
            for (arg, f) in inner.args.iter_mut().zip(&vf.forwards) {
                if let Some(a) = f.and_then(|j| outer.args.get(j)) {
                    *arg = a.clone();
                }
            }
            let span = outer.span;
            let grid = outer
                .grid
                .map_or("not a constant".to_string(), |g| g[0].to_string());
            let kernel = inner.kernel.clone();
            self.diag(
                span,
                Level::Info,
                format!(
                    "`{}<<<blockDim, l2ctrl, stream>>>` (Ascend C: blockDim {grid}, one block \
                     per core) runs `asc_vf_call<{kernel}>`: `{kernel}` is the kernel, its block \
                     the asc_vf_call's dim3, its arguments those `{}` forwards",
                    vf.launcher, vf.launcher
                ),
                "CANN Ascend C, kernel function call <<<blockDim, l2ctrl, stream>>>; asc-devkit simt_api asc_vf_call",
            );
        }
    }
}
