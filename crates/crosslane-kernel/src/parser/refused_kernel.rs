//! A kernel whose body holds a construct the front end refuses, in a file that defines other
//! kernels too (a sample program, a library's test file): the refusal is the error of every
//! run that reaches that kernel, not of the file, so that the other kernels still run (each
//! `__global__` function is its own entry point, CUDA C++ Programming Guide, "Function
//! Execution Space Specifiers"; a run reaches a kernel when it is the entry, or host code
//! launches it before or after the entry's launch).
//!
//! The kernel keeps its signature (host code's launches of it are read as before) and an
//! empty body; its error goes to [`crate::ast::Program::type_errors`] under its name, whose
//! compile stops a run that traces it before anything runs (`exec.rs`); a launch of it before
//! or after the traced one is skipped, said at its line, and is the run's error once the other
//! launches ran (`sequence.rs`). A
//! budget (`--max-…`) stays the error of the file. A source with one kernel keeps the error
//! of the parse.

use super::{PResult, Parser};
use crate::ast::{Span, Stmt, StmtKind};
use crate::lexer::Tok;
use crate::KernelError;

/// Most kernels read in one file; more than this and a refused body is the file's error.
const MAX_KERNELS: usize = 100_000;

impl Parser<'_> {
    /// Whether the source defines more than one `__global__` function.
    fn several_kernels(&self) -> bool {
        self.toks
            .iter()
            .filter(|t| matches!(&t.tok, Tok::Ident(w) if w == "__global__"))
            .take(MAX_KERNELS)
            .nth(1)
            .is_some()
    }

    /// The body of kernel `name` (its `{` at token `open`) raised `e`: in a file of several
    /// kernels, skips the body and records `e` for the runs that reach the kernel, giving an
    /// empty body; else `e`. `kept` is the parser's scopes, diagnostics and depth before the
    /// body, restored. A device function (`kernel` false) whose body is refused (inline GCN
    /// `asm`, AMDMIGraphX's `dpp_reduce(float&, sum)` overload beside its template; an MFMA
    /// builtin in a header's wrapper no kernel calls) is refused so in any file: the runs that
    /// call it stop with `e` when they compile the call (`compile.rs`'s `inline_call`), and
    /// the others run (C++17 [basic.def.odr]/4: a function is needed only where it is
    /// odr-used).
    ///
    /// # Errors
    /// `e` itself when it is a budget or the file has one kernel.
    pub(super) fn refuse_kernel_body(
        &mut self,
        name: &str,
        open: usize,
        kept: (usize, usize, u32),
        e: KernelError,
        kernel: bool,
    ) -> PResult<Stmt> {
        if e.message.contains("--max-") || (kernel && !self.several_kernels()) {
            return Err(e);
        }
        let Some(close) = self.closing(open) else {
            return Err(e);
        };
        let (scopes, diags, depth) = kept;
        self.scopes.truncate(scopes);
        self.diags.truncate(diags);
        self.depth = depth;
        let at = |k: usize| Span {
            line: self.toks[k].line,
            col: self.toks[k].col,
        };
        let (span, end) = (at(open), at(close));
        self.pos = close + 1;
        // Named as the file's error would be (`parse_preprocessed`).
        let e = super::unsupported::name_ascend_vector(
            super::unsupported::name_unsupported(e, self.toks),
            self.toks,
        );
        if !self.refused_bodies.iter().any(|r| r.0 == name) {
            self.refused_bodies
                .push((name.to_string(), e.line, e.col, e.message));
        }
        Ok(Stmt {
            kind: StmtKind::Block(Vec::new()),
            span,
            end,
        })
    }
}
