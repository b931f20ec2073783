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

use super::build::Build;
use super::targs::{mangle, TArg};
use super::{PResult, Parser};
use crate::ast::*;
use crate::lexer::Tok;
use crate::types::{BinOp, Scalar, Ty, ValTy};
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
                // A scalar or vector element: the copy built as nodes.
                if let Some(elem) = self.pointee_type(&dst) {
                    let f = self.cg_copy_fn(elem, at);
                    let args = vec![dst, src, bytes, rank, size];
                    return Ok(Some(Expr::new(ExprKind::Call(f, args), at)));
                }
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

impl Parser<'_> {
    /// The copy `cg::memcpy_async` calls for elements of type `elem`, built once as nodes
    /// (`__cg_memcpy_async<float>(T* d, const T* s, unsigned long long bytes, unsigned r,
    /// unsigned n)`): thread of rank `r` of a group of `n` copies elements `r`, `r + n`, … below
    /// `bytes / sizeof(T)`, marking each not yet complete, then commits the batch (module
    /// comment).
    fn cg_copy_fn(&mut self, elem: ValTy, at: Span) -> String {
        let fname = mangle(COPY, &[TArg::Type(elem)]);
        if self.fn_types.contains_key(&fname) {
            return fname;
        }
        // `sizeof(T)` as the parser reads it for a value type.
        let size = u64::from(elem.scalar.bits().max(8) / 8) * u64::from(elem.lanes);
        let (u64_ty, u32_ty) = (
            Ty::Val(ValTy::scalar(Scalar::U64)),
            Ty::Val(ValTy::scalar(Scalar::U32)),
        );
        let mut b = Build::fresh(&mut self.syn, at);
        // `for (unsigned long long i = r; i < bytes / sizeof(T); i += n)`
        let r = b.ident("r");
        let init = b.decl("i", u64_ty, Some(r));
        let (i, bytes) = (b.ident("i"), b.ident("bytes"));
        let t = b.node(ExprKind::SizeOf(size));
        let count = b.bin(BinOp::Div, bytes, t);
        let cond = b.bin(BinOp::Lt, i, count);
        let (i, n) = (b.ident("i"), b.ident("n"));
        let next = b.assign(Some(BinOp::Add), i, n);
        // `{ d[i] = s[i]; mark(d + i, sizeof(T), 1); }`
        let (d, i) = (b.ident("d"), b.ident("i"));
        let to = b.node(ExprKind::Index(Box::new(d), Box::new(i)));
        let (s, i) = (b.ident("s"), b.ident("i"));
        let from = b.node(ExprKind::Index(Box::new(s), Box::new(i)));
        let copy = b.assign(None, to, from);
        let copy = b.expr_stmt(copy);
        let (d, i) = (b.ident("d"), b.ident("i"));
        let cell = b.bin(BinOp::Add, d, i);
        let t = b.node(ExprKind::SizeOf(size));
        let one = b.int(1);
        let mark = b.call(crate::machine::async_copy::ASYNC_COPY, vec![cell, t, one]);
        let mark = b.expr_stmt(mark);
        let inner = b.block(vec![copy, mark]);
        let each = b.for_(init, cond, next, inner);
        // `commit();`
        let commit = b.call(crate::machine::async_copy::ASYNC_COMMIT, Vec::new());
        let commit = b.expr_stmt(commit);
        let body = b.block(vec![each, commit]);
        let params = vec![
            b.param("d", Ty::Ptr(elem)),
            b.param("s", Ty::Ptr(elem)),
            b.param("bytes", u64_ty),
            b.param("r", u32_ty),
            b.param("n", u32_ty),
        ];
        self.push_built_fn(&fname, Ty::Void, params, body, at);
        fname
    }
}
