//! The f32 accuracy bound of each inexact WGSL built-in (WGSL spec § 15.7.4 "Floating Point
//! Accuracy", f32 column), as the note its result carries: the bounds the table states
//! directly (`exp` 3 + 2·|x| ULP, `sin` absolute 2^-11 inside [-π, π]), and the ones it
//! states as "inherited from" a formula, computed here by carrying each operation's bound
//! through the formula ([`crate::accuracy::Approx::propagate`]): `tanh` "inherited from
//! sinh(x) / cosh(x)", with `sinh` "(exp(x) - exp(-x)) * 0.5", `exp` 3 + 2·|x| ULP and `x / y`
//! 2.5 ULP. A correctly rounded operation of a formula (`x + y`, `x * y`) may round the
//! device's inexact operands' value to the other neighbour: one ulp. A built-in whose formula
//! is not computed here states no bound ([`Bound::Unstated`]).

use crate::accuracy::{Approx, Bound, Fmt};
use crate::mathlib::intrinsics::named_note;

/// A formula's intermediate: its exact value and how far the device's may be from it.
#[derive(Clone, Copy)]
struct V {
    x: f64,
    a: Option<Approx>,
}

impl V {
    fn exact(x: f64) -> V {
        V { x, a: None }
    }
}

/// `f` on `ins` with its own bound `own` (`None`: exact, like a product by 0.5).
fn op(own: Option<(u16, Bound)>, ins: &[V], f: &dyn Fn(&[f64]) -> f64) -> V {
    let xs: Vec<f64> = ins.iter().map(|v| v.x).collect();
    let x = f(&xs);
    let inputs: Vec<(f64, Option<Approx>)> = ins.iter().map(|v| (v.x, v.a)).collect();
    V {
        x,
        a: Approx::propagate(own, &inputs, f, x, Fmt::F32),
    }
}

/// A correctly rounded operation of a formula (`x + y`, `x * y`): on operands that may be off,
/// [`Approx::propagate`] adds one ulp for the rounding itself; on exact operands the device's
/// rounding of the exact value is the only error (counted as one ulp).
fn rop(id: u16, ins: &[V], f: &dyn Fn(&[f64]) -> f64) -> V {
    let own = if ins.iter().any(|v| v.a.is_some()) {
        None
    } else {
        Some((id, Bound::Ulp(1)))
    };
    op(own, ins, f)
}

/// WGSL `x / y` for f32: "2.5 ULP for |y| in the range [2^-126, 2^126]" (no bound outside);
/// as a whole ulp distance from the emulator's correctly rounded quotient (itself within
/// 0.5 ulp of the exact one): 3.
pub fn division_bound(y: f64) -> Bound {
    if (2f64.powi(-126)..=2f64.powi(126)).contains(&y.abs()) {
        Bound::Ulp(3)
    } else {
        Bound::Unstated
    }
}

fn exp(id: u16, x: V, base2: bool) -> V {
    let extra = (2.0 * x.x.abs()).floor();
    let bound = Bound::Ulp(3u32.saturating_add(if extra < 1e9 { extra as u32 } else { u32::MAX }));
    op(Some((id, bound)), &[x], &|p| {
        if base2 {
            p[0].exp2()
        } else {
            p[0].exp()
        }
    })
}

fn sin_cos(id: u16, x: V, cos: bool) -> V {
    op(Some((id, sin_cos_bound(x.x))), &[x], &|p| {
        if cos {
            p[0].cos()
        } else {
            p[0].sin()
        }
    })
}

/// `sin`, `cos`: "absolute error ≤ 2^-11 inside the range of [-π, π]"; no bound outside.
fn sin_cos_bound(x: f64) -> Bound {
    if (-std::f64::consts::PI..=std::f64::consts::PI).contains(&x) {
        Bound::AbsPow2(-11.0)
    } else {
        Bound::Unstated
    }
}

fn div(id: u16, a: V, b: V) -> V {
    op(Some((id, division_bound(b.x))), &[a, b], &|p| p[0] / p[1])
}

fn sinh_cosh(id: u16, x: V, cosh: bool) -> V {
    let e1 = exp(id, x, false);
    let e2 = exp(id, V::exact(-x.x), false);
    let s = rop(id, &[e1, e2], &|p| {
        if cosh {
            p[0] + p[1]
        } else {
            p[0] - p[1]
        }
    });
    op(None, &[s], &|p| p[0] * 0.5)
}

/// The own bound of f32 built-in `name` at arguments `xs` (`None` for a correctly rounded
/// one), with the note id that names it.
pub fn own_bound(name: &str, xs: &[f64]) -> Option<(u16, Bound)> {
    let arg = |k: usize| xs.get(k).copied().unwrap_or(f64::NAN);
    let x = arg(0);
    let direct = crate::mathlib::intrinsics::wgsl_note(name, x);
    if direct.is_some() {
        return direct;
    }
    let (id, _) = named_note(name, Bound::Unstated)?;
    let v = V::exact(x);
    let formula = match name {
        "sin" | "cos" => return Some((id, sin_cos_bound(x))),
        "tan" => div(id, sin_cos(id, v, false), sin_cos(id, v, true)),
        "sinh" | "cosh" => sinh_cosh(id, v, name == "cosh"),
        "tanh" => div(id, sinh_cosh(id, v, false), sinh_cosh(id, v, true)),
        "sqrt" => {
            let r = op(Some((id, Bound::Ulp(2))), &[v], &|p| 1.0 / p[0].sqrt());
            div(id, V::exact(1.0), r)
        }
        "pow" => {
            let l = op(Some((id, log_bound(x))), &[v], &|p| p[0].log2());
            let m = rop(id, &[V::exact(arg(1)), l], &|p| p[0] * p[1]);
            exp(id, m, true)
        }
        "fract" => rop(id, &[v], &|p| p[0] - p[0].floor()),
        "degrees" => rop(id, &[v], &|p| p[0] * 57.295_779_513_082_32),
        "radians" => rop(id, &[v], &|p| p[0] * 0.017_453_292_519_943_295),
        "fma" => {
            let m = rop(id, &[v, V::exact(arg(1))], &|p| p[0] * p[1]);
            rop(id, &[m, V::exact(arg(2))], &|p| p[0] + p[1])
        }
        "mix" => {
            let t = arg(2);
            let one_t = rop(id, &[V::exact(t)], &|p| 1.0 - p[0]);
            let a = rop(id, &[v, one_t], &|p| p[0] * p[1]);
            let b = rop(id, &[V::exact(arg(1)), V::exact(t)], &|p| p[0] * p[1]);
            rop(id, &[a, b], &|p| p[0] + p[1])
        }
        // A formula not computed here (asin, acos, the hyperbolic inverses, smoothstep):
        // its bound is not stated.
        _ => return Some((id, Bound::Unstated)),
    };
    let a = formula.a?;
    // The formula's error from the exact result, plus the emulator's own rounding of the
    // exact result (half an ulp, counted whole).
    Some((
        id,
        a.ulp()
            .map_or(Bound::Unstated, |n| Bound::Ulp(n.saturating_add(1))),
    ))
}

/// `log`, `log2`: "3 ULP outside the range [0.5, 2.0]; absolute error < 2^-21 inside".
fn log_bound(x: f64) -> Bound {
    if (0.5..=2.0).contains(&x) {
        Bound::AbsPow2(-21.0)
    } else {
        Bound::Ulp(3)
    }
}

#[cfg(test)]
mod tests {
    use crate::accuracy::Bound;
    use crate::wgsl::inherited::{division_bound, own_bound};

    /// WGSL § 15.7.4: sin and cos are bounded inside [-π, π] only.
    #[test]
    fn sin_cos_range() {
        assert_eq!(
            own_bound("sin", &[1.0]).map(|b| b.1),
            Some(Bound::AbsPow2(-11.0))
        );
        assert_eq!(own_bound("cos", &[4.0]).map(|b| b.1), Some(Bound::Unstated));
    }

    /// tanh(0.5) from sinh(x) / cosh(x), by hand (ulp of [1, 2) is 2^-23 = 1.19e-7):
    /// exp(0.5) = 1.64872 off by 3 + floor(2·0.5) = 4 ulp = 4.77e-7; exp(-0.5) = 0.60653 by
    /// 4 ulp of [0.5, 1) = 2.38e-7. sinh: the difference 1.04219 is off by 7.15e-7 plus one
    /// rounding (1.19e-7) = 8.34e-7; halved, 4.17e-7 plus one ulp of 0.52110 (5.96e-8) =
    /// 4.77e-7. cosh: the sum 2.25525 by 7.15e-7 + 2.38e-7 = 9.54e-7; halved, 4.77e-7 +
    /// 1.19e-7 = 5.96e-7 on 1.12763. The quotient 0.462117 carries both relative errors,
    /// (4.77e-7/0.52110 + 5.96e-7/1.12763)·0.462117 = 6.67e-7, plus the division's 3 ulp and
    /// one rounding at 2^-25 (8.94e-8 + 2.98e-8): 7.87e-7 = 26.4 ulp of 0.462117. Counted
    /// outward from the float nearest the exact quotient: 28 positions; plus 1 for the
    /// emulator's own rounding: 29.
    #[test]
    fn tanh_inherits_a_bound() {
        assert_eq!(own_bound("tanh", &[0.5]).map(|b| b.1), Some(Bound::Ulp(29)));
    }

    /// WGSL `x / y`: 2.5 ULP inside [2^-126, 2^126], whole: 3; unbounded outside.
    #[test]
    fn division() {
        assert_eq!(division_bound(3.0), Bound::Ulp(3));
        assert_eq!(division_bound(2f64.powi(127)), Bound::Unstated);
    }
}
