//! `cg::memcpy_async(group, dst, src, bytes)`, `cg::wait(group)` and `cg::wait_prior<N>(group)`
//! (`cooperative_groups/memcpy_async.h`): the copy is modelled as the copy it completes into —
//! the group's threads share the elements (thread of rank r copies elements r, r + size, …)
//! at the call, each element marked not yet complete and each call one batch
//! (`machine::async_copy`) — and the wait as completing the thread's copies (all of
//! them, or all but the newest `N` for `wait_prior<N>`) then the group's `sync()`, so the data
//! is in the destination and visible to the whole group after the wait, as the Programming
//! Guide promises, and a read before the wait is undefined with the reason.
//!
//! Source: CUDA C++ Programming Guide, Cooperative Groups, "memcpy_async" (a collective copy
//! by the group; its completion is awaited with `wait` / `wait_prior`, collective operations
//! that the whole group must call) and "Asynchronous Data Copies" (the copy completes only at
//! its wait: reading the destination before it is a race).

use super::{PResult, Parser};
use crate::ast::*;
use crate::lexer::Tok;
use crate::KernelError;

/// The generated copy every `cg::memcpy_async` calls.
const COPY: &str = "__cg_memcpy_async";

impl Parser<'_> {
    /// `memcpy_async`, `wait` or `wait_prior` after `cg::`; `None` for any other name.
    pub(super) fn cg_async(&mut self, name: &str, at: Span) -> PResult<Option<Expr>> {
        match name {
            "memcpy_async" if self.is_punct("(") => {
                self.expect_punct("(")?;
                self.skip_cg_namespace();
                let g = self.cg_factory()?.ok_or_else(|| {
                    KernelError::new(at.line, at.col, "cg::memcpy_async takes a group first")
                })?;
                self.expect_punct(",")?;
                let dst = self.assign_expr()?;
                self.expect_punct(",")?;
                let src = self.assign_expr()?;
                self.expect_punct(",")?;
                let bytes = self.assign_expr()?;
                self.expect_punct(")")?;
                let rank = self.cg_op(g.group, g.mask.clone(), None, "thread_rank", &[], at)?;
                let size = self.cg_op(g.group, g.mask, None, "size", &[], at)?;
                if !self.templates.contains_key(COPY) {
                    let text = format!(
                        "template <typename T> __device__ void {COPY}(T *d, const T *s, \
                         unsigned long long bytes, unsigned r, unsigned n) {{ for (unsigned long \
                         long i = r; i < bytes / sizeof(T); i += n) {{ d[i] = s[i]; \
                         {mark}(d + i, sizeof(T), 1); }} {commit}(); }}",
                        mark = crate::machine::async_copy::ASYNC_COPY,
                        commit = crate::machine::async_copy::ASYNC_COMMIT
                    );
                    self.generated_template(COPY, &text, at)?;
                }
                let args = vec![dst, src, bytes, rank, size];
                let mangled = self.instantiate_call(COPY, Vec::new(), &args, at)?;
                Ok(Some(Expr::new(ExprKind::Call(mangled, args), at)))
            }
            "wait" | "wait_prior" if self.is_punct("(") || self.is_punct("<") => {
                // `wait_prior<N>`: all but the newest N copies; `wait`: all of them.
                let mut keep: i64 = -1;
                if self.eat("<") {
                    let first = self.pos;
                    while !self.eat(">") {
                        if matches!(self.peek(0), Tok::Eof) {
                            return self.err("`>`");
                        }
                        self.bump();
                    }
                    keep = match &self.toks[first..self.pos - 1] {
                        [t] => match &t.tok {
                            Tok::Int { value, .. } => i64::try_from(*value).unwrap_or(0),
                            _ => 0,
                        },
                        _ => 0,
                    };
                }
                self.expect_punct("(")?;
                self.skip_cg_namespace();
                let g = self.cg_factory()?.ok_or_else(|| {
                    KernelError::new(at.line, at.col, format!("cg::{name} takes a group"))
                })?;
                self.expect_punct(")")?;
                let sync = self.cg_op(g.group, g.mask, None, "sync", &[], at)?;
                let n = self.e_int(at, keep);
                let done = self.e_call(at, crate::machine::async_copy::ASYNC_WAIT, vec![n]);
                Ok(Some(self.cg_node(
                    at,
                    ExprKind::Comma(Box::new(done), Box::new(sync)),
                )))
            }
            _ => Ok(None),
        }
    }
}
