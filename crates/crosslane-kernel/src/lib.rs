//! crosslane-kernel: CUDA, HIP, Ascend C and MACA kernels as written, and WGSL compute shaders,
//! stepped lane by lane with the active mask, per-lane variables, global and shared memory, and
//! every cross-lane call run by the same [`crosslane_core::OpSpec`] the single-op view uses.
//!
//! What it is for: the page's kernel view (in its worker), `crosslane run FILE` and the JS API's
//! `runKernel`. What it is not: a C++ compiler. The phases, each its own module:
//! [`pp`] (the preprocessor: directives, conditionals, macros, predefined macros per dialect) →
//! [`lexer`] → [`parser`] (templates, structs, lambdas, host code) → `compile.rs` (names resolved,
//! every unknown name reported before the run) → the machine (`machine/`, driven by [`exec`]) →
//! the [`trace`] the views replay ([`replay`]). WGSL goes through naga and its own lowering
//! ([`wgsl`]) into the same program form. Arithmetic follows C++17 \[expr\] for the C++ dialects
//! ([`types`]) and the WGSL specification for WGSL; the math library ([`mathlib`]) carries each
//! inexact result's documented ulp bound ([`accuracy`]).
//!
//! Read first: [`run_kernel`] (a whole run, bounded by [`Limits`]) or [`Executor`] (`step()` /
//! `run_for(n)`, so a page can run in slices), [`parse`] and [`list_kernels`], [`render_text`]
//! for a terminal.
//!
//! Supported beyond the seeds: `__device__` functions called from the kernel are inlined per
//! call (their own variables; a divergent `return` parks its lanes until the call ends), but not
//! recursively. Whole files run: host code is read for its launches ([`host_launch`]), function
//! templates are instantiated per call, cooperative groups are lowered to the warp intrinsics,
//! structs, class templates and lambdas to scalars and device functions (see [`parser`]). The
//! MACA memory builtins (`ldg`/`stg` predicated, `ldg_*_bsm`, `load_shared_trans_*`) run on kernel
//! memory through their own ops (`machine/maca_mem.rs`); an `ldg_*_bsm` copy stays "not yet
//! visible" until a fence. docs/kernels.md lists what is accepted and what is refused.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod accuracy;
pub mod ast;
pub mod atomics;
pub mod barrier_header;
pub mod bench;
pub mod bidi;
pub mod budget;
pub mod builtins;
mod compile;
mod compile_refs;
pub mod contract;
pub mod diaglog;
pub mod dialect_guess;
pub mod edits;
pub mod exec;
pub mod ext_swizzle;
pub mod fp8;
pub mod fp8_format;
mod front_end;
pub mod half;
pub mod hip_fp8_cvt;
pub mod hip_vector_ops;
pub mod host_buffers;
mod host_fill_bytes;
pub mod host_launch;
pub mod host_undef;
mod int_operand;
pub mod lane_row;
pub mod lane_val;
pub mod legacy;
pub mod lexer;
mod lib_site;
mod machine;
mod mask_groups;
pub mod mathlib;
pub mod memory;
pub mod mma_call;
pub mod parser;
pub mod pp;
pub mod printf;
pub mod ptr_int;
pub mod ptx_cvt;
pub mod ptx_ops;
pub mod ptx_tf32;
pub mod reinterpret;
pub mod replay;
pub mod report;
mod sequence;
mod sequence_vars;
pub mod trace;
pub mod types;
pub mod vector_types;
#[cfg(feature = "wgsl")]
pub mod wgsl;
pub mod wmma_header;
pub mod wmma_lint;

use serde::Serialize;

use crosslane_core::result::Level;

pub use budget::{LimitHit, Limits, Resource};
pub use exec::{Executor, LaunchConfig, MAX_BLOCKS, MAX_THREADS_PER_BLOCK};
pub use front_end::parse_for_launch;
pub use host_launch::list_kernels;
pub use lane_row::{LaneRow, ReasonTable};
pub use memory::{Buffer, Memory, Space};
pub use parser::{parse, parse_preprocessed, parse_with, parse_with_entry, Parsed};
pub use pp::{PpOptions, PpRecord, UserMacro};
pub use replay::{Replay, StepState};
pub use report::render_text;
pub use trace::{
    CellWrite, KernelStep, KernelTrace, LaneVal, Launch, LaunchParam, MemWrite, Outcome, RunStats,
    TraceMode, Undef, VarChange, VarRow, WarpState,
};
pub use types::{KVal, Scalar, Ty, ValTy};

/// A fault that stops a kernel from parsing or running, at a line and column (1-based) — or,
/// for a launch input that is wrong (a buffer's fill), in that input and not in the source.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
#[error("{}", self.shown())]
pub struct KernelError {
    /// Line (1-based); 0 for an input's fault.
    pub line: u32,
    /// Column (1-based, in characters); 0 for an input's fault.
    pub col: u32,
    /// What is wrong and, where possible, what would be accepted.
    pub message: String,
    /// The launch input at fault, named as its field is (`x fill`: the page marks that field,
    /// the CLI names its flag); `None` for a fault in the source.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input: Option<String>,
}

/// Several front-end errors as one: the first, with every further one on its own line as
/// `line:col: message` (sorted by position); `None` when there is none.
pub(crate) fn join_errors(mut errors: Vec<KernelError>) -> Option<KernelError> {
    errors.sort_by_key(|e| (e.line, e.col));
    let mut it = errors.into_iter();
    let mut first = it.next()?;
    for e in it {
        first
            .message
            .push_str(&format!("\n{}:{}: {}", e.line, e.col, e.message));
    }
    Some(first)
}

impl KernelError {
    /// An error at `line`:`col`.
    pub fn new(line: u32, col: u32, message: impl Into<String>) -> Self {
        KernelError {
            line,
            col: ast::Span { line, col }.shown().col,
            message: message.into(),
            input: None,
        }
    }

    /// A fault in the launch input `input` (e.g. `x fill`), not in the source.
    pub fn in_input(input: impl Into<String>, message: impl Into<String>) -> Self {
        KernelError {
            line: 0,
            col: 0,
            message: message.into(),
            input: Some(input.into()),
        }
    }

    /// Each error this one stands for, in source order: the front end reports all its errors at
    /// once as one [`KernelError`] (the first, then every further one on a line of its own as
    /// `line:col: message`); this splits them again, each with its own line and column, for a
    /// consumer that lists them (the CLI's `--json` diagnostics). A line of the message that
    /// does not start with `line:col: ` continues the error before it.
    pub fn each(&self) -> Vec<KernelError> {
        let mut lines = self.message.split('\n');
        let mut out = vec![KernelError {
            message: lines.next().unwrap_or_default().to_string(),
            ..self.clone()
        }];
        for l in lines {
            let at = l.split_once(": ").and_then(|(pos, msg)| {
                let (line, col) = pos.split_once(':')?;
                Some((line.parse::<u32>().ok()?, col.parse::<u32>().ok()?, msg))
            });
            match (at, out.last_mut()) {
                (Some((line, col, msg)), _) if self.input.is_none() => out.push(KernelError {
                    line,
                    col,
                    message: msg.to_string(),
                    input: None,
                }),
                (_, Some(last)) => {
                    last.message.push('\n');
                    last.message.push_str(l);
                }
                (_, None) => {}
            }
        }
        out
    }

    /// `line:col: message`, or `input: message` for an input's fault.
    fn shown(&self) -> String {
        match &self.input {
            Some(i) => format!("{i}: {}", self.message),
            None => format!("{}:{}: {}", self.line, self.col, self.message),
        }
    }
}

/// A diagnostic attached to a line of the kernel: a seed typo, undefined behaviour, a cross-lane
/// call whose lanes are undefined, a step limit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct KernelDiagnostic {
    /// Line (1-based).
    pub line: u32,
    /// Column (1-based).
    pub col: u32,
    /// Severity.
    pub level: Level,
    /// One sentence a user can act on.
    pub message: String,
    /// The rule or document it comes from (may be empty for plain C rules named in the message).
    pub rule: String,
}

impl KernelDiagnostic {
    /// A diagnostic at a position.
    pub fn new(
        span: ast::Span,
        level: Level,
        message: impl Into<String>,
        rule: impl Into<String>,
    ) -> Self {
        KernelDiagnostic {
            line: span.line,
            col: span.shown().col,
            level,
            message: message.into(),
            rule: rule.into(),
        }
    }
}

/// Parses and runs a kernel to the end (or to a limit).
///
/// # Errors
/// [`KernelError`] when the source does not parse or the launch is invalid (see
/// [`Executor::new`]). Faults while running — undefined behaviour, out-of-bounds accesses, the
/// step or cell limit — do not fail: they are diagnostics on their steps and the
/// [`KernelTrace::outcome`].
pub fn run_kernel(source: &str, config: LaunchConfig) -> Result<KernelTrace, KernelError> {
    run_kernel_traced(source, config, TraceMode::Full)
}

/// [`run_kernel`] recording the run as `mode` says.
///
/// # Errors
/// As [`run_kernel`].
pub fn run_kernel_traced(
    source: &str,
    config: LaunchConfig,
    mode: TraceMode,
) -> Result<KernelTrace, KernelError> {
    let mut ex = Executor::new(source, config)?.with_trace(mode);
    while ex.advance() {}
    Ok(ex.into_trace())
}
