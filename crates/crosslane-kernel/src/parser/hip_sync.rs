//! HIP's `*_sync` warp functions, lowered to HIP's own cross-lane ops.
//!
//! HIP declares `__shfl_sync`, `__shfl_up_sync`, `__shfl_down_sync`, `__shfl_xor_sync`,
//! `__ballot_sync`, `__any_sync` and `__all_sync` with a **64-bit** mask (ROCm
//! `amd_warp_sync_functions.h`, HIP Programming Guide, "Warp cross-lane functions"): on wave32
//! the mask's upper half is ignored (`__hip_adjust_mask_for_wave32`), the mask is checked
//! (`__hip_check_mask`), and the function is the unsynchronized one over the wavefront:
//! `__ballot_sync(m, p) = __ballot(p) & m`, `__any_sync(m, p) = __ballot_sync(m, p) != 0`,
//! `__all_sync(m, p) = __ballot_sync(m, p) == m`, `__shfl*_sync(m, v, …) = __shfl*(v, …)`,
//! `__match_any_sync(m, v) = __match_any(v) & m` (the executing lanes holding the caller's
//! value) and `__match_all_sync(m, v, pred)`: `m` with `*pred = 1` when every lane calling
//! with `m` holds the same value, else 0 with `*pred = 0`. The match functions compare with the
//! device function `parser::cg_match` builds (each member's value read by `__shfl`), at the
//! wavefront's width, 32 or 64 lanes.
//! Resolved by name only, these calls would reach CUDA's 32-lane ops and read a wave64's mask
//! as 32 bits; lowered here, they run the HIP registry ops at the wavefront's width.
//!
//! The check: ROCm requires each lane's own bit in its mask and every lane named in a mask to
//! execute the call with that mask (it traps, `__hip_assert`, where that fails). Modelled per
//! lane as "own bit set, and no lane named that is not executing here"; a lane failing it gets
//! an undefined result with that rule as the reason. Two groups whose masks overlap while
//! differing are not told apart from correct use.

use super::{PResult, Parser};
use crate::ast::{Expr, ExprKind, Span};
use crate::builtins::VALID_ONLY;
use crate::types::{BinOp, Scalar, Ty, UnOp, ValTy};

/// Why a lane's result is undefined when its mask fails ROCm's check.
const MASK_RULE: &str = "HIP (ROCm amd_warp_sync_functions.h, __hip_check_mask): the calling \
                         lane must be in its own mask and every lane the mask names must execute \
                         this call with the same mask; where that fails the device traps \
                         (__hip_assert)";

impl Parser<'_> {
    /// `name(args…)` as HIP's `*_sync` function when it is one (HIP and MACA sources only: MACA
    /// keeps HIP's 64-bit masks over its 64-thread warps; its headers are not among the
    /// documents here, so HIP's definition is the one applied), else
    /// `None` and the call is left to the registry by name.
    ///
    /// # Errors
    /// A call with the wrong number of arguments, at `span`.
    pub(super) fn hip_sync_call(
        &mut self,
        name: &str,
        args: &[Expr],
        span: Span,
    ) -> PResult<Option<Expr>> {
        if !self.sync64 {
            return Ok(None);
        }
        if name == "__activemask" && args.is_empty() {
            // HIP's `__activemask()` is `__ballot(true)` (ROCm amd_warp_functions.h): a 64-bit
            // mask of the active lanes of the whole wavefront, where CUDA's is 32 bits.
            let yes = self.e_u64(span, 1);
            return Ok(Some(Expr::new(
                ExprKind::Call("__ballot".into(), vec![yes]),
                span,
            )));
        }
        if self.hip
            && matches!(name, "__match_any" | "__match_all")
            && !self.fn_types.contains_key(name)
        {
            return self.hip_match_unsync(name, args, span).map(Some);
        }
        if !self.hip {
            if let Some(e) = self.maca_shfl_sync(name, args, span)? {
                return Ok(Some(e));
            }
        }
        let (base, takes) = match name {
            "__shfl_sync" => ("__shfl", 3..=4),
            "__shfl_up_sync" => ("__shfl_up", 3..=4),
            "__shfl_down_sync" => ("__shfl_down", 3..=4),
            "__shfl_xor_sync" => ("__shfl_xor", 3..=4),
            "__ballot_sync" | "__any_sync" | "__all_sync" => ("__ballot", 2..=2),
            "__match_any_sync" => ("__match_any", 2..=2),
            "__match_all_sync" => ("__match_all", 3..=3),
            _ => return Ok(None),
        };
        if !takes.contains(&args.len()) {
            return Err(crate::KernelError::new(
                span.line,
                span.col,
                format!(
                    "`{name}` takes {} arguments (a 64-bit mask first), given {}",
                    if takes.start() == takes.end() {
                        takes.start().to_string()
                    } else {
                        format!("{} or {}", takes.start(), takes.end())
                    },
                    args.len()
                ),
            ));
        }
        self.check_mask_type(name, &args[0], span)?;
        let mask = self.hip_mask(&args[0], span);
        let ok = self.hip_mask_ok(&mask, span);
        let result = match name {
            "__ballot_sync" | "__any_sync" | "__all_sync" => {
                let ballot = self.e_call(span, base, vec![args[1].clone()]);
                let masked = self.e_bin(span, BinOp::And, ballot, mask.clone());
                match name {
                    "__ballot_sync" => masked,
                    "__any_sync" => {
                        let zero = self.e_u64(span, 0);
                        let any = self.e_bin(span, BinOp::Ne, masked, zero);
                        self.e_cast(span, Scalar::I32, any)
                    }
                    _ => {
                        let all = self.e_bin(span, BinOp::Eq, masked, mask.clone());
                        self.e_cast(span, Scalar::I32, all)
                    }
                }
            }
            "__match_any_sync" => {
                let members = self.hip_match_members(&mask, span);
                self.e_hip_match(span, members, args[1].clone())
            }
            "__match_all_sync" => return Ok(Some(self.hip_match_all(&mask, ok, args, span))),
            _ => self.e_call(span, base, args[1..].to_vec()),
        };
        let s = self.syn_span(span);
        let why = Expr::new(ExprKind::Str(MASK_RULE.to_string()), s);
        Ok(Some(self.e_call(span, VALID_ONLY, vec![result, ok, why])))
    }

    /// MACA's shuffles with a mask, `__shfl_sync`, `__shfl_up_sync`, `__shfl_down_sync` and
    /// `__shfl_xor_sync` (optional `width`, default the 64-lane warp), and MetaX's 16-lane forms
    /// `__shfl_sync_16`, `__shfl_up_sync_16`, `__shfl_down_sync_16` and `__shfl_xor_sync_16`
    /// (three arguments), lowered to the unsynchronized shuffle over the wave, the mask evaluated
    /// and otherwise not checked.
    ///
    /// Sources: MetaX's C500 optimization guide (MetaX-MACA/mcoplib,
    /// `Skills/optimized-cuda-kernels/references/c500-optimization-guide.md`, "Warp-Level
    /// Optimizations": warp size 64, "For general cases, standard warp shuffle patterns work",
    /// shown with `__shfl_xor_sync(0xffffffff, val, offset)` and `__shfl_down_sync(0xffffffff,
    /// …)`, and the "SIMD-16" reduction with `__shfl_down_sync_16(0xffffffffffffffff, v, i)`);
    /// MetaX's own sources spell the 16-lane form out as `#define __shfl_xor_sync_16(mask, val,
    /// offset) __shfl_xor_sync(mask, val, offset, 16)` where a toolchain lacks it (mcoplib
    /// kernels), and tilelang-metax's `canonical_warp_idx_sync` broadcasts lane 0 of a 64-lane
    /// warp with `__shfl_sync(0xffffffff, …, 0)`. No MetaX document makes a 32-bit mask (lanes
    /// 32–63 outside it) trap or undefined, so HIP's `__hip_check_mask` rule (ROCm 6.2) is not
    /// applied to MACA's shuffles; a source lane that is inactive or outside the width keeps the
    /// unsynchronized shuffle's own rule. The votes (`__ballot_sync`, `__any_sync`,
    /// `__all_sync`) and the match functions keep HIP's definition and check: nothing here says
    /// what MACA gives there. `None` for any other name, and for a 16-lane form the source
    /// defines itself.
    ///
    /// # Errors
    /// A call with the wrong number of arguments, at `span`.
    fn maca_shfl_sync(&mut self, name: &str, args: &[Expr], span: Span) -> PResult<Option<Expr>> {
        let (base, takes, width16) = match name {
            "__shfl_sync" => ("__shfl", 3..=4, false),
            "__shfl_up_sync" => ("__shfl_up", 3..=4, false),
            "__shfl_down_sync" => ("__shfl_down", 3..=4, false),
            "__shfl_xor_sync" => ("__shfl_xor", 3..=4, false),
            "__shfl_sync_16" => ("__shfl", 3..=3, true),
            "__shfl_up_sync_16" => ("__shfl_up", 3..=3, true),
            "__shfl_down_sync_16" => ("__shfl_down", 3..=3, true),
            "__shfl_xor_sync_16" => ("__shfl_xor", 3..=3, true),
            _ => return Ok(None),
        };
        if width16 && self.fn_types.contains_key(name) {
            return Ok(None);
        }
        if !takes.contains(&args.len()) {
            return Err(crate::KernelError::new(
                span.line,
                span.col,
                format!(
                    "`{name}` takes {} arguments (a mask, the value, then the lane, delta or \
                     lane mask{}), given {}",
                    if takes.start() == takes.end() {
                        takes.start().to_string()
                    } else {
                        format!("{} or {}", takes.start(), takes.end())
                    },
                    if width16 {
                        "; the width is 16"
                    } else {
                        ", then an optional width"
                    },
                    args.len()
                ),
            ));
        }
        let mut rest = args[1..].to_vec();
        if width16 {
            rest.push(self.e_int(span, 16));
        }
        let shuffle = self.e_call(span, base, rest);
        // The mask is still evaluated, as the call's first argument is.
        let s = self.syn_span(span);
        let mask = Expr::new(ExprKind::Cast(Ty::Void, Box::new(args[0].clone())), s);
        let s = self.syn_span(span);
        Ok(Some(Expr::new(
            ExprKind::Comma(Box::new(mask), Box::new(shuffle)),
            s,
        )))
    }

    /// HIP's `*_sync` functions are templates over the mask type that require a 64-bit
    /// integer: ROCm `amd_warp_sync_functions.h` (since ROCm 6.2, where these functions were
    /// added) opens each with `static_assert(__hip_internal::is_integral<MaskT>::value &&
    /// sizeof(MaskT) == 8, "The mask must be a 64-bit integer. Implicitly promoting a smaller
    /// integer is almost always an error.")`, on wave32 targets as on wave64. A CUDA-style
    /// `0xffffffff` (an `unsigned int`, [lex.icon]/2) therefore does not compile with hipcc; it
    /// is refused here at the call. A mask whose type the front end cannot tell passes. MACA
    /// keeps its own headers (not among the documents here) and is not checked.
    ///
    /// # Errors
    /// A HIP mask of a type other than a 64-bit integer, at `span`.
    fn check_mask_type(&self, name: &str, mask: &Expr, span: Span) -> PResult<()> {
        if !self.hip {
            return Ok(());
        }
        let Some(t) = self.expr_type(mask) else {
            return Ok(());
        };
        if t.lanes == 1 && !t.scalar.is_float() && t.scalar.bits() == 64 {
            return Ok(());
        }
        Err(crate::KernelError::new(
            span.line,
            span.col,
            format!(
                "`{name}`'s mask has type `{}` ({} bits): HIP's `*_sync` functions take a \
                 64-bit integer mask (ROCm amd_warp_sync_functions.h, since ROCm 6.2: \
                 static_assert \"The mask must be a 64-bit integer\"), so hipcc refuses this \
                 call on every target; pass a 64-bit mask: `0xffffffffffffffffull` for the \
                 whole wavefront, or `__activemask()`",
                t.name(),
                t.scalar.bits() * u32::from(t.lanes)
            ),
        ))
    }

    /// HIP's mask-free `__match_any(v)` and `__match_all(v, pred)` (HIP Programming Guide,
    /// "Warp match functions": `__match_any` "returns a bit mask where the n-th bit is set to 1
    /// if the n-th lane has the same value as the current lane"; `__match_all` "returns a bit
    /// mask with the bits of the participating lanes set to 1 if all lanes have the same
    /// value, and 0 otherwise", `*pred` true when they all have it): the `_sync` lowering over
    /// the executing lanes (`__ballot(1)`), which have no mask to fail ROCm's check.
    ///
    /// # Errors
    /// A call with the wrong number of arguments, at `span`.
    fn hip_match_unsync(&mut self, name: &str, args: &[Expr], span: Span) -> PResult<Expr> {
        let takes = if name == "__match_any" { 1 } else { 2 };
        if args.len() != takes {
            return Err(crate::KernelError::new(
                span.line,
                span.col,
                format!(
                    "`{name}` takes {takes} argument(s) (HIP Programming Guide, \"Warp match \
                     functions\": `__match_any(value)`, `__match_all(value, int* pred)`), \
                     given {}",
                    args.len()
                ),
            ));
        }
        let t = self.e_int(span, 1);
        let executing = self.e_call(span, "__ballot", vec![t]);
        let ok = self.e_int(span, 1);
        if name == "__match_any" {
            let members = self.hip_match_members(&executing, span);
            return Ok(self.e_hip_match(span, members, args[0].clone()));
        }
        let mut with_mask = vec![executing.clone()];
        with_mask.extend_from_slice(args);
        Ok(self.hip_match_all(&executing, ok, &with_mask, span))
    }

    /// The lanes `__match_any` compares: the executing lanes (`__activemask()` in ROCm's
    /// waterfall, `__ballot(1)` here) within the mask. ROCm's `__match_any_sync(m, v)` is
    /// `__match_any(v) & m`, and `__match_any` answers with the executing lanes whose value
    /// equals the caller's: the same set.
    fn hip_match_members(&mut self, mask: &Expr, span: Span) -> Expr {
        let t = self.e_int(span, 1);
        let executing = self.e_call(span, "__ballot", vec![t]);
        self.e_bin(span, BinOp::And, mask.clone(), executing)
    }

    /// ROCm's `__match_all_sync(m, v, pred)`: within the lanes calling with mask `m` (which the
    /// check requires to be exactly the executing lanes it names), `*pred` is 1 and the result
    /// `__activemask()` (= `m`) when every such lane holds the first lane's value, else
    /// `*pred` is 0 and the result 0. Lowered to
    /// `(*pred = valid(match(m & ballot(1), v) == (m & ballot(1))), valid(m & (0 - *pred)))`,
    /// both undefined, with the mask rule as the reason, in a lane whose mask fails the check.
    fn hip_match_all(&mut self, mask: &Expr, ok: Expr, args: &[Expr], span: Span) -> Expr {
        let members = self.hip_match_members(mask, span);
        let same = self.e_hip_match(span, members.clone(), args[1].clone());
        let all = self.e_bin(span, BinOp::Eq, same, members);
        let all = self.e_cast(span, Scalar::I32, all);
        let s = self.syn_span(span);
        let why = Expr::new(ExprKind::Str(MASK_RULE.to_string()), s);
        let pred_val = self.e_call(span, VALID_ONLY, vec![all, ok.clone(), why.clone()]);
        let s = self.syn_span(span);
        let target = Expr::new(ExprKind::Deref(Box::new(args[2].clone())), s);
        let s = self.syn_span(span);
        let store = Expr::new(
            ExprKind::Assign(None, Box::new(target.clone()), Box::new(pred_val)),
            s,
        );
        // m & (0 - (u64)*pred): m where pred is 1, 0 where it is 0, without a branch on it.
        let flag = self.e_cast(span, Scalar::U64, target);
        let zero = self.e_u64(span, 0);
        let spread = self.e_bin(span, BinOp::Sub, zero, flag);
        let value = self.e_bin(span, BinOp::And, mask.clone(), spread);
        let result = self.e_call(span, VALID_ONLY, vec![value, ok, why]);
        let s = self.syn_span(span);
        Expr::new(ExprKind::Comma(Box::new(store), Box::new(result)), s)
    }

    /// The mask as `unsigned long long`, its upper half dropped on a wave32
    /// (`__hip_adjust_mask_for_wave32`).
    fn hip_mask(&mut self, mask: &Expr, span: Span) -> Expr {
        let wide = self.e_cast(span, Scalar::U64, mask.clone());
        if self.wave <= 32 {
            let low = self.e_u64(span, 0xFFFF_FFFF);
            self.e_bin(span, BinOp::And, wide, low)
        } else {
            wide
        }
    }

    /// `((mask >> lane) & 1) != 0` and `(mask & ~__ballot(1)) == 0`, as one int.
    fn hip_mask_ok(&mut self, mask: &Expr, span: Span) -> Expr {
        let lane = self.e_lane(span);
        let shifted = self.e_bin(span, BinOp::Shr, mask.clone(), lane);
        let one = self.e_u64(span, 1);
        let bit = self.e_bin(span, BinOp::And, shifted, one);
        let zero = self.e_u64(span, 0);
        let own = self.e_bin(span, BinOp::Ne, bit, zero);
        let t = self.e_int(span, 1);
        let executing = self.e_call(span, "__ballot", vec![t]);
        let s = self.syn_span(span);
        let idle = Expr::new(ExprKind::Unary(UnOp::BitNot, Box::new(executing)), s);
        let named_idle = self.e_bin(span, BinOp::And, mask.clone(), idle);
        let zero = self.e_u64(span, 0);
        let none_idle = self.e_bin(span, BinOp::Eq, named_idle, zero);
        let own = self.e_cast(span, Scalar::I32, own);
        let none_idle = self.e_cast(span, Scalar::I32, none_idle);
        self.e_bin(span, BinOp::And, own, none_idle)
    }

    /// An `unsigned long long` literal.
    fn e_u64(&mut self, at: Span, v: u64) -> Expr {
        let s = self.syn_span(at);
        Expr::new(
            ExprKind::Int {
                value: v,
                unsigned: true,
                long: true,
            },
            s,
        )
    }

    /// `(T) e`.
    fn e_cast(&mut self, at: Span, to: Scalar, e: Expr) -> Expr {
        let s = self.syn_span(at);
        Expr::new(ExprKind::Cast(Ty::Val(ValTy::scalar(to)), Box::new(e)), s)
    }
}
