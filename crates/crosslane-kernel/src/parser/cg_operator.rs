//! The operator argument of a cooperative-groups collective (`cg::reduce(tile, v, op)`, the
//! scans): a `cg::` function object by name, or any callable (cooperative_groups/reduce.h takes
//! any binary function object), and the error of a value whose type cannot be told.

use crate::ast::{Expr, Span};
use crate::KernelError;

/// A collective's operator as written.
pub(super) enum CgOperator {
    /// A `cg::` function object (`cg::plus<int>()`), by name, at its position.
    Named(String, Span),
    /// A lambda or a function object (`Comb()`, `comb`): the closure or object, at its
    /// position (cooperative_groups/reduce.h takes any binary function object).
    Callable(Expr, Span),
}

/// The error of a collective whose value's type the parser cannot tell.
pub(super) fn unknown_value_type(name: &str, at: Span) -> KernelError {
    KernelError::new(
        at.line,
        at.col,
        format!(
            "cg::{name}: the type of the value is not known here; pass a variable or a cast \
             (`(float)x`)"
        ),
    )
}
