//! The accuracy note a kernel value from an inexact math function carries, and how far the
//! device's value may be from the emulator's after later arithmetic on it.
//!
//! A note holds the function (the last, or dominant, inexact one on the value's history), the
//! bound its vendor documents for its own result, and the bound propagated to this value
//! ([`Approx::err`], absolute, in value units): an inexact function's result is off by its
//! documented bound; an operation on values that may be off gives a result that may be off by
//! the largest change of the operation over its operands' intervals (`x ± err`, every corner
//! evaluated: no derivative tables), plus one unit in the last place of the result for a
//! rounding that may differ. After cancellation (`a·b − c·d`, a sum of mixed signs) the error
//! in ulps of the result is then much larger than the function's own bound, as on the device
//! (an NVIDIA H200 differs from the emulator's `online_softmax` by 3–4 ulp where `expf` alone
//! states 2).
//!
//! The functions, their bounds and their sources are the math library's
//! ([`super::mathlib`], which also names and describes a note); this module holds the data and
//! the arithmetic on bounds, so that the value type ([`super::types::KVal`]) can carry it.

/// How far the device's result may be from the emulator's value, as the vendor states it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Bound {
    /// At most this many units in the last place of the result.
    Ulp(u32),
    /// At most `2^e` absolute error (`__sinf` on [-π, π]: `2^-21.41`).
    AbsPow2(f32),
    /// The vendor states no bound for this argument (`__sinf` outside [-π, π], "larger
    /// otherwise"; a function "derived from its implementation").
    Unstated,
}

impl Bound {
    /// The bound in words: `by ≤ 2 ulp`, `by ≤ 2^-21.41 absolute`, or by an unbounded amount.
    pub fn words(self) -> String {
        match self {
            Bound::Ulp(n) => format!("by ≤ {n} ulp"),
            Bound::AbsPow2(e) => format!("by ≤ 2^{e} absolute"),
            Bound::Unstated => "by an amount the vendor does not bound".to_string(),
        }
    }
}

/// A floating-point format a bound is counted in (the kernel's float scalar types; a separate
/// enum so that this module does not depend on the value types).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fmt {
    /// IEEE binary16 (`half`).
    F16,
    /// bfloat16.
    Bf16,
    /// IEEE binary32 (`float`).
    F32,
    /// IEEE binary64 (`double`).
    F64,
}

impl Fmt {
    /// `v` rounded to the format (nearest).
    fn round(self, v: f64) -> f64 {
        match self {
            Fmt::F16 => half::f16::from_f64(v).to_f64(),
            Fmt::Bf16 => half::bf16::from_f64(v).to_f64(),
            Fmt::F32 => f64::from(v as f32),
            Fmt::F64 => v,
        }
    }

    /// The position of representable `v` in the ordered sequence of the format's values (0 for
    /// both zeros; one apart for neighbours, across zero and binades alike: the distance in
    /// ulp the device comparisons count).
    fn key(self, v: f64) -> i64 {
        let (bits, sign): (u64, u64) = match self {
            Fmt::F16 => (u64::from(half::f16::from_f64(v).to_bits()), 1 << 15),
            Fmt::Bf16 => (u64::from(half::bf16::from_f64(v).to_bits()), 1 << 15),
            Fmt::F32 => (u64::from((v as f32).to_bits()), 1 << 31),
            Fmt::F64 => (v.to_bits(), 1 << 63),
        };
        let mag = (bits & (sign - 1)) as i64;
        if bits & sign != 0 {
            -mag
        } else {
            mag
        }
    }

    /// The value at position `k` ([`Fmt::key`]'s inverse).
    fn value(self, k: i64) -> f64 {
        let (mag, neg) = (k.unsigned_abs(), k < 0);
        match self {
            Fmt::F16 => {
                let b = mag as u16 | if neg { 1 << 15 } else { 0 };
                half::f16::from_bits(b).to_f64()
            }
            Fmt::Bf16 => {
                let b = mag as u16 | if neg { 1 << 15 } else { 0 };
                half::bf16::from_bits(b).to_f64()
            }
            Fmt::F32 => {
                let b = mag as u32 | if neg { 1 << 31 } else { 0 };
                f64::from(f32::from_bits(b))
            }
            Fmt::F64 => f64::from_bits(mag | if neg { 1 << 63 } else { 0 }),
        }
    }

    /// How many representable values lie between `x` (representable) and the farther of
    /// `x − err` and `x + err` (each rounded outward): the bound in ulps a comparison of
    /// the device's bits with the emulator's counts. `u32::MAX` for an unbounded or huge error.
    pub fn ulps(self, x: f64, err: f64) -> u32 {
        if err <= 0.0 {
            return 0;
        }
        if !err.is_finite() || !x.is_finite() {
            return u32::MAX;
        }
        let k = self.key(x);
        let (hi, lo) = (x + err, x - err);
        let (rh, rl) = (self.round(hi), self.round(lo));
        let up = self.key(rh) + i64::from(rh < hi);
        let down = self.key(rl) - i64::from(rl > lo);
        let n = (up - k).max(k - down);
        u32::try_from(n).unwrap_or(u32::MAX)
    }

    /// The absolute distance from representable `x` to its farther neighbour `n` positions
    /// away on either side (`n` ulp of a vendor's bound as an absolute error).
    fn span(self, x: f64, n: u32) -> f64 {
        if !x.is_finite() {
            // An infinity (or NaN) the device gets as well: no neighbour to count to.
            return 0.0;
        }
        let k = self.key(x);
        let n = i64::from(n);
        let d = (self.value(k + n) - x)
            .abs()
            .max((x - self.value(k - n)).abs());
        if d.is_nan() {
            f64::INFINITY
        } else {
            d
        }
    }
}

/// The accuracy note a value from an inexact math function carries: the function (an index
/// id, see [`super::mathlib::note_name`]), the bound its vendor documents for it, and the bound
/// propagated to this value through the operations since.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Approx {
    /// The function, as an id [`super::mathlib::note_name`] reads: the last inexact function
    /// on the value's history, or the one whose error dominates.
    pub function: u16,
    /// Operations applied since (0: the function's own result).
    pub ops: u16,
    /// The vendor's bound for that function's call (its own, not propagated).
    pub bound: Bound,
    /// How far the device's value may be from this one, absolute (value units, rounded up);
    /// `f32::INFINITY` when no bound holds (an unstated bound on the history, or an error
    /// grown without bound: a division by an interval that holds zero).
    pub err: f32,
    /// [`Approx::err`] in ulps of this value: the representable values between it and the
    /// farther end of its interval ([`Fmt::ulps`]); `u32::MAX` when unbounded.
    pub ulps: u32,
}

/// An `f64` error rounded up to an `f32` (never below it).
fn up32(e: f64) -> f32 {
    if e.is_nan() {
        return f32::INFINITY;
    }
    let r = e as f32;
    if f64::from(r) < e {
        f32::from_bits(r.to_bits() + 1)
    } else {
        r
    }
}

impl Approx {
    /// The note of inexact function `function`'s result `x` (in `fmt`) with its own bound
    /// `bound` and no error in its arguments.
    pub fn own(function: u16, bound: Bound, x: f64, fmt: Fmt) -> Approx {
        let err = own_err(bound, x, fmt);
        Approx {
            function,
            ops: 0,
            bound,
            err: up32(err),
            ulps: match bound {
                Bound::Ulp(n) => n,
                _ => fmt.ulps(x, err),
            },
        }
    }

    /// The ulp bound of this value ([`Approx::ulps`]), when it is bounded.
    pub fn ulp(self) -> Option<u32> {
        (self.err.is_finite() && self.ulps != u32::MAX).then_some(self.ulps)
    }

    /// The same note for the value `x` of format `fmt` (after a negation, a flush to zero, a
    /// conversion): the ulps recounted at `x` (a function's own ulp bound is kept as stated).
    pub fn at(self, x: f64, fmt: Fmt) -> Approx {
        let ulps = match self.bound {
            Bound::Ulp(n) if self.ops == 0 => n,
            _ => fmt.ulps(x, f64::from(self.err)),
        };
        Approx { ulps, ..self }
    }

    /// Of two notes, the one with the wider bound in ulps (then the wider absolute error;
    /// `self` on a tie).
    pub fn wider(self, other: Approx) -> Approx {
        if (other.ulps, other.err) > (self.ulps, self.err) {
            other
        } else {
            self
        }
    }

    /// The note of `value`, the result of `f` on `inputs` (each an operand's value and note)
    /// rounded to `fmt`, where `own` is `f`'s own documented bound (`None`: `f` is exact, an
    /// IEEE operation or a function the vendor defines exactly). `None` when neither `f` nor
    /// any operand is inexact.
    ///
    /// The error is the own bound (absolute, at the farther end of the result's interval),
    /// plus the largest `|f(corner) − value|` over the corners of the operands' intervals
    /// (`x ± err`; a function monotone on the interval takes its extremes there), plus one
    /// ulp of the result when any operand may be off (the device rounds a different exact
    /// result, which may land on the other neighbour).
    pub fn propagate(
        own: Option<(u16, Bound)>,
        inputs: &[(f64, Option<Approx>)],
        f: &dyn Fn(&[f64]) -> f64,
        value: f64,
        fmt: Fmt,
    ) -> Option<Approx> {
        let noted = inputs.iter().filter_map(|(_, a)| *a);
        let dominant = noted
            .clone()
            .reduce(|p, q| if q.err > p.err { q } else { p });
        let Some(dom) = dominant else {
            return own.map(|(function, bound)| Approx::own(function, bound, value, fmt));
        };
        let prop = corner_change(inputs, f, value);
        let far = value.abs() + prop;
        // No corner moved the result (0 · x, an infinity minus x): the device rounds the same
        // exact value; else it may round to the other neighbour.
        let round = if prop.is_finite() && prop > 0.0 {
            fmt.span(fmt.round(far), 1)
        } else {
            0.0
        };
        let own_abs = own.map_or(0.0, |(_, b)| own_err(b, fmt.round(far), fmt));
        let err = own_abs + prop + round;
        let ops = noted.map(|a| a.ops).max().unwrap_or(0).saturating_add(1);
        let (function, bound) = match own {
            // The function's own error dominates (or is unbounded itself): it names the note.
            Some((fun, b)) if own_abs >= prop || b == Bound::Unstated => (fun, b),
            _ => (dom.function, dom.bound),
        };
        if err == 0.0 {
            // Moved nowhere (an infinity minus an uncertain finite value): exact.
            return None;
        }
        let err = up32(err);
        Some(Approx {
            function,
            ops,
            bound,
            err,
            ulps: fmt.ulps(value, f64::from(err)),
        })
    }

    /// The note of `x` (in `fmt`), computed from a value with note `dominant` by an exact
    /// operation whose result may move by `change` over its operands' intervals: that change
    /// plus one ulp for the rounding ([`Approx::propagate`] where the operation is not one
    /// closure: the half-precision intrinsics evaluated at their arguments' corners).
    pub fn carried(dominant: Approx, change: f64, x: f64, fmt: Fmt) -> Approx {
        let round = if change.is_finite() {
            fmt.span(fmt.round(x.abs() + change), 1)
        } else {
            0.0
        };
        let err = up32(change + round);
        Approx {
            ops: dominant.ops.saturating_add(1),
            err,
            ulps: fmt.ulps(x, f64::from(err)),
            ..dominant
        }
    }

    /// This own note (a function's result) with the error of `old`, a note the same value
    /// had from arguments that were off (its whole error added: the own bound it held is
    /// counted twice, which only widens), recounted at `x`.
    pub fn plus_inherited(self, old: Approx, x: f64, fmt: Fmt) -> Approx {
        let err = up32(f64::from(self.err) + f64::from(old.err));
        Approx {
            ops: old.ops,
            err,
            ulps: fmt.ulps(x, f64::from(err)),
            ..self
        }
    }

    /// How far the device may be from this value, in words: `by ≤ 2 ulp`, `by ≤ 2^-21.41
    /// absolute (≤ 3 ulp here)`, `by ≤ 40 ulp`, or by an unbounded amount.
    pub fn words(self) -> String {
        if self.ops == 0 {
            return match self.bound {
                Bound::AbsPow2(_) if self.ulp().is_some() => {
                    format!("{} (≤ {} ulp here)", self.bound.words(), self.ulps)
                }
                b => b.words(),
            };
        }
        match self.ulp() {
            Some(n) => format!("by ≤ {n} ulp"),
            None if self.bound == Bound::Unstated => self.bound.words(),
            None => {
                "by an amount that cannot be bounded (the error grew without bound along the way)"
                    .to_string()
            }
        }
    }

    /// `, then 9 operations` when the value was computed from the function's result, else
    /// nothing.
    pub fn ops_words(self) -> String {
        match self.ops {
            0 => String::new(),
            1 => ", then 1 operation".to_string(),
            n => format!(", then {n} operations"),
        }
    }
}

/// The absolute error `bound` allows for the result `x` in `fmt`.
fn own_err(bound: Bound, x: f64, fmt: Fmt) -> f64 {
    match bound {
        Bound::Ulp(n) => fmt.span(x, n),
        Bound::AbsPow2(e) => 2f64.powf(f64::from(e)),
        Bound::Unstated => f64::INFINITY,
    }
}

/// The largest `|f(c) − value|` over the corners `c` of the inputs' intervals (an input with
/// no note is exact: one point); infinite when an input's error is, or when `f` gives a NaN
/// or an infinity at a corner where `value` is finite. An interval that holds zero is also
/// evaluated at zero. At most 2^4 corners: a fifth noted
/// input's interval is taken as its ends only when the others are at their values.
fn corner_change(inputs: &[(f64, Option<Approx>)], f: &dyn Fn(&[f64]) -> f64, value: f64) -> f64 {
    // On the stack for the usual one to four operands (every arithmetic operation).
    let n = inputs.len();
    if n <= 4 {
        let (mut errs, mut point) = ([0.0f64; 4], [0.0f64; 4]);
        corners_in(inputs, f, value, &mut errs[..n], &mut point[..n])
    } else {
        let (mut errs, mut point) = (vec![0.0f64; n], vec![0.0f64; n]);
        corners_in(inputs, f, value, &mut errs, &mut point)
    }
}

/// [`corner_change`] with its scratch rows (`errs`, `point`: one entry per input).
fn corners_in(
    inputs: &[(f64, Option<Approx>)],
    f: &dyn Fn(&[f64]) -> f64,
    value: f64,
    errs: &mut [f64],
    point: &mut [f64],
) -> f64 {
    for (e, (_, a)) in errs.iter_mut().zip(inputs) {
        *e = a.map_or(0.0, |a| f64::from(a.err));
    }
    if errs.iter().any(|e| !e.is_finite()) {
        return f64::INFINITY;
    }
    let reset = |p: &mut [f64]| {
        for (q, (x, _)) in p.iter_mut().zip(inputs) {
            *q = *x;
        }
    };
    reset(point);
    let mut worst = 0.0f64;
    let mut eval = |p: &[f64]| {
        let y = f(p);
        // The same value (an infinity that stays one: -∞ − x at every corner) moved nowhere.
        let d = if y == value { 0.0 } else { (y - value).abs() };
        let d = if d.is_nan() {
            if value.is_nan() && y.is_nan() {
                0.0
            } else {
                f64::INFINITY
            }
        } else {
            d
        };
        worst = worst.max(d);
    };
    let noted = || (0..inputs.len()).filter(|&i| errs[i] > 0.0);
    let corners = noted().count().min(4);
    for mask in 0u32..(1 << corners) {
        for (bit, i) in noted().take(corners).enumerate() {
            let sign = if mask & (1 << bit) != 0 { 1.0 } else { -1.0 };
            point[i] = inputs[i].0 + sign * errs[i];
        }
        eval(point);
    }
    for i in noted().skip(corners) {
        for sign in [-1.0, 1.0] {
            reset(point);
            point[i] += sign * errs[i];
            eval(point);
        }
    }
    // An interval that holds zero: the value there too (a pole, 1/x; an interior extreme,
    // x·x or cos x, which the ends alone miss).
    for i in noted() {
        if inputs[i].0.abs() <= errs[i] {
            reset(point);
            for z in [0.0, -0.0] {
                point[i] = z;
                eval(point);
            }
        }
    }
    worst
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exp_note(x: f64) -> Approx {
        Approx::own(7, Bound::Ulp(2), x, Fmt::F32)
    }

    /// A function's own ulp bound is kept as stated; in absolute terms it is n ulp of the
    /// result: expf(0) = 1 with 2 ulp is 2·2^-23 above 1 (below, 2 ulp of the lower binade
    /// would be only 2^-23: the farther side is the upper one).
    #[test]
    fn own_bound() {
        let a = exp_note(1.0);
        assert_eq!((a.ulps, a.ops), (2, 0));
        assert_eq!(f64::from(a.err), 2.0 * 2f64.powi(-23));
    }

    /// Cancellation: 1 (±2^-22, from the note above) − 0.9990234375 (exact, 1 − 2^-10) is
    /// 2^-10 = 0.0009765625, whose ulp is 2^-33. The interval gives ±2^-22 unchanged, plus one
    /// ulp of the result for the rounding: 2^-22 + 2^-33 = 2^11 + 1 ulp of 2^-10 = 2049 ulp
    /// above; below, the lower binade's ulp is 2^-34, so 2^-22/2^-34 + 2 = 4098 positions.
    #[test]
    fn cancellation_widens_the_bound() {
        let x = 1.0 - 2f64.powi(-10);
        let r = Approx::propagate(
            None,
            &[(1.0, Some(exp_note(1.0))), (x, None)],
            &|p| p[0] - p[1],
            2f64.powi(-10),
            Fmt::F32,
        )
        .unwrap();
        assert_eq!(f64::from(r.err), 2f64.powi(-22) + 2f64.powi(-33));
        assert_eq!((r.ops, r.function, r.bound), (1, 7, Bound::Ulp(2)));
        // Up: (2^-22 + 2^-33) / 2^-33 = 2049. Down: from 2^-10 the values are 2^-34 apart:
        // (2^-22 + 2^-33) / 2^-34 = 4098.
        assert_eq!(r.ulps, 4098);
    }

    /// No inexact operand and an exact operation: no note at all.
    #[test]
    fn exact_stays_exact() {
        let r = Approx::propagate(
            None,
            &[(1.0, None), (2.0, None)],
            &|p| p[0] + p[1],
            3.0,
            Fmt::F32,
        );
        assert_eq!(r, None);
    }

    /// Division by an interval that holds zero: no bound; an unstated input stays unstated.
    #[test]
    fn unbounded() {
        let small = Approx::own(7, Bound::AbsPow2(-2.0), 0.125, Fmt::F32);
        let q = Approx::propagate(
            None,
            &[(1.0, None), (0.125, Some(small))],
            &|p| p[0] / p[1],
            8.0,
            Fmt::F32,
        )
        .unwrap();
        assert_eq!(q.ulp(), None);
        let un = Approx::own(3, Bound::Unstated, 1.0, Fmt::F32);
        let s =
            Approx::propagate(None, &[(1.0, Some(un))], &|p| p[0] * 2.0, 2.0, Fmt::F32).unwrap();
        assert_eq!((s.ulp(), s.bound), (None, Bound::Unstated));
    }

    /// A function of a noted value: its own bound plus the input's error carried through it.
    /// exp(x) at x = 0 with x off by 2^-20: e^(2^-20) − 1 ≈ 2^-20 (9.5367e-7), plus expf's
    /// own 2 ulp of ≈1 (≤ 2^-22) plus one ulp for the rounding (≤ 2^-23): under 2^-20 + 2^-21.
    #[test]
    fn through_a_function() {
        let x = Approx::own(1, Bound::AbsPow2(-20.0), 0.0, Fmt::F32);
        let r = Approx::propagate(
            Some((7, Bound::Ulp(2))),
            &[(0.0, Some(x))],
            &|p| p[0].exp(),
            1.0,
            Fmt::F32,
        )
        .unwrap();
        let e = f64::from(r.err);
        assert!(
            e > 2f64.powi(-20) && e < 2f64.powi(-20) + 2f64.powi(-21),
            "{e}"
        );
        // The input's error (≈2^-20) is larger than expf's own (≈2^-22): the input names it.
        assert_eq!((r.function, r.ops), (1, 1));
    }

    /// Counting across binades and zero, as the device comparisons count ulps.
    #[test]
    fn ulps_count() {
        assert_eq!(Fmt::F32.ulps(1.0, 2f64.powi(-23)), 2);
        assert_eq!(Fmt::F32.ulps(0.0, 2f64.powi(-148)), 2);
        assert_eq!(Fmt::F16.ulps(1.0, 2f64.powi(-10)), 2);
        assert_eq!(Fmt::F32.ulps(1.0, f64::INFINITY), u32::MAX);
    }
}
