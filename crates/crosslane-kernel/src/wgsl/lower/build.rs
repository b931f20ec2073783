//! Small builders of engine statements and expressions: literals, casts, zero values, the depth error.

use super::*;

pub(super) fn stmt(kind: StmtKind, span: ast::Span) -> Stmt {
    Stmt {
        kind,
        span,
        end: span,
    }
}

pub(super) fn ex(kind: ExprKind, span: ast::Span) -> Expr {
    Expr::new(kind, span)
}

pub(super) fn int_lit(v: u64, at: ast::Span) -> Expr {
    ex(
        ExprKind::Int {
            value: v,
            unsigned: true,
            long: false,
        },
        at,
    )
}

pub(super) fn cast(s: Scalar, e: Expr, at: ast::Span) -> Expr {
    ex(ExprKind::Cast(Ty::Val(ValTy::scalar(s)), Box::new(e)), at)
}

pub(super) fn bin(op: BinOp, a: Expr, b: Expr, at: ast::Span) -> Expr {
    ex(ExprKind::Binary(op, Box::new(a), Box::new(b)), at)
}

pub(super) fn zero(t: ValTy, at: ast::Span) -> Expr {
    let lit = if t.scalar.is_float() {
        ex(
            ExprKind::Float {
                value: 0.0,
                single: true,
            },
            at,
        )
    } else if t.scalar == Scalar::Bool {
        ex(ExprKind::Bool(false), at)
    } else {
        int_lit(0, at)
    };
    cast(t.scalar, lit, at)
}

pub(super) fn depth_err(at: ast::Span, max: u32) -> KernelError {
    KernelError::new(
        at.line,
        at.col,
        format!(
            "expression nested deeper than the nesting limit of {max}; raise it with --max-depth"
        ),
    )
}

pub(super) fn literal(l: Literal, at: ast::Span) -> Expr {
    let int = |v: u64, unsigned: bool, long: bool| {
        ex(
            ExprKind::Int {
                value: v,
                unsigned,
                long,
            },
            at,
        )
    };
    let neg_int = |v: i64, s: Scalar| {
        if v < 0 {
            cast(
                s,
                ex(
                    ExprKind::Unary(UnOp::Neg, Box::new(int(v.unsigned_abs(), false, true))),
                    at,
                ),
                at,
            )
        } else {
            cast(s, int(v as u64, false, s == Scalar::I64), at)
        }
    };
    match l {
        Literal::U32(v) => int(u64::from(v), true, false),
        Literal::U16(v) => cast(Scalar::U16, int(u64::from(v), true, false), at),
        Literal::I16(v) => neg_int(i64::from(v), Scalar::I16),
        Literal::I32(v) => neg_int(i64::from(v), Scalar::I32),
        Literal::U64(v) => int(v, true, true),
        Literal::I64(v) => neg_int(v, Scalar::I64),
        Literal::AbstractInt(v) => neg_int(v, Scalar::I64),
        Literal::F32(v) => ex(
            ExprKind::Float {
                value: f64::from(v),
                single: true,
            },
            at,
        ),
        Literal::F16(v) => cast(
            Scalar::F16,
            ex(
                ExprKind::Float {
                    value: f64::from(v.to_f32()),
                    single: true,
                },
                at,
            ),
            at,
        ),
        Literal::F64(v) | Literal::AbstractFloat(v) => ex(
            ExprKind::Float {
                value: v,
                single: false,
            },
            at,
        ),
        Literal::Bool(b) => ex(ExprKind::Bool(b), at),
    }
}
