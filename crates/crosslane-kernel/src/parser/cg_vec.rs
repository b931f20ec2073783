//! Cooperative-groups shuffles of the built-in vector types (`uint4`, `float2`, `int4`, …):
//! `tile.shfl_xor(v, 1)` and the group's `shfl`, `shfl_up`, `shfl_down` of such a `v` move
//! each component as its own shuffle.
//!
//! Source: CUDA C++ Programming Guide, "Cooperative Groups", `thread_block_tile` /
//! `coalesced_group` member functions: `T shfl(T var, unsigned int src_rank)` (and `shfl_up`,
//! `shfl_down`, `shfl_xor`) where "T … must be trivially copyable and its size a multiple of
//! 4 bytes"; the vector types are. The free `__shfl*_sync` functions take only the scalar
//! types (CUDA C++ Programming Guide, "Warp Shuffle Functions"), so a vector operand there is
//! still refused at run time (`vector_types::shuffle_refusal`). Every component moves from the
//! same source lane, so the result is the source lane's whole vector.

use super::Parser;
use crate::ast::*;
use crate::types::Scalar;

/// The components of a vector type, in order.
const FIELDS: [&str; 4] = ["x", "y", "z", "w"];

/// Whether evaluating `e` more than once gives the same value and does nothing else: names,
/// literals, members, subscripts, `?:` and operators on those, and `__lane_id()` (any other
/// call, and an assignment, is neither).
pub(super) fn repeatable(e: &Expr, depth: u32) -> bool {
    if depth > 16 {
        return false;
    }
    match &e.kind {
        ExprKind::Ident(_) | ExprKind::Int { .. } | ExprKind::Float { .. } => true,
        ExprKind::Member(b, _) | ExprKind::Unary(_, b) | ExprKind::Cast(_, b) => {
            repeatable(b, depth + 1)
        }
        ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) => {
            repeatable(a, depth + 1) && repeatable(b, depth + 1)
        }
        ExprKind::Ternary(c, a, b) => {
            repeatable(c, depth + 1) && repeatable(a, depth + 1) && repeatable(b, depth + 1)
        }
        // The lane's own index (a lowering's `__lane_id()`): no arguments, no effect.
        ExprKind::Call(n, args) => n == "__lane_id" && args.is_empty(),
        _ => false,
    }
}

impl Parser<'_> {
    /// A group shuffle of `v`: `shuffle(v)` itself when `v` is a scalar (or a type the
    /// shuffles take whole, `__half2`, `__nv_bfloat162`), else `make_T(shuffle(v.x),
    /// shuffle(v.y), …)` for a vector `v` of type `T` that can be read once per component.
    pub(super) fn cg_shfl_any(
        &mut self,
        at: Span,
        v: Expr,
        mut shuffle: impl FnMut(&mut Self, Expr) -> Expr,
    ) -> Expr {
        let ty = self.expr_type(&v);
        let Some(ty) = ty.filter(|t| {
            (2..=4).contains(&t.lanes) && !matches!(t.scalar, Scalar::F16 | Scalar::Bf16)
        }) else {
            return shuffle(self, v);
        };
        if !repeatable(&v, 0) {
            return shuffle(self, v);
        }
        let parts = FIELDS[..usize::from(ty.lanes)]
            .iter()
            .map(|f| {
                let c = self.e_member(at, v.clone(), f);
                shuffle(self, c)
            })
            .collect();
        let make = format!("make_{}", crate::vector_types::cuda_name(ty));
        self.e_call(at, &make, parts)
    }
}
