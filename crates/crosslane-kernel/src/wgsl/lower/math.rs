//! naga's math built-ins → calls of the WGSL built-ins table ([`crate::wgsl::math`]),
//! one per vector component; the geometric ones (WGSL spec § 17.5: `dot`, `length`,
//! `distance`, `normalize`, `cross`, `reflect`, `faceForward`, `refract`) written out from
//! their component formulas, so each product and sum is a step of the engine.

use super::*;
use crate::wgsl::math::wgsl_name;

impl Lower<'_> {
    /// Component `k` of the math built-in `fun` applied to `args` (expression `h`).
    pub(super) fn math(
        &mut self,
        h: Handle<Expression>,
        fun: MathFunction,
        args: &[Option<Handle<Expression>>; 4],
        k: Option<u32>,
        d: u32,
        at: ast::Span,
    ) -> Result<Expr, KernelError> {
        use MathFunction as M;
        let a0 = args[0].ok_or_else(|| KernelError::new(at.line, at.col, "no argument"))?;
        let arg = |n: usize| args[n].unwrap_or(a0);
        let call = |n: &str, v: Vec<Expr>| ex(ExprKind::Call(format!("wgsl.{n}"), v), at);
        let t = self.comp_ty(h, at)?;
        let kk = k.unwrap_or(0);
        let e = match fun {
            M::Dot => return self.dot_sum(a0, arg(1), t.scalar, d, at),
            M::Length => {
                if self.vector(a0).is_none() {
                    let x = self.expr(a0, d)?;
                    call("abs", vec![x])
                } else {
                    let s = self.dot_sum(a0, a0, t.scalar, d, at)?;
                    call("sqrt", vec![s])
                }
            }
            M::Distance => {
                // length(e1 - e2): the squares of the component differences, summed.
                let n = self.vector(a0).unwrap_or(1);
                let mut sum: Option<Expr> = None;
                for c in 0..n {
                    let x = self.diff(a0, arg(1), c, t.scalar, d, at)?;
                    let y = self.diff(a0, arg(1), c, t.scalar, d, at)?;
                    let p = cast(t.scalar, bin(BinOp::Mul, x, y, at), at);
                    sum = Some(match sum {
                        None => p,
                        Some(s) => cast(t.scalar, bin(BinOp::Add, s, p, at), at),
                    });
                }
                let s = sum.ok_or_else(|| KernelError::new(at.line, at.col, "empty vector"))?;
                call("sqrt", vec![s])
            }
            M::Normalize => {
                // e / length(e).
                let x = self.expr_c(a0, Some(kk), d)?;
                let s = self.dot_sum(a0, a0, t.scalar, d, at)?;
                bin(BinOp::Div, x, call("sqrt", vec![s]), at)
            }
            M::Cross => {
                // (a.y b.z - a.z b.y, a.z b.x - a.x b.z, a.x b.y - a.y b.x).
                let (i, j) = ((kk + 1) % 3, (kk + 2) % 3);
                let (b0, b1) = (a0, arg(1));
                let p = {
                    let x = self.expr_c(b0, Some(i), d)?;
                    let y = self.expr_c(b1, Some(j), d)?;
                    cast(t.scalar, bin(BinOp::Mul, x, y, at), at)
                };
                let q = {
                    let x = self.expr_c(b0, Some(j), d)?;
                    let y = self.expr_c(b1, Some(i), d)?;
                    cast(t.scalar, bin(BinOp::Mul, x, y, at), at)
                };
                bin(BinOp::Sub, p, q, at)
            }
            M::Reflect => {
                // e1 - 2 * dot(e2, e1) * e2.
                let dt = self.dot_sum(arg(1), a0, t.scalar, d, at)?;
                let two = cast(t.scalar, literal(Literal::F32(2.0), at), at);
                let e2 = self.expr_c(arg(1), Some(kk), d)?;
                let s = cast(
                    t.scalar,
                    bin(
                        BinOp::Mul,
                        cast(t.scalar, bin(BinOp::Mul, two, dt, at), at),
                        e2,
                        at,
                    ),
                    at,
                );
                let e1 = self.expr_c(a0, Some(kk), d)?;
                bin(BinOp::Sub, e1, s, at)
            }
            M::FaceForward => {
                // select(-e1, e1, dot(e2, e3) < 0).
                let dt = self.dot_sum(arg(1), arg(2), t.scalar, d, at)?;
                let z = zero(t, at);
                let c = bin(BinOp::Lt, dt, z, at);
                let e1 = self.expr_c(a0, Some(kk), d)?;
                let ne1 = ex(
                    ExprKind::Unary(UnOp::Neg, Box::new(self.expr_c(a0, Some(kk), d)?)),
                    at,
                );
                ex(
                    ExprKind::Ternary(Box::new(c), Box::new(e1), Box::new(ne1)),
                    at,
                )
            }
            M::Refract => {
                // k = 1 - eta^2 (1 - dot(n, i)^2); 0 when k < 0, else
                // eta * i - (eta * dot(n, i) + sqrt(k)) * n.
                let (i, n, eta) = (a0, arg(1), arg(2));
                let one = || cast(Scalar::F32, literal(Literal::F32(1.0), at), at);
                let kexpr = |me: &mut Self| -> Result<Expr, KernelError> {
                    let d1 = me.dot_sum(n, i, t.scalar, d, at)?;
                    let d2 = me.dot_sum(n, i, t.scalar, d, at)?;
                    let e1 = me.expr(eta, d)?;
                    let e2 = me.expr(eta, d)?;
                    let inner = bin(BinOp::Sub, one(), bin(BinOp::Mul, d1, d2, at), at);
                    Ok(bin(
                        BinOp::Sub,
                        one(),
                        bin(BinOp::Mul, bin(BinOp::Mul, e1, e2, at), inner, at),
                        at,
                    ))
                };
                let kneg = bin(BinOp::Lt, kexpr(self)?, zero(t, at), at);
                let ei = bin(
                    BinOp::Mul,
                    self.expr(eta, d)?,
                    self.expr_c(i, Some(kk), d)?,
                    at,
                );
                let ed = bin(
                    BinOp::Mul,
                    self.expr(eta, d)?,
                    self.dot_sum(n, i, t.scalar, d, at)?,
                    at,
                );
                let root = call("sqrt", vec![kexpr(self)?]);
                let nk = self.expr_c(n, Some(kk), d)?;
                let r = bin(
                    BinOp::Sub,
                    ei,
                    bin(BinOp::Mul, bin(BinOp::Add, ed, root, at), nk, at),
                    at,
                );
                ex(
                    ExprKind::Ternary(Box::new(kneg), Box::new(zero(t, at)), Box::new(r)),
                    at,
                )
            }
            M::Min | M::Max => {
                let a = self.expr_c(a0, k, d)?;
                let b = self.expr_c(arg(1), k, d)?;
                let n = if fun == M::Min { "min" } else { "max" };
                ex(ExprKind::Call(n.into(), vec![a, b]), at)
            }
            M::Clamp => {
                // WGSL § clamp: min(max(e, low), high).
                let a = self.expr_c(a0, k, d)?;
                let lo = self.expr_c(arg(1), k, d)?;
                let hi = self.expr_c(arg(2), k, d)?;
                let c = |n: &str, v: Vec<Expr>| ex(ExprKind::Call(n.into(), v), at);
                c("min", vec![c("max", vec![a, lo]), hi])
            }
            M::Pack4x8snorm
            | M::Pack4x8unorm
            | M::Pack2x16snorm
            | M::Pack2x16unorm
            | M::Pack2x16float
            | M::Pack4xI8
            | M::Pack4xU8
            | M::Pack4xI8Clamp
            | M::Pack4xU8Clamp => {
                // A vector in, a u32 out: every component is an argument.
                let n = self.vector(a0).unwrap_or(1);
                let mut v = Vec::new();
                for c in 0..n {
                    v.push(self.expr_c(a0, Some(c), d)?);
                }
                call(&wgsl_name(fun), v)
            }
            M::Unpack4x8snorm
            | M::Unpack4x8unorm
            | M::Unpack2x16snorm
            | M::Unpack2x16unorm
            | M::Unpack2x16float
            | M::Unpack4xI8
            | M::Unpack4xU8 => {
                // A u32 in, component k of a vector out.
                let x = self.expr(a0, d)?;
                call(&wgsl_name(fun), vec![x, int_lit(kk.into(), at)])
            }
            M::Modf | M::Frexp => {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    "the result of modf/frexp is emulated through its members (`.fract`, \
                     `.whole`, `.exp`)",
                ))
            }
            M::Transpose => return self.transpose(h, a0, kk, d),
            M::Determinant => return self.determinant(a0, d, at),
            M::Outer | M::Inverse => {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    format!("the matrix built-in {} is not emulated yet", wgsl_name(fun)),
                ))
            }
            _ => {
                // Component-wise: component k of each vector argument, a scalar one as itself.
                let name = wgsl_name(fun);
                if !crate::wgsl::math::is_builtin(&name) {
                    return Err(KernelError::new(
                        at.line,
                        at.col,
                        format!("the built-in {name} is not emulated yet"),
                    ));
                }
                let mut v = Vec::new();
                for a in args.iter().flatten() {
                    v.push(self.expr_c(*a, k, d)?);
                }
                call(&name, v)
            }
        };
        Ok(cast(t.scalar, e, at))
    }

    /// WGSL § dot: the sum of the component products, in component order, each rounded to
    /// the component type.
    pub(super) fn dot_sum(
        &mut self,
        a: Handle<Expression>,
        b: Handle<Expression>,
        t: Scalar,
        d: u32,
        at: ast::Span,
    ) -> Result<Expr, KernelError> {
        let n = self.vector(a).unwrap_or(1);
        let mut sum: Option<Expr> = None;
        for k in 0..n {
            let x = self.expr_c(a, Some(k), d)?;
            let y = self.expr_c(b, Some(k), d)?;
            let p = cast(t, bin(BinOp::Mul, x, y, at), at);
            sum = Some(match sum {
                None => p,
                Some(s) => cast(t, bin(BinOp::Add, s, p, at), at),
            });
        }
        sum.ok_or_else(|| KernelError::new(at.line, at.col, "empty dot"))
    }

    fn diff(
        &mut self,
        a: Handle<Expression>,
        b: Handle<Expression>,
        c: u32,
        t: Scalar,
        d: u32,
        at: ast::Span,
    ) -> Result<Expr, KernelError> {
        let x = self.expr_c(a, Some(c), d)?;
        let y = self.expr_c(b, Some(c), d)?;
        Ok(cast(t, bin(BinOp::Sub, x, y, at), at))
    }

    /// Member `index` of a `modf` / `frexp` result (WGSL § modf: `fract`, `whole`; § frexp:
    /// `fract`, `exp`), component `k`: `None` when `base` is no such call.
    pub(super) fn modf_frexp_member(
        &mut self,
        base: Handle<Expression>,
        index: u32,
        k: Option<u32>,
        d: u32,
        at: ast::Span,
    ) -> Result<Option<Expr>, KernelError> {
        let Expression::Math { fun, arg, .. } = self.func.expressions[base] else {
            return Ok(None);
        };
        let name = match (fun, index) {
            (MathFunction::Modf, 0) => "wgsl.modf.fract",
            (MathFunction::Modf, _) => "wgsl.modf.whole",
            (MathFunction::Frexp, 0) => "wgsl.frexp.fract",
            (MathFunction::Frexp, _) => "wgsl.frexp.exp",
            _ => return Ok(None),
        };
        let x = self.expr_c(arg, k, d)?;
        let t = self.comp_ty(arg, at)?;
        let call = ex(ExprKind::Call(name.into(), vec![x]), at);
        Ok(Some(if name == "wgsl.frexp.exp" {
            cast(Scalar::I32, call, at)
        } else {
            cast(t.scalar, call, at)
        }))
    }

    /// Whether `h` is a `modf` / `frexp` call (a struct value held through its members).
    pub(super) fn is_modf_frexp(&self, h: Handle<Expression>) -> bool {
        matches!(
            self.func.expressions[h],
            Expression::Math {
                fun: MathFunction::Modf | MathFunction::Frexp,
                ..
            }
        )
    }
}
