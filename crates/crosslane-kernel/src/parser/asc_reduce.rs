//! Ascend C's warp reductions on floating-point values: the `float` and `half` overloads of
//! `asc_reduce_add`, `asc_reduce_max` and `asc_reduce_min` (CANN API reference,
//! `asc_reduce_add` … `asc_reduce_min`, "函数原型": `inline float asc_reduce_add(float val)`,
//! `inline half asc_reduce_add(half val)`, the same for max and min; "对Warp内所有活跃线程输入的
//! val求和。Warp内所有活跃线程返回相同的结果": the sum (max, min) of `val` over the warp's active
//! threads, the same result in every active thread). The integer overloads run as CUDA's
//! `__reduce_*_sync` over the active lanes (`super::cg`).
//!
//! Order: the reference's restriction for the sum says it is computed by a binary (二分) tree
//! whose result can differ from a sequential sum (`(((a + b) + c) + d)` against
//! `((a + b) + (c + d))`), and gives no pairing. It runs here as the xor butterfly over the
//! 32-thread warp (offsets 16, 8, 4, 2, 1: `v = v + shfl_xor(v, off)`), one such tree, in which
//! every lane ends with the same value (IEEE addition is commutative); a note at each call says
//! that another pairing can round differently. Max and min of numbers do not depend on the
//! order; a NaN's outcome follows this order (`(o > v) ? o : v` keeps `v` against a NaN `o`),
//! the reference saying nothing of NaN.
//!
//! The butterfly reads every lane of the warp; over a partial warp (some threads inactive or
//! exited) the pairing of the active ones is not documented, so the result is given only when
//! the whole warp is active, and is undefined otherwise, with that reason.

use super::{PResult, Parser};
use crate::ast::*;
use crate::builtins::VALID_ONLY;
use crate::types::{BinOp, Scalar, Ty, UnOp, ValTy};
use crosslane_core::result::Level;

/// The source the notes cite.
const RULE: &str = "CANN API reference, asc_reduce_add / asc_reduce_max / asc_reduce_min \
                    (function prototypes; restrictions: the sum is a binary tree, not sequential)";

/// The reduction an `asc_reduce_*` name asks for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Add,
    Max,
    Min,
}

impl Kind {
    fn of(name: &str) -> Option<Kind> {
        Some(match name {
            "asc_reduce_add" => Kind::Add,
            "asc_reduce_max" => Kind::Max,
            "asc_reduce_min" => Kind::Min,
            _ => return None,
        })
    }

    fn tag(self) -> &'static str {
        match self {
            Kind::Add => "add",
            Kind::Max => "max",
            Kind::Min => "min",
        }
    }
}

impl Parser<'_> {
    /// `asc_reduce_add(v)` (or `_max`, `_min`) when `v`'s type is `float` or `half`: a call of
    /// a device function built for that type ([`Parser::asc_reduce_fn`]); `None` for another
    /// name or type (the integer overloads, or a type the parser cannot tell).
    pub(super) fn asc_reduce_float(
        &mut self,
        name: &str,
        args: &[Expr],
        at: Span,
    ) -> PResult<Option<Expr>> {
        let Some(kind) = Kind::of(name) else {
            return Ok(None);
        };
        let [arg] = args else {
            return Ok(None);
        };
        let ty = match self.expr_type(arg) {
            Some(t) if t.lanes == 1 && matches!(t.scalar, Scalar::F32 | Scalar::F16) => t,
            _ => return Ok(None),
        };
        if kind == Kind::Add {
            self.diag(
                at,
                Level::Info,
                format!(
                    "`{name}` on {}: the CANN reference sums by a binary tree without giving its \
                     pairing, and says the result can differ from a sequential sum; run here as \
                     the xor butterfly (offsets 16, 8, 4, 2, 1), one such tree: another pairing \
                     can round the last bits differently",
                    ty.scalar.name()
                ),
                RULE,
            );
        }
        let f = self.asc_reduce_fn(kind, ty, at);
        Ok(Some(self.e_call(at, &f, vec![arg.clone()])))
    }

    /// The device function `__asc_reduce_<kind>_<type>(v)`: undefined (with the reason) when
    /// not every lane of the warp is active, else five butterfly steps (see the module doc).
    fn asc_reduce_fn(&mut self, kind: Kind, ty: ValTy, at: Span) -> String {
        let fname = format!(
            "__asc_reduce_{}_{}",
            kind.tag(),
            ty.scalar.name().replace(' ', "_")
        );
        if self.fn_types.contains_key(&fname) {
            return fname;
        }
        let stmt = |kind: StmtKind| Stmt {
            kind,
            span: at,
            end: at,
        };
        let mut stmts = Vec::new();
        // A partial warp returns at once, before a shuffle reads an inactive lane.
        let active = self.e_call(at, "__activemask", Vec::new());
        let full = self.e_mask(at, 0xffff_ffff);
        let whole = self.e_bin(at, BinOp::Eq, active, full);
        let why = format!(
            "asc_reduce_{} over a partial warp: the pairing of the active threads is not \
             documented (CANN API reference, asc_reduce_{}: a binary tree over the active \
             threads), so the result is given only when all 32 threads of the warp are active",
            kind.tag(),
            kind.tag()
        );
        let s = self.syn_span(at);
        let why = Expr::new(ExprKind::Str(why), s);
        let v = self.e_ident(at, "v");
        let r = self.e_call(at, VALID_ONLY, vec![v, whole.clone(), why]);
        let s = self.syn_span(at);
        let partial = Expr::new(ExprKind::Unary(UnOp::Not, Box::new(whole)), s);
        stmts.push(stmt(StmtKind::If(
            partial,
            Box::new(stmt(StmtKind::Return(Some(r)))),
            None,
        )));
        let mut off = 16;
        while off > 0 {
            let o = format!("__o{off}");
            let v = self.e_ident(at, "v");
            let k = self.e_int(at, off);
            let sh = self.e_call(at, "asc_shfl_xor", vec![v, k]);
            let span = self.syn_span(at);
            stmts.push(stmt(StmtKind::Decl(
                Storage::default(),
                vec![Declarator {
                    name: o.clone(),
                    ty: Ty::Val(ty),
                    array: None,
                    init: Some(sh),
                    span,
                    id: NodeId::fresh(),
                }],
            )));
            let (ev, eo) = (self.e_ident(at, "v"), self.e_ident(at, &o));
            let value = match kind {
                Kind::Add => self.e_bin(at, BinOp::Add, ev, eo),
                Kind::Max | Kind::Min => {
                    let op = if kind == Kind::Max {
                        BinOp::Gt
                    } else {
                        BinOp::Lt
                    };
                    let cond = self.e_bin(at, op, eo.clone(), ev.clone());
                    let s = self.syn_span(at);
                    Expr::new(
                        ExprKind::Ternary(Box::new(cond), Box::new(eo), Box::new(ev)),
                        s,
                    )
                }
            };
            let target = self.e_ident(at, "v");
            let s = self.syn_span(at);
            stmts.push(stmt(StmtKind::Expr(Expr::new(
                ExprKind::Assign(None, Box::new(target), Box::new(value)),
                s,
            ))));
            off >>= 1;
        }
        let v = self.e_ident(at, "v");
        stmts.push(stmt(StmtKind::Return(Some(v))));
        let params = vec![Param {
            name: "v".to_string(),
            ty: Ty::Val(ty),
            reference: false,
            const_ref: false,
            span: at,
        }];
        let body = stmt(StmtKind::Block(stmts));
        self.push_built_fn(&fname, Ty::Val(ty), params, body, at);
        fname
    }
}
