//! Clang's AMDGPU ballot builtins, `__builtin_amdgcn_ballot_w32(pred)` and
//! `__builtin_amdgcn_ballot_w64(pred)`, lowered to the registry's HIP `__ballot` op, which
//! holds the ballot's semantics (bit i set when lane i is active and its predicate is non-zero).
//!
//! Source: clang `BuiltinsAMDGPU.def`, "Ballot builtins":
//! `TARGET_BUILTIN(__builtin_amdgcn_ballot_w32, "Uib", "nc", "wavefrontsize32")` (an
//! `unsigned int` of a `bool`, only where the wavefront is 32 lanes: clang says
//! "'__builtin_amdgcn_ballot_w32' needs target feature wavefrontsize32" on a wave64 target)
//! and `__builtin_amdgcn_ballot_w64` (a 64-bit unsigned of a `bool`). An older `.def` marked
//! `ballot_w64` `wavefrontsize64`; later clang's wave32 test of it expects no diagnostic, so it
//! is accepted on wave32 with the upper 32 bits 0 (as `__ballot`'s rule says of wave32). Both
//! are the ballot over the whole wavefront, which `__ballot` is.

use super::{PResult, Parser};
use crate::ast::{Expr, ExprKind, Span};
use crate::types::{Scalar, Ty, ValTy};
use crate::KernelError;

impl Parser<'_> {
    /// `name(args…)` as a clang AMDGPU ballot builtin (HIP sources only), else `None`.
    ///
    /// # Errors
    /// A call with other than one argument, or `__builtin_amdgcn_ballot_w32` on a wave64
    /// target, at `span`.
    pub(super) fn amdgcn_ballot_call(
        &mut self,
        name: &str,
        args: &[Expr],
        span: Span,
    ) -> PResult<Option<Expr>> {
        let w32 = match name {
            "__builtin_amdgcn_ballot_w32" => true,
            "__builtin_amdgcn_ballot_w64" => false,
            _ => return Ok(None),
        };
        if !self.hip {
            return Ok(None);
        }
        let [pred] = args else {
            return Err(KernelError::new(
                span.line,
                span.col,
                format!(
                    "`{name}` takes 1 argument (the predicate), given {}",
                    args.len()
                ),
            ));
        };
        if w32 && self.wave != 32 {
            return Err(KernelError::new(
                span.line,
                span.col,
                format!(
                    "`{name}` needs target feature wavefrontsize32 (clang, BuiltinsAMDGPU.def): \
                     this target's wavefront is {} lanes; write \
                     `__builtin_amdgcn_ballot_w64(pred)` or `__ballot(pred)` (64-bit masks)",
                    self.wave
                ),
            ));
        }
        let ballot = self.e_call(span, "__ballot", vec![pred.clone()]);
        let to = if w32 { Scalar::U32 } else { Scalar::U64 };
        let s = self.syn_span(span);
        Ok(Some(Expr::new(
            ExprKind::Cast(Ty::Val(ValTy::scalar(to)), Box::new(ballot)),
            s,
        )))
    }
}
