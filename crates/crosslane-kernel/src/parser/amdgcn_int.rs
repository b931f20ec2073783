//! Clang's AMDGPU cross-lane builtins declared over 32-bit integers: each argument converts to
//! the declared parameter type before the call, as any argument of a declared function does
//! (C++17 [expr.call]/4, [conv.fpint]/1: a `float` 2.75 passed as `int` is 2), and the result
//! is that integer type.
//!
//! Source: clang `BuiltinsAMDGPU.def` (`BuiltinsAMDGPU.td` in later clang, the same types):
//! `__builtin_amdgcn_readfirstlane` "ii" (`int(int)`), `__builtin_amdgcn_readlane` "iii"
//! (`int(int, int)`), `__builtin_amdgcn_ds_permute` and `__builtin_amdgcn_ds_bpermute` "iii"
//! (`int(int, int)`), `__builtin_amdgcn_ds_swizzle` "iiIi" (`int(int, _Constant int)`),
//! `__builtin_amdgcn_permlane16` and `__builtin_amdgcn_permlanex16` "UiUiUiUiUiIbIb"
//! (`unsigned int(unsigned int ×4, _Constant bool ×2)`), `__builtin_amdgcn_permlane64` "UiUi".
//! Not listed here: `__builtin_amdgcn_mov_dpp` and `__builtin_amdgcn_update_dpp`, declared
//! `int(int, …)` in clang ≤ 19 but marked `CustomTypeChecking` since (clang accepts any 32- or
//! 64-bit operand type and returns it), so the operand keeps its type as the later clang does.

use super::Parser;
use crate::ast::{Expr, ExprKind};
use crate::types::{Scalar, Ty, ValTy};

/// Each builtin's declared parameter types, in order (clang `BuiltinsAMDGPU.def`).
const DECLARED: &[(&str, &[Scalar])] = &[
    ("__builtin_amdgcn_readfirstlane", &[Scalar::I32]),
    ("__builtin_amdgcn_readlane", &[Scalar::I32, Scalar::I32]),
    ("__builtin_amdgcn_ds_permute", &[Scalar::I32, Scalar::I32]),
    ("__builtin_amdgcn_ds_bpermute", &[Scalar::I32, Scalar::I32]),
    ("__builtin_amdgcn_ds_swizzle", &[Scalar::I32, Scalar::I32]),
    (
        "__builtin_amdgcn_permlane16",
        &[Scalar::U32, Scalar::U32, Scalar::U32, Scalar::U32],
    ),
    (
        "__builtin_amdgcn_permlanex16",
        &[Scalar::U32, Scalar::U32, Scalar::U32, Scalar::U32],
    ),
    ("__builtin_amdgcn_permlane64", &[Scalar::U32]),
];

impl Parser<'_> {
    /// In a HIP source, the arguments of a clang AMDGPU builtin declared over 32-bit integers
    /// converted to the declared types (a `float` to `int` truncates toward zero); other calls
    /// and the `_Constant bool` arguments past the listed ones are left as written.
    pub(super) fn amdgcn_int_args(&self, name: &str, args: &mut [Expr]) {
        if !self.hip {
            return;
        }
        let Some((_, types)) = DECLARED.iter().find(|(n, _)| *n == name) else {
            return;
        };
        for (a, &to) in args.iter_mut().zip(types.iter()) {
            let ty = ValTy::scalar(to);
            if self.expr_type(a) == Some(ty) {
                continue;
            }
            let span = a.span;
            let inner = std::mem::replace(a, Expr::new(ExprKind::Bool(false), span));
            *a = Expr::new(ExprKind::Cast(Ty::Val(ty), Box::new(inner)), span);
        }
    }
}
