//! The `.f32` rows of [`super::ROWS`]: the approximate instructions (the correctly rounded
//! value of their function, with the bound PTX ISA 8.5, "Floating-Point Instructions", states
//! for each as an accuracy note) and the IEEE 754 operations in a rounding mode (run by the
//! CUDA Math API intrinsic that compiles to the same instruction: `add.rz.f32` is
//! `__fadd_rz`, PTX `.rm`/`.rp` are the intrinsics' `_rd`/`_ru`).

use super::{f_of, pick, Mods};
use crate::accuracy::Bound;
use crate::mathlib::intrinsics::named_note;
use crate::types::{KVal, Scalar};

/// A subnormal `.f32` value flushed to a zero of its sign (PTX ISA, "Subnormal Numbers":
/// `.ftz`); any other value as it is.
fn flush(x: f64) -> f64 {
    if x != 0.0 && x.abs() < f64::from(f32::MIN_POSITIVE) {
        0.0f64.copysign(x)
    } else {
        x
    }
}

/// `.sat`: clamped to [0.0, 1.0], NaN to +0.0 (PTX ISA, add: "Saturation modifier").
fn saturate(x: f64) -> f64 {
    if x.is_nan() || x <= 0.0 {
        0.0
    } else {
        x.min(1.0)
    }
}

/// The sources as `.f32` values, flushed under `.ftz`, each with its argument's note.
fn sources(m: Mods, args: &[KVal]) -> Result<Vec<KVal>, String> {
    (0..args.len())
        .map(|k| {
            let x = f_of(args, k)? as f32 as f64;
            let x = if m.ftz { flush(x) } else { x };
            Ok(KVal::float(Scalar::F32, x).with_approx(args[k].approx()))
        })
        .collect()
}

/// The result under `.ftz` and `.sat`.
fn finish(m: Mods, v: KVal) -> KVal {
    let note = v.approx();
    let Some(x) = v.as_f64() else { return v };
    let mut y = x;
    if m.ftz {
        y = flush(y);
    }
    if m.sat {
        y = saturate(y);
    }
    if y.to_bits() == x.to_bits() {
        return v;
    }
    KVal::float(Scalar::F32, y).with_approx(note)
}

/// An approximate instruction: `f` on the sources, correctly rounded, with the note of
/// `name` and the bound `bound` gives for the sources (`None`: the bound's exception, exact
/// special value, no own note).
fn approx(
    name: &str,
    m: Mods,
    args: &[KVal],
    f: &dyn Fn(&[f64]) -> f64,
    bound: &dyn Fn(&[f64]) -> Option<Bound>,
) -> Result<KVal, String> {
    let srcs = sources(m, args)?;
    let xs: Vec<f64> = srcs.iter().filter_map(KVal::as_f64).collect();
    let value = f(&xs);
    let own = if value.is_finite() {
        bound(&xs).and_then(|b| named_note(name, b))
    } else {
        // An infinity or NaN result is the special value the instruction's table gives.
        None
    };
    let inputs: Vec<(f64, Option<crate::accuracy::Approx>)> = xs
        .iter()
        .zip(&srcs)
        .map(|(x, s)| (*x, s.approx()))
        .collect();
    let v = if own.is_none() && inputs.iter().all(|(_, a)| a.is_none()) {
        KVal::float(Scalar::F32, value)
    } else {
        KVal::propagated(Scalar::F32, value, own, &inputs, f)
    };
    Ok(finish(m, v))
}

/// A relative bound 2^`e` in ulps of an `.f32` result: a normal float's ulp exceeds 2^-24 of
/// its magnitude (a subnormal's is larger still), so the error is under ⌈2^(24+e)⌉ ulp.
fn rel(e: f64) -> Bound {
    Bound::Ulp(2f64.powf(24.0 + e).ceil() as u32)
}

/// `ex2.approx.f32`: "maximum ulp error is 2 ... across the full range of inputs".
pub(super) fn ex2(m: Mods, a: &[KVal]) -> Result<KVal, String> {
    approx("ex2.approx.f32", m, a, &|x| x[0].exp2(), &|_| {
        Some(Bound::Ulp(2))
    })
}

/// `lg2.approx.f32`: "maximum absolute error is 2^-22 when the input operand is in the range
/// (0.5, 2). For positive finite inputs outside of this interval, maximum relative error is
/// 2^-22."
pub(super) fn lg2(m: Mods, a: &[KVal]) -> Result<KVal, String> {
    approx("lg2.approx.f32", m, a, &|x| x[0].log2(), &|x| {
        Some(if x[0] > 0.5 && x[0] < 2.0 {
            Bound::AbsPow2(-22.0)
        } else {
            rel(-22.0)
        })
    })
}

/// `rsqrt.approx.f32`: "maximum relative error ... over the entire positive finite
/// floating-point range is 2^-22.9" (⌈2^1.1⌉ = 3 ulp).
pub(super) fn rsqrt(m: Mods, a: &[KVal]) -> Result<KVal, String> {
    approx("rsqrt.approx.f32", m, a, &|x| 1.0 / x[0].sqrt(), &|_| {
        Some(rel(-22.9))
    })
}

/// The CUDA intrinsic of a rounded `.f32` operation (`__fadd_rz`): PTX `.rn .rz .rm .rp` are
/// its `_rn _rz _rd _ru` (PTX ISA, "Rounding Modifiers"; CUDA Math API, Single Precision
/// Intrinsics), no modifier `.rn`.
fn rounded(intrinsic: &str, m: Mods, args: &[KVal]) -> Result<KVal, String> {
    let suffix = match m.choice {
        "rz" => "rz",
        "rm" => "rd",
        "rp" => "ru",
        _ => "rn",
    };
    let name = format!("{intrinsic}_{suffix}");
    let srcs = sources(m, args)?;
    let v = crate::mathlib::call(&name, &srcs)
        .ok_or_else(|| format!("no intrinsic `{name}`"))??
        .value;
    Ok(finish(m, v))
}

/// `rcp.approx.f32`: "maximum ulp error is 1 across the full range of inputs"; `rcp.rnd`
/// IEEE 754 compliant.
pub(super) fn rcp(m: Mods, a: &[KVal]) -> Result<KVal, String> {
    if m.choice != "approx" {
        return rounded("__frcp", m, a);
    }
    approx("rcp.approx.f32", m, a, &|x| 1.0 / x[0], &|_| {
        Some(Bound::Ulp(1))
    })
}

/// `sqrt.approx.f32`: "maximum relative error over the entire positive finite floating-point
/// range is 2^-23" (2 ulp); `sqrt.rnd` IEEE 754 compliant.
pub(super) fn sqrt(m: Mods, a: &[KVal]) -> Result<KVal, String> {
    if m.choice != "approx" {
        return rounded("__fsqrt", m, a);
    }
    approx("sqrt.approx.f32", m, a, &|x| x[0].sqrt(), &|_| {
        Some(rel(-23.0))
    })
}

/// The range of `sin.approx` / `cos.approx`'s stated bound: [-π, π].
fn in_range(x: f64) -> bool {
    x.abs() <= std::f64::consts::PI
}

/// `sin.approx.f32`: "maximum absolute error is 2^-20.9 in the range -π..π"; no bound is
/// stated outside it, and the error grows with |a| there (the range reduction's: an H200
/// measured 2^-21.47 on [-π, π], 2^-20.59 on [-2π, 2π], 2^-14.7 on [-100π, 100π]).
pub(super) fn sin(m: Mods, a: &[KVal]) -> Result<KVal, String> {
    approx("sin.approx.f32", m, a, &|x| x[0].sin(), &|x| {
        Some(if in_range(x[0]) {
            Bound::AbsPow2(-20.9)
        } else {
            Bound::Unstated
        })
    })
}

/// `cos.approx.f32`: as `sin.approx.f32` (an H200 measured 2^-21.28 on [-π, π]).
pub(super) fn cos(m: Mods, a: &[KVal]) -> Result<KVal, String> {
    approx("cos.approx.f32", m, a, &|x| x[0].cos(), &|x| {
        Some(if in_range(x[0]) {
            Bound::AbsPow2(-20.9)
        } else {
            Bound::Unstated
        })
    })
}

/// `tanh.approx.f32` (sm_75 and newer): "maximum relative error across the full range is
/// 2^-10.987" (⌈2^13.013⌉ = 8267 ulp); subnormal results are not flushed.
pub(super) fn tanh(m: Mods, a: &[KVal]) -> Result<KVal, String> {
    approx("tanh.approx.f32", m, a, &|x| x[0].tanh(), &|_| {
        Some(rel(-10.987))
    })
}

/// `div.approx.f32` (a · (1/b)): "for |b| in [2^-126, 2^126], the maximum ulp error is 2. For
/// 2^126 < |b| < 2^128, if a is infinity, div.approx.f32 returns NaN, otherwise it returns
/// 0" (the reciprocal underflows); `div.full.f32`: "maximum ulp error is 2 across the full
/// range of inputs"; `div.rnd` IEEE 754 compliant.
pub(super) fn div(m: Mods, a: &[KVal]) -> Result<KVal, String> {
    match m.choice {
        "approx" => {
            let srcs = sources(m, a)?;
            let (x, y) = (f_of(&srcs, 0)?, f_of(&srcs, 1)?);
            if y.abs() > 2f64.powi(126) && y.abs() < 2f64.powi(128) {
                let v = if x.is_infinite() { f64::NAN } else { 0.0 };
                let note = srcs
                    .iter()
                    .filter_map(KVal::approx)
                    .reduce(crate::accuracy::Approx::wider);
                return Ok(finish(m, KVal::float(Scalar::F32, v).with_approx(note)));
            }
            approx("div.approx.f32", m, a, &|x| x[0] / x[1], &|x| {
                let normal = (2f64.powi(-126)..=2f64.powi(126)).contains(&x[1].abs());
                Some(if normal {
                    Bound::Ulp(2)
                } else {
                    Bound::Unstated
                })
            })
        }
        "full" => approx("div.full.f32", m, a, &|x| x[0] / x[1], &|_| {
            Some(Bound::Ulp(2))
        }),
        _ => rounded("__fdiv", m, a),
    }
}

/// `add{.rnd}.f32`.
pub(super) fn add(m: Mods, a: &[KVal]) -> Result<KVal, String> {
    rounded("__fadd", m, a)
}

/// `sub{.rnd}.f32`.
pub(super) fn sub(m: Mods, a: &[KVal]) -> Result<KVal, String> {
    rounded("__fsub", m, a)
}

/// `mul{.rnd}.f32`.
pub(super) fn mul(m: Mods, a: &[KVal]) -> Result<KVal, String> {
    rounded("__fmul", m, a)
}

/// `fma.rnd.f32`: a · b + c rounded once.
pub(super) fn fma(m: Mods, a: &[KVal]) -> Result<KVal, String> {
    rounded("__fmaf", m, a)
}

/// `max.f32` / `min.f32` (PTX ISA, max, min): a NaN operand gives the other operand, two
/// NaNs a NaN; -0.0 orders below +0.0.
fn extreme(m: Mods, a: &[KVal], larger: bool) -> Result<KVal, String> {
    let srcs = sources(m, a)?;
    let choose = move |x: &[f64]| pick(x, larger);
    let xs: Vec<f64> = srcs.iter().filter_map(KVal::as_f64).collect();
    let inputs: Vec<_> = xs
        .iter()
        .zip(&srcs)
        .map(|(x, s)| (*x, s.approx()))
        .collect();
    let v = if inputs.iter().all(|(_, n)| n.is_none()) {
        KVal::float(Scalar::F32, choose(&xs))
    } else {
        KVal::propagated(Scalar::F32, choose(&xs), None, &inputs, &choose)
    };
    Ok(finish(m, v))
}

/// `max{.ftz}.f32`.
pub(super) fn max(m: Mods, a: &[KVal]) -> Result<KVal, String> {
    extreme(m, a, true)
}

/// `min{.ftz}.f32`.
pub(super) fn min(m: Mods, a: &[KVal]) -> Result<KVal, String> {
    extreme(m, a, false)
}

#[cfg(test)]
mod tests {
    use super::super::{call, decode};
    use super::*;

    fn f(x: f32) -> KVal {
        KVal::float(Scalar::F32, f64::from(x))
    }

    fn run(m: &str, args: &[KVal]) -> KVal {
        call(&super::super::callee(m), args).unwrap().unwrap()
    }

    #[test]
    fn ex2_is_exact_power_with_a_two_ulp_note() {
        // 2^-3 = 0.125 exactly; the note is PTX ISA's 2 ulp.
        let v = run("ex2.approx.f32", &[f(-3.0)]);
        assert_eq!(v.as_f64(), Some(0.125));
        assert_eq!(v.approx().and_then(|a| a.ulp()), Some(2));
        // -inf → +0, a special value without a note.
        let v = run("ex2.approx.ftz.f32", &[f(f32::NEG_INFINITY)]);
        assert_eq!(v.as_f64(), Some(0.0));
    }

    #[test]
    fn ftz_flushes_subnormal_results() {
        // 2^-130 is subnormal in f32: kept without .ftz, +0 with it.
        let v = run("ex2.approx.f32", &[f(-130.0)]);
        assert_eq!(v.as_f64(), Some(2f64.powi(-130)));
        let v = run("ex2.approx.ftz.f32", &[f(-130.0)]);
        assert_eq!(v.as_f64(), Some(0.0));
    }

    #[test]
    fn relative_bounds_in_ulps() {
        // rsqrt 2^-22.9 → ⌈2^1.1⌉ = ⌈2.14⌉ = 3; tanh 2^-10.987 → ⌈8266.1⌉ = 8267.
        assert_eq!(rel(-22.9), Bound::Ulp(3));
        assert_eq!(rel(-10.987), Bound::Ulp(8267));
        assert_eq!(rel(-23.0), Bound::Ulp(2));
        let v = run("rsqrt.approx.f32", &[f(4.0)]);
        assert_eq!(v.as_f64(), Some(0.5));
    }

    #[test]
    fn rounded_ops_follow_their_mode() {
        // 1 + 2^-30: .rn gives 1, .rp the next float above 1 (1 + 2^-23).
        let tiny = f(2f32.powi(-30));
        assert_eq!(run("add.f32", &[f(1.0), tiny.clone()]).as_f64(), Some(1.0));
        let up = run("add.rp.f32", &[f(1.0), tiny]).as_f64();
        assert_eq!(up, Some(1.0 + 2f64.powi(-23)));
        // fma rounds once: (1 + 2^-12)^2 - 1 = 2^-11 + 2^-24 exactly.
        let a = f(1.0 + 2f32.powi(-12));
        let v = run("fma.rn.f32", &[a.clone(), a, f(-1.0)]);
        assert_eq!(v.as_f64(), Some(2f64.powi(-11) + 2f64.powi(-24)));
        // .sat clamps.
        assert_eq!(run("mul.sat.f32", &[f(3.0), f(0.5)]).as_f64(), Some(1.0));
    }

    #[test]
    fn sin_bound_holds_on_minus_pi_to_pi_only() {
        // sin(0.5) noted 2^-20.9 absolute; sin(4) (outside [-π, π]) has no stated bound.
        let v = run("sin.approx.f32", &[f(0.5)]);
        assert_eq!(v.approx().map(|a| a.bound), Some(Bound::AbsPow2(-20.9)));
        let v = run("sin.approx.f32", &[f(4.0)]);
        assert_eq!(v.approx().map(|a| a.bound), Some(Bound::Unstated));
    }

    #[test]
    fn max_min_and_nan() {
        assert_eq!(run("max.f32", &[f(f32::NAN), f(2.0)]).as_f64(), Some(2.0));
        assert_eq!(run("min.f32", &[f(-1.0), f(2.0)]).as_f64(), Some(-1.0));
        // -0.0 orders below +0.0 (an H200 gave +0 for max(-0, +0), -0 for min(+0, -0)).
        let z = run("max.f32", &[f(-0.0), f(0.0)]).as_f64().unwrap();
        assert!(z == 0.0 && z.is_sign_positive());
        let z = run("min.f32", &[f(0.0), f(-0.0)]).as_f64().unwrap();
        assert!(z == 0.0 && z.is_sign_negative());
        assert!(decode("max.f32").is_ok());
    }

    #[test]
    fn div_approx_huge_divisor_gives_zero() {
        // PTX ISA: 2^126 < |b| < 2^128 and a finite → 0.
        let v = run("div.approx.f32", &[f(1.0), f(2f32.powi(127))]);
        assert_eq!(v.as_f64(), Some(0.0));
        let v = run("div.full.f32", &[f(1.0), f(4.0)]);
        assert_eq!(v.as_f64(), Some(0.25));
    }
}
