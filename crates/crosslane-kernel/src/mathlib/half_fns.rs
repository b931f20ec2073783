//! The half-precision math functions of `cuda_fp16.h` and `cuda_bf16.h` (CUDA Math API, "Half
//! Math Functions", "Half2 Math Functions", "Bfloat16 Math Functions", "Bfloat162 Math
//! Functions"; HIP's `hip_fp16.h` / `hip_bf16.h` declare the same names): `hexp`, `hexp2`,
//! `hexp10`, `hlog`, `hlog2`, `hlog10`, `hsqrt`, `hrsqrt`, `hrcp`, `hsin`, `hcos`, `htanh`,
//! `hfloor`, `hceil`, `htrunc`, `hrint`, and the pair forms `h2exp` … `h2rint`, each overloaded
//! for `__half` / `__half2` and `__nv_bfloat16` / `__nv_bfloat162` (a pair form works on each
//! half of the pair independently).
//!
//! **What is computed.** The argument (exact in `float`) is given to the single-precision
//! function — the `libm` crate's double-precision function rounded once to `float`, as
//! [`super::table`] evaluates `expf` — and that `float` is rounded to nearest even to the
//! 16-bit type. That is the vendor's description of each function ("Calculates half natural
//! exponential function in round-to-nearest-even mode", and so on for each) and the shape of
//! the vendor's implementation (the `cuda_fp16.hpp` header evaluates the function on the
//! argument converted to `float` and converts the result back with `cvt.rn.f16.f32`).
//!
//! **Accuracy.** The CUDA Math API states no error bound for these functions: its pages say
//! only "in round-to-nearest-even mode", and the CUDA C++ Programming Guide's tables of maximum
//! ulp errors ("Mathematical Functions") list single- and double-precision functions only. The
//! device evaluates the `float` with the PTX `.approx` instructions (`ex2.approx`,
//! `lg2.approx`, `sin.approx`, `rsqrt.approx`, …) whose errors can move a value across a half
//! rounding boundary. So the result of every function but the four exact roundings carries an
//! accuracy note whose bound is unstated ([`Bound::Unstated`]: "device may differ by an amount
//! the vendor does not bound (CUDA Math API, hexp)"; the JSON's `"ulp"` is `null`), never a
//! number the vendor did not give. `hfloor`, `hceil`, `htrunc` and `hrint` are exact (every
//! integer-valued result is a 16-bit value) and pass on their argument's note.

use super::Bound;
use crate::types::{round16, KVal, Scalar};

/// Id of the first half-function note ([`crate::accuracy::Approx::function`]): `HALF_NOTES + k` names
/// [`NAMES`]`[k]`.
pub const HALF_NOTES: u16 = 3000;

/// The document the functions' definitions are from.
pub const SRC_HALF: &str = "CUDA Math API, Half Math Functions, Half2 Math Functions and Bfloat16 Math Functions (no error bound stated)";

/// Every function of this module: the scalar forms, then the pair forms in the same order.
pub const NAMES: &[&str] = &[
    "hexp", "hexp2", "hexp10", "hlog", "hlog2", "hlog10", "hsqrt", "hrsqrt", "hrcp", "hsin",
    "hcos", "htanh", "hfloor", "hceil", "htrunc", "hrint", "h2exp", "h2exp2", "h2exp10", "h2log",
    "h2log2", "h2log10", "h2sqrt", "h2rsqrt", "h2rcp", "h2sin", "h2cos", "h2tanh", "h2floor",
    "h2ceil", "h2trunc", "h2rint",
];

/// Whether `name` is one of [`NAMES`].
pub fn is_half_fn(name: &str) -> bool {
    NAMES.contains(&name)
}

/// Name and source of note id `id`, when it is one of this module's.
pub fn note_name(id: u16) -> Option<(&'static str, &'static str)> {
    let k = id.checked_sub(HALF_NOTES)?;
    NAMES.get(usize::from(k)).map(|n| (*n, SRC_HALF))
}

fn note(name: &str) -> Option<(u16, Bound)> {
    let k = NAMES.iter().position(|n| *n == name)?;
    Some((HALF_NOTES + u16::try_from(k).ok()?, Bound::Unstated))
}

/// The function of a scalar name's stem (`exp` for `hexp` and `h2exp`) on one component,
/// in `f64`, and whether it is exact.
fn eval(stem: &str, x: f64) -> Option<(f64, bool)> {
    Some(match stem {
        "exp" => (libm::exp(x), false),
        "exp2" => (libm::exp2(x), false),
        "exp10" => (libm::exp10(x), false),
        "log" => (libm::log(x), false),
        "log2" => (libm::log2(x), false),
        "log10" => (libm::log10(x), false),
        "sqrt" => (x.sqrt(), false),
        // 1/√x and 1/x in f64 are within an f64 ulp; rounded to float, then to the 16-bit type.
        "rsqrt" => (1.0 / x.sqrt(), false),
        "rcp" => (1.0 / x, false),
        "sin" => (libm::sin(x), false),
        "cos" => (libm::cos(x), false),
        "tanh" => (libm::tanh(x), false),
        "floor" => (x.floor(), true),
        "ceil" => (x.ceil(), true),
        "trunc" => (x.trunc(), true),
        // rint: to the nearest integer, ties to even (the current rounding mode, nearest).
        "rint" => (x.round_ties_even(), true),
        _ => return None,
    })
}

/// One component's result: the function in `float`, then rounded to nearest even to `ty`.
fn component(name: &str, stem: &str, ty: Scalar, v: &KVal) -> Result<KVal, String> {
    let x = v
        .as_f64()
        .ok_or_else(|| format!("`{name}` needs a number"))?;
    let Some((r, exact)) = eval(stem, x) else {
        return Err(format!("`{name}` is not a half math function"));
    };
    let single = f64::from(r as f32);
    let own = if exact { None } else { note(name) };
    if own.is_none() && v.approx().is_none() {
        return Ok(KVal::float(ty, round16(ty, single)));
    }
    // An exact function (floor, rint) of a value that may be off carries that error through.
    let f = |p: &[f64]| eval(stem, p[0]).map_or(f64::NAN, |e| e.0);
    Ok(KVal::propagated(
        ty,
        round16(ty, single),
        own,
        &[(x, v.approx())],
        &f,
    ))
}

/// Applies `name` (one of [`NAMES`]) to one lane's arguments; `None` for any other name.
///
/// # Errors
/// A message naming the function when there is not exactly one argument, or it is not a
/// 16-bit float of the form the name takes (`hexp`: `__half` / `__nv_bfloat16`; `h2exp`:
/// `__half2` / `__nv_bfloat162`).
pub fn call(name: &str, args: &[KVal]) -> Option<Result<KVal, String>> {
    if !is_half_fn(name) {
        return None;
    }
    Some(run(name, args))
}

fn run(name: &str, args: &[KVal]) -> Result<KVal, String> {
    let [a] = args else {
        return Err(format!("`{name}` takes 1 argument, got {}", args.len()));
    };
    let pair = name.starts_with("h2");
    let stem = if pair { &name[2..] } else { &name[1..] };
    let ty = a.val_ty().scalar;
    let wanted = if pair {
        "__half2 or __nv_bfloat162"
    } else {
        "__half or __nv_bfloat16"
    };
    let wrong = || {
        format!(
            "`{name}` takes a {wanted} argument, got {} (convert with __float2half / \
             __float2bfloat16{} first)",
            a.val_ty().name(),
            if pair { " and make a pair" } else { "" }
        )
    };
    if !matches!(ty, Scalar::F16 | Scalar::Bf16) {
        return Err(wrong());
    }
    match a {
        KVal::Vector { items, .. } if pair && items.len() == 2 => {
            let items = items
                .iter()
                .map(|v| component(name, stem, ty, v))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(KVal::Vector { ty, items })
        }
        KVal::Float { .. } if !pair => component(name, stem, ty, a),
        _ => Err(wrong()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accuracy::Approx;

    fn h(x: f64) -> KVal {
        KVal::float(Scalar::F16, x)
    }

    fn value(v: &KVal) -> f64 {
        v.as_f64().unwrap()
    }

    #[test]
    fn rounded_from_float_to_half() {
        // e^0.25 = 1.2840254…; halves in [1, 2) step 2^-10: 1.2840254·1024 = 1314.84 → 1315,
        // 1315/1024 = 1.2841796875.
        let e = run("hexp", &[h(0.25)]).unwrap();
        assert_eq!(value(&e), 1.2841796875);
        assert_eq!(e.approx().map(|a| a.bound), Some(Bound::Unstated));
        assert_eq!(e.approx().map(Approx::name), Some("hexp"));
        // 1/√0.25 = 2 exactly; a pair works on each half.
        let p = KVal::Vector {
            ty: Scalar::F16,
            items: vec![h(0.25), h(4.0)],
        };
        let r = run("h2rsqrt", &[p]).unwrap();
        assert_eq!(
            r.approx().map(Approx::name),
            Some("h2rsqrt"),
            "the pair form names itself"
        );
        let KVal::Vector { items, .. } = r else {
            panic!("a pair")
        };
        assert_eq!((value(&items[0]), value(&items[1])), (2.0, 0.5));
        // hrint ties to even: 2.5 → 2; exact, no note.
        let r = run("hrint", &[h(2.5)]).unwrap();
        assert_eq!((value(&r), r.approx()), (2.0, None));
        // hexp2 is a scalar function (its 2 is the base, not a pair).
        assert!(run("hexp2", &[h(3.0)]).is_ok_and(|v| value(&v) == 8.0));
        assert!(run("hexp", &[KVal::float(Scalar::F32, 1.0)]).is_err());
        assert!(run("h2exp", &[h(1.0)]).is_err());
    }
}
