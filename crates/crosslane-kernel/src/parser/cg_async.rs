//! `cg::memcpy_async(group, dst, src, bytes)` (also `(group, dst, dstCount, src, srcCount)`,
//! element counts), `cg::wait(group)` and `cg::wait_prior<N>(group)`
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

/// The name of the copies `cg::memcpy_async` calls (one per element type).
const COPY: &str = "__cg_memcpy_async";
/// The same copies without the batch's commit, for `cuda::memcpy_async(group, …, sync)`: a
/// barrier's `arrive_and_wait` completes every copy, and a pipeline's `producer_commit()`
/// closes the stage's batch (`barrier_header.rs`).
const COPY_UNCOMMITTED: &str = "__cg_memcpy_async_uncommitted";
/// HIP's `cg::memcpy_async(group, dst, src, bytes)` (`hip/cooperative_groups/memcpy_async.h`):
/// the group's threads copy their shares at the call, with no wait handle of its own (HIP has
/// no `cg::wait`): a later barrier of the group (`sync()`, `barrier_wait`) makes the copy
/// visible to the whole group, as ROCm's `cooperative_groups_double_buffered_tile` example
/// states ("its completion must be enforced by a following group barrier"). Nothing is marked
/// pending; a read by another thread before that barrier is an ordinary race.
const COPY_HIP: &str = "__cg_memcpy_hip";

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
                let second = self.assign_expr()?;
                self.expect_punct(",")?;
                let third = self.assign_expr()?;
                let (src, bytes) = if self.eat(",") {
                    // `memcpy_async(group, dst, dstCount, src, srcCount)` (the Programming
                    // Guide's streaming example): element counts ("layouts") of the two
                    // buffers; the copy is of the smaller count's elements.
                    let src_count = self.assign_expr()?;
                    let bytes = self.cg_layout_bytes(&dst, second, src_count, at)?;
                    (third, bytes)
                } else {
                    (second, third)
                };
                self.expect_punct(")")?;
                self.cg_copy_call(g, dst, src, bytes, true, at).map(Some)
            }
            "wait" | "wait_prior" if self.is_punct("(") || self.is_punct("<") => {
                self.cg_wait(name, at).map(Some)
            }
            _ => Ok(None),
        }
    }

    /// `cuda::memcpy_async(group, dst, src, bytes, barrier)` (libcu++, the Programming Guide's
    /// `with_barrier` example), the `cuda::` already read and the next token `memcpy_async`:
    /// the group's collective copy as `cg::memcpy_async` models it, completed by the
    /// barrier's `arrive_and_wait()` (`barrier_header`, which completes the thread's copies).
    /// `None` (position restored) when the first argument is no cooperative group: the
    /// per-thread `cuda::memcpy_async(dst, src, bytes, barrier)` of `<cuda/barrier>`.
    ///
    /// # Errors
    /// Malformed arguments after the group.
    pub(super) fn cuda_group_memcpy_async(&mut self) -> PResult<Option<Expr>> {
        let save = self.pos;
        let at = self.span();
        if !(self.is_word("memcpy_async") && matches!(self.peek(1), Tok::Punct("("))) {
            return Ok(None);
        }
        self.bump();
        self.bump();
        let g = match self.cg_factory()? {
            Some(g) if self.is_punct(",") => g,
            _ => {
                self.pos = save;
                return Ok(None);
            }
        };
        self.expect_punct(",")?;
        let dst = self.assign_expr()?;
        self.expect_punct(",")?;
        let src = self.assign_expr()?;
        self.expect_punct(",")?;
        let bytes = self.assign_expr()?;
        self.expect_punct(",")?;
        // The barrier (or pipeline) names where the copy completes: read, not evaluated.
        let _sync_object = self.assign_expr()?;
        self.expect_punct(")")?;
        self.cg_copy_call(g, dst, src, bytes, false, at).map(Some)
    }

    /// The call of the group copy of `bytes` from `src` to `dst` by group `g`.
    fn cg_copy_call(
        &mut self,
        g: super::cg::Made,
        dst: Expr,
        src: Expr,
        bytes: Expr,
        commit: bool,
        at: Span,
    ) -> PResult<Expr> {
        let rank = self.cg_op(g.group, g.mask.clone(), None, "thread_rank", &[], at)?;
        let size = self.cg_op(g.group, g.mask, None, "size", &[], at)?;
        // A scalar or vector element: the copy built as nodes.
        if let Some(elem) = self.pointee_type(&dst) {
            let f = self.cg_copy_fn(elem, commit, at);
            let args = vec![dst, src, bytes, rank, size];
            return Ok(Expr::new(ExprKind::Call(f, args), at));
        }
        // A struct element: the copy built as nodes over its members' arrays, each
        // pointer passed as `&x[0]` (each member array's pointer, as the struct
        // lowering passes one).
        let [dst, src] = [dst, src].map(|x| match x.kind {
            ExprKind::AddrOf(_) => x,
            _ => {
                let zero = self.e_int(at, 0);
                let cell = Expr::new(ExprKind::Index(Box::new(x), Box::new(zero)), at);
                Expr::new(ExprKind::AddrOf(Box::new(cell)), at)
            }
        });
        let record = match &dst.kind {
            ExprKind::AddrOf(cell) => self.struct_of(cell),
            _ => None,
        };
        let Some(record) = record else {
            return Err(KernelError::new(
                at.line,
                at.col,
                "cg::memcpy_async: the destination's element type is not known here; \
                 pass an array or a pointer of a declared type",
            ));
        };
        let f = self.cg_copy_struct_fn(&record, commit, at)?;
        let args = vec![dst, src, bytes, rank, size];
        Ok(Expr::new(ExprKind::Call(f, args), at))
    }

    /// `cg::wait(group)` / `cg::wait_prior<N>(group)`, the name read.
    fn cg_wait(&mut self, name: &str, at: Span) -> PResult<Expr> {
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
        Ok(self.cg_node(at, ExprKind::Comma(Box::new(done), Box::new(sync))))
    }
}

impl Parser<'_> {
    /// The bytes of `memcpy_async(group, dst, dstCount, src, srcCount)`: `min(dstCount,
    /// srcCount)` elements of `dst`'s element type (CUDA C++ Programming Guide, Cooperative
    /// Groups, memcpy_async: the layouts are element counts, or `cuda::aligned_size_t`; the
    /// copy fills the destination or takes the whole source, whichever is smaller).
    ///
    /// # Errors
    /// A destination whose element type the front end does not know.
    fn cg_layout_bytes(
        &mut self,
        dst: &Expr,
        dst_count: Expr,
        src_count: Expr,
        at: Span,
    ) -> PResult<Expr> {
        let elem = match self.pointee_type(dst) {
            Some(v) => Some(super::structs::value_layout_of(v).0),
            None => {
                let cell = Expr::new(
                    ExprKind::Index(Box::new(dst.clone()), Box::new(self.e_int(at, 0))),
                    at,
                );
                self.struct_of(&cell)
                    .and_then(|r| self.struct_size(&r, at).ok())
            }
        };
        let Some(elem) = elem else {
            return Err(KernelError::new(
                at.line,
                at.col,
                "cg::memcpy_async(group, dst, dstCount, src, srcCount): the destination's \
                 element type is not known here; pass an array or a pointer of a declared type",
            ));
        };
        let u64_of = |x: Expr| {
            Expr::new(
                ExprKind::Cast(Ty::Val(ValTy::scalar(Scalar::U64)), Box::new(x)),
                at,
            )
        };
        let (a, b) = (u64_of(dst_count), u64_of(src_count));
        let less = Expr::new(
            ExprKind::Binary(BinOp::Lt, Box::new(a.clone()), Box::new(b.clone())),
            at,
        );
        let count = Expr::new(
            ExprKind::Ternary(Box::new(less), Box::new(a), Box::new(b)),
            at,
        );
        Ok(Expr::new(
            ExprKind::Binary(
                BinOp::Mul,
                Box::new(count),
                Box::new(Expr::new(ExprKind::SizeOf(elem), at)),
            ),
            at,
        ))
    }

    /// The copy `cg::memcpy_async` calls for elements of type `elem`, built once as nodes
    /// (`__cg_memcpy_async<float>(T* d, const T* s, unsigned long long bytes, unsigned r,
    /// unsigned n)`): thread of rank `r` of a group of `n` copies elements `r`, `r + n`, … below
    /// `bytes / sizeof(T)`, marking each not yet complete, then commits the batch (module
    /// comment).
    fn cg_copy_fn(&mut self, elem: ValTy, commit: bool, at: Span) -> String {
        let plain = self.hip && commit;
        let base = match (plain, commit) {
            (true, _) => COPY_HIP,
            (false, true) => COPY,
            (false, false) => COPY_UNCOMMITTED,
        };
        let fname = mangle(base, &[TArg::Type(elem)]);
        if self.fn_types.contains_key(&fname) {
            return fname;
        }
        // `sizeof(T)` as the parser reads it for a value type.
        let size = u64::from(elem.scalar.bits().max(8) / 8) * u64::from(elem.lanes);
        let arrays = [("d".into(), "s".into(), elem)];
        self.cg_push_copy_fn(&fname, size, &arrays, (commit, plain), at);
        fname
    }

    /// The copy `cg::memcpy_async` calls for elements of struct `record`, built once as nodes
    /// over the struct's member arrays (the parser's struct lowering: an array of structs is
    /// one array per member, `super::structs`): as [`Parser::cg_copy_fn`], each element's
    /// members copied and marked, `bytes / sizeof(S)` elements.
    ///
    /// # Errors
    /// A member that is itself an array.
    fn cg_copy_struct_fn(&mut self, record: &str, commit: bool, at: Span) -> PResult<String> {
        let tag: String = record
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        let plain = self.hip && commit;
        let base = match (plain, commit) {
            (true, _) => COPY_HIP,
            (false, true) => COPY,
            (false, false) => COPY_UNCOMMITTED,
        };
        let fname = format!("{base}_struct_{tag}");
        if self.fn_types.contains_key(&fname) {
            return Ok(fname);
        }
        // Each member's destination and source arrays.
        let mut arrays = Vec::new();
        for l in self.leaves(record, at)? {
            match l.ty {
                Ty::Val(v) if l.count == 0 => {
                    arrays.push((format!("d.{}", l.path), format!("s.{}", l.path), v));
                }
                _ => {
                    return Err(KernelError::new(
                        at.line,
                        at.col,
                        format!(
                            "cg::memcpy_async of `{record}`, whose member `{}` is an array or a \
                             pointer, is not supported here; copy the members' arrays yourself",
                            l.path
                        ),
                    ))
                }
            }
        }
        let whole = self.struct_size(record, at)?;
        self.cg_push_copy_fn(&fname, whole, &arrays, (commit, plain), at);
        Ok(fname)
    }

    /// Builds and registers `fname(d…, s…, unsigned long long bytes, unsigned r, unsigned n)`,
    /// the copy both [`Parser::cg_copy_fn`] and [`Parser::cg_copy_struct_fn`] call: over
    /// `arrays` (each a destination and a source array and their element type), thread `r` of
    /// `n` copies elements `r`, `r + n`, … below `bytes / whole`, each array's element copied
    /// and marked not yet complete, then commits the batch (module comment). `plain`: HIP's
    /// copy ([`COPY_HIP`]), each element copied at the call, nothing marked or committed.
    fn cg_push_copy_fn(
        &mut self,
        fname: &str,
        whole: u64,
        arrays: &[(String, String, ValTy)],
        (commit, plain): (bool, bool),
        at: Span,
    ) {
        let (u64_ty, u32_ty) = (
            Ty::Val(ValTy::scalar(Scalar::U64)),
            Ty::Val(ValTy::scalar(Scalar::U32)),
        );
        let mut b = Build::fresh(&mut self.syn, at);
        // `for (unsigned long long i = r; i < bytes / whole; i += n)`
        let r = b.ident("r");
        let init = b.decl("i", u64_ty, Some(r));
        let (i, bytes) = (b.ident("i"), b.ident("bytes"));
        let t = b.node(ExprKind::SizeOf(whole));
        let count = b.bin(BinOp::Div, bytes, t);
        let cond = b.bin(BinOp::Lt, i, count);
        let (i, n) = (b.ident("i"), b.ident("n"));
        let next = b.assign(Some(BinOp::Add), i, n);
        // `{ d[i] = s[i]; mark(d + i, sizeof(*d), 1); … }`
        let mut inner = Vec::new();
        for (dst, src, ty) in arrays {
            // `sizeof` as the parser reads it for a value type.
            let size = u64::from(ty.scalar.bits().max(8) / 8) * u64::from(ty.lanes);
            let (d, i) = (b.ident(dst), b.ident("i"));
            let to = b.node(ExprKind::Index(Box::new(d), Box::new(i)));
            let (s, i) = (b.ident(src), b.ident("i"));
            let from = b.node(ExprKind::Index(Box::new(s), Box::new(i)));
            let copy = b.assign(None, to, from);
            inner.push(b.expr_stmt(copy));
            if plain {
                continue;
            }
            let (d, i) = (b.ident(dst), b.ident("i"));
            let cell = b.bin(BinOp::Add, d, i);
            let t = b.node(ExprKind::SizeOf(size));
            let one = b.int(1);
            let mark = b.call(crate::machine::async_copy::ASYNC_COPY, vec![cell, t, one]);
            inner.push(b.expr_stmt(mark));
        }
        let inner = b.block(inner);
        let each = b.for_(init, cond, next, inner);
        // `commit();` (not for a copy a pipeline's `producer_commit()` commits)
        let mut stmts = vec![each];
        if commit && !plain {
            let c = b.call(crate::machine::async_copy::ASYNC_COMMIT, Vec::new());
            stmts.push(b.expr_stmt(c));
        }
        let body = b.block(stmts);
        let mut params: Vec<Param> = arrays
            .iter()
            .map(|(dst, _, ty)| b.param(dst, Ty::Ptr(*ty)))
            .collect();
        for (_, src, ty) in arrays {
            params.push(b.param(src, Ty::Ptr(*ty)));
        }
        params.push(b.param("bytes", u64_ty));
        params.push(b.param("r", u32_ty));
        params.push(b.param("n", u32_ty));
        self.push_built_fn(fname, Ty::Void, params, body, at);
    }
}
