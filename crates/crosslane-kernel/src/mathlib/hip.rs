//! ROCm HIP's own accuracy table for its math functions, used for the HIP dialect in place of
//! CUDA's where HIP documents a row.
//!
//! **Source.** AMD, HIP documentation, "HIP math API" (`docs/reference/math_api.rst` of
//! ROCm/HIP): for each function a test range and the "ULP difference of maximum absolute
//! error". Its measure differs from CUDA's: the difference is taken against the host C++
//! standard library's result (`sinf` against `std::sin`), not against the correctly rounded
//! value, and only over the test range; outside that range HIP states no bound. A HIP note
//! therefore says both: "device may differ by ≤ 1 ulp (HIP math API, expf, against the C++
//! standard library, for x in [-10, 10])"; an argument outside the range gives
//! [`Bound::Unstated`]. Functions HIP's table leaves out (`erfinvf`, `normcdff`: "No C++ STD
//! implementation"; `exp10f`'s double twin aside, every row below is HIP's) keep CUDA's
//! bound, which the note then names.

use super::{Approx, Bound};
use crate::types::KVal;

/// The source of a HIP note.
pub const SRC_HIP: &str =
    "HIP documentation, HIP math API (ULP difference of maximum absolute error against the C++ standard library, over the function's test range)";

/// Id of the first HIP note ([`Approx::function`]): `HIP_NOTES + row`.
pub const HIP_NOTES: u16 = 2000;

/// One row of HIP's table: the function, its maximum ulp difference, and the test range of
/// each argument (`[lo, hi]`, in order).
struct Row {
    name: &'static str,
    ulp: u32,
    range: &'static [(f64, f64)],
}

const fn r(name: &'static str, ulp: u32, range: &'static [(f64, f64)]) -> Row {
    Row { name, ulp, range }
}

const PI: f64 = std::f64::consts::PI;
const LOG_RANGE: (f64, f64) = (1e-6, 1e6);

/// HIP's rows (single precision, double precision, then the single-precision intrinsics),
/// transcribed from the tables "Error and Gamma", "Exponential and Logarithmic", "Hypotenuse
/// and Norm", "Power and Root", "Trigonometric and Hyperbolic" and "Single precision
/// intrinsics mathematical functions". Rows whose error is 0 (rounding, manipulation,
/// `fmaf`, the `_rn` arithmetic intrinsics) are exact in both vendors' tables and not
/// repeated.
const ROWS: &[Row] = &[
    // Error and gamma.
    r("erff", 4, &[(-4.0, 4.0)]),
    r("erfcf", 2, &[(-4.0, 4.0)]),
    r("erfcxf", 5, &[(-2.0, 2.0)]),
    r("lgammaf", 4, &[(0.5, 20.0)]),
    r("tgammaf", 6, &[(0.5, 15.0)]),
    r("erf", 4, &[(-4.0, 4.0)]),
    r("erfc", 2, &[(-4.0, 4.0)]),
    r("erfcx", 5, &[(-2.0, 2.0)]),
    r("lgamma", 2, &[(0.5, 20.0)]),
    r("tgamma", 6, &[(0.5, 15.0)]),
    // Exponential and logarithmic.
    r("expf", 1, &[(-10.0, 10.0)]),
    r("exp2f", 1, &[(-10.0, 10.0)]),
    r("exp10f", 1, &[(-4.0, 4.0)]),
    r("expm1f", 1, &[(-10.0, 10.0)]),
    r("log10f", 2, &[LOG_RANGE]),
    r("log1pf", 1, &[(-0.9, 10.0)]),
    r("log2f", 1, &[LOG_RANGE]),
    r("logf", 2, &[LOG_RANGE]),
    r("exp", 1, &[(-10.0, 10.0)]),
    r("exp2", 1, &[(-10.0, 10.0)]),
    r("exp10", 1, &[(-4.0, 4.0)]),
    r("expm1", 1, &[(-10.0, 10.0)]),
    r("log10", 1, &[LOG_RANGE]),
    r("log1p", 1, &[(-0.9, 10.0)]),
    r("log2", 1, &[LOG_RANGE]),
    r("log", 1, &[LOG_RANGE]),
    // Hypotenuse.
    r("hypotf", 1, &[(-10.0, 10.0), (0.0, 10.0)]),
    r("hypot", 1, &[(-10.0, 10.0), (0.0, 10.0)]),
    // Power and root. HIP lists sqrtf and sqrt at 1 ulp (CUDA: 0 under -prec-sqrt=true).
    r("cbrtf", 2, &[(-100.0, 100.0)]),
    r("powf", 1, &[(-4.0, 4.0), (-2.0, 2.0)]),
    r("sqrtf", 1, &[(0.0, 100.0)]),
    r("rsqrtf", 1, &[(0.01, 100.0)]),
    r("rcbrtf", 1, &[(-100.0, 100.0)]),
    r("cbrt", 1, &[(-100.0, 100.0)]),
    r("pow", 1, &[(-4.0, 4.0), (-2.0, 2.0)]),
    r("sqrt", 1, &[(0.0, 100.0)]),
    r("rsqrt", 1, &[(0.01, 100.0)]),
    r("rcbrt", 1, &[(-100.0, 100.0)]),
    // Trigonometric and hyperbolic.
    r("acosf", 1, &[(-1.0, 1.0)]),
    r("acoshf", 1, &[(1.0, 100.0)]),
    r("asinf", 2, &[(-1.0, 1.0)]),
    r("asinhf", 1, &[(-10.0, 10.0)]),
    r("atanf", 2, &[(-10.0, 10.0)]),
    r("atan2f", 1, &[(-4.0, 4.0), (-2.0, 2.0)]),
    r("atanhf", 1, &[(-0.9, 0.9)]),
    r("cosf", 1, &[(-PI, PI)]),
    r("coshf", 1, &[(-5.0, 5.0)]),
    r("sinf", 1, &[(-PI, PI)]),
    r("sinhf", 1, &[(-5.0, 5.0)]),
    r("tanf", 1, &[(-1.47 * PI, 1.47 * PI)]),
    r("tanhf", 2, &[(-5.0, 5.0)]),
    r("cospif", 1, &[(-0.3, 0.3)]),
    r("sinpif", 2, &[(-0.625, 0.625)]),
    r("acos", 1, &[(-1.0, 1.0)]),
    r("acosh", 1, &[(1.0, 100.0)]),
    r("asin", 1, &[(-1.0, 1.0)]),
    r("asinh", 1, &[(-10.0, 10.0)]),
    r("atan", 1, &[(-10.0, 10.0)]),
    r("atan2", 1, &[(-4.0, 4.0), (-2.0, 2.0)]),
    r("atanh", 1, &[(-0.9, 0.9)]),
    r("cos", 1, &[(-PI, PI)]),
    r("cosh", 1, &[(-5.0, 5.0)]),
    r("sin", 1, &[(-PI, PI)]),
    r("sinh", 1, &[(-5.0, 5.0)]),
    r("tan", 1, &[(-1.47 * PI, 1.47 * PI)]),
    r("tanh", 1, &[(-5.0, 5.0)]),
    r("cospi", 2, &[(-0.3, 0.3)]),
    r("sinpi", 2, &[(-0.625, 0.625)]),
    // Single precision intrinsics.
    r("__cosf", 4, &[(-PI, PI)]),
    r("__exp10f", 18, &[(-4.0, 4.0)]),
    r("__expf", 6, &[(-10.0, 10.0)]),
    r("__frsqrt_rn", 1, &[(0.01, 100.0)]),
    r("__fsqrt_rn", 1, &[(0.0, 100.0)]),
    r("__log10f", 2, &[LOG_RANGE]),
    r("__log2f", 1, &[LOG_RANGE]),
    r("__logf", 2, &[LOG_RANGE]),
    r("__powf", 1, &[(-4.0, 4.0), (-2.0, 2.0)]),
    r("__sinf", 18, &[(-PI, PI)]),
    r("__tanf", 1, &[(-1.47 * PI, 1.47 * PI)]),
];

/// The function name and source of HIP note id `id` (`None` when it is not one).
pub fn note_name(id: u16) -> Option<(&'static str, &'static str)> {
    let row = ROWS.get(usize::from(id.checked_sub(HIP_NOTES)?))?;
    Some((row.name, SRC_HIP))
}

/// The test range of HIP note id `id` in words (`x in [-10, 10]`), for the note.
pub fn range_words(id: u16) -> Option<String> {
    let row = ROWS.get(usize::from(id.checked_sub(HIP_NOTES)?))?;
    let names = ["x", "y", "z"];
    let parts: Vec<String> = row
        .range
        .iter()
        .zip(names)
        .map(|((lo, hi), n)| format!("{n} in [{}, {}]", short(*lo), short(*hi)))
        .collect();
    Some(parts.join(", "))
}

fn short(x: f64) -> String {
    if (x.abs() - 1.47 * PI).abs() < 1e-9 {
        return format!("{}1.47π", if x < 0.0 { "-" } else { "" });
    }
    if (x.abs() - PI).abs() < 1e-12 {
        return format!("{}π", if x < 0.0 { "-" } else { "" });
    }
    if x != 0.0 && (x.abs() >= 1e5 || x.abs() < 1e-3) {
        return format!("{x:e}");
    }
    format!("{x}")
}

/// `value`, computed by `name` on `args` in a HIP kernel, with HIP's accuracy note where HIP's
/// table has a row for `name`: the row's bound when every argument lies in its test range,
/// else [`Bound::Unstated`]. A value whose function HIP's table leaves out keeps its note
/// (CUDA's bound, which the note names). A function exact in both tables gets no note.
pub fn renote(name: &str, args: &[KVal], value: KVal) -> KVal {
    // `__ocml_expf_f32` is `expf`, with its row.
    let alias = super::amdgcn_dot::ocml_alias(name);
    let name = alias.as_deref().unwrap_or(name);
    let Some(i) = ROWS.iter().position(|r| r.name == name) else {
        return value;
    };
    // An infinite or NaN argument or result is a special case C99 Annex F defines exactly
    // (`expf(-INFINITY)` is +0, `logf(0)` is -INFINITY), outside any test range: no note.
    let special = |v: &KVal| v.as_f64().is_some_and(|x| !x.is_finite());
    if special(&value) || args.iter().any(special) {
        return without_note(value);
    }
    let row = &ROWS[i];
    let inside = row.range.iter().enumerate().all(|(k, (lo, hi))| {
        args.get(k)
            .and_then(KVal::as_f64)
            .is_some_and(|x| (*lo..=*hi).contains(&x))
    });
    let own = (
        HIP_NOTES + i as u16,
        if inside {
            Bound::Ulp(row.ulp)
        } else {
            Bound::Unstated
        },
    );
    if let KVal::Float { ty, x, .. } = value {
        if args.iter().any(|a| a.approx().is_some()) {
            return carried(name, args, ty, x, own);
        }
    }
    with_note(value, own)
}

fn without_note(value: KVal) -> KVal {
    match value {
        KVal::Float { ty, x, .. } => KVal::Float {
            ty,
            x,
            approx: None,
        },
        other => other,
    }
}

/// The result `x` (of type `ty`) of `name` on `args`, some of which carry an error: HIP's own
/// bound `own`, plus the arguments' errors carried through the function (the function run
/// again at the corners of their intervals: [`Approx::propagate`]).
fn carried(name: &str, args: &[KVal], ty: crate::types::Scalar, x: f64, own: (u16, Bound)) -> KVal {
    let inputs: Vec<(f64, Option<Approx>)> = args
        .iter()
        .map(|a| (a.as_f64().unwrap_or(f64::NAN), a.approx()))
        .collect();
    let at = |p: &[f64]| {
        let corner: Vec<KVal> = args
            .iter()
            .zip(p)
            .map(|(a, &v)| match a {
                KVal::Float { ty, .. } => KVal::Float {
                    ty: *ty,
                    x: v,
                    approx: None,
                },
                other => other.clone(),
            })
            .collect();
        super::call(name, &corner)
            .and_then(Result::ok)
            .and_then(|c| c.value.as_f64())
            .unwrap_or(f64::NAN)
    };
    KVal::propagated(ty, x, Some(own), &inputs, &at)
}

/// `value` (of arguments without an error) with HIP's own bound `own` in place of CUDA's.
fn with_note(value: KVal, own: (u16, Bound)) -> KVal {
    match value {
        KVal::Float { ty, x, approx } => {
            let Some(fmt) = ty.float_fmt() else {
                return KVal::Float { ty, x, approx };
            };
            KVal::Float {
                ty,
                x,
                approx: Some(Approx::own(own.0, own.1, x, fmt)),
            }
        }
        KVal::Vector { ty, items } => KVal::Vector {
            ty,
            items: items.into_iter().map(|v| with_note(v, own)).collect(),
        },
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Scalar;

    #[test]
    fn a_hip_row_gives_its_bound_inside_its_range_and_none_outside() {
        // HIP math API: expf 1 ulp over x in [-10, 10]; sqrtf 1 ulp over [0, 100].
        let one = KVal::float(Scalar::F32, 1.0);
        let v = renote(
            "expf",
            std::slice::from_ref(&one),
            KVal::float(Scalar::F32, 2.718_281_7),
        );
        let a = v.approx().expect("a note");
        assert_eq!((a.name(), a.ulp()), ("expf", Some(1)));
        assert!(a.note().contains("HIP math API"), "{}", a.note());
        let far = KVal::float(Scalar::F32, 20.0);
        let v = renote("expf", &[far], KVal::float(Scalar::F32, 4.85e8));
        assert_eq!(v.approx().map(|a| a.bound), Some(Bound::Unstated));
        let s = renote("sqrtf", std::slice::from_ref(&one), one.clone());
        assert_eq!(s.approx().and_then(|a| a.ulp()), Some(1));
        // expf(-INFINITY) = +0 exactly (C99 Annex F): no note.
        let inf = KVal::float(Scalar::F32, f64::NEG_INFINITY);
        let z = renote("expf", &[inf], KVal::float(Scalar::F32, 0.0));
        assert_eq!(z.approx(), None);
        // erfinvf: no HIP row, the value keeps what it had.
        assert_eq!(
            renote("erfinvf", std::slice::from_ref(&one), one.clone()),
            one
        );
    }
}
