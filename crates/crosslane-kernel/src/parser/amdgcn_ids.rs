//! Clang's AMDGPU builtins that read the launch or only order execution, and DPP8, lowered in a
//! HIP source to what this interpreter already runs:
//!
//! | builtin (clang `BuiltinsAMDGPU.def`; clang `AMDGPUBuiltins.rst`) | lowered to |
//! |---|---|
//! | `unsigned __builtin_amdgcn_wavefrontsize()` ("Returns the wavefront size (32 or 64)") | the target's lane count, an `unsigned int` constant |
//! | `unsigned __builtin_amdgcn_workitem_id_{x,y,z}()` ("Work-item (thread) ID within the workgroup") | `(unsigned) threadIdx.{x,y,z}` |
//! | `unsigned __builtin_amdgcn_workgroup_id_{x,y,z}()` ("Workgroup ID in the specified dimension") | `(unsigned) blockIdx.{x,y,z}` |
//! | `void __builtin_amdgcn_fence(_Constant unsigned order, const char *scope, …)` | a no-op with a note: here every memory operation completes at once |
//! | `void __builtin_amdgcn_s_waitcnt(_Constant int cnt)` (AMD ISA, `S_WAITCNT`: wait until the counts of outstanding memory operations drop to the given values) | a no-op with a note: no memory operation is ever outstanding here |
//! | `unsigned __builtin_amdgcn_mov_dpp8(unsigned src, _Constant unsigned sel)` (`gfx10-insts`) | the registry's `mov_dpp` with control `dpp8:[s0,…,s7]`, `s_i = (sel >> 3i) & 7` |
//!
//! The fence's order must be a constant acquire, release, acq_rel or seq_cst (clang
//! `SemaAMDGPU.cpp` rejects relaxed and consume: "memory order argument to atomic operation is
//! invalid") and its scope a string literal naming one of LLVM's AMDGPU synchronization scopes
//! (LLVM `AMDGPUUsage`, "Memory Scopes": `""` (system), `"agent"`, `"workgroup"`,
//! `"wavefront"`, `"singlethread"`, each also with `-one-as`).
//!
//! DPP8 (AMD RDNA3 ISA, "DPP8": each lane reads lane `lane_sel[i & 7]` of its own group of
//! eight; the builtin emits `fi:0`, which LLVM AMDGPUModifierSyntax, "DPP8 Modifiers", defines
//! as "fetch zero when accessing data from inactive lanes")
//! runs on the registry's DPP engine, which refuses the control on a target without it; the
//! compiler's check ([`mov_dpp8_refusal`]) refuses it before the run on GFX9 and CDNA
//! (gfx900, gfx90a, gfx942, gfx950), as clang does ("needs target feature gfx10-insts").
//!
//! The MFMA builtins (`__builtin_amdgcn_mfma_*`, `__builtin_amdgcn_smfmac_*`) are refused
//! before the run ([`mfma_refusal`]).

use super::{const_int, PResult, Parser};
use crate::ast::{Expr, ExprKind, Span};
use crate::types::{Scalar, Ty, ValTy};
use crate::KernelError;

/// The synchronization scopes `__builtin_amdgcn_fence` accepts (LLVM `AMDGPUUsage`, "Memory
/// Scopes"; the empty string is the system scope).
const FENCE_SCOPES: &[&str] = &[
    "",
    "agent",
    "workgroup",
    "wavefront",
    "singlethread",
    "one-as",
    "agent-one-as",
    "workgroup-one-as",
    "wavefront-one-as",
    "singlethread-one-as",
];

/// The name `__builtin_amdgcn_mov_dpp8` is lowered to (the registry's `mov_dpp`); its control
/// argument is the bare word `dpp8:[…]`.
pub(crate) const MOV_DPP: &str = "__builtin_amdgcn_mov_dpp";

/// The AMD targets without DPP8 (no `gfx10-insts`: GFX9 and CDNA), of those the run knows.
const NO_DPP8: &[&str] = &["gfx900", "gfx90a", "gfx942", "gfx950"];

/// Why a lowered `__builtin_amdgcn_mov_dpp8` call (`mov_dpp(src, dpp8:[…])`, `args`) cannot
/// run on `target`: clang refuses the builtin there ("needs target feature gfx10-insts", clang
/// `BuiltinsAMDGPU.def`); `None` for any other call or target.
pub(crate) fn mov_dpp8_refusal(name: &str, args: &[Expr], target: Option<&str>) -> Option<String> {
    if name != MOV_DPP {
        return None;
    }
    let [_, ctrl] = args else { return None };
    let ExprKind::Ident(w) = &ctrl.kind else {
        return None;
    };
    let t = target?;
    (w.starts_with("dpp8:") && NO_DPP8.contains(&t)).then(|| {
        format!(
            "`__builtin_amdgcn_mov_dpp8` (v_mov_b32_dpp8) does not exist on {t}: it needs target \
             feature gfx10-insts (clang BuiltinsAMDGPU.def), which gfx1030, gfx1100, gfx1150 and \
             gfx1200 have; pick one with --arch, or write `__builtin_amdgcn_mov_dpp` with a \
             quad_perm or row control, or `__shfl`"
        )
    })
}

/// Why an MFMA builtin (`__builtin_amdgcn_mfma_f32_32x32x8f16`, `…_16x16x16f16`,
/// `…_16x16x4f32`, any `mfma_` / `smfmac_`) is refused before the run: a matrix instruction
/// spreads A, B, C and D over the wave's lanes and registers in a layout per shape (AMD
/// Instinct MI300 ISA, "Matrix Fused Multiply Add"; AMD Matrix Instruction Calculator), and
/// that layout is not among the documents this emulator cites, so no lane's value can be
/// promised.
pub(crate) fn mfma_refusal(name: &str) -> String {
    format!(
        "`{name}` (an MFMA matrix instruction, AMD Instinct MI300 ISA \"Matrix Fused Multiply \
         Add\") is not modelled: it spreads A, B, C and D over the wave's 64 lanes in a layout \
         per shape, and that layout is not confirmed from the documents this emulator cites, \
         so no lane's value could be promised; compute the product per lane (a loop over k), \
         or run it on the device"
    )
}

fn err(span: Span, m: String) -> KernelError {
    KernelError::new(span.line, span.col, m)
}

impl Parser<'_> {
    /// `name(args…)` as one of this module's builtins (HIP sources only), else `None`.
    ///
    /// # Errors
    /// A wrong argument count, a non-constant immediate (`s_waitcnt`'s count, `mov_dpp8`'s
    /// selectors, the fence's order), a fence order other than acquire, release, acq_rel or
    /// seq_cst, or a fence scope that is not one of LLVM's, at the argument.
    pub(super) fn amdgcn_id_call(
        &mut self,
        name: &str,
        args: &[Expr],
        span: Span,
    ) -> PResult<Option<Expr>> {
        if !self.hip || !name.starts_with("__builtin_amdgcn_") {
            return Ok(None);
        }
        let count = |want: usize| -> PResult<()> {
            if args.len() == want {
                Ok(())
            } else {
                Err(err(
                    span,
                    format!("`{name}` takes {want} argument(s), given {}", args.len()),
                ))
            }
        };
        let axis = |prefix: &str| {
            name.strip_prefix(prefix)
                .filter(|a| matches!(*a, "x" | "y" | "z"))
                .map(str::to_string)
        };
        if name == "__builtin_amdgcn_wavefrontsize" {
            count(0)?;
            let n = self.e_int(span, i64::from(self.wave));
            return Ok(Some(self.e_unsigned(span, n)));
        }
        for (prefix, base) in [
            ("__builtin_amdgcn_workitem_id_", "threadIdx"),
            ("__builtin_amdgcn_workgroup_id_", "blockIdx"),
        ] {
            if let Some(a) = axis(prefix) {
                count(0)?;
                let b = self.e_ident(span, base);
                let m = self.e_member(span, b, &a);
                return Ok(Some(self.e_unsigned(span, m)));
            }
        }
        if name.starts_with("__builtin_amdgcn_mfma_")
            || name.starts_with("__builtin_amdgcn_smfmac_")
        {
            return Err(err(span, mfma_refusal(name)));
        }
        match name {
            "__builtin_amdgcn_s_waitcnt" => {
                count(1)?;
                if const_int(&args[0]).is_none() {
                    return Err(err(
                        args[0].span,
                        format!("`{name}`: the count must be a constant integer (the `s_waitcnt` instruction's immediate, clang `_Constant int`), e.g. `{name}(0)`"),
                    ));
                }
                Ok(Some(self.e_call(span, name, Vec::new())))
            }
            "__builtin_amdgcn_fence" => {
                if args.len() < 2 {
                    return Err(err(
                        span,
                        format!("`{name}` takes a memory order and a scope, `{name}(__ATOMIC_RELEASE, \"workgroup\")`; given {} argument(s)", args.len()),
                    ));
                }
                let order = crate::machine::atomic::order_value(&args[0]);
                if !matches!(order, Some(2..=5)) {
                    return Err(err(
                        args[0].span,
                        format!("`{name}`: the memory order must be a constant `__ATOMIC_ACQUIRE`, `__ATOMIC_RELEASE`, `__ATOMIC_ACQ_REL` or `__ATOMIC_SEQ_CST` (clang SemaAMDGPU: relaxed and consume are invalid for a fence)"),
                    ));
                }
                let scope_ok =
                    matches!(&args[1].kind, ExprKind::Str(s) if FENCE_SCOPES.contains(&s.as_str()));
                if !scope_ok {
                    return Err(err(
                        args[1].span,
                        format!("`{name}`: the scope must be a string literal naming an AMDGPU synchronization scope (LLVM AMDGPUUsage, Memory Scopes): \"workgroup\", \"agent\", \"wavefront\", \"singlethread\", \"\" (system), or one of them with \"-one-as\""),
                    ));
                }
                Ok(Some(self.e_call(span, name, Vec::new())))
            }
            "__builtin_amdgcn_mov_dpp8" => {
                count(2)?;
                let Some(sel) = const_int(&args[1]).filter(|v| (0..=0xff_ffff).contains(v)) else {
                    return Err(err(
                        args[1].span,
                        format!("`{name}`: the selectors must be a constant integer of eight 3-bit fields (clang `_Constant unsigned int`; bits 24 and up are not selectors), e.g. `{name}(v, 0x053977)`: lane i of each group of 8 reads lane 7 - i (selector i in bits 3i..3i+2)"),
                    ));
                };
                let lanes: Vec<String> =
                    (0..8).map(|i| ((sel >> (3 * i)) & 7).to_string()).collect();
                let src = self.e_unsigned(span, args[0].clone());
                let ctrl = self.e_ident(span, &format!("dpp8:[{}]", lanes.join(",")));
                Ok(Some(self.e_call(span, MOV_DPP, vec![src, ctrl])))
            }
            _ => Ok(None),
        }
    }

    /// `(unsigned int) e`.
    fn e_unsigned(&mut self, at: Span, e: Expr) -> Expr {
        let s = self.syn_span(at);
        Expr::new(
            ExprKind::Cast(Ty::Val(ValTy::scalar(Scalar::U32)), Box::new(e)),
            s,
        )
    }
}
