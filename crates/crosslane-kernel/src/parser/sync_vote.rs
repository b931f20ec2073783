//! The block votes `__syncthreads_count(int)`, `__syncthreads_and(int)` and
//! `__syncthreads_or(int)`, which this model's registry has no single operation for: a device
//! function built as syntax-tree nodes from the block barrier (`__syncthreads`), the warp's
//! ballot and one block-shared count.
//!
//! Source: CUDA C++ Programming Guide, "Synchronization Functions": each is identical to
//! `__syncthreads()` with the additional feature that it evaluates `predicate` for all
//! non-exited threads of the block and returns the number of threads for which it is non-zero
//! (`_count`), non-zero if and only if it is non-zero for all of them (`_and`), for any of them
//! (`_or`). HIP Programming Guide, "Synchronization functions" defines the same three. The
//! `_and` / `_or` results are `1` / `0`: nvcc emits PTX `bar.red.and.pred` / `bar.red.or.pred`
//! (PTX ISA, "bar.red"), a predicate, then converts it to `int`; hipcc's
//! `__syncthreads_and` is `__syncthreads_count(p) == blockDim` and `_or` is
//! `__syncthreads_count(p) != 0` (ROCm `amd_device_functions.h`), also `1` / `0`.
//!
//! The count, written once as a device function:
//! `int f(int p) { __shared__ int c; __syncthreads(); M a = active(); if (rank(a) == 0) c = 0;
//! __syncthreads(); M b = ballot(a, p); if (rank(a) == 0) atomicAdd(&c, popc(b));
//! __syncthreads(); return c; }` — the first barrier ends every read of an earlier call's count
//! before it is cleared, the lowest active lane of each warp (one writer per warp) clears it and
//! adds its warp's ballot, and every thread reads the total after the last barrier. Exited threads reach no barrier and add
//! nothing, as the Guide's "non-exited threads" says. `_and(p)` is `f(!p) == 0`, `_or(p)` is
//! `f(p) != 0`.

use super::targs::TArg;
use super::{PResult, Parser};
use crate::ast::*;
use crate::types::{BinOp, Scalar, Ty, UnOp, ValTy};
use crate::KernelError;

/// The generated count function's name.
const COUNT_FN: &str = "__crosslane_syncthreads_count";

/// The block-shared count's name: reserved (`__`), so no user variable meets it; the trace
/// shows it among the shared buffers.
const COUNT_VAR: &str = "__syncthreads_count_total";

impl Parser<'_> {
    /// `__syncthreads_count(p)`, `__syncthreads_and(p)`, `__syncthreads_or(p)` in CUDA and HIP,
    /// as an `int` expression; `None` for any other call (or dialect).
    pub(super) fn sync_vote_call(
        &mut self,
        name: &str,
        args: &mut Vec<Expr>,
        span: Span,
    ) -> PResult<Option<Expr>> {
        if !(self.cuda || self.hip)
            || !matches!(
                name,
                "__syncthreads_count" | "__syncthreads_and" | "__syncthreads_or"
            )
        {
            return Ok(None);
        }
        if args.len() != 1 {
            return Err(crate::KernelError::new(
                span.line,
                span.col,
                format!(
                    "`{name}` takes one argument, the predicate (CUDA C++ Programming Guide, \
                     Synchronization Functions), given {}",
                    args.len()
                ),
            ));
        }
        let Some(p) = args.pop() else {
            return Ok(None);
        };
        // A block barrier: a CUB TempStorage may be used again (`cub`).
        self.cub_pending.clear();
        if !self.fn_types.contains_key(COUNT_FN) {
            let f = self.sync_count_fn(span);
            self.fn_types.insert(COUNT_FN.to_string(), f.ret);
            self.extra_fns.push(f);
        }
        let int = Ty::Val(ValTy::scalar(Scalar::I32));
        let e = match name {
            "__syncthreads_and" => {
                let s = self.syn_span(span);
                let not = Expr::new(ExprKind::Unary(UnOp::Not, Box::new(p)), s);
                let n = self.e_call(span, COUNT_FN, vec![not]);
                let zero = self.e_int(span, 0);
                self.e_bin(span, BinOp::Eq, n, zero)
            }
            "__syncthreads_or" => {
                let n = self.e_call(span, COUNT_FN, vec![p]);
                let zero = self.e_int(span, 0);
                self.e_bin(span, BinOp::Ne, n, zero)
            }
            _ => return Ok(Some(self.e_call(span, COUNT_FN, vec![p]))),
        };
        let s = self.syn_span(span);
        Ok(Some(Expr::new(ExprKind::Cast(int, Box::new(e)), s)))
    }

    /// The count function (see the module's documentation).
    fn sync_count_fn(&mut self, at: Span) -> Function {
        let st = |kind| Stmt {
            kind,
            span: at,
            end: at,
        };
        let int = ValTy::scalar(Scalar::I32);
        let mask = ValTy::scalar(if self.hip { Scalar::U64 } else { Scalar::U32 });
        let decl = |p: &mut Self, name: &str, ty: ValTy, init: Option<Expr>, shared| {
            let sp = p.syn_span(at);
            st(StmtKind::Decl(
                Storage {
                    shared,
                    external: false,
                },
                vec![Declarator {
                    name: name.into(),
                    ty: Ty::Val(ty),
                    array: None,
                    init,
                    span: sp,
                    id: NodeId::fresh(),
                }],
            ))
        };
        let mut body = vec![decl(self, COUNT_VAR, int, None, true)];
        let sync = |p: &mut Self| {
            let e = p.e_call(at, "__syncthreads", Vec::new());
            st(StmtKind::Expr(e))
        };
        body.push(sync(self));
        let active = self.e_active(at);
        body.push(decl(self, "a", mask, Some(active), false));
        // The lowest active lane of each warp clears the count (one writer per warp).
        let a = self.e_ident(at, "a");
        let rank = self.e_rank(at, a);
        let zero = self.e_int(at, 0);
        let lowest = self.e_bin(at, BinOp::Eq, rank, zero);
        let (c, zero) = (self.e_ident(at, COUNT_VAR), self.e_int(at, 0));
        let sp = self.syn_span(at);
        let clear = Expr::new(ExprKind::Assign(None, Box::new(c), Box::new(zero)), sp);
        body.push(st(StmtKind::If(
            lowest,
            Box::new(st(StmtKind::Expr(clear))),
            None,
        )));
        body.push(sync(self));
        let (a, p) = (self.e_ident(at, "a"), self.e_ident(at, "p"));
        let ballot = self.e_ballot(at, a, p);
        body.push(decl(self, "b", mask, Some(ballot), false));
        // The lowest active lane adds its warp's count.
        let a = self.e_ident(at, "a");
        let rank = self.e_rank(at, a);
        let zero = self.e_int(at, 0);
        let lowest = self.e_bin(at, BinOp::Eq, rank, zero);
        let c = self.e_ident(at, COUNT_VAR);
        let sp = self.syn_span(at);
        let addr = Expr::new(ExprKind::AddrOf(Box::new(c)), sp);
        let b = self.e_ident(at, "b");
        let n = self.e_popc(at, b);
        let add = self.e_call(at, "atomicAdd", vec![addr, n]);
        body.push(st(StmtKind::If(
            lowest,
            Box::new(st(StmtKind::Expr(add))),
            None,
        )));
        body.push(sync(self));
        let c = self.e_ident(at, COUNT_VAR);
        body.push(st(StmtKind::Return(Some(c))));
        Function {
            name: COUNT_FN.to_string(),
            entry: false,
            ret: Ty::Val(int),
            params: vec![Param {
                name: "p".into(),
                ty: Ty::Val(int),
                reference: false,
                const_ref: false,
                span: at,
            }],
            body: st(StmtKind::Block(body)),
            launch_bounds: None,
            vf_call_dim: None,
            span: at,
            snippet: false,
            defaults: Vec::new(),
            empty_params: Vec::new(),
        }
    }
}

impl Parser<'_> {
    /// Explicit template arguments on a warp builtin (`__reduce_add_sync<decltype(mask)>(mask,
    /// v)`, `__shfl_sync<unsigned long long, int>(…)`): HIP declares these as templates over
    /// the mask type and then the value type (HIP Programming Guide, "Warp cross-lane
    /// functions"). Read here when a call follows; `None` (position kept) otherwise.
    pub(super) fn warp_builtin_targs(&mut self, w: &str) -> Option<Vec<TArg>> {
        let warp = matches!(
            w,
            "__shfl_sync"
                | "__shfl_up_sync"
                | "__shfl_down_sync"
                | "__shfl_xor_sync"
                | "__reduce_add_sync"
                | "__reduce_min_sync"
                | "__reduce_max_sync"
                | "__reduce_and_sync"
                | "__reduce_or_sync"
                | "__reduce_xor_sync"
                | "__ballot_sync"
                | "__any_sync"
                | "__all_sync"
                | "__match_any_sync"
                | "__match_all_sync"
        );
        if !warp
            || !self.is_punct("<")
            || self.fn_types.contains_key(w)
            || self.var_type(w).is_some()
        {
            return None;
        }
        let save = self.pos;
        match self.template_args() {
            Ok(a) if self.is_punct("(") => Some(a),
            _ => {
                self.pos = save;
                None
            }
        }
    }

    /// The explicit arguments agree with the call's: template argument i is the type of call
    /// argument i (mask, then value). Otherwise the template would convert the argument,
    /// which this front end does not do: refused rather than run with another type.
    ///
    /// # Errors
    /// A template argument that is no type, or differs from its argument's type, or an
    /// argument whose type the front end cannot tell.
    pub(super) fn check_warp_builtin_targs(
        &self,
        w: &str,
        targs: &[TArg],
        args: &[Expr],
        at: Span,
    ) -> PResult<()> {
        for (k, t) in targs.iter().enumerate() {
            let given = args.get(k).and_then(|e| self.expr_type(e));
            let ok = matches!((t, given), (TArg::Type(v), Some(g)) if *v == g);
            if !ok {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    format!(
                        "explicit template argument {} of `{w}` is not the type of its call \
                         argument; drop the template arguments or cast the argument to that type",
                        k + 1
                    ),
                ));
            }
        }
        Ok(())
    }
}
