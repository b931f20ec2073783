//! Floating-point contraction: a `float` or `double` product and the sum or difference it feeds,
//! in one expression, computed as one fused multiply-add (rounded once), as the device
//! compilers emit it by default.
//!
//! Sources:
//! - nvcc: `--fmad` ("Enables (disables) the contraction of floating-point multiplies and
//!   adds/subtracts into floating-point multiply-add operations (FMAD, FFMA, or DFMA)",
//!   default `true`; NVCC documentation, "--fmad"); CUDA C++ Best Practices Guide / CUDA C++
//!   Programming Guide, floating-point sections: `__fmul_rn` and `__fadd_rn` "are never merged
//!   into" a multiply-add.
//! - HIP: clang's `-ffp-contract` ("Default is 'fast' for CUDA, 'fast-honor-pragmas' for HIP,
//!   and 'on' otherwise", clang Options.td / Clang Command Line Reference), with
//!   `#pragma clang fp contract(off|on|fast)` and `#pragma STDC FP_CONTRACT` honored for HIP
//!   (Clang Language Extensions, "Extensions to specify floating-point flags").
//! - MACA and Ascend C compile with clang-based compilers whose contraction default their
//!   vendors do not state: crosslane assumes clang's HIP default and says so in the trace.
//! - WGSL: each `+`, `-`, `*` is "correctly rounded" (WGSL, "Floating Point Accuracy"), and
//!   `fma(x, y, z)`'s accuracy is "inherited from x * y + z": the spec's value of `x * y + z` is
//!   two roundings, so WGSL is not contracted here (a driver may still fuse; the GPU diff shows it).
//!
//! What is fused (the shapes LLVM's DAG combiner forms, `visitFADDForFMACombine` /
//! `visitFSUBForFMACombine`, with operands of one type): `a*b + c`, `c + a*b` → `fma(a, b, c)`;
//! `a*b - c` → `fma(a, b, -c)`; `c - a*b` → `fma(-a, b, c)`; `acc += a*b` → `fma(a, b, acc)`;
//! `acc -= a*b` → `fma(-a, b, acc)`; with two products (`a*b + c*d`) the left one is fused.
//! Not fused: a product stored to a named variable and added in a later statement (LLVM with
//! `-ffp-contract=fast` may fuse it after inlining and register allocation; crosslane does not,
//! and the trace's launch note says so), `half` / `bfloat16` arithmetic (see
//! [`HALF_NOTE`]), a product converted to another type before the add (`(double)(a*b) + d`),
//! and the `_rn`/`_rz`/`_ru`/`_rd` intrinsics.

use crate::ast::{Expr, ExprKind};
use crate::types::{BinOp, KVal, Scalar};
use crosslane_core::op::Dialect;

/// Why `half` arithmetic is not fused here, for the docs and the launch note.
pub const HALF_NOTE: &str = "half and bfloat16 products are not fused here; CUDA's cuda_fp16 documents only __hadd_rn/__hmul_rn/__hsub_rn as the forms that \"prevent floating-point contractions of mul+add into fma\", so a toolkit may fuse __hmul/__hadd and the half operators";

/// A contraction pragma's mode at a line range (`#pragma clang fp contract(…)`,
/// `#pragma STDC FP_CONTRACT …`): the lines from the pragma to the end of the compound
/// statement it stands in (or of the file, at namespace scope).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContractPragma {
    /// Line of the pragma.
    pub line: u32,
    /// Last line it applies to.
    pub end_line: u32,
    /// Whether products and sums are fused there (`off`: false; `on`, `fast`: true).
    pub fuse: bool,
}

/// The mode a pragma's text sets, when it is a contraction pragma: `clang fp contract(off)` →
/// `Some(false)`, `(on)` / `(fast)` / `(fast-honor-pragmas)` → `Some(true)`; `STDC FP_CONTRACT
/// OFF` → `Some(false)`, `ON` / `DEFAULT` → `Some(true)` (clang's HIP default fuses).
pub fn pragma_mode(text: &str) -> Option<bool> {
    let words: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if let Some(rest) = words.strip_prefix("clang fp contract") {
        let arg = rest
            .trim()
            .trim_start_matches('(')
            .trim_end_matches(')')
            .trim();
        return match arg {
            "off" => Some(false),
            "on" | "fast" | "fast-honor-pragmas" => Some(true),
            _ => None,
        };
    }
    match words.strip_prefix("STDC FP_CONTRACT")?.trim() {
        "OFF" => Some(false),
        "ON" | "DEFAULT" => Some(true),
        _ => None,
    }
}

/// The contraction in force for a launch: the mode outside any pragma and the pragmas'
/// ranges (honored for HIP only).
#[derive(Clone, Debug, Default)]
pub(crate) struct Contract {
    pub(crate) fuse: bool,
    pub(crate) pragmas: Vec<ContractPragma>,
}

impl Contract {
    /// Whether an expression at `line` is contracted: the innermost pragma range holding the
    /// line decides, else the launch's mode.
    pub(crate) fn at(&self, line: u32) -> bool {
        self.pragmas
            .iter()
            .filter(|p| p.line <= line && line <= p.end_line)
            .max_by_key(|p| p.line)
            .map_or(self.fuse, |p| p.fuse)
    }
}

/// The launch's contraction mode and its words for the trace: `fmad` is the user's choice
/// (`--fmad=false`, `-ffp-contract=off`, a scenario's or `runKernel`'s `fmad`), `None` the
/// dialect's default.
pub fn launch_mode(dialect: Dialect, fmad: Option<bool>) -> (bool, String) {
    let default = !matches!(dialect, Dialect::Wgsl);
    let fuse = fmad.unwrap_or(default);
    let from = match (fmad, dialect) {
        (Some(false), Dialect::Hip) => "-ffp-contract=off".to_string(),
        (Some(false), _) => "--fmad=false".to_string(),
        (Some(true), Dialect::Wgsl) => "fmad asked for WGSL".to_string(),
        (Some(true), _) => "--fmad=true".to_string(),
        (None, Dialect::Cuda) => "nvcc's default --fmad=true".to_string(),
        (None, Dialect::Hip) => "clang's HIP default -ffp-contract=fast-honor-pragmas".to_string(),
        (None, Dialect::Wgsl) => {
            "WGSL, where each + - * is correctly rounded (WGSL spec, Floating Point Accuracy)"
                .to_string()
        }
        (None, _) => "assumed as clang's HIP default (the vendor states none)".to_string(),
    };
    (fuse, from)
}

/// The note of a launch whose source has contraction pragmas its dialect does not apply.
pub const PRAGMA_NOTE: &str = "a floating-point contraction pragma is applied for HIP only (clang's -ffp-contract=fast-honor-pragmas); nvcc's contraction is set by --fmad, and __fmul_rn/__fadd_rn are never fused";

/// [`PRAGMA_NOTE`]'s sources.
pub const PRAGMA_SRC: &str =
    "NVCC documentation, --fmad; Clang Language Extensions, #pragma clang fp contract";

/// A launch's contraction ([`launch_mode`]), the trace's words for it ([`launch_note`]), and
/// whether the source has contraction pragmas the dialect does not apply: clang honors them
/// for HIP (fast-honor-pragmas); nvcc's contraction is set by `--fmad` alone.
pub(crate) fn for_launch(
    dialect: Dialect,
    fmad: Option<bool>,
    pragmas: &[ContractPragma],
) -> (Contract, String, bool) {
    let (fuse, from) = launch_mode(dialect, fmad);
    let hip = dialect == Dialect::Hip;
    let contract = Contract {
        fuse,
        pragmas: if hip { pragmas.to_vec() } else { Vec::new() },
    };
    (
        contract,
        launch_note(fuse, &from),
        !hip && !pragmas.is_empty(),
    )
}

/// The notes a launch states at its start, with their sources: fast math's
/// ([`crate::mathlib::FAST_MATH_NOTE`]) when it is on, and [`PRAGMA_NOTE`] when the source has
/// pragmas its dialect does not apply.
pub(crate) fn launch_infos(
    fast_math: bool,
    pragmas_unhonored: bool,
) -> impl Iterator<Item = (&'static str, &'static str)> {
    [
        (
            fast_math,
            crate::mathlib::FAST_MATH_NOTE,
            crate::mathlib::SRC_INTR,
        ),
        (pragmas_unhonored, PRAGMA_NOTE, PRAGMA_SRC),
    ]
    .into_iter()
    .filter(|n| n.0)
    .map(|(_, note, src)| (note, src))
}

/// The trace's launch note on contraction.
pub fn launch_note(fuse: bool, from: &str) -> String {
    if fuse {
        format!("floating-point contraction on ({from}): within one expression a float or double a*b+c, c+a*b, a*b-c, c-a*b, acc+=a*b, acc-=a*b is one fma, rounded once (0 ulp); a product kept in a named variable and added in a later statement is not fused here (the compiler may fuse it); {HALF_NOTE}; --fmad=false turns it off")
    } else {
        format!(
            "floating-point contraction off ({from}): every product and sum is rounded on its own"
        )
    }
}

/// A product and the addend it may be fused with: `x * y` (negated when `neg_product`) plus
/// `c` (negated when `neg_addend`); `product_first` when the product is the left operand (its
/// operands are evaluated first).
#[derive(Clone, Copy)]
pub(crate) struct Fusion<'e> {
    pub(crate) product: &'e Expr,
    pub(crate) x: &'e Expr,
    pub(crate) y: &'e Expr,
    pub(crate) c: &'e Expr,
    pub(crate) product_first: bool,
    pub(crate) neg_product: bool,
    pub(crate) neg_addend: bool,
}

/// The fusable shape of `a op b`, if it is one: a `+` or `-` with a `*` operand (the left one
/// when both are products).
pub(crate) fn split<'e>(op: BinOp, a: &'e Expr, b: &'e Expr) -> Option<Fusion<'e>> {
    let product = |e: &'e Expr| match &e.kind {
        ExprKind::Binary(BinOp::Mul, x, y) => Some((&**x, &**y)),
        _ => None,
    };
    let sub = match op {
        BinOp::Add => false,
        BinOp::Sub => true,
        _ => return None,
    };
    if let Some((x, y)) = product(a) {
        return Some(Fusion {
            product: a,
            x,
            y,
            c: b,
            product_first: true,
            neg_product: false,
            neg_addend: sub,
        });
    }
    let (x, y) = product(b)?;
    Some(Fusion {
        product: b,
        x,
        y,
        c: a,
        product_first: false,
        neg_product: sub,
        neg_addend: false,
    })
}

/// The type a fused multiply-add of operands typed `tx`, `ty` (the product) and `tc` (the
/// addend) has, when it is fusable: the product's type after C's usual arithmetic conversions
/// is `float` or `double` and adding the addend keeps that type (a product converted before
/// the add is not fused).
pub(crate) fn fused_type(tx: Scalar, ty: Scalar, tc: Scalar) -> Option<Scalar> {
    let p = Scalar::common(tx, ty);
    (matches!(p, Scalar::F32 | Scalar::F64) && Scalar::common(p, tc) == p).then_some(p)
}

/// `±x·y ± c` rounded once to `ty` (`float` or `double`; IEEE 754 fusedMultiplyAdd).
pub(crate) fn fma(ty: Scalar, x: f64, y: f64, c: f64) -> f64 {
    if ty == Scalar::F64 {
        x.mul_add(y, c)
    } else {
        f64::from((x as f32).mul_add(y as f32, c as f32))
    }
}

/// The fused value of scalar operands, or `None` when their types do not fuse (the caller
/// then multiplies and adds as C does). An operand's accuracy note carries through to the
/// result ([`crate::accuracy::Approx::propagate`]).
pub(crate) fn fused_value(
    (neg_product, neg_addend): (bool, bool),
    x: &KVal,
    y: &KVal,
    c: &KVal,
) -> Option<KVal> {
    let scalar = |v: &KVal| match v {
        KVal::Float { ty, .. } | KVal::Int { ty, .. } => Some(*ty),
        _ => None,
    };
    let ty = fused_type(scalar(x)?, scalar(y)?, scalar(c)?)?;
    let val = |v: &KVal| {
        v.convert(crate::types::ValTy::scalar(ty))
            .ok()
            .and_then(|k| k.as_f64())
    };
    let (mut a, b, mut d) = (val(x)?, val(y)?, val(c)?);
    if neg_product {
        a = -a;
    }
    if neg_addend {
        d = -d;
    }
    let r = fma(ty, a, b, d);
    if x.approx().is_none() && y.approx().is_none() && c.approx().is_none() {
        return Some(KVal::float(ty, r));
    }
    // Operands that may be off: the fused operation over their intervals, plus one rounding.
    let inputs = [(a, x.approx()), (b, y.approx()), (d, c.approx())];
    Some(KVal::propagated(ty, r, None, &inputs, &|p| {
        p[0].mul_add(p[1], p[2])
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tester's case: a = b = 1 + 2^-12, c = -1. a·b = 1 + 2^-11 + 2^-24 exactly; fused,
    /// that minus 1 is 2^-11 + 2^-24 (representable); unfused, a·b rounds to 1 + 2^-11 (the
    /// 2^-24 is a tie below float's 2^-23 ulp at 1 and goes to even), and minus 1 is 2^-11.
    #[test]
    fn fused_rounds_once() {
        let a = 1.0 + 2f64.powi(-12);
        assert_eq!(
            fma(Scalar::F32, a, a, -1.0),
            2f64.powi(-11) + 2f64.powi(-24)
        );
        let unfused = f64::from((a as f32) * (a as f32) - 1.0);
        assert_eq!(unfused, 2f64.powi(-11));
    }

    #[test]
    fn pragma_words() {
        assert_eq!(pragma_mode("clang fp contract(off)"), Some(false));
        assert_eq!(pragma_mode("clang fp contract ( fast )"), Some(true));
        assert_eq!(pragma_mode("STDC FP_CONTRACT OFF"), Some(false));
        assert_eq!(pragma_mode("unroll 4"), None);
    }

    #[test]
    fn innermost_pragma_decides() {
        let c = Contract {
            fuse: true,
            pragmas: vec![
                ContractPragma {
                    line: 2,
                    end_line: 20,
                    fuse: false,
                },
                ContractPragma {
                    line: 5,
                    end_line: 8,
                    fuse: true,
                },
            ],
        };
        assert!(c.at(1));
        assert!(!c.at(3));
        assert!(c.at(6));
        assert!(!c.at(9));
        assert!(c.at(21));
    }
}
