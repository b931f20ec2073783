//! Small library calls of libcu++ and the C++ standard library that kernels write beside
//! their arithmetic: `cuda::ceil_div(a, b)`, `std::clamp(v, lo, hi)` and `std::popcount(x)`
//! (`cuda::std::` reads as `std::`, [`super::cuda_std`]). Each becomes a device function built
//! once per operand type, so each argument is evaluated once ([expr.call]/8); a violated
//! precondition gives an undefined result with the rule's name, never a number.
//!
//! Sources:
//! - `cuda::ceil_div(T value, U divisor)` (CCCL documentation, libcu++ extended API, "Math",
//!   `cuda::ceil_div`): returns `common_type_t<T, U>`, `value / divisor` rounded up to the
//!   next integer; *Preconditions*: `value >= 0` and `divisor > 0`; integer types only.
//! - `std::clamp(v, lo, hi)` (C++17 [alg.clamp]/2–3): *Requires* `lo` no greater than `hi`
//!   (a violation is undefined behaviour, [res.on.required]); returns `lo` if `v < lo`, `hi`
//!   if `hi < v`, otherwise `v` (so a NaN `v` comes back as itself). One type `T` for the
//!   three, as the template deduces it ([temp.deduct.call]): differing types are refused,
//!   as nvcc refuses them.
//! - `std::popcount(x)` (C++20 [bit.count]): the number of 1 bits of `x`, an `int`; `T` must
//!   be an unsigned integer type ([bit.count]/1, *Constraints*).

use super::{PResult, Parser};
use crate::ast::*;
use crate::lexer::Tok;
use crate::types::{BinOp, Scalar, Ty, ValTy};
use crate::KernelError;

/// Which helper.
#[derive(Clone, Copy, PartialEq)]
enum Helper {
    CeilDiv,
    Clamp,
    Popcount,
}

impl Parser<'_> {
    /// `cuda::ceil_div(…)`, `std::clamp(…)` or `std::popcount(…)` at the current token: the
    /// call of its device function; `None` (nothing read) otherwise, or where the source
    /// defines a function of that name itself.
    ///
    /// # Errors
    /// The wrong number of arguments; operands whose type the front end cannot tell here, of
    /// the wrong kind (a float to `ceil_div`, a signed integer to `popcount`), or of
    /// differing types for `clamp`.
    pub(super) fn lib_helper_call(&mut self) -> PResult<Option<Expr>> {
        let (Tok::Ident(ns), Tok::Punct("::"), Tok::Ident(name), Tok::Punct("(")) =
            (self.peek(0), self.peek(1), self.peek(2), self.peek(3))
        else {
            return Ok(None);
        };
        let helper = match (ns.as_str(), name.as_str()) {
            ("cuda", "ceil_div") => Helper::CeilDiv,
            ("std", "clamp") => Helper::Clamp,
            ("std", "popcount") => Helper::Popcount,
            _ => return Ok(None),
        };
        let shown = format!("{ns}::{name}");
        if self.fn_types.contains_key(name.as_str()) || self.templates.contains_key(name.as_str()) {
            return Ok(None);
        }
        let at = self.span();
        for _ in 0..4 {
            self.bump();
        }
        let args = self.args_closed_by(")")?;
        let arity = if helper == Helper::Clamp {
            3
        } else if helper == Helper::CeilDiv {
            2
        } else {
            1
        };
        let refuse = |msg: String| Err(KernelError::new(at.line, at.col, msg));
        if args.len() != arity {
            return refuse(format!("`{shown}` takes {arity} argument(s)"));
        }
        let mut types = Vec::new();
        for a in &args {
            match self.expr_type(a) {
                Some(t) if t.lanes <= 1 => types.push(t.scalar),
                _ => {
                    return refuse(format!(
                        "`{shown}`: the type of an argument is not known here; cast it \
                         (`(int)x`)"
                    ))
                }
            }
        }
        let f = match helper {
            Helper::CeilDiv => {
                if types.iter().any(|t| t.is_float() || *t == Scalar::Bool) {
                    return refuse(format!(
                        "`{shown}` takes integers (libcu++: `T` and `U` are integer types)"
                    ));
                }
                let c = if types[0] == types[1] {
                    types[0]
                } else {
                    Scalar::common(types[0], types[1])
                };
                self.ceil_div_fn(c, at)
            }
            Helper::Clamp => {
                if types[1] != types[0] || types[2] != types[0] {
                    return refuse(format!(
                        "`{shown}`'s three arguments deduce one type `T` (C++17 [alg.clamp]); \
                         these are {}, {} and {}: cast them to one type",
                        types[0].name(),
                        types[1].name(),
                        types[2].name()
                    ));
                }
                self.clamp_fn(types[0], at)
            }
            Helper::Popcount => {
                let t = types[0];
                if t.is_float() || t.is_signed() || t == Scalar::Bool {
                    return refuse(format!(
                        "`{shown}` takes an unsigned integer (C++20 [bit.count]); this is {}: \
                         cast it (`(unsigned)x`)",
                        t.name()
                    ));
                }
                let Some(x) = args.into_iter().next() else {
                    return refuse(format!("`{shown}` takes 1 argument(s)"));
                };
                let (f, cast) = if t.bits() == 64 {
                    ("__popcll", Scalar::U64)
                } else {
                    ("__popc", Scalar::U32)
                };
                let s = self.syn_span(at);
                let x = Expr::new(ExprKind::Cast(Ty::Val(ValTy::scalar(cast)), Box::new(x)), s);
                return self.node(ExprKind::Call(f.into(), vec![x]), at).map(Some);
            }
        };
        self.node(ExprKind::Call(f, args), at).map(Some)
    }

    fn helper_param(name: &str, t: Scalar, at: Span) -> Param {
        Param {
            name: name.to_string(),
            ty: Ty::Val(ValTy::scalar(t)),
            reference: false,
            const_ref: false,
            span: at,
        }
    }

    /// `cond ? value : undefined(why)`, converted to `t`.
    fn defined_if(&mut self, cond: Expr, value: Expr, t: Scalar, why: &str, at: Span) -> Expr {
        let keep = self.e_int(at, 0);
        let s = self.syn_span(at);
        let reason = Expr::new(ExprKind::Str(why.to_string()), s);
        let a = self.e_ident(at, "a");
        let undefined = self.e_call(at, crate::builtins::VALID_ONLY, vec![a, keep, reason]);
        let s = self.syn_span(at);
        let pick = Expr::new(
            ExprKind::Ternary(Box::new(cond), Box::new(value), Box::new(undefined)),
            s,
        );
        let s = self.syn_span(at);
        Expr::new(ExprKind::Cast(Ty::Val(ValTy::scalar(t)), Box::new(pick)), s)
    }

    fn helper_fn(&mut self, fname: &str, t: Scalar, params: Vec<Param>, value: Expr, at: Span) {
        let body = Stmt {
            kind: StmtKind::Return(Some(value)),
            span: at,
            end: at,
        };
        self.push_built_fn(fname, Ty::Val(ValTy::scalar(t)), params, body, at);
    }

    /// `ceil_div` on the common type `c`: `a / b + (a % b != 0)` where `a >= 0 && b > 0`.
    fn ceil_div_fn(&mut self, c: Scalar, at: Span) -> String {
        let fname = format!("__lib_ceil_div_{}", c.name().replace(' ', "_"));
        if self.fn_types.contains_key(&fname) {
            return fname;
        }
        let id = |p: &mut Self, n: &str| p.e_ident(at, n);
        let (a, b) = (id(self, "a"), id(self, "b"));
        let q = self.e_bin(at, BinOp::Div, a, b);
        let (a, b) = (id(self, "a"), id(self, "b"));
        let r = self.e_bin(at, BinOp::Rem, a, b);
        let zero = self.e_int(at, 0);
        let inexact = self.e_bin(at, BinOp::Ne, r, zero);
        let (one, nil) = (self.e_int(at, 1), self.e_int(at, 0));
        let s = self.syn_span(at);
        let up = Expr::new(
            ExprKind::Ternary(Box::new(inexact), Box::new(one), Box::new(nil)),
            s,
        );
        let value = self.e_bin(at, BinOp::Add, q, up);
        let (a, zero) = (id(self, "a"), self.e_int(at, 0));
        let a_ok = self.e_bin(at, BinOp::Ge, a, zero);
        let (b, zero) = (id(self, "b"), self.e_int(at, 0));
        let b_ok = self.e_bin(at, BinOp::Gt, b, zero);
        let s = self.syn_span(at);
        let cond = Expr::new(ExprKind::Logical(true, Box::new(a_ok), Box::new(b_ok)), s);
        let value = self.defined_if(
            cond,
            value,
            c,
            "cuda::ceil_div with a value below 0 or a divisor not above 0 (libcu++ \
             ceil_div preconditions: value >= 0, divisor > 0)",
            at,
        );
        let params = vec![
            Self::helper_param("a", c, at),
            Self::helper_param("b", c, at),
        ];
        self.helper_fn(&fname, c, params, value, at);
        fname
    }

    /// `clamp` on `t` (parameters `a` the value, `lo`, `hi`):
    /// `!(hi < lo) ? (a < lo ? lo : hi < a ? hi : a) : undefined`.
    fn clamp_fn(&mut self, t: Scalar, at: Span) -> String {
        let fname = format!("__lib_clamp_{}", t.name().replace(' ', "_"));
        if self.fn_types.contains_key(&fname) {
            return fname;
        }
        let id = |p: &mut Self, n: &str| p.e_ident(at, n);
        let tern = |p: &mut Self, c: Expr, x: Expr, y: Expr| {
            let s = p.syn_span(at);
            Expr::new(ExprKind::Ternary(Box::new(c), Box::new(x), Box::new(y)), s)
        };
        let (h, a) = (id(self, "hi"), id(self, "a"));
        let above = self.e_bin(at, BinOp::Lt, h, a);
        let (h, a) = (id(self, "hi"), id(self, "a"));
        let inner = tern(self, above, h, a);
        let (a, l) = (id(self, "a"), id(self, "lo"));
        let below = self.e_bin(at, BinOp::Lt, a, l);
        let l = id(self, "lo");
        let value = tern(self, below, l, inner);
        // `!(hi < lo)` rather than `lo <= hi`: a NaN bound is not "greater", so it stays
        // defined (and the comparisons then return `a` or the bound as written).
        let (h, l) = (id(self, "hi"), id(self, "lo"));
        let inverted = self.e_bin(at, BinOp::Lt, h, l);
        let s = self.syn_span(at);
        let not_inverted = Expr::new(
            ExprKind::Unary(crate::types::UnOp::Not, Box::new(inverted)),
            s,
        );
        let value = self.defined_if(
            not_inverted,
            value,
            t,
            "std::clamp with hi < lo (C++17 [alg.clamp]/2 requires lo no greater than hi)",
            at,
        );
        let params = vec![
            Self::helper_param("a", t, at),
            Self::helper_param("lo", t, at),
            Self::helper_param("hi", t, at),
        ];
        self.helper_fn(&fname, t, params, value, at);
        fname
    }
}
