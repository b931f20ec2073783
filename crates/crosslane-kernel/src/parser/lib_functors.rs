//! Library function objects called as functions: a temporary called where it is made
//! (`cub::Max()(a, b)`, `cuda::maximum<>{}(a, b)`, `std::less<int>()(a, b)`,
//! `cub::ArgMax()(x, y)`) and a named object of one (`cub::Max m; … m(a, b)`), the shapes
//! inference kernels write outside a CUB collective. Each call becomes a call of a device
//! function built once per rule and operand types, so each operand is evaluated once, as the
//! C++ call evaluates each argument once ([expr.call]/8).
//!
//! The rules, per library:
//! - CUB 2.x (CUDA 12) `cub/thread/thread_operators.cuh`: `Sum` returns `t + u`; `Max`
//!   returns `CUB_MAX(t, u)` and `Min` `CUB_MIN(t, u)` (`cub/util_macro.cuh`:
//!   `((b) > (a)) ? (b) : (a)` and `((b) < (a)) ? (b) : (a)`), typed as
//!   `common_type<T, U>`; `ArgMax` / `ArgMin` over `KeyValuePair`s with the smaller key
//!   winning a tie ([`super::cub_kv`]). CCCL 3.0 removed `Sum`/`Max`/`Min`
//!   ([`Parser::cub_removed_op`] warns).
//! - libcu++ `cuda::maximum<T>` / `cuda::minimum<T>` (CCCL documentation, "cuda::maximum and
//!   cuda::minimum", and `cuda/__functional/maximum.h`, `minimum.h`): `(lhs < rhs) ? rhs :
//!   lhs` and `(lhs < rhs) ? lhs : rhs`, returning `T`, or for `T = void` the
//!   `common_type_t<T1, T2>` of the operands. `cuda::minimum` keeps the *right* operand on a
//!   tie or an unordered pair (NaN, `+0` against `-0`) where `CUB_MIN` keeps the left.
//! - C++17 [arithmetic.operations], [comparisons], [logical.operations],
//!   [bitwise.operations]: `std::plus<T>` and the rest return `x OP y` (a comparison `bool`);
//!   the transparent `std::plus<>` returns `decltype(t + u)` ([arithmetic.operations.plus]/2).
//!
//! `common_type_t<T, U>` of two arithmetic types is `T` when they are the same, else the
//! usual arithmetic conversions' type ([meta.trans.other]/3: the type of `false ? t : u`).

use super::cub::Op;
use super::{PResult, Parser};
use crate::ast::*;
use crate::lexer::Tok;
use crate::types::{BinOp, Scalar, Ty, ValTy};
use crate::KernelError;

/// How a function object combines `a` and `b`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Rule {
    /// `a OP b` (the `<functional>` objects, `cub::Sum`).
    Bin(BinOp),
    /// `CUB_MAX(a, b)`, `(b > a) ? b : a`; `cuda::maximum`'s `(a < b) ? b : a` is the same
    /// expression with its comparison's operands swapped.
    Max,
    /// `CUB_MIN(a, b)`, `(b < a) ? b : a`.
    CubMin,
    /// `cuda::minimum`: `(a < b) ? a : b`.
    Minimum,
    /// `cub::ArgMax` (`true`) / `cub::ArgMin` over `KeyValuePair`s.
    Arg(bool),
}

/// A library function object: its rule, its type argument (`None`: transparent or CUB's
/// member template), and how its result is typed.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct LibOp {
    pub(super) rule: Rule,
    pub(super) ty: Option<ValTy>,
    /// The result is `common_type<T, U>` (CUB `Max`/`Min`, `cuda::maximum<>`) rather than
    /// the operator's own type (`decltype(t + u)`, a comparison's `bool`).
    common: bool,
    /// Its name as written, for messages.
    name: String,
}

impl LibOp {
    /// The operator a CUB collective combines with, where it has one.
    pub(super) fn cub_op(&self) -> Option<Op> {
        match self.rule {
            Rule::Bin(BinOp::Add) => Some(Op::Sum),
            Rule::Max => Some(Op::Max),
            Rule::CubMin | Rule::Minimum => Some(Op::Min),
            Rule::Arg(true) => Some(Op::ArgMax),
            Rule::Arg(false) => Some(Op::ArgMin),
            Rule::Bin(_) => None,
        }
    }
}

/// The `<functional>` objects by name, and their operator.
const STD: &[(&str, BinOp)] = &[
    ("plus", BinOp::Add),
    ("minus", BinOp::Sub),
    ("multiplies", BinOp::Mul),
    ("divides", BinOp::Div),
    ("modulus", BinOp::Rem),
    ("bit_and", BinOp::And),
    ("bit_or", BinOp::Or),
    ("bit_xor", BinOp::Xor),
    ("less", BinOp::Lt),
    ("greater", BinOp::Gt),
    ("less_equal", BinOp::Le),
    ("greater_equal", BinOp::Ge),
    ("equal_to", BinOp::Eq),
    ("not_equal_to", BinOp::Ne),
];

fn is_comparison(b: BinOp) -> bool {
    matches!(
        b,
        BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne
    )
}

/// Most named library function objects one source declares (each is a map entry).
const MAX_OBJECTS: usize = 4096;

impl Parser<'_> {
    /// The library function object type at the current token (`cub::Max`, `hipcub::ArgMin`,
    /// `cuda::maximum<float>`, `std::plus<>`; an alias `using M = cuda::maximum<>;` by its
    /// name), read; `None` (nothing read) otherwise.
    pub(super) fn lib_op_read(&mut self) -> Option<LibOp> {
        if let Tok::Ident(w) = self.peek(0) {
            if let Some(op) = self.lib_aliases.get(w).cloned() {
                self.bump();
                return Some(op);
            }
        }
        let (Tok::Ident(ns), Tok::Punct("::"), Tok::Ident(name)) = (
            self.peek(0).clone(),
            self.peek(1).clone(),
            self.peek(2).clone(),
        ) else {
            return None;
        };
        let (rule, common, typed) = match (ns.as_str(), name.as_str()) {
            ("cub" | "hipcub", "Sum") => (Rule::Bin(BinOp::Add), false, false),
            ("cub" | "hipcub", "Max") => (Rule::Max, true, false),
            ("cub" | "hipcub", "Min") => (Rule::CubMin, true, false),
            ("cub" | "hipcub", "ArgMax") => (Rule::Arg(true), false, false),
            ("cub" | "hipcub", "ArgMin") => (Rule::Arg(false), false, false),
            ("cuda", "maximum") => (Rule::Max, true, true),
            ("cuda", "minimum") => (Rule::Minimum, true, true),
            ("std", n) => {
                let (_, op) = STD.iter().find(|(s, _)| *s == n)?;
                (Rule::Bin(*op), false, true)
            }
            _ => return None,
        };
        if typed && !matches!(self.peek(3), Tok::Punct("<")) {
            return None;
        }
        let save = self.pos;
        for _ in 0..3 {
            self.bump();
        }
        let mut ty = None;
        if typed {
            self.bump();
            if !self.eat(">") {
                // `<T>`: one scalar type. A look-ahead: where none is here (`std::less<S>` of a
                // struct, read as a class template), it leaves no diagnostic.
                let (diags, suggestions) = (self.diags.len(), self.suggestions);
                let no_gt = std::mem::replace(&mut self.no_gt, true);
                let t = self.base_type();
                self.no_gt = no_gt;
                match t {
                    Ok(Ty::Val(v)) if v.lanes <= 1 && self.eat(">") => ty = Some(v),
                    _ => {
                        self.diags.truncate(diags);
                        self.suggestions = suggestions;
                        self.pos = save;
                        return None;
                    }
                }
            }
        }
        Some(LibOp {
            rule,
            ty,
            common,
            name: format!("{ns}::{name}"),
        })
    }

    /// `cub::Max m;`, `cuda::maximum<float> mx{};`, `std::plus<> add;` (or through an alias
    /// `using M = cuda::maximum<>;`): records the named object and returns `true`; `false`
    /// (nothing read) when no such declaration starts here. The object is also a CUB
    /// collective's operator (`BlockReduce(t).Reduce(x, m)`).
    pub(super) fn lib_object_decl(&mut self) -> bool {
        if !self.lib_word_here() {
            return false;
        }
        let save = self.pos;
        let Some(op) = self.lib_op_read() else {
            return false;
        };
        let name = match self.peek(0).clone() {
            Tok::Ident(n) if self.lib_objects.len() < MAX_OBJECTS => n,
            _ => {
                self.pos = save;
                return false;
            }
        };
        let braces =
            matches!(self.peek(1), Tok::Punct("{")) && matches!(self.peek(2), Tok::Punct("}"));
        let semi = 1 + if braces { 2 } else { 0 };
        // The `<functional>` objects with a type argument are class templates of their own
        // ([`super::std_functional`]), declared as any struct.
        if !matches!(self.peek(semi), Tok::Punct(";"))
            || (op.ty.is_some() && op.name.starts_with("std::"))
        {
            self.pos = save;
            return false;
        }
        self.warn_removed(&op);
        for _ in 0..=semi {
            self.bump();
        }
        if let Some(c) = op.cub_op() {
            self.cub_ops.insert(name.clone(), c);
        }
        self.lib_objects.insert(name, op);
        true
    }

    /// Whether the current token can start a library function object's type.
    fn lib_word_here(&self) -> bool {
        match self.peek(0) {
            Tok::Ident(w) => {
                (matches!(w.as_str(), "cub" | "hipcub" | "cuda" | "std")
                    && matches!(self.peek(1), Tok::Punct("::")))
                    || self.lib_aliases.contains_key(w)
            }
            _ => false,
        }
    }

    /// CCCL 3.0's removal of `cub::Sum`/`Max`/`Min`, said once ([`Parser::cub_removed_op`]).
    fn warn_removed(&mut self, op: &LibOp) {
        if let Some(w) = op.name.strip_prefix("cub::") {
            if matches!(w, "Sum" | "Max" | "Min") && !self.hip {
                let w = w.to_string();
                self.cub_removed_op(&w);
            }
        }
    }

    /// A library function object called: a temporary where it is made (`cub::Max()(a, b)`,
    /// `cuda::minimum<>{}(a, b)`) or a named one (`m(a, b)`); `None` (nothing read) when
    /// none is called here.
    ///
    /// # Errors
    /// Not two arguments; an operand whose type the front end cannot tell here; `ArgMax` /
    /// `ArgMin` on values that are not `KeyValuePair`s.
    pub(super) fn lib_functor_call(&mut self) -> PResult<Option<Expr>> {
        let at = self.span();
        let op = match self.peek(0) {
            Tok::Ident(w)
                if matches!(self.peek(1), Tok::Punct("("))
                    && self.lib_objects.contains_key(w)
                    && self.var_type(w).is_none() =>
            {
                let op = self.lib_objects.get(w).cloned();
                self.bump();
                op.ok_or_else(|| KernelError::new(at.line, at.col, "a function object"))?
            }
            _ if self.lib_word_here() => {
                let save = self.pos;
                let Some(op) = self.lib_op_read() else {
                    return Ok(None);
                };
                let made = (self.is_punct("(") && matches!(self.peek(1), Tok::Punct(")")))
                    || (self.is_punct("{") && matches!(self.peek(1), Tok::Punct("}")));
                if !made || !matches!(self.peek(2), Tok::Punct("(")) {
                    self.pos = save;
                    return Ok(None);
                }
                self.warn_removed(&op);
                self.bump();
                self.bump();
                op
            }
            _ => return Ok(None),
        };
        self.expect_punct("(")?;
        let args = self.args_closed_by(")")?;
        let [a, b]: [Expr; 2] = args.try_into().map_err(|_| {
            KernelError::new(
                at.line,
                at.col,
                format!("`{}` is called with two arguments", op.name),
            )
        })?;
        if let Rule::Arg(max) = op.rule {
            let Some(s) = self.struct_of(&a) else {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    format!(
                        "`{}()(a, b)` takes two cub::KeyValuePair<K, V> variables",
                        op.name
                    ),
                ));
            };
            let f = self.cub_arg_op(&s, max, at)?;
            return self.node(ExprKind::Call(f, vec![a, b]), at).map(Some);
        }
        let types = match op.ty {
            Some(t) => Some((t, t)),
            None => self.expr_type(&a).zip(self.expr_type(&b)),
        };
        let Some((ta, tb)) = types.filter(|(ta, tb)| ta.lanes <= 1 && tb.lanes <= 1) else {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!(
                    "`{}`'s operand types are not known here: give the type \
                     (`cuda::maximum<float>{{}}(a, b)`, `std::plus<int>()(a, b)`) or cast \
                     the operands",
                    op.name
                ),
            ));
        };
        let f = self.lib_op_fn(&op, ta.scalar, tb.scalar, at);
        self.node(ExprKind::Call(f, vec![a, b]), at).map(Some)
    }

    /// The device function of `op` on scalars `ta`, `tb` (made once), its name.
    fn lib_op_fn(&mut self, op: &LibOp, ta: Scalar, tb: Scalar, at: Span) -> String {
        let ret = match op.rule {
            Rule::Bin(b) if is_comparison(b) => Scalar::Bool,
            _ if op.ty.is_some() => ta,
            _ if op.common && ta == tb => ta,
            _ => Scalar::common(ta, tb),
        };
        let tag = match op.rule {
            Rule::Bin(b) => format!("{b:?}"),
            r => format!("{r:?}"),
        };
        let fname = format!(
            "__lib_{tag}_{}_{}_{}",
            ta.name().replace(' ', "_"),
            tb.name().replace(' ', "_"),
            ret.name().replace(' ', "_")
        );
        if self.fn_types.contains_key(&fname) {
            return fname;
        }
        let param = |name: &str, t: Scalar| Param {
            name: name.to_string(),
            ty: Ty::Val(ValTy::scalar(t)),
            reference: false,
            const_ref: false,
            span: at,
        };
        let id = |p: &mut Self, n: &str| p.e_ident(at, n);
        let value = match op.rule {
            Rule::Bin(b) => {
                let (ea, eb) = (id(self, "a"), id(self, "b"));
                self.e_bin(at, b, ea, eb)
            }
            Rule::Max | Rule::CubMin | Rule::Minimum => {
                // Max: (b > a) ? b : a; CubMin: (b < a) ? b : a; Minimum: (a < b) ? a : b.
                let (l, r, cmp, pick) = match op.rule {
                    Rule::Max => ("b", "a", BinOp::Gt, ("b", "a")),
                    Rule::CubMin => ("b", "a", BinOp::Lt, ("b", "a")),
                    _ => ("a", "b", BinOp::Lt, ("a", "b")),
                };
                let (el, er) = (id(self, l), id(self, r));
                let c = self.e_bin(at, cmp, el, er);
                let (x, y) = (id(self, pick.0), id(self, pick.1));
                let s = self.syn_span(at);
                Expr::new(ExprKind::Ternary(Box::new(c), Box::new(x), Box::new(y)), s)
            }
            Rule::Arg(_) => id(self, "a"),
        };
        let value = if op.common || op.ty.is_some() {
            // The result converted to the declared type (`common_type`, `T`).
            let s = self.syn_span(at);
            Expr::new(
                ExprKind::Cast(Ty::Val(ValTy::scalar(ret)), Box::new(value)),
                s,
            )
        } else {
            value
        };
        let body = Stmt {
            kind: StmtKind::Return(Some(value)),
            span: at,
            end: at,
        };
        let params = vec![param("a", ta), param("b", tb)];
        self.push_built_fn(&fname, Ty::Val(ValTy::scalar(ret)), params, body, at);
        fname
    }
}
