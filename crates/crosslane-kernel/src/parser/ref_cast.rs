//! `reinterpret_cast<T&>(x)`: C++17 [expr.reinterpret.cast]/11, "A glvalue expression of type
//! T1 … can be cast to the type 'reference to T2' if an expression of type 'pointer to T1'
//! can be explicitly converted to the type 'pointer to T2' using a reinterpret_cast. The
//! result refers to the same object as the source glvalue, but with the specified type", i.e.
//! `*reinterpret_cast<T*>(&x)`: `x`'s bytes seen as a `T` (inline-PTX operands
//! `"r"(reinterpret_cast<uint32_t const&>(h2))`, a float's sign flipped through
//! `reinterpret_cast<unsigned&>(f)`). It is not a value conversion: `reinterpret_cast<unsigned&>`
//! of the float 2.0 is 0x40000000, not 2. The bytes are read as `reinterpret.rs` reads a union
//! (ISO C++ leaves the access undefined, [basic.lval]/11; the device compilers give the bytes).
//!
//! Lowered by the operand's shape:
//! - an element in memory (`p[i]` of a pointer or array, `*e`): `*reinterpret_cast<T*>(&x)`
//!   itself, read and written through the view of the buffer's cells;
//! - any other value of a known non-struct type: its first `sizeof(T)` bytes read as `T`
//!   (`__crosslane_bytes:T(0, x)`; more bytes than `x` has is an error when it runs); written
//!   (`= v`, `op= v`, or through a reference bound to the view) when `x` is a variable, member
//!   or element at a name or literal index of exactly `sizeof(T)` bytes: `x` takes the bytes
//!   of the new `T` value, all at once ([`Parser::ref_cast_write`]); any other assignment to it
//!   is refused at its line:column ([`read_only_target`]);
//! - the operand's own type (`reinterpret_cast<half&>(h2.x)`): the operand itself, assignable;
//! - two integer types with `T` no wider than the operand: the integral conversion, which is
//!   that read already ([conv.integral]/2: modulo 2^N keeps the low, first, bytes);
//! - a struct operand: unchanged (the cast as the front end reads it otherwise).

use super::Parser;
use crate::ast::*;
use crate::reinterpret;
use crate::types::{BinOp, Ty, ValTy};

impl Parser<'_> {
    /// `reinterpret_cast<to&>(x)` lowered as the module says.
    pub(super) fn reinterpret_ref(&self, to: Ty, x: Expr, span: Span) -> ExprKind {
        let keep = |x: Expr| ExprKind::Cast(to, Box::new(x));
        let Ty::Val(to_v) = to else {
            return keep(x);
        };
        if self.struct_of(&x).is_some() {
            return keep(x);
        }
        let from = self.expr_type(&x);
        let size = |v: ValTy| reinterpret::scalar_bytes(v.scalar) * usize::from(v.lanes.max(1));
        if let Some(f) = from {
            // The same type: the glvalue itself ("refers to the same object … with the
            // specified type", which is its own), so it can be assigned (llama.cpp's
            // `reinterpret_cast<half&>(y[ib].ds.x) = d;` of a `half2` member).
            if f == to_v {
                return x.kind;
            }
            let ints = |v: ValTy| v.lanes <= 1 && !v.scalar.is_float();
            if f == to_v || (ints(f) && ints(to_v) && size(to_v) <= size(f)) {
                return keep(x);
            }
        }
        if self.element_in_memory(&x) {
            let addr = Expr::new(ExprKind::AddrOf(Box::new(x)), span);
            let ptr = Expr::new(ExprKind::Cast(Ty::Ptr(to_v), Box::new(addr)), span);
            return ExprKind::Deref(Box::new(ptr));
        }
        let start = Expr::new(
            ExprKind::Int {
                value: 0,
                unsigned: false,
                long: false,
            },
            span,
        );
        ExprKind::Call(reinterpret::callee(to_v), vec![start, x])
    }

    /// Whether `x` names an element through a pointer or array (`p[i]`, `*p`), whose address
    /// the emulator gives.
    fn element_in_memory(&self, x: &Expr) -> bool {
        let ptr = |b: &Expr| match &b.kind {
            ExprKind::Ident(n) => matches!(self.var_type(n), Some(Ty::Ptr(_))),
            _ => false,
        };
        match &x.kind {
            ExprKind::Index(b, _) => ptr(b),
            // `&*p` is `p` ([expr.unary.op]/1, /3): any pointer expression.
            ExprKind::Deref(_) => true,
            _ => false,
        }
    }
}

impl Parser<'_> {
    /// Whether `lhs` is `reinterpret_cast<T&>(x)` of a local variable or member `x` (lowered to
    /// its bytes read as `T`) that has exactly `sizeof(T)` bytes: such a view can be written,
    /// all of `x`'s bytes changing together ([`Self::ref_cast_write`]). `x` must name a place
    /// without effects (a name, a member, an element at a name or literal index), as it is
    /// read and written.
    pub(super) fn ref_cast_writable(&self, lhs: &Expr) -> bool {
        self.ref_cast_parts(lhs).is_some()
    }

    /// `T`, `x` and `x`'s type of a writable view ([`Self::ref_cast_writable`]).
    fn ref_cast_parts<'e>(&self, lhs: &'e Expr) -> Option<(ValTy, &'e Expr, ValTy)> {
        let ExprKind::Call(n, args) = &lhs.kind else {
            return None;
        };
        let [start, x] = args.as_slice() else {
            return None;
        };
        if !reinterpret::is_reinterpret(n)
            || !matches!(start.kind, ExprKind::Int { value: 0, .. })
            || !plain_place(x)
            || self.struct_of(x).is_some()
        {
            return None;
        }
        let to = self.expr_type(lhs)?;
        let from = self.expr_type(x)?;
        let size = |v: ValTy| reinterpret::scalar_bytes(v.scalar) * usize::from(v.lanes.max(1));
        (size(to) == size(from)).then_some((to, x, from))
    }

    /// `reinterpret_cast<T&>(x) op= rhs` of a writable view (C++17 [expr.reinterpret.cast]/11:
    /// the result "refers to the same object as the source glvalue, but with the specified
    /// type", so a store through it stores `x`'s bytes): `x = <the bytes of (T)(view op rhs)
    /// read as x's type>`, every byte of `x` at once (FasterTransformer's `half2` sign and
    /// absolute-value tricks, `reinterpret_cast<uint32_t&>(h2) &= 0x7fff7fffu`). `None` for
    /// any other target.
    pub(super) fn ref_cast_write(
        &self,
        lhs: &Expr,
        op: Option<BinOp>,
        rhs: Expr,
    ) -> Option<ExprKind> {
        let (to, x, from) = self.ref_cast_parts(lhs)?;
        let span = lhs.span;
        let value = match op {
            None => rhs,
            Some(b) => Expr::new(
                ExprKind::Binary(b, Box::new(lhs.clone()), Box::new(rhs)),
                span,
            ),
        };
        let value = Expr::new(ExprKind::Cast(Ty::Val(to), Box::new(value)), span);
        let start = Expr::new(
            ExprKind::Int {
                value: 0,
                unsigned: false,
                long: false,
            },
            span,
        );
        let bytes = Expr::new(
            ExprKind::Call(reinterpret::exact_callee(from), vec![start, value]),
            span,
        );
        Some(ExprKind::Assign(None, Box::new(x.clone()), Box::new(bytes)))
    }
}

/// Whether `x` names a place and has no effects: a name, a member of one, an element at a
/// name or a literal index (read and written by a write through a view of it).
fn plain_place(x: &Expr) -> bool {
    let mut e = x;
    // Bounded by the expression's own nesting, which the parser's depth limit bounds.
    loop {
        match &e.kind {
            ExprKind::Ident(_) => return true,
            ExprKind::Member(b, _) => e = b,
            ExprKind::Index(b, i)
                if matches!(i.kind, ExprKind::Int { .. } | ExprKind::Ident(_)) =>
            {
                e = b
            }
            _ => return false,
        }
    }
}

/// The refusal of an assignment to `lhs` when it is an object's bytes read as another type (a
/// `reinterpret_cast<T&>` of a variable, lowered to a read), at its line:column; `None` for
/// any other target.
pub(super) fn read_only_target(lhs: &Expr) -> Option<crate::KernelError> {
    let ExprKind::Call(n, _) = &lhs.kind else {
        return None;
    };
    reinterpret::is_reinterpret(n).then(|| {
        crate::KernelError::new(
            lhs.span.line,
            lhs.span.col,
            "assigning through `reinterpret_cast<T&>(x)` is supported where `x` is a variable, \
             a member or an element at a name or literal index, of exactly `sizeof(T)` bytes \
             and not a struct; this one is not (its bytes are read as T, not written): write \
             through a pointer to an array element, `*reinterpret_cast<T*>(&a[i]) = …`, or \
             keep the value in a union and write its member",
        )
    })
}
