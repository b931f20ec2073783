//! The standard functions of the CUDA Math API, one row per function with its double- and
//! single-precision names, how the value is computed and each precision's maximum error as
//! CUDA C++ Programming Guide, "Mathematical Functions", tables "Single-Precision Mathematical
//! Standard Library Functions with Maximum ULP Error" ([`super::SRC_F32`]) and "Double-Precision
//! Mathematical Standard Library Functions with Maximum ULP Error" ([`super::SRC_F64`]) give it. The
//! tables' bounds assume nvcc's defaults (`-prec-sqrt=true`, `-prec-div=true`).

use super::{noted_result, num, single_overload, special, Bound, Call, INTRINSIC_NOTES};
use crate::types::{KVal, Scalar};

/// How a row's value is computed (in `f64`; a single-precision call rounds the arguments and
/// the result to `float`).
#[derive(Clone, Copy)]
pub enum Eval {
    /// One argument.
    F1(fn(f64) -> f64),
    /// Two arguments.
    F2(fn(f64, f64) -> f64),
    /// Three arguments; the single-precision form is the second function (`fmaf` must round
    /// once, from the exact value).
    F3(fn(f64, f64, f64) -> f64, fn(f64, f64, f64) -> f64),
    /// A value and an `int` (`ldexp`, `scalbn`).
    FInt(fn(f64, i32) -> f64),
    /// A classification (`isnan`): a `bool`.
    Pred(fn(f64) -> bool),
    /// Rounded to a `long` / `long long` (`lround`): the rounding, then the range check.
    ToLong(fn(f64) -> f64),
    /// An `int` result (`ilogb`).
    ToInt(fn(f64) -> i32),
    /// Four arguments (`norm4d`).
    F4(fn(f64, f64, f64, f64) -> f64),
    /// An `int` order, then the value (`jn(n, x)`).
    IntF(fn(i32, f64) -> f64),
    /// The length of an array (`normf(dim, p)`): the call's arguments are `dim` and then the
    /// `dim` values the machine read through `p` ([`super::out_params`]'s sibling
    /// [`reads_array`]).
    Array(fn(&[f64]) -> f64),
    /// A quiet NaN (`nanf(tagp)`), whatever the string.
    Nan,
}

/// A row's maximum error in one precision.
#[derive(Clone, Copy)]
pub enum Acc {
    /// The result is exactly defined (IEEE 754 or the function's definition): no note.
    Exact,
    /// At most this many ulp over the full range.
    Ulp(u32),
    /// A bound that depends on the arguments.
    Rule(fn(&[f64]) -> Bound),
}

/// One function: its names, computation and accuracy in each precision.
pub struct Row {
    /// The double-precision name (`exp`).
    pub double: &'static str,
    /// The single-precision name (`expf`).
    pub single: &'static str,
    /// How the value is computed.
    pub eval: Eval,
    /// Maximum error of the single-precision function ([`super::SRC_F32`]).
    pub f32_acc: Acc,
    /// Maximum error of the double-precision function ([`super::SRC_F64`]).
    pub f64_acc: Acc,
}

const fn row(
    double: &'static str,
    single: &'static str,
    eval: Eval,
    f32_acc: Acc,
    f64_acc: Acc,
) -> Row {
    Row {
        double,
        single,
        eval,
        f32_acc,
        f64_acc,
    }
}

use Acc::{Exact, Ulp};
use Eval::{F1, F2};

fn lgammaf_bound(a: &[f64]) -> Bound {
    // "6 (outside interval -10.001 ... -2.264; larger inside)".
    match a.first() {
        Some(&x) if x > -10.001 && x < -2.264 => Bound::Unstated,
        _ => Bound::Ulp(6),
    }
}

/// `2.2 × 10^-6` absolute, the single-precision Bessel functions' bound away from the origin
/// (2^-18.79 ≥ 2.2 × 10^-6).
const BESSEL_ABS_F32: Bound = Bound::AbsPow2(-18.79);
/// `5 × 10^-12` absolute, the double-precision one (2^-37.54 ≥ 5 × 10^-12).
const BESSEL_ABS_F64: Bound = Bound::AbsPow2(-37.54);

fn j0f_bound(a: &[f64]) -> Bound {
    // j0f, j1f, y0f, y1f: "9 for |x| < 8; otherwise, the maximum absolute error is 2.2 x 10^-6".
    match a.first() {
        Some(x) if x.abs() < 8.0 => Bound::Ulp(9),
        _ => BESSEL_ABS_F32,
    }
}

fn j0_bound(a: &[f64]) -> Bound {
    // j0, j1, y0, y1: "7 for |x| < 8; otherwise, the maximum absolute error is 5 x 10^-12".
    match a.first() {
        Some(x) if x.abs() < 8.0 => Bound::Ulp(7),
        _ => BESSEL_ABS_F64,
    }
}

fn jnf_bound(a: &[f64]) -> Bound {
    // "jnf(n,x): For n = 128, the maximum absolute error is 2.2 x 10^-6": no other n bounded.
    if a.first() == Some(&128.0) {
        BESSEL_ABS_F32
    } else {
        Bound::Unstated
    }
}

fn jn_bound(a: &[f64]) -> Bound {
    // "jn(n,x): For n = 128, the maximum absolute error is 5 x 10^-12".
    if a.first() == Some(&128.0) {
        BESSEL_ABS_F64
    } else {
        Bound::Unstated
    }
}

fn ynf_bound(a: &[f64]) -> Bound {
    // "ynf(n,x): ceil(2 + 2.5n) for |x| < n; otherwise, the maximum absolute error is
    // 2.2 x 10^-6".
    match a {
        [n, x, ..] if x.abs() < *n => Bound::Ulp((2.0 + 2.5 * n).ceil().min(1e9) as u32),
        _ => BESSEL_ABS_F32,
    }
}

fn yn_bound(a: &[f64]) -> Bound {
    // "yn(n,x): For |x| > 1.5n, the maximum absolute error is 5 x 10^-12": no bound otherwise.
    match a {
        [n, x, ..] if x.abs() > 1.5 * n => BESSEL_ABS_F64,
        _ => Bound::Unstated,
    }
}

fn lgamma_bound(a: &[f64]) -> Bound {
    // "4 (outside interval -23.0001 ... -2.2637; larger inside)".
    match a.first() {
        Some(&x) if x > -23.0001 && x < -2.2637 => Bound::Unstated,
        _ => Bound::Ulp(4),
    }
}

/// The functions. Bounds: the two tables named in the module comment, row by row.
pub const ROWS: &[Row] = &[
    // Exponentials and logarithms.
    row("exp", "expf", F1(libm::exp), Ulp(2), Ulp(1)),
    row("exp2", "exp2f", F1(libm::exp2), Ulp(2), Ulp(1)),
    row("exp10", "exp10f", F1(libm::exp10), Ulp(2), Ulp(1)),
    row("expm1", "expm1f", F1(libm::expm1), Ulp(1), Ulp(1)),
    row("log", "logf", F1(libm::log), Ulp(1), Ulp(1)),
    row("log2", "log2f", F1(libm::log2), Ulp(1), Ulp(1)),
    row("log10", "log10f", F1(libm::log10), Ulp(2), Ulp(1)),
    row("log1p", "log1pf", F1(libm::log1p), Ulp(1), Ulp(1)),
    // Powers and roots. sqrt: 0 ulp under nvcc's default -prec-sqrt=true.
    row("pow", "powf", F2(libm::pow), Ulp(4), Ulp(2)),
    row("sqrt", "sqrtf", F1(f64::sqrt), Exact, Exact),
    row("rsqrt", "rsqrtf", F1(rsqrt), Ulp(2), Ulp(1)),
    row("cbrt", "cbrtf", F1(libm::cbrt), Ulp(1), Ulp(1)),
    row("rcbrt", "rcbrtf", F1(rcbrt), Ulp(1), Ulp(1)),
    row("hypot", "hypotf", F2(libm::hypot), Ulp(3), Ulp(2)),
    row("rhypot", "rhypotf", F2(special::rhypot), Ulp(2), Ulp(1)),
    row(
        "norm3d",
        "norm3df",
        Eval::F3(special::norm3d, special::norm3d),
        Ulp(3),
        Ulp(2),
    ),
    row(
        "rnorm3d",
        "rnorm3df",
        Eval::F3(special::rnorm3d, special::rnorm3d),
        Ulp(2),
        Ulp(1),
    ),
    row(
        "norm4d",
        "norm4df",
        Eval::F4(special::norm4d),
        Ulp(3),
        Ulp(2),
    ),
    row(
        "rnorm4d",
        "rnorm4df",
        Eval::F4(special::rnorm4d),
        Ulp(2),
        Ulp(1),
    ),
    // "An error bound can't be provided because a fast algorithm is used with accuracy loss
    // due to round-off."
    row(
        "norm",
        "normf",
        Eval::Array(special::length),
        Acc::Rule(unstated),
        Acc::Rule(unstated),
    ),
    row(
        "rnorm",
        "rnormf",
        Eval::Array(special::rlength),
        Acc::Rule(unstated),
        Acc::Rule(unstated),
    ),
    // Trigonometric.
    row("sin", "sinf", F1(libm::sin), Ulp(2), Ulp(2)),
    row("cos", "cosf", F1(libm::cos), Ulp(2), Ulp(2)),
    row("tan", "tanf", F1(libm::tan), Ulp(4), Ulp(2)),
    row("sinpi", "sinpif", F1(sinpi), Ulp(1), Ulp(2)),
    row("cospi", "cospif", F1(cospi), Ulp(1), Ulp(2)),
    row("asin", "asinf", F1(libm::asin), Ulp(2), Ulp(2)),
    row("acos", "acosf", F1(libm::acos), Ulp(2), Ulp(2)),
    row("atan", "atanf", F1(libm::atan), Ulp(2), Ulp(2)),
    row("atan2", "atan2f", F2(libm::atan2), Ulp(3), Ulp(2)),
    // Hyperbolic.
    row("sinh", "sinhf", F1(libm::sinh), Ulp(3), Ulp(2)),
    row("cosh", "coshf", F1(libm::cosh), Ulp(2), Ulp(1)),
    row("tanh", "tanhf", F1(libm::tanh), Ulp(2), Ulp(1)),
    row("asinh", "asinhf", F1(libm::asinh), Ulp(3), Ulp(3)),
    row("acosh", "acoshf", F1(libm::acosh), Ulp(4), Ulp(3)),
    row("atanh", "atanhf", F1(libm::atanh), Ulp(3), Ulp(2)),
    // Error and gamma functions.
    row("erf", "erff", F1(libm::erf), Ulp(2), Ulp(2)),
    row("erfc", "erfcf", F1(libm::erfc), Ulp(4), Ulp(5)),
    row("erfinv", "erfinvf", F1(erfinv), Ulp(2), Ulp(5)),
    row("erfcinv", "erfcinvf", F1(erfcinv), Ulp(4), Ulp(6)),
    row("erfcx", "erfcxf", F1(special::erfcx), Ulp(4), Ulp(4)),
    row("normcdf", "normcdff", F1(special::normcdf), Ulp(5), Ulp(5)),
    row("normcdfinv", "normcdfinvf", F1(normcdfinv), Ulp(5), Ulp(8)),
    row(
        "lgamma",
        "lgammaf",
        F1(libm::lgamma),
        Acc::Rule(lgammaf_bound),
        Acc::Rule(lgamma_bound),
    ),
    row("tgamma", "tgammaf", F1(libm::tgamma), Ulp(5), Ulp(10)),
    // Bessel functions.
    row(
        "j0",
        "j0f",
        F1(libm::j0),
        Acc::Rule(j0f_bound),
        Acc::Rule(j0_bound),
    ),
    row(
        "j1",
        "j1f",
        F1(libm::j1),
        Acc::Rule(j0f_bound),
        Acc::Rule(j0_bound),
    ),
    row(
        "jn",
        "jnf",
        Eval::IntF(libm::jn),
        Acc::Rule(jnf_bound),
        Acc::Rule(jn_bound),
    ),
    row(
        "y0",
        "y0f",
        F1(libm::y0),
        Acc::Rule(j0f_bound),
        Acc::Rule(j0_bound),
    ),
    row(
        "y1",
        "y1f",
        F1(libm::y1),
        Acc::Rule(j0f_bound),
        Acc::Rule(j0_bound),
    ),
    row(
        "yn",
        "ynf",
        Eval::IntF(libm::yn),
        Acc::Rule(ynf_bound),
        Acc::Rule(yn_bound),
    ),
    row(
        "cyl_bessel_i0",
        "cyl_bessel_i0f",
        F1(special::bessel_i0),
        Ulp(6),
        Ulp(6),
    ),
    row(
        "cyl_bessel_i1",
        "cyl_bessel_i1f",
        F1(special::bessel_i1),
        Ulp(6),
        Ulp(6),
    ),
    // Rounding (each exact: "0" in the tables).
    row("ceil", "ceilf", F1(f64::ceil), Exact, Exact),
    row("floor", "floorf", F1(f64::floor), Exact, Exact),
    row("round", "roundf", F1(f64::round), Exact, Exact),
    row("rint", "rintf", F1(f64::round_ties_even), Exact, Exact),
    row(
        "nearbyint",
        "nearbyintf",
        F1(f64::round_ties_even),
        Exact,
        Exact,
    ),
    row("trunc", "truncf", F1(f64::trunc), Exact, Exact),
    row("lround", "lroundf", Eval::ToLong(f64::round), Exact, Exact),
    row(
        "llround",
        "llroundf",
        Eval::ToLong(f64::round),
        Exact,
        Exact,
    ),
    row(
        "lrint",
        "lrintf",
        Eval::ToLong(f64::round_ties_even),
        Exact,
        Exact,
    ),
    row(
        "llrint",
        "llrintf",
        Eval::ToLong(f64::round_ties_even),
        Exact,
        Exact,
    ),
    // Exactly defined arithmetic.
    row(
        "fma",
        "fmaf",
        Eval::F3(f64::mul_add, super::intrinsics::fma_f32),
        Exact,
        Exact,
    ),
    row("fmax", "fmaxf", F2(libm::fmax), Exact, Exact),
    row("fmin", "fminf", F2(libm::fmin), Exact, Exact),
    row("fabs", "fabsf", F1(f64::abs), Exact, Exact),
    row("copysign", "copysignf", F2(f64::copysign), Exact, Exact),
    row("fdim", "fdimf", F2(libm::fdim), Exact, Exact),
    row("fmod", "fmodf", F2(libm::fmod), Exact, Exact),
    row("remainder", "remainderf", F2(libm::remainder), Exact, Exact),
    row("nextafter", "nextafterf", F2(nextafter_any), Exact, Exact),
    row("ldexp", "ldexpf", Eval::FInt(libm::ldexp), Exact, Exact),
    row("scalbn", "scalbnf", Eval::FInt(libm::scalbn), Exact, Exact),
    // scalbln's `long` exponent: any |n| beyond an int's range over- or underflows alike.
    row(
        "scalbln",
        "scalblnf",
        Eval::FInt(libm::scalbn),
        Exact,
        Exact,
    ),
    // CUDA Math API, `fdividef(x, y)`: x / y, which -prec-div=true (nvcc's default) rounds
    // correctly (no double-precision form; `--use_fast_math` makes it `__fdividef`).
    row("", "fdividef", F2(divide), Exact, Exact),
    // CUDA Math API, `nan(tagp)` / `nanf(tagp)`: "a representation of a quiet NaN"; the
    // string selects the payload, which this interpreter's float values do not keep.
    row("nan", "nanf", Eval::Nan, Exact, Exact),
    row("ilogb", "ilogbf", Eval::ToInt(libm::ilogb), Exact, Exact),
    row("logb", "logbf", F1(logb), Exact, Exact),
    // Classification (C++ `bool` results, CUDA Math API).
    row("isnan", "__isnanf", Eval::Pred(f64::is_nan), Exact, Exact),
    row(
        "isinf",
        "__isinff",
        Eval::Pred(f64::is_infinite),
        Exact,
        Exact,
    ),
    row(
        "isfinite",
        "__finitef",
        Eval::Pred(f64::is_finite),
        Exact,
        Exact,
    ),
    row(
        "signbit",
        "__signbitf",
        Eval::Pred(f64::is_sign_negative),
        Exact,
        Exact,
    ),
    // The double-precision classification functions of CUDA's `math_functions.h`
    // (`__device__ int __isnan(double)`, `__isinf`, `__isfinited`, `__signbitd`): the
    // counterparts of `__isnanf`, `__isinff`, `__finitef`, `__signbitf` above, with no
    // single-precision name of their own (a `float` argument converts to `double`).
    row("__isnan", "", Eval::Pred(f64::is_nan), Exact, Exact),
    row("__isinf", "", Eval::Pred(f64::is_infinite), Exact, Exact),
    row("__isfinited", "", Eval::Pred(f64::is_finite), Exact, Exact),
    row(
        "__signbitd",
        "",
        Eval::Pred(f64::is_sign_negative),
        Exact,
        Exact,
    ),
];

/// Functions that store through pointer arguments, and which arguments those are.
pub const OUT_PARAMS: &[(&str, &[usize])] = &[
    ("sincos", &[1, 2]),
    ("sincosf", &[1, 2]),
    ("__sincosf", &[1, 2]),
    ("sincospi", &[1, 2]),
    ("sincospif", &[1, 2]),
    ("frexp", &[1]),
    ("frexpf", &[1]),
    ("modf", &[1]),
    ("modff", &[1]),
    ("remquo", &[2]),
    ("remquof", &[2]),
];

/// The row named `name` and whether the name is the single-precision one.
pub fn find(name: &str) -> Option<(usize, &'static Row, bool)> {
    if name.is_empty() {
        // A row without a name in one precision (`fdividef`'s double) holds "" there.
        return None;
    }
    ROWS.iter().enumerate().find_map(|(i, r)| {
        if r.double == name {
            Some((i, r, false))
        } else if r.single == name {
            Some((i, r, true))
        } else {
            None
        }
    })
}

/// The functions whose second argument is an array they read (`normf(dim, p)`): the machine
/// passes `dim` and the values read.
pub fn reads_array(name: &str) -> bool {
    matches!(
        find(name),
        Some((
            _,
            Row {
                eval: Eval::Array(_),
                ..
            },
            _
        ))
    )
}

fn unstated(_: &[f64]) -> Bound {
    Bound::Unstated
}

fn divide(x: f64, y: f64) -> f64 {
    x / y
}

fn erfcinv(y: f64) -> f64 {
    special::erfcinv(y, erfinv)
}

fn normcdfinv(p: f64) -> f64 {
    special::normcdfinv(p, erfinv)
}

fn rsqrt(x: f64) -> f64 {
    1.0 / x.sqrt()
}

fn rcbrt(x: f64) -> f64 {
    1.0 / libm::cbrt(x)
}

fn logb(x: f64) -> f64 {
    if x == 0.0 {
        f64::NEG_INFINITY
    } else if !x.is_finite() {
        x.abs()
    } else {
        f64::from(libm::ilogb(x))
    }
}

/// `nextafter` in the call's precision is done by the caller; this is the double form.
fn nextafter_any(x: f64, y: f64) -> f64 {
    libm::nextafter(x, y)
}

/// sin(πx) with the argument reduced exactly (`remainder(x, 2)` is exact), so that integers
/// give ±0 and half-integers ±1 exactly, as the CUDA Math API defines `sinpi`.
fn sinpi(x: f64) -> f64 {
    if !x.is_finite() {
        return f64::NAN;
    }
    let r = libm::remainder(x, 2.0);
    if r == 0.0 || r.abs() == 1.0 {
        return 0.0f64.copysign(x);
    }
    // sin(π r) = sin(π (±1 − r)): fold into [-1/2, 1/2].
    let t = if r > 0.5 {
        1.0 - r
    } else if r < -0.5 {
        -1.0 - r
    } else {
        r
    };
    if t.abs() == 0.5 {
        return 1.0f64.copysign(t);
    }
    libm::sin(std::f64::consts::PI * t)
}

/// cos(πx), reduced as [`sinpi`]: half-integers give +0, integers ±1.
fn cospi(x: f64) -> f64 {
    if !x.is_finite() {
        return f64::NAN;
    }
    let r = libm::remainder(x, 2.0).abs();
    if r == 0.5 {
        return 0.0;
    }
    if r == 0.0 {
        return 1.0;
    }
    if r == 1.0 {
        return -1.0;
    }
    if r > 0.5 {
        -libm::cos(std::f64::consts::PI * (1.0 - r))
    } else {
        libm::cos(std::f64::consts::PI * r)
    }
}

/// The inverse error function: the `y` with `erf(y) = x`, found by bisection then Newton on
/// `libm::erf` (and on `erfc` for |x| > 1/2, where `1 − |x|` is exact and keeps the digits).
/// ±1 give ±∞, |x| > 1 NaN (CUDA Math API, `erfinv`).
pub(crate) fn erfinv(x: f64) -> f64 {
    if x.is_nan() || x.abs() > 1.0 {
        return f64::NAN;
    }
    if x.abs() == 1.0 {
        return f64::INFINITY.copysign(x);
    }
    if x == 0.0 {
        return x;
    }
    let a = x.abs();
    let tail = a > 0.5;
    let target = if tail { 1.0 - a } else { a };
    // f(y) increases with y: erf(y) − a, or (1 − a) − erfc(y).
    let f = |y: f64| {
        if tail {
            target - libm::erfc(y)
        } else {
            libm::erf(y) - target
        }
    };
    let (mut lo, mut hi) = (0.0f64, 27.0f64);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) < 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi) * x.signum()
}

/// The own bound a call of row `index` in the given precision has, as the note id and bound
/// [`Approx::propagate`] takes (`None` for an exact function: only the arguments' errors
/// carry through).
fn note(index: usize, r: &Row, single: bool, xs: &[f64]) -> Option<(u16, Bound)> {
    let acc = if single { r.f32_acc } else { r.f64_acc };
    let bound = match acc {
        Acc::Exact => return None,
        Acc::Ulp(n) => Bound::Ulp(n),
        Acc::Rule(f) => f(xs),
    };
    Some((
        u16::try_from(2 * index + usize::from(single)).unwrap_or(u16::MAX),
        bound,
    ))
}

/// Row `r`'s function on `p` in the given precision (unrounded for `F1`/`F2`: the
/// computation [`call_row`] makes, which an argument's error is carried through).
fn eval_at(r: &Row, single: bool, p: &[f64], n: i32) -> f64 {
    match r.eval {
        F1(f) => f(p[0]),
        F2(_) if r.double == "nextafter" && single => {
            f64::from(libm::nextafterf(p[0] as f32, p[1] as f32))
        }
        F2(f) => f(p[0], p[1]),
        Eval::F3(d, s) => {
            if single {
                s(p[0], p[1], p[2])
            } else {
                d(p[0], p[1], p[2])
            }
        }
        Eval::FInt(f) => {
            if single {
                f64::from(libm::scalbnf(p[0] as f32, n))
            } else {
                f(p[0], n)
            }
        }
        Eval::F4(f) => f(p[0], p[1], p[2], p[3]),
        Eval::IntF(f) => f(n, p[1]),
        Eval::Array(f) => f(p.get(1..).unwrap_or(&[])),
        Eval::Pred(_) | Eval::ToInt(_) | Eval::ToLong(_) | Eval::Nan => f64::NAN,
    }
}

/// Runs `name` when it is a row of [`ROWS`] or an [`OUT_PARAMS`] function.
pub fn call(name: &str, args: &[KVal]) -> Option<Result<Call, String>> {
    if OUT_PARAMS.iter().any(|(n, _)| *n == name) {
        return Some(call_out(name, args));
    }
    let (index, r, single_name) = find(name)?;
    Some(call_row(name, index, r, single_name, args))
}

fn call_row(
    name: &str,
    index: usize,
    r: &Row,
    single_name: bool,
    args: &[KVal],
) -> Result<Call, String> {
    // `exp(float)` is the float overload; `isnan` and friends take either. `ldexp(x, n)` and
    // `scalbn(x, n)` are chosen by `x` alone: their `n` is declared `int` (`long` for
    // `scalbln`) in every overload (C++17 [c.math]: `float ldexp(float x, int exp)`).
    let single = single_name
        || match r.eval {
            Eval::FInt(_) => single_overload(&args[..1.min(args.len())]),
            _ => single_overload(args),
        };
    let ty = if single { Scalar::F32 } else { Scalar::F64 };
    if matches!(r.eval, Eval::Nan) {
        return Ok(Call::value(KVal::float(ty, f64::NAN)));
    }
    let arity = match r.eval {
        F1(_) | Eval::Pred(_) | Eval::ToLong(_) | Eval::ToInt(_) => 1,
        F2(_) | Eval::FInt(_) | Eval::IntF(_) => 2,
        Eval::F3(..) => 3,
        Eval::F4(_) => 4,
        Eval::Array(_) => args.len().max(1),
        Eval::Nan => 0,
    };
    // The integer arguments: `ldexp`'s exponent, `jn`'s order, `normf`'s dimension.
    let int_arg = |k: usize| match r.eval {
        Eval::FInt(_) => k == 1,
        Eval::IntF(_) | Eval::Array(_) => k == 0,
        _ => false,
    };
    let mut xs = Vec::with_capacity(arity);
    for k in 0..arity {
        let x = num(name, args, k)?;
        // A single-precision function's argument is a float (an exact conversion for every
        // float, half or bfloat16 value; an integer or double rounds as C converts it).
        xs.push(if single && !int_arg(k) {
            x as f32 as f64
        } else {
            x
        });
    }
    let x0 = xs[0];
    // The `int` argument, clamped to `int`'s range (a `long` exponent beyond it over- or
    // underflows as the clamped one does).
    let int_at = |k: usize| {
        let n = args.get(k).and_then(KVal::as_int).unwrap_or(0);
        n.clamp(i128::from(i32::MIN), i128::from(i32::MAX)) as i32
    };
    let value = match r.eval {
        F1(f) => f(x0),
        F2(_) if r.double == "nextafter" && single => {
            f64::from(libm::nextafterf(x0 as f32, xs[1] as f32))
        }
        F2(f) => f(x0, xs[1]),
        Eval::F3(d, s) => {
            if single {
                s(x0, xs[1], xs[2])
            } else {
                d(x0, xs[1], xs[2])
            }
        }
        Eval::FInt(f) => {
            let n = int_at(1);
            if single {
                f64::from(libm::scalbnf(x0 as f32, n))
            } else {
                f(x0, n)
            }
        }
        Eval::F4(f) => f(x0, xs[1], xs[2], xs[3]),
        Eval::IntF(f) => f(int_at(0), xs[1]),
        Eval::Array(f) => f(&xs[1..]),
        Eval::Nan => f64::NAN,
        Eval::Pred(p) => return Ok(Call::value(KVal::bool(p(x0)))),
        Eval::ToInt(f) => {
            return Ok(Call::value(KVal::int(Scalar::I32, i128::from(f(x0)))));
        }
        Eval::ToLong(f) => {
            let v = f(x0);
            // C11 7.12.9.5/7.12.9.7: "if the rounded value is outside the range of the return
            // type, the numeric result is unspecified".
            let two63 = 2f64.powi(63);
            if !(-two63..two63).contains(&v) {
                return Err(format!(
                    "`{name}({x0})`: the rounded value does not fit in a long, so the result is unspecified (C11 7.12.9.5)"
                ));
            }
            return Ok(Call::value(KVal::int(Scalar::I64, v as i128)));
        }
    };
    let own = note(index, r, single, &xs);
    let n = match r.eval {
        Eval::FInt(_) => int_at(1),
        Eval::IntF(_) => int_at(0),
        _ => 0,
    };
    // The integer exponent of `ldexp` is exact: only the value's error carries.
    let noted = if matches!(r.eval, Eval::FInt(_)) {
        &xs[..1]
    } else {
        &xs[..]
    };
    let f = |p: &[f64]| {
        if p.len() == xs.len() {
            return eval_at(r, single, p, n);
        }
        let mut q = xs.clone();
        q[..p.len()].copy_from_slice(p);
        eval_at(r, single, &q, n)
    };
    Ok(Call::value(noted_result(ty, value, own, args, noted, &f)))
}

/// The functions that store through pointers: `sincos`, `sincospi`, `frexp`, `modf`,
/// `remquo` (CUDA Math API; C11 7.12.6.4, 7.12.6.12, 7.12.10.3 for the last three).
fn call_out(name: &str, args: &[KVal]) -> Result<Call, String> {
    // The double name and whether `name` is the single-precision one: `modf` is the double
    // function and `modff` the float one, so neither a trailing `f` nor trimming every `f`
    // tells them apart (trimming made both `mod`, which ran as `remquo`).
    let (base, single_name) = match name {
        "sincosf" => ("sincos", true),
        "__sincosf" => ("__sincosf", true),
        "sincospif" => ("sincospi", true),
        "frexpf" => ("frexp", true),
        "modff" => ("modf", true),
        "remquof" => ("remquo", true),
        other => (other, false),
    };
    let single = single_name || single_overload(&args[..1.min(args.len())]);
    let ty = if single { Scalar::F32 } else { Scalar::F64 };
    let round = |x: f64| if single { x as f32 as f64 } else { x };
    let x = round(num(name, args, 0)?);
    let f = |k: f64| KVal::float(ty, k);
    match base {
        // CUDA Math API, `__sincosf(x, sptr, cptr)`: "the fast approximate of sine and cosine
        // of the first input argument x", stored through the pointers: `__sinf(x)` and
        // `__cosf(x)`, with their error bounds.
        "__sincosf" => {
            let arg = [KVal::float(Scalar::F32, x)];
            let one = |n: &str| -> Result<KVal, String> {
                super::intrinsics::call(n, &arg).unwrap_or_else(|| Err(format!("no `{n}`")))
            };
            Ok(Call {
                value: KVal::int(Scalar::I32, 0),
                stores: vec![(1, one("__sinf")?), (2, one("__cosf")?)],
            })
        }
        "sincos" | "sincospi" => {
            let (sin_name, cos_name) = if base == "sincos" {
                ("sin", "cos")
            } else {
                ("sinpi", "cospi")
            };
            let one = |n: &str| -> Result<KVal, String> {
                let (i, r, _) = find(n).ok_or("no such row")?;
                let single_args = [KVal::float(ty, x)];
                let mut v = call_row(n, i, r, single, &single_args)?.value;
                if let KVal::Float { approx, .. } = &mut v {
                    // The note names the function called.
                    if let Some(a) = approx.as_mut() {
                        a.function = sincos_note(name).unwrap_or(a.function);
                    }
                }
                Ok(v)
            };
            Ok(Call {
                value: KVal::int(Scalar::I32, 0),
                stores: vec![(1, one(sin_name)?), (2, one(cos_name)?)],
            })
        }
        "frexp" => {
            let (m, e) = if single {
                let (m, e) = libm::frexpf(x as f32);
                (f64::from(m), e)
            } else {
                libm::frexp(x)
            };
            Ok(Call {
                value: f(m),
                stores: vec![(1, KVal::int(Scalar::I32, i128::from(e)))],
            })
        }
        "modf" => {
            let (frac, int) = libm::modf(x);
            Ok(Call {
                value: f(frac),
                stores: vec![(1, f(int))],
            })
        }
        _ => {
            // remquo(x, y, &quo): the remainder, and at least the low 3 bits of the quotient
            // with its sign (C11 7.12.10.3; libm gives them).
            let y = round(num(name, args, 1)?);
            let (rem, quo) = libm::remquo(x, y);
            Ok(Call {
                value: f(rem),
                stores: vec![(2, KVal::int(Scalar::I32, i128::from(quo)))],
            })
        }
    }
}

/// `sincosf` and `sincospif` have their own rows in the tables with the same bounds as `sinf`
/// / `sinpif`; the note names the function the kernel called.
fn sincos_note(name: &str) -> Option<u16> {
    super::intrinsics::NOTES
        .iter()
        .position(|(n, _)| *n == name)
        .and_then(|p| u16::try_from(p).ok())
        .map(|p| p + INTRINSIC_NOTES)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accuracy::Approx;

    fn f32_call(name: &str, x: f32) -> KVal {
        call(name, &[KVal::float(Scalar::F32, f64::from(x))])
            .unwrap()
            .unwrap()
            .value
    }

    #[test]
    fn single_precision_results_are_the_float_rounding_of_the_double_function() {
        // e^1 = 2.718281828459045…; the float nearest is 2.71828175 (0x402DF854).
        let e = f32_call("expf", 1.0);
        assert_eq!(e.as_f64(), Some(f64::from(f32::from_bits(0x402D_F854))));
        assert_eq!(e.approx().and_then(Approx::ulp), Some(2));
        assert_eq!(e.approx().map(Approx::name), Some("expf"));
        // exp(float) is the float overload: the same value and note.
        assert_eq!(f32_call("exp", 1.0), e);
        // sqrtf is exact: no note.
        assert_eq!(f32_call("sqrtf", 2.0).approx(), None);
        // rsqrtf(4) = 0.5 exactly, with rsqrtf's bound of 2 ulp.
        let r = f32_call("rsqrtf", 4.0);
        assert_eq!(r.as_f64(), Some(0.5));
        assert_eq!(r.approx().and_then(Approx::ulp), Some(2));
    }

    #[test]
    fn sinpi_and_cospi_are_exact_at_integers_and_halves() {
        assert_eq!(sinpi(3.0), 0.0);
        assert!(sinpi(-4.0).is_sign_negative());
        assert_eq!(sinpi(2.5), 1.0);
        assert_eq!(sinpi(-0.5), -1.0);
        assert_eq!(cospi(7.0), -1.0);
        assert_eq!(cospi(1.5), 0.0);
        assert!((sinpi(1.0 / 6.0) - 0.5).abs() < 1e-15);
    }

    #[test]
    fn erfinv_inverts_erf() {
        for &x in &[-0.999, -0.3, 0.1, 0.5, 0.75, 0.999_999] {
            let y = erfinv(x);
            assert!((libm::erf(y) - x).abs() < 1e-14, "{x} -> {y}");
        }
        assert_eq!(erfinv(1.0), f64::INFINITY);
        assert!(erfinv(1.5).is_nan());
    }

    #[test]
    fn lround_out_of_range_is_unspecified() {
        assert!(call("lroundf", &[KVal::float(Scalar::F32, 1e30)])
            .unwrap()
            .is_err());
        let v = call("lroundf", &[KVal::float(Scalar::F32, -2.5)]).unwrap();
        assert_eq!(v.unwrap().value, KVal::int(Scalar::I64, -3));
    }

    #[test]
    fn sincosf_stores_both_with_the_sincosf_note() {
        let c = call("sincosf", &[KVal::float(Scalar::F32, 0.0)])
            .unwrap()
            .unwrap();
        assert_eq!(c.stores.len(), 2);
        assert_eq!(c.stores[1].1.as_f64(), Some(1.0));
        assert_eq!(c.stores[1].1.approx().map(Approx::name), Some("sincosf"));
    }
}
