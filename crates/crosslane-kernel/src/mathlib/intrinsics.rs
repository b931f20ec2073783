//! The floating-point intrinsics of the CUDA Math API ("Single Precision Intrinsics", "Double
//! Precision Intrinsics"): the IEEE operations with an explicit rounding mode (`_rn` to
//! nearest even, `_rz` toward zero, `_ru` up, `_rd` down), computed exactly here, and the fast
//! approximations (`__expf`, `__logf`, `__sinf`, `__fdividef`, …), which give the correctly
//! rounded value of the function they approximate with the error bound CUDA C++ Programming
//! Guide, "Mathematical Functions", "Intrinsic Functions" states for them ([`super::SRC_INTR`]).
//!
//! A directed rounding is exact: the result rounded to nearest and the sign of the rounding
//! error (an error-free transformation: TwoSum for a sum, an `fma` residual for a product,
//! quotient or square root) say which neighbour the mode takes.

use super::{
    args_note, noted_result, num, Bound, INTRINSIC_NOTES, SRC_F32, SRC_F64, SRC_INTR, SRC_PTX,
    SRC_WGSL,
};
use crate::types::{KVal, Scalar};

/// The names notes can carry besides the rows of [`super::table::ROWS`], with their sources.
pub const NOTES: &[(&str, &str)] = &[
    ("__expf", SRC_INTR),
    ("__exp10f", SRC_INTR),
    ("__logf", SRC_INTR),
    ("__log2f", SRC_INTR),
    ("__log10f", SRC_INTR),
    ("__sinf", SRC_INTR),
    ("__cosf", SRC_INTR),
    ("__tanf", SRC_INTR),
    ("__powf", SRC_INTR),
    ("__fdividef", SRC_INTR),
    ("sincosf", SRC_F32),
    ("sincos", SRC_F64),
    ("sincospif", SRC_F32),
    ("sincospi", SRC_F64),
    // WGSL built-ins with a bound the spec states in ulp (or absolute) for f32.
    ("inverseSqrt", SRC_WGSL),
    ("exp", SRC_WGSL),
    ("exp2", SRC_WGSL),
    ("log", SRC_WGSL),
    ("log2", SRC_WGSL),
    ("atan", SRC_WGSL),
    ("atan2", SRC_WGSL),
    ("__tanhf", SRC_INTR),
    // Under --use_fast_math (nvcc's -prec-div=false, -prec-sqrt=false): super::fast_binary,
    // super::fast_sqrt_note.
    ("x/y (-prec-div=false)", SRC_F32),
    ("sqrtf (-prec-sqrt=false)", SRC_F32),
    // WGSL built-ins with an absolute bound, or one inherited from a formula
    // (crate::wgsl::inherited), and WGSL's f32 division.
    ("sin", SRC_WGSL),
    ("cos", SRC_WGSL),
    ("tan", SRC_WGSL),
    ("sinh", SRC_WGSL),
    ("cosh", SRC_WGSL),
    ("tanh", SRC_WGSL),
    ("sqrt", SRC_WGSL),
    ("pow", SRC_WGSL),
    ("fract", SRC_WGSL),
    ("degrees", SRC_WGSL),
    ("radians", SRC_WGSL),
    ("fma", SRC_WGSL),
    ("mix", SRC_WGSL),
    ("asin", SRC_WGSL),
    ("acos", SRC_WGSL),
    ("asinh", SRC_WGSL),
    ("acosh", SRC_WGSL),
    ("atanh", SRC_WGSL),
    ("smoothstep", SRC_WGSL),
    ("x/y (WGSL f32)", SRC_WGSL),
    // Inline PTX's approximate instructions (crate::ptx_ops).
    ("ex2.approx.f32", SRC_PTX),
    ("lg2.approx.f32", SRC_PTX),
    ("rsqrt.approx.f32", SRC_PTX),
    ("rcp.approx.f32", SRC_PTX),
    ("sqrt.approx.f32", SRC_PTX),
    ("sin.approx.f32", SRC_PTX),
    ("cos.approx.f32", SRC_PTX),
    ("tanh.approx.f32", SRC_PTX),
    ("div.approx.f32", SRC_PTX),
    ("div.full.f32", SRC_PTX),
];

/// The note id of a name in [`NOTES`] with `bound` (`None` for a name not there): the own
/// bound [`crate::accuracy::Approx::propagate`] takes.
pub fn named_note(name: &str, bound: Bound) -> Option<(u16, Bound)> {
    note(name, bound)
}

/// The note an f32 result of WGSL built-in `name` on argument `x` (the first) carries: the
/// bound WGSL § 15.7.4 (Floating Point Accuracy, f32 column) states, where it states one
/// directly: `inverseSqrt` 2 ULP; `exp`, `exp2` 3 + 2·|x| ULP (whole ulps: a distance in ulp is
/// a whole number, so the floor bounds the same values); `log`, `log2` 3 ULP outside
/// [0.5, 2.0], absolute error < 2^-21 inside; `atan`, `atan2` 4096 ULP. `None` for any other
/// name (correctly rounded, or a bound inherited from a formula, which is not carried).
pub fn wgsl_note(name: &str, x: f64) -> Option<(u16, Bound)> {
    let bound = match name {
        "inverseSqrt" => Bound::Ulp(2),
        "exp" | "exp2" => {
            let extra = (2.0 * x.abs()).floor();
            Bound::Ulp(3u32.saturating_add(if extra < 1e9 { extra as u32 } else { u32::MAX }))
        }
        "log" | "log2" if (0.5..=2.0).contains(&x) => Bound::AbsPow2(-21.0),
        "log" | "log2" => Bound::Ulp(3),
        "atan" | "atan2" => Bound::Ulp(4096),
        _ => return None,
    };
    note(name, bound)
}

/// Name and source of intrinsic note `k`.
pub fn note_name(k: u16) -> (&'static str, &'static str) {
    NOTES.get(usize::from(k)).copied().unwrap_or(("?", ""))
}

fn note(name: &str, bound: Bound) -> Option<(u16, Bound)> {
    let k = NOTES.iter().position(|(n, _)| *n == name)?;
    Some((u16::try_from(k).ok()? + INTRINSIC_NOTES, bound))
}

/// A rounding mode of the `_rn`/`_rz`/`_ru`/`_rd` intrinsics (PTX ISA, "Rounding Modifiers").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// To nearest, ties to even.
    Rn,
    /// Toward zero.
    Rz,
    /// Toward +∞.
    Ru,
    /// Toward −∞.
    Rd,
}

fn mode_of(suffix: &str) -> Option<Mode> {
    Some(match suffix {
        "rn" => Mode::Rn,
        "rz" => Mode::Rz,
        "ru" => Mode::Ru,
        "rd" => Mode::Rd,
        _ => return None,
    })
}

/// Splits `__fadd_rz` into (`fadd`, Rz).
fn split(name: &str) -> Option<(&str, Mode)> {
    let rest = name.strip_prefix("__")?;
    let (op, m) = rest.rsplit_once('_')?;
    Some((op, mode_of(m)?))
}

const ROUNDED_F32: &[&str] = &["fadd", "fsub", "fmul", "fdiv", "frcp", "fsqrt", "fmaf"];
const ROUNDED_F64: &[&str] = &["dadd", "dsub", "dmul", "ddiv", "drcp", "dsqrt", "fma"];

const FAST: &[&str] = &[
    "__expf",
    "__exp10f",
    "__logf",
    "__log2f",
    "__log10f",
    "__sinf",
    "__cosf",
    "__tanf",
    "__powf",
    "__fdividef",
    "__saturatef",
    "__frsqrt_rn",
    "__tanhf",
];

/// The type intrinsic `name` returns (CUDA Math API, "Single Precision Intrinsics", "Double
/// Precision Intrinsics"): `float` for the fast functions and the rounded single-precision
/// ones, `double` for the rounded double-precision ones; `None` for another name.
pub fn result_type(name: &str) -> Option<Scalar> {
    if FAST.contains(&name) {
        return Some(Scalar::F32);
    }
    let (op, _) = split(name)?;
    if ROUNDED_F32.contains(&op) {
        Some(Scalar::F32)
    } else if ROUNDED_F64.contains(&op) {
        Some(Scalar::F64)
    } else {
        None
    }
}

/// Whether `name` is an intrinsic of this module.
pub fn is_intrinsic(name: &str) -> bool {
    FAST.contains(&name)
        || split(name).is_some_and(|(op, _)| ROUNDED_F32.contains(&op) || ROUNDED_F64.contains(&op))
}

/// `x` rounded to the `f64` neighbour `mode` picks, given that the exact value is `x + e`
/// with `e` of sign `s` (−1, 0, 1) and `x` the exact value rounded to nearest.
fn direct_f64(x: f64, s: i8, mode: Mode) -> f64 {
    if x.is_nan() {
        return x;
    }
    if x.is_infinite() {
        // An overflow rounded to nearest; a directed mode may stop at the largest finite.
        return match (mode, x > 0.0) {
            (Mode::Rz, true) | (Mode::Rd, true) => f64::MAX,
            (Mode::Rz, false) | (Mode::Ru, false) => -f64::MAX,
            _ => x,
        };
    }
    match mode {
        Mode::Rn => x,
        Mode::Ru if s > 0 => x.next_up(),
        Mode::Rd if s < 0 => x.next_down(),
        Mode::Rz if s < 0 && x > 0.0 => x.next_down(),
        Mode::Rz if s > 0 && x < 0.0 => x.next_up(),
        _ => x,
    }
}

/// The exact value `r + e` (with |e| at most half an ulp of `r`, as TwoSum and the `fma`
/// residuals give) rounded to `f32` in `mode`.
fn round_f32(r: f64, e: f64, mode: Mode) -> f64 {
    if r.is_nan() {
        return r;
    }
    let n = r as f32;
    let nd = f64::from(n);
    if n.is_infinite() && r.is_finite() {
        return match (mode, r > 0.0) {
            (Mode::Rz | Mode::Rd, true) => f64::from(f32::MAX),
            (Mode::Rz | Mode::Ru, false) => -f64::from(f32::MAX),
            _ => nd,
        };
    }
    // The sign of (exact − n): r − nd is exact (nd is r rounded to float) and, when nonzero,
    // larger than |e|.
    let d = r - nd;
    let s: i8 = if d > 0.0 || (d == 0.0 && e > 0.0) {
        1
    } else if d < 0.0 || (d == 0.0 && e < 0.0) {
        -1
    } else {
        0
    };
    match mode {
        Mode::Rn => {
            // r may sit exactly halfway between two floats while the exact value does not:
            // then the error decides, not ties-to-even.
            if d != 0.0 && e != 0.0 {
                let other = if d > 0.0 { n.next_up() } else { n.next_down() };
                let half = (f64::from(other) - nd) / 2.0;
                if d == half {
                    return if (e > 0.0) == (d > 0.0) {
                        f64::from(other)
                    } else {
                        nd
                    };
                }
            }
            nd
        }
        Mode::Ru if s > 0 => f64::from(n.next_up()),
        Mode::Rd if s < 0 => f64::from(n.next_down()),
        Mode::Rz if s < 0 && nd > 0.0 => f64::from(n.next_down()),
        Mode::Rz if s > 0 && nd < 0.0 => f64::from(n.next_up()),
        _ => nd,
    }
}

/// TwoSum: `a + b = s + e` exactly (Knuth, TAOCP vol. 2, 4.2.2).
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    if !s.is_finite() {
        return (s, 0.0);
    }
    let bb = s - a;
    let e = (a - (s - bb)) + (b - bb);
    (s, e)
}

fn sign(x: f64) -> i8 {
    if x > 0.0 {
        1
    } else if x < 0.0 {
        -1
    } else {
        0
    }
}

/// `a * b + c` rounded once to `float` (each argument a float): the product is exact in
/// `f64`, the sum exact as TwoSum's pair.
pub fn fma_f32(a: f64, b: f64, c: f64) -> f64 {
    let p = a * b;
    let (s, e) = two_sum(p, c);
    round_f32(s, e, Mode::Rn)
}

/// A single-precision operation in `mode` on float arguments.
fn rounded_f32(op: &str, x: &[f64], mode: Mode) -> f64 {
    let (a, b) = (x[0], x.get(1).copied().unwrap_or(0.0));
    match op {
        "fadd" | "fsub" => {
            let b = if op == "fsub" { -b } else { b };
            let (s, e) = two_sum(a, b);
            round_f32(s, e, mode)
        }
        // The product of two floats is exact in f64.
        "fmul" => round_f32(a * b, 0.0, mode),
        "fdiv" | "frcp" => {
            let (a, b) = if op == "frcp" { (1.0, a) } else { (a, b) };
            let q = a / b;
            let rem = (-q).mul_add(b, a);
            round_f32(q, rem * b.signum(), mode)
        }
        "fsqrt" => {
            let r = a.sqrt();
            let rem = (-r).mul_add(r, a);
            round_f32(r, rem, mode)
        }
        _ => {
            // fmaf
            let c = x.get(2).copied().unwrap_or(0.0);
            let (s, e) = two_sum(a * b, c);
            round_f32(s, e, mode)
        }
    }
}

/// A double-precision operation in `mode`.
fn rounded_f64(op: &str, x: &[f64], mode: Mode) -> f64 {
    let (a, b) = (x[0], x.get(1).copied().unwrap_or(0.0));
    let (r, s) = match op {
        "dadd" | "dsub" => {
            let b = if op == "dsub" { -b } else { b };
            let (s, e) = two_sum(a, b);
            (s, sign(e))
        }
        "dmul" => {
            let p = a * b;
            (p, sign(a.mul_add(b, -p)))
        }
        "ddiv" | "drcp" => {
            let (a, b) = if op == "drcp" { (1.0, a) } else { (a, b) };
            let q = a / b;
            (q, sign((-q).mul_add(b, a) * b.signum()))
        }
        "dsqrt" => {
            let r = a.sqrt();
            (r, sign((-r).mul_add(r, a)))
        }
        _ => {
            // fma: only `__fma_rn` has no error term here; the directed forms need the
            // exact residual of a three-term sum, taken from TwoSum of the exact product's
            // two halves and c.
            let c = x.get(2).copied().unwrap_or(0.0);
            let p = a * b;
            let pe = a.mul_add(b, -p);
            let (s1, e1) = two_sum(p, c);
            let r = a.mul_add(b, c);
            // exact − r = (s1 − r) + e1 + pe, each term small: its sign.
            (r, sign((s1 - r) + e1 + pe))
        }
    };
    direct_f64(r, s, mode)
}

/// Runs intrinsic `name`, or `None` when it is not one.
pub fn call(name: &str, args: &[KVal]) -> Option<Result<KVal, String>> {
    if !is_intrinsic(name) {
        return None;
    }
    Some(run(name, args))
}

fn run(name: &str, args: &[KVal]) -> Result<KVal, String> {
    let f32v = |x: f64| x as f32 as f64;
    if let Some((op, mode)) = split(name) {
        let single = ROUNDED_F32.contains(&op) && name != "__frsqrt_rn";
        if single || ROUNDED_F64.contains(&op) {
            let n = match op {
                "frcp" | "fsqrt" | "drcp" | "dsqrt" => 1,
                "fmaf" | "fma" => 3,
                _ => 2,
            };
            let mut xs = Vec::with_capacity(n);
            for k in 0..n {
                let x = num(name, args, k)?;
                xs.push(if single { f32v(x) } else { x });
            }
            // IEEE-compliant: exact, so only an argument's own note passes on.
            return Ok(if single {
                let f = |p: &[f64]| rounded_f32(op, p, mode);
                noted_result(Scalar::F32, f(&xs), None, args, &xs, &f)
            } else {
                let f = |p: &[f64]| rounded_f64(op, p, mode);
                noted_result(Scalar::F64, f(&xs), None, args, &xs, &f)
            });
        }
    }
    let x = f32v(num(name, args, 0)?);
    let in_unit = (0.5..=2.0).contains(&x);
    let in_pi = (-std::f64::consts::PI..=std::f64::consts::PI).contains(&x);
    let (value, bound) = match name {
        // "The maximum ulp error is 2 + floor(abs(1.173 * x))."
        "__expf" => (
            fast(name, &[x, 0.0]),
            Bound::Ulp(2 + (1.173 * x).abs().floor().min(1e9) as u32),
        ),
        // "The maximum ulp error is 2 + floor(abs(2.97 * x))."
        "__exp10f" => (
            fast(name, &[x, 0.0]),
            Bound::Ulp(2 + (2.97 * x).abs().floor().min(1e9) as u32),
        ),
        // "For x in [0.5, 2], the maximum absolute error is 2^-21.41, otherwise, the maximum
        // ulp error is 3."
        "__logf" => (
            fast(name, &[x, 0.0]),
            if in_unit {
                Bound::AbsPow2(-21.41)
            } else {
                Bound::Ulp(3)
            },
        ),
        // "For x in [0.5, 2], the maximum absolute error is 2^-22, otherwise, the maximum ulp
        // error is 2."
        "__log2f" => (
            fast(name, &[x, 0.0]),
            if in_unit {
                Bound::AbsPow2(-22.0)
            } else {
                Bound::Ulp(2)
            },
        ),
        // "For x in [0.5, 2], the maximum absolute error is 2^-24, otherwise, the maximum ulp
        // error is 3."
        "__log10f" => (
            fast(name, &[x, 0.0]),
            if in_unit {
                Bound::AbsPow2(-24.0)
            } else {
                Bound::Ulp(3)
            },
        ),
        // "For x in [-π, π], the maximum absolute error is 2^-21.41, and larger otherwise."
        "__sinf" => (
            fast(name, &[x, 0.0]),
            if in_pi {
                Bound::AbsPow2(-21.41)
            } else {
                Bound::Unstated
            },
        ),
        // "For x in [-π, π], the maximum absolute error is 2^-21.19, and larger otherwise."
        "__cosf" => (
            fast(name, &[x, 0.0]),
            if in_pi {
                Bound::AbsPow2(-21.19)
            } else {
                Bound::Unstated
            },
        ),
        // "Derived from its implementation as __sinf(x) * (1/__cosf(x))": no stated bound.
        "__tanf" => (fast(name, &[x, 0.0]), Bound::Unstated),
        // "Maximum relative error 2^-11" (CUDA C++ Programming Guide, Mathematical Functions,
        // Single-Precision-Only Intrinsics; subnormal results are not flushed): the ulp of a
        // float y exceeds 2^-24·|y|, so 2^-11·|y| is under 2^13 = 8192 ulp.
        "__tanhf" => (fast(name, &[x, 0.0]), Bound::Ulp(8192)),
        // "Derived from its implementation as exp2f(y * __log2f(x))": no stated bound.
        "__powf" => (fast(name, &[x, f32v(num(name, args, 1)?)]), Bound::Unstated),
        "__fdividef" => {
            let y = f32v(num(name, args, 1)?);
            // CUDA Math API, __fdividef: "for 2^126 < |y| < 2^128, __fdividef(x,y) delivers 0
            // if x is finite, NaN if x is infinite" (the hardware's reciprocal underflows).
            let big = y.abs() > 2f64.powi(126) && y.abs() < 2f64.powi(128);
            if big {
                let v = if x.is_infinite() { f64::NAN } else { 0.0 };
                return Ok(KVal::approx_float(Scalar::F32, v, args_note(args)));
            }
            // "For |y| in [2^-126, 2^126], the maximum ulp error is 2."
            let small = (2f64.powi(-126)..=2f64.powi(126)).contains(&y.abs());
            (
                x / y,
                if small {
                    Bound::Ulp(2)
                } else {
                    Bound::Unstated
                },
            )
        }
        "__saturatef" => {
            // CUDA Math API: clamps to [+0.0, 1.0]; NaN gives +0 (PTX ISA, `cvt` `.sat`:
            // "NaN results are flushed to positive zero").
            let v = if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) };
            let v = if v == 0.0 { 0.0 } else { v };
            return Ok(noted_result(Scalar::F32, v, None, args, &[x], &|p| {
                if p[0].is_nan() {
                    0.0
                } else {
                    p[0].clamp(0.0, 1.0)
                }
            }));
        }
        _ => {
            // __frsqrt_rn: 1/sqrt(x) rounded to nearest (IEEE-compliant per the table). The
            // f64 quotient of an f64 square root is within an ulp of f64: then rounded once.
            let f = |p: &[f64]| 1.0 / p[0].sqrt();
            return Ok(noted_result(Scalar::F32, f(&[x]), None, args, &[x], &f));
        }
    };
    let y = if matches!(name, "__powf" | "__fdividef") {
        f32v(num(name, args, 1)?)
    } else {
        0.0
    };
    Ok(noted_result(
        Scalar::F32,
        value,
        note(name, bound),
        args,
        &[x, y],
        &|p| fast(name, p),
    ))
}

/// The function fast intrinsic `name` approximates, on `p` (the argument; `__powf`,
/// `__fdividef`: and the second), unrounded: its value, and the one the device's error is
/// carried through.
fn fast(name: &str, p: &[f64]) -> f64 {
    let (x, y) = (p[0], p[1]);
    match name {
        "__expf" => libm::exp(x),
        "__exp10f" => libm::exp10(x),
        "__logf" => libm::log(x),
        "__log2f" => libm::log2(x),
        "__log10f" => libm::log10(x),
        "__sinf" => libm::sin(x),
        "__cosf" => libm::cos(x),
        "__tanf" => libm::tan(x),
        "__tanhf" => libm::tanh(x),
        "__powf" => libm::pow(x, y),
        "__fdividef" => x / y,
        _ => f64::NAN,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(x: f32) -> KVal {
        KVal::float(Scalar::F32, f64::from(x))
    }

    fn run1(name: &str, a: &[f32]) -> f32 {
        let args: Vec<KVal> = a.iter().map(|&x| f(x)).collect();
        call(name, &args).unwrap().unwrap().as_f64().unwrap() as f32
    }

    #[test]
    fn tanhf_intrinsic_states_its_relative_bound_in_ulp() {
        // tanh(0.5) = 0.46211715726…, rounded to float; the bound 2^-11 relative is 8192 ulp.
        let v = call("__tanhf", &[f(0.5)]).unwrap().unwrap();
        assert_eq!(v.as_f64().map(|x| x as f32), Some(0.462_117_16));
        assert_eq!(v.approx().and_then(|a| a.ulp()), Some(8192));
        assert_eq!(super::super::fast_math_name("tanhf"), "__tanhf");
    }

    #[test]
    fn directed_roundings_bracket_the_exact_sum() {
        // 1 + 2^-30 is between 1 and the next float 1 + 2^-23.
        let tiny = 2f32.powi(-30);
        assert_eq!(run1("__fadd_rn", &[1.0, tiny]), 1.0);
        assert_eq!(run1("__fadd_rz", &[1.0, tiny]), 1.0);
        assert_eq!(run1("__fadd_rd", &[1.0, tiny]), 1.0);
        assert_eq!(run1("__fadd_ru", &[1.0, tiny]), 1.0f32.next_up());
        // −1 − 2^-30: toward zero is −1, down is the next float below −1.
        assert_eq!(run1("__fadd_rz", &[-1.0, -tiny]), -1.0);
        assert_eq!(run1("__fadd_rd", &[-1.0, -tiny]), (-1.0f32).next_down());
        // 1/3 rounded up and down differ by one ulp, nearest is the IEEE quotient.
        let (d, u) = (
            run1("__fdiv_rd", &[1.0, 3.0]),
            run1("__fdiv_ru", &[1.0, 3.0]),
        );
        assert_eq!(u, d.next_up());
        assert_eq!(run1("__fdiv_rn", &[1.0, 3.0]), 1.0f32 / 3.0);
        // sqrt(2) toward zero is the float below the exact root.
        assert!(f64::from(run1("__fsqrt_rz", &[2.0])) < 2f64.sqrt());
        assert!(f64::from(run1("__fsqrt_ru", &[2.0])) > 2f64.sqrt());
        // Overflow toward zero stops at FLT_MAX.
        assert_eq!(run1("__fmul_rz", &[f32::MAX, 2.0]), f32::MAX);
        assert_eq!(run1("__fmul_rn", &[f32::MAX, 2.0]), f32::INFINITY);
    }

    #[test]
    fn fdividef_range_rule_and_fast_bounds() {
        assert_eq!(run1("__fdividef", &[1.0, 2f32.powi(127)]), 0.0);
        assert!(run1("__fdividef", &[f32::INFINITY, 2f32.powi(127)]).is_nan());
        assert_eq!(run1("__fdividef", &[1.0, 4.0]), 0.25);
        let e = call("__expf", &[f(2.0)]).unwrap().unwrap();
        // 2 + floor(1.173 * 2) = 4.
        assert_eq!(e.approx().and_then(crate::accuracy::Approx::ulp), Some(4));
        let s = call("__sinf", &[f(10.0)]).unwrap().unwrap();
        assert_eq!(s.approx().map(|a| a.bound), Some(Bound::Unstated));
        assert_eq!(run1("__saturatef", &[f32::NAN]), 0.0);
        assert_eq!(run1("__saturatef", &[1.5]), 1.0);
    }
}
