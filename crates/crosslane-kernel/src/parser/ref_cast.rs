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
//!   (`__crosslane_bytes:T(0, x)`; more bytes than `x` has is an error when it runs), read-only:
//!   an assignment to it is refused at its line:column ([`read_only_target`]);
//! - the operand's own type (`reinterpret_cast<half&>(h2.x)`): the operand itself, assignable;
//! - two integer types with `T` no wider than the operand: the integral conversion, which is
//!   that read already ([conv.integral]/2: modulo 2^N keeps the low, first, bytes);
//! - a struct operand: unchanged (the cast as the front end reads it otherwise).

use super::Parser;
use crate::ast::*;
use crate::reinterpret;
use crate::types::{Ty, ValTy};

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
            "assigning through `reinterpret_cast<T&>(x)` of a variable is not supported (its \
             bytes are read as T, not written); write through a pointer to an array element, \
             `*reinterpret_cast<T*>(&a[i]) = …`, or keep the value in a union and write its \
             member",
        )
    })
}
