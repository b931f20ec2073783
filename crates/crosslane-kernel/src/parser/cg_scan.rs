//! `cg::inclusive_scan` / `cg::exclusive_scan` over a coalesced group: a device function built
//! as syntax-tree nodes, Kogge-Stone steps over the members' ranks with the registry's
//! shuffles (each member reads the member `d` ranks below it, `d` = 1, 2, 4, …).
//!
//! Source: CUDA C++ Programming Guide, "Cooperative Groups", collectives `inclusive_scan` /
//! `exclusive_scan` (the group is a `thread_block_tile` or a `coalesced_group`; thread of rank
//! r gets `op` over the values of ranks 0..=r, exclusive: 0..r); the coalesced group's ranks
//! follow lane order among its members ("Cooperative Groups", coalesced_group). The exclusive
//! scan gives every rank but 0 the inclusive result of the rank below it; rank 0 gets 0 with
//! `cg::plus` (the sum of no values) and, with any other operator, a value the Guide does not
//! define ([`EXCLUSIVE_FIRST_WHY`]), as for tiles.

use super::{PResult, Parser};
use crate::ast::*;
use crate::types::{BinOp, Scalar, Ty, ValTy};
use crate::KernelError;

/// Why rank 0's `cg::exclusive_scan` result is undefined with an operator other than `cg::plus`
/// (CUDA C++ Programming Guide, Cooperative Groups, "inclusive_scan and exclusive_scan": each
/// thread's exclusive result is the reduction of the values of the threads of lower
/// `thread_rank`; rank 0 has none, and only `plus` has an identity for it to be).
pub(super) const EXCLUSIVE_FIRST_WHY: &str =
    "cg::exclusive_scan's result in the thread of thread_rank 0: the CUDA C++ Programming Guide \
     (Cooperative Groups, inclusive_scan and exclusive_scan) defines each thread's exclusive \
     result as the reduction of the values of the threads of lower thread_rank, and rank 0 has \
     none; with an operator other than cg::plus (whose empty sum is 0) that result is not \
     defined";

const INT: ValTy = ValTy {
    scalar: Scalar::I32,
    lanes: 1,
};

impl Parser<'_> {
    /// The type of a value whose type the parser knows without a semantic pass: a variable,
    /// a cast, a literal.
    fn known_val_ty(&self, e: &Expr) -> Option<ValTy> {
        match &e.kind {
            ExprKind::Ident(n) => match self.var_type(n)? {
                Ty::Val(v) => Some(v),
                _ => None,
            },
            ExprKind::Cast(Ty::Val(v), _) => Some(*v),
            ExprKind::Int { .. } => Some(INT),
            ExprKind::Float { single, .. } => Some(ValTy::scalar(if *single {
                Scalar::F32
            } else {
                Scalar::F64
            })),
            _ => None,
        }
    }

    /// `cg::{inclusive,exclusive}_scan(g, value, op)` over the coalesced group of members
    /// `mask`: a call of the generated device function.
    ///
    /// # Errors
    /// An operator outside plus, less, greater, bit_and, bit_or, bit_xor; a value whose type
    /// is not known here.
    pub(super) fn cg_coalesced_scan(
        &mut self,
        name: &str,
        op: &str,
        value: Expr,
        mask: Expr,
        at: Span,
    ) -> PResult<Expr> {
        let known = ["plus", "less", "greater", "bit_and", "bit_or", "bit_xor"];
        if !known.contains(&op) {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!(
                    "cg::{name} over a coalesced group takes cg::plus, less, greater, bit_and, \
                     bit_or or bit_xor here"
                ),
            ));
        }
        let Some(ty) = self.known_val_ty(&value) else {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!("cg::{name} over a coalesced group: pass a variable (its type is needed)"),
            ));
        };
        let fname = format!(
            "__cg_cscan_{name}_{op}_{}_w{}",
            ty.scalar.name().replace(' ', "_"),
            self.wave
        );
        if !self.fn_types.contains_key(&fname) {
            let f = self.cscan_fn(&fname, name, op, ty, at)?;
            self.fn_types.insert(fname.clone(), f.ret);
            self.extra_fns.push(f);
        }
        let s = self.syn_span(at);
        Ok(Expr::new(ExprKind::Call(fname, vec![value, mask]), s))
    }

    fn cscan_fn(
        &mut self,
        fname: &str,
        name: &str,
        op: &str,
        ty: ValTy,
        at: Span,
    ) -> PResult<Function> {
        let st = |kind| Stmt {
            kind,
            span: at,
            end: at,
        };
        let mut body = Vec::new();
        let decl = |p: &mut Self, n: &str, t: ValTy, init: Expr| {
            let span = p.syn_span(at);
            st(StmtKind::Decl(
                Storage::default(),
                vec![Declarator {
                    name: n.into(),
                    ty: Ty::Val(t),
                    array: None,
                    init: Some(init),
                    span,
                    id: NodeId::fresh(),
                }],
            ))
        };
        let m = self.e_ident(at, "m");
        let rank = self.e_rank(at, m);
        body.push(decl(self, "rank", INT, rank));
        let wave = i64::from(self.wave);
        // The member `d` ranks below: `fns` from this lane downwards, the (d + 1)-th member
        // counting this lane; none: this lane (its value is then not used).
        let below = |p: &mut Self, d: i64| {
            let (m, lane) = (p.e_ident(at, "m"), p.e_lane(at));
            let off = p.e_int(at, -(d + 1));
            let src = p.e_call(at, "__cg_fns_own", vec![m, lane, off]);
            let v = p.e_ident(at, "v");
            p.e_shfl_idx(at, v, src, wave)
        };
        let mut d = 1;
        while d < wave {
            let b = format!("__b{d}");
            let read = below(self, d);
            body.push(decl(self, &b, ty, read));
            let (r, dd) = (self.e_ident(at, "rank"), self.e_int(at, d));
            let cond = self.e_bin(at, BinOp::Ge, r, dd);
            // `op(lower, own)`, from the one table of `cg::` operators.
            let comb = {
                let mut build = super::build::Build::fresh(&mut self.syn, at);
                super::cg_collect::combine(&mut build, op, name, (&b, "v"), at)?
            };
            let target = self.e_ident(at, "v");
            let s = self.syn_span(at);
            let set = st(StmtKind::Expr(Expr::new(
                ExprKind::Assign(None, Box::new(target), Box::new(comb)),
                s,
            )));
            body.push(st(StmtKind::If(cond, Box::new(set), None)));
            d <<= 1;
        }
        if name == "exclusive_scan" {
            let prev = below(self, 1);
            body.push(decl(self, "__prev", ty, prev));
            let (r, z) = (self.e_ident(at, "rank"), self.e_int(at, 0));
            let p = self.e_ident(at, "__prev");
            let s = self.syn_span(at);
            let pick = if op == "plus" {
                let first = self.e_bin(at, BinOp::Eq, r, z);
                let zero = self.e_int(at, 0);
                let zero = Expr::new(ExprKind::Cast(Ty::Val(ty), Box::new(zero)), s);
                let s = self.syn_span(at);
                Expr::new(
                    ExprKind::Ternary(Box::new(first), Box::new(zero), Box::new(p)),
                    s,
                )
            } else {
                let later = self.e_bin(at, BinOp::Ne, r, z);
                let why = Expr::new(ExprKind::Str(EXCLUSIVE_FIRST_WHY.into()), s);
                self.e_call(at, crate::builtins::VALID_ONLY, vec![p, later, why])
            };
            let target = self.e_ident(at, "v");
            let s = self.syn_span(at);
            body.push(st(StmtKind::Expr(Expr::new(
                ExprKind::Assign(None, Box::new(target), Box::new(pick)),
                s,
            ))));
        }
        let v = self.e_ident(at, "v");
        body.push(st(StmtKind::Return(Some(v))));
        let mask_ty = self.mask_ty();
        Ok(Function {
            name: fname.to_string(),
            entry: false,
            ret: Ty::Val(ty),
            params: vec![
                Param {
                    name: "v".into(),
                    ty: Ty::Val(ty),
                    reference: false,
                    const_ref: false,
                    span: at,
                },
                Param {
                    name: "m".into(),
                    ty: mask_ty,
                    reference: false,
                    const_ref: false,
                    span: at,
                },
            ],
            body: st(StmtKind::Block(body)),
            launch_bounds: None,
            vf_call_dim: None,
            span: at,
            snippet: false,
            defaults: Vec::new(),
            empty_params: Vec::new(),
        })
    }
}
