//! Constants in host code and template arguments: [`HostVal`] and [`const_eval`], which folds a
//! literal, a known name or an arithmetic expression of them. Its own module because host code
//! ([`super::host`]) and templates ([`super::templates`]) both fold constants, and host code
//! instantiates templates: each imports this, not the other.

use std::collections::HashMap;

use crate::ast::*;
use crate::types::{BinOp, UnOp};

/// A constant known in host code.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum HostVal {
    /// An integer.
    Int(i128),
    /// A floating-point number.
    Float(f64),
    /// A `dim3` (x, y, z).
    Dim([i128; 3]),
}

impl HostVal {
    pub(super) fn int(self) -> Option<i128> {
        match self {
            HostVal::Int(n) => Some(n),
            HostVal::Dim([x, 1, 1]) => Some(x),
            _ => None,
        }
    }

    pub(super) fn float(self) -> f64 {
        match self {
            HostVal::Int(n) => n as f64,
            HostVal::Float(x) => x,
            HostVal::Dim([x, _, _]) => x as f64,
        }
    }

    /// The number as the kernel argument text (`--arg` syntax).
    pub fn text(self) -> Option<String> {
        match self {
            HostVal::Int(n) => Some(n.to_string()),
            HostVal::Float(x) => Some(format!("{x:?}")),
            HostVal::Dim(_) => None,
        }
    }

    pub(super) fn dims(self) -> Option<[u64; 3]> {
        let d = match self {
            HostVal::Int(n) => [n, 1, 1],
            HostVal::Dim(d) => d,
            HostVal::Float(_) => return None,
        };
        Some([
            u64::try_from(d[0]).ok()?,
            u64::try_from(d[1]).ok()?,
            u64::try_from(d[2]).ok()?,
        ])
    }
}

/// Evaluates a constant host expression: literals, names in `env`, `+ - * / % << >> & | ^`,
/// comparisons, `?:`, casts, `sizeof`, `dim3(x, y, z)`, `min`/`max`. `None` for anything else.
/// Walks an expression the parser built, so its height is bounded by the depth budget.
pub fn const_eval(e: &Expr, env: &HashMap<String, HostVal>) -> Option<HostVal> {
    use HostVal::{Float, Int};
    Some(match &e.kind {
        ExprKind::Int { value, .. } => Int(i128::from(*value)),
        ExprKind::Float { value, .. } => Float(*value),
        ExprKind::Bool(b) => Int(i128::from(*b)),
        ExprKind::SizeOf(n) => Int(i128::from(*n)),
        ExprKind::Ident(n) => *env.get(n)?,
        ExprKind::Cast(ty, x) => {
            let v = const_eval(x, env)?;
            match ty {
                crate::types::Ty::Val(t) if t.scalar.is_float() => Float(v.float()),
                crate::types::Ty::Val(_) => match v {
                    Float(f) if f.is_finite() => Int(f.trunc() as i128),
                    other => Int(other.int()?),
                },
                _ => v,
            }
        }
        ExprKind::Unary(op, x) => match (op, const_eval(x, env)?) {
            (UnOp::Neg, Int(n)) => Int(n.checked_neg()?),
            (UnOp::Neg, Float(f)) => Float(-f),
            (UnOp::Plus, v) => v,
            (UnOp::Not, Int(n)) => Int(i128::from(n == 0)),
            (UnOp::BitNot, Int(n)) => Int(!n),
            _ => return None,
        },
        ExprKind::Logical(and, a, b) => {
            let a = const_eval(a, env)?.int()? != 0;
            // Short-circuit as [expr.log.and]/[expr.log.or]: the right side may be no constant.
            if a != *and {
                Int(i128::from(a))
            } else {
                Int(i128::from(const_eval(b, env)?.int()? != 0))
            }
        }
        ExprKind::Ternary(c, a, b) => {
            if const_eval(c, env)?.int()? != 0 {
                const_eval(a, env)?
            } else {
                const_eval(b, env)?
            }
        }
        // `dim3(…)` (read as `make_uint3` with the components left out as 1) and
        // `make_uint3(x, y, z)`, which converts to `dim3`.
        ExprKind::Call(name, args)
            if name == "dim3" || (name == "make_uint3" && args.len() == 3) =>
        {
            let mut d = [1i128; 3];
            for (k, a) in args.iter().take(3).enumerate() {
                d[k] = const_eval(a, env)?.int()?;
            }
            HostVal::Dim(d)
        }
        ExprKind::Call(name, args)
            if args.len() == 2 && matches!(name.as_str(), "min" | "max" | "std::min") =>
        {
            let a = const_eval(&args[0], env)?.int()?;
            let b = const_eval(&args[1], env)?.int()?;
            Int(if name == "max" { a.max(b) } else { a.min(b) })
        }
        ExprKind::Binary(op, a, b) => binary(*op, const_eval(a, env)?, const_eval(b, env)?)?,
        // `prop.warpSize`: a member a host call set (`hipGetDeviceProperties(&prop, 0)`),
        // kept in `env` under its dotted name.
        // A struct member host code set (`p.n = 20;`, `p.in.k`) is kept the same way. A
        // `dim3`'s `x`, `y`, `z` are its components (CUDA C++ Programming Guide, "dim3":
        // `grid((n + block.x - 1) / block.x)`).
        ExprKind::Member(b, field) => match member_path(e) {
            Some(path) if env.contains_key(&path) => env[&path],
            _ => match (const_eval(b, env)?, field.as_str()) {
                (HostVal::Dim(d), "x") => Int(d[0]),
                (HostVal::Dim(d), "y") => Int(d[1]),
                (HostVal::Dim(d), "z") => Int(d[2]),
                _ => return None,
            },
        },
        _ => return None,
    })
}

/// The dotted name of a member access of a variable (`p.n`, `p.in.k`), under which host code
/// keeps a member's value; `None` for any other expression.
pub(super) fn member_path(e: &Expr) -> Option<String> {
    match &e.kind {
        ExprKind::Ident(n) => Some(n.clone()),
        ExprKind::Member(b, field) => Some(format!("{}.{field}", member_path(b)?)),
        _ => None,
    }
}

/// `a op b` of two host constants: integers exactly (checked: an overflow is no constant),
/// else as `f64` for `+ - * /`. `None` for any other operator or an overflow.
pub(super) fn binary(op: BinOp, a: HostVal, b: HostVal) -> Option<HostVal> {
    use HostVal::{Float, Int};
    Some(if let (Int(a), Int(b)) = (a, b) {
        Int(match op {
            BinOp::Add => a.checked_add(b)?,
            BinOp::Sub => a.checked_sub(b)?,
            BinOp::Mul => a.checked_mul(b)?,
            BinOp::Div => a.checked_div(b)?,
            BinOp::Rem => a.checked_rem(b)?,
            BinOp::Shl if (0..64).contains(&b) => a.checked_mul(1i128 << b)?,
            BinOp::Shr if (0..127).contains(&b) => a >> b,
            BinOp::And => a & b,
            BinOp::Or => a | b,
            BinOp::Xor => a ^ b,
            BinOp::Lt => i128::from(a < b),
            BinOp::Le => i128::from(a <= b),
            BinOp::Gt => i128::from(a > b),
            BinOp::Ge => i128::from(a >= b),
            BinOp::Eq => i128::from(a == b),
            BinOp::Ne => i128::from(a != b),
            _ => return None,
        })
    } else {
        let (a, b) = (a.float(), b.float());
        Float(match op {
            BinOp::Add => a + b,
            BinOp::Sub => a - b,
            BinOp::Mul => a * b,
            BinOp::Div => a / b,
            _ => return None,
        })
    })
}
