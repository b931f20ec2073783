//! The reference values of the CUDA Math API's special functions that the `libm` crate does
//! not have: the scaled complementary error function `erfcx`, the inverse complementary error
//! function `erfcinv`, the standard normal distribution `normcdf` / `normcdfinv`, the modified
//! Bessel functions `cyl_bessel_i0` / `cyl_bessel_i1`, and the Euclidean norms `rhypot`,
//! `norm3d`, `norm4d`, `rnorm3d`, `rnorm4d`, `norm` and `rnorm` (CUDA Math API, "Double
//! Precision Mathematical Functions", each function's entry for its definition and special
//! values). Each is computed in `f64` from `libm`'s functions, so that a `float` function's
//! value rounded once to `float` is the correctly rounded one in practice, and a `double` one is
//! within a few double ulps (as [`super::table`]'s other rows).

use std::f64::consts::{FRAC_1_SQRT_2, PI, SQRT_2};

/// `2/√π`.
const TWO_OVER_SQRT_PI: f64 = std::f64::consts::FRAC_2_SQRT_PI;

/// `erfcx(x) = exp(x²)·erfc(x)` (CUDA Math API, `erfcx`: "erfcx(−∞) returns +∞, erfcx(+∞)
/// returns +0"). For x ≥ 10 by the continued fraction of erfc (Abramowitz and Stegun 7.1.14,
/// `√π·erfcx(x) = 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + …))))`, 60 terms); otherwise `x²` is
/// split into its rounded value and the exact remainder (an fma), so that `exp(x²)` keeps its
/// digits.
pub fn erfcx(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    if x == f64::INFINITY {
        return 0.0;
    }
    if x >= 10.0 {
        let mut t = x;
        for k in (1..=60).rev() {
            t = x + f64::from(k) * 0.5 / t;
        }
        return 1.0 / (t * PI.sqrt());
    }
    let hi = x * x;
    if hi > 709.0 {
        return f64::INFINITY;
    }
    let lo = x.mul_add(x, -hi);
    libm::exp(hi) * (1.0 + lo) * libm::erfc(x)
}

/// The inverse complementary error function: the `x` with `erfc(x) = y` (CUDA Math API,
/// `erfcinv`: "erfcinv(±0) returns +∞, erfcinv(2) returns −∞, erfcinv(x) returns NaN for x
/// outside [0, 2]"). Near 1 it is `erfinv(1 − y)` (`1 − y` is exact there, Sterbenz); below
/// 1/2 the root of `erfc(x) = y` by bisection on `libm::erfc`, which keeps its relative
/// accuracy in the tail; above 3/2 `−erfcinv(2 − y)`.
pub fn erfcinv(y: f64, erfinv: fn(f64) -> f64) -> f64 {
    if y.is_nan() || !(0.0..=2.0).contains(&y) {
        return f64::NAN;
    }
    if y == 0.0 {
        return f64::INFINITY;
    }
    if y == 2.0 {
        return f64::NEG_INFINITY;
    }
    if (0.5..=1.5).contains(&y) {
        return erfinv(1.0 - y);
    }
    if y > 1.5 {
        return -erfcinv(2.0 - y, erfinv);
    }
    // erfc decreases: erfc(lo) > y ≥ erfc(hi). erfc(27.3) underflows below the least double.
    let (mut lo, mut hi) = (0.0f64, 27.3f64);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if libm::erfc(mid) > y {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    if (libm::erfc(lo) - y).abs() < (libm::erfc(hi) - y).abs() {
        lo
    } else {
        hi
    }
}

/// The standard normal cumulative distribution function `Φ(x) = erfc(−x/√2)/2` (CUDA Math
/// API, `normcdf`: "normcdf(+∞) returns 1, normcdf(−∞) returns +0"). `−x/√2` is carried as a
/// rounded value `t` and its error `δ` (an fma and `1/√2`'s own rounding), and
/// `erfc(t + δ) = erfc(t)·(1 − δ·(2/√π)/erfcx(t))` to first order, so that the far tail keeps
/// its digits.
pub fn normcdf(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    // 1/√2 = FRAC_1_SQRT_2 + R exactly to about 2^-110.
    const R: f64 = -4.833_646_656_726_457e-17;
    let t = -x * FRAC_1_SQRT_2;
    let d = (-x).mul_add(FRAC_1_SQRT_2, -t) + (-x) * R;
    let e = libm::erfc(t);
    if e == 0.0 || !t.is_finite() {
        return 0.5 * e;
    }
    0.5 * e * (1.0 - d * TWO_OVER_SQRT_PI / erfcx(t))
}

/// The inverse of [`normcdf`]: `−√2·erfcinv(2p)` (CUDA Math API, `normcdfinv`:
/// "normcdfinv(0) returns −∞, normcdfinv(1) returns +∞, normcdfinv(x) returns NaN if x is not
/// in the interval [0, 1]"). `2p` is exact.
pub fn normcdfinv(p: f64, erfinv: fn(f64) -> f64) -> f64 {
    if p.is_nan() || !(0.0..=1.0).contains(&p) {
        return f64::NAN;
    }
    -SQRT_2 * erfcinv(2.0 * p, erfinv)
}

/// The regular modified cylindrical Bessel function of order 0, `I₀(x) = Σ (x/2)^{2k}/(k!)²`
/// (CUDA Math API, `cyl_bessel_i0`: "cyl_bessel_i0(±0) returns +1, cyl_bessel_i0(±∞) returns
/// +∞"). The series' terms are all positive (no cancellation); it is summed until a term no
/// longer changes the sum, at most 2000 terms (enough for every `x` below the overflow at
/// about 713.99).
pub fn bessel_i0(x: f64) -> f64 {
    bessel_i(x, 0)
}

/// Order 1, `I₁(x) = Σ (x/2)^{2k+1}/(k!·(k+1)!)` (CUDA Math API, `cyl_bessel_i1`:
/// "cyl_bessel_i1(±0) returns ±0, cyl_bessel_i1(±∞) returns ±∞"); odd in `x`.
pub fn bessel_i1(x: f64) -> f64 {
    bessel_i(x, 1)
}

/// [`bessel_i0`] and [`bessel_i1`]: `Σ (x/2)^{2k+n}/(k!·(k+n)!)`.
fn bessel_i(x: f64, n: u32) -> f64 {
    if x.is_nan() {
        return x;
    }
    let a = x.abs();
    if a > 714.0 {
        return if n == 1 {
            f64::INFINITY.copysign(x)
        } else {
            f64::INFINITY
        };
    }
    let h = 0.5 * a;
    let q = h * h;
    // The first term: 1, or x/2. Terms grow to k ≈ x/2 then fall, and the largest term is
    // below the sum, so a term overflows only where the sum does.
    let mut term = if n == 1 { h } else { 1.0 };
    let mut sum = term;
    for k in 1..2000u32 {
        term *= q / (f64::from(k) * f64::from(k + n));
        let next = sum + term;
        if next == sum {
            break;
        }
        sum = next;
    }
    if n == 1 {
        sum.copysign(x)
    } else {
        sum
    }
}

/// The Euclidean length of `v` without overflow or underflow of the squares: the components
/// scaled by the power of two nearest their largest magnitude (exact), summed as squares, and
/// scaled back. CUDA Math API, `norm3d` / `norm4d` / `norm`: "returns +∞ if any argument is
/// infinite, even if another is NaN"; otherwise a NaN gives NaN.
pub fn length(v: &[f64]) -> f64 {
    if v.iter().any(|x| x.is_infinite()) {
        return f64::INFINITY;
    }
    if v.iter().any(|x| x.is_nan()) {
        return f64::NAN;
    }
    let m = v.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    if m == 0.0 {
        return 0.0;
    }
    // 2^e with m in [2^e, 2^(e+1)); the scale is exact in both directions for normal m, and
    // for a subnormal m too (libm's ilogb gives its true exponent).
    let e = libm::ilogb(m);
    let sum: f64 = v
        .iter()
        .map(|x| {
            let s = libm::scalbn(*x, -e);
            s * s
        })
        .sum();
    libm::scalbn(sum.sqrt(), e)
}

/// `1 / length(v)`: +0 for an infinite component, +∞ for all zeros (CUDA Math API, `rnorm3d`:
/// "rnorm3d(0, 0, 0) returns +∞", "returns +0 … if any argument is infinite").
pub fn rlength(v: &[f64]) -> f64 {
    1.0 / length(v)
}

/// `1/hypot(x, y)` (CUDA Math API, `rhypot`: "rhypot(x, ±∞) returns +0 even if x is NaN").
pub fn rhypot(x: f64, y: f64) -> f64 {
    rlength(&[x, y])
}

/// `norm3d(a, b, c)`.
pub fn norm3d(a: f64, b: f64, c: f64) -> f64 {
    length(&[a, b, c])
}

/// `rnorm3d(a, b, c)`.
pub fn rnorm3d(a: f64, b: f64, c: f64) -> f64 {
    rlength(&[a, b, c])
}

/// `norm4d(a, b, c, d)`.
pub fn norm4d(a: f64, b: f64, c: f64, d: f64) -> f64 {
    length(&[a, b, c, d])
}

/// `rnorm4d(a, b, c, d)`.
pub fn rnorm4d(a: f64, b: f64, c: f64, d: f64) -> f64 {
    rlength(&[a, b, c, d])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Expected values: mpmath at 50 digits (`mp.erfc(x)*mp.exp(x*x)`, `mp.besseli(0, x)`,
    /// `mp.ncdf(x)`, `-mp.sqrt(2)*mp.erfinv(1-y)`), printed to 17 digits.
    #[test]
    fn special_functions_match_an_independent_model() {
        let close = |a: f64, b: f64, rel: f64| (a - b).abs() <= rel * b.abs();
        assert!(close(erfcx(0.5), 0.6156903441929259, 4e-16));
        assert!(close(erfcx(12.0), 0.04685422101489376, 4e-16));
        assert!(close(erfcx(-1.0), 5.008980080762283, 4e-16));
        assert!(close(bessel_i0(1.0), 1.2660658777520084, 4e-16));
        assert!(close(bessel_i1(-2.5), -2.5167162452886984, 4e-16));
        assert!(close(normcdf(-10.0), 7.619853024160525e-24, 1e-14));
        assert!(close(normcdf(1.0), 0.8413447460685429, 4e-16));
        assert!(close(
            erfcinv(1e-10, crate::mathlib::table::erfinv),
            4.572824967389486,
            4e-16
        ));
        assert_eq!(norm3d(3.0, 4.0, 12.0), 13.0);
        assert_eq!(norm3d(f64::NAN, f64::INFINITY, 0.0), f64::INFINITY);
        assert_eq!(rnorm4d(0.0, 0.0, 0.0, 0.0), f64::INFINITY);
        assert_eq!(norm3d(3e300, 4e300, 0.0), 5e300);
    }
}
