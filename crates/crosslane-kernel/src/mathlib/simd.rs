//! The SIMD video intrinsics of the CUDA Math API ("SIMD Intrinsics"): an `unsigned int` read
//! as two 16-bit halfwords (the names ending in `2`) or four bytes (ending in `4`), an
//! operation applied to each pair of corresponding fields, and the fields packed back into an
//! `unsigned int` (or, for the `__vsads`/`__vsadu` sums, added into one). HIP's device headers
//! declare the same names with the same definitions, so the functions answer in HIP sources
//! too.
//!
//! One table (`OPS`) names each operation's stem (`add`, `cmpgtu`, …) and its lane rule; a
//! name is the stem between `__v` and the width digit. The rules, per field, from the CUDA Math
//! API's descriptions (`s` reads the field as two's-complement signed, `u` as unsigned; a
//! "saturated" result is clamped to the field's range, any other wraps modulo 2^width):
//!
//! - `abs`: |a| (the most negative value stays itself); `absss`: |a| saturated;
//!   `absdiffs`/`absdiffu`: |a − b| (signed / unsigned fields, the result unsigned).
//! - `add`, `sub`, `neg`: wrapping; `addss`, `subss`, `negss`: signed saturation; `addus`,
//!   `subus`: unsigned saturation.
//! - `avgu`: (a + b + 1) >> 1 unsigned; `avgs`: signed rounded average, `(a + b) >> 1` when
//!   `a + b < 0` else `(a + b + 1) >> 1` (halves round away from zero; PTX `vavrg2`/`vavrg4`);
//!   `haddu`: (a + b) >> 1 unsigned (truncating).
//! - `maxs`, `maxu`, `mins`, `minu`: the larger or smaller field.
//! - `cmp<p>`: all ones in the field where predicate `p` holds, else 0; `set<p>`: 1 where it
//!   holds, else 0. `p` is `eq`, `ne`, or `ge`/`gt`/`le`/`lt` with `s` (signed) or `u`.
//! - `sads`, `sadu`: the sum over the fields of |a − b| (signed / unsigned fields), one
//!   `unsigned int`.
//!
//! The newer `__viaddmax_s32`-style functions (CUDA 12) are not among these names.

use crate::types::{KVal, Scalar};

/// How a pair of fields combines.
#[derive(Clone, Copy)]
enum Rule {
    Abs,
    AbsSat,
    AbsDiff(bool),
    Add,
    AddSat(bool),
    Sub,
    SubSat(bool),
    Neg,
    NegSat,
    AvgS,
    AvgU,
    HaddU,
    Max(bool),
    Min(bool),
    /// The comparison; `true` for the all-ones (`cmp`) form, `false` for 1 (`set`).
    Cmp(Pred, bool),
    /// Sum of absolute differences over the fields.
    Sad(bool),
}

/// A comparison, with the signedness of the fields where it matters.
#[derive(Clone, Copy)]
enum Pred {
    Eq,
    Ne,
    Ge(bool),
    Gt(bool),
    Le(bool),
    Lt(bool),
}

/// Each stem and its rule (`true` = signed fields).
const OPS: &[(&str, Rule)] = &[
    ("abs", Rule::Abs),
    ("absss", Rule::AbsSat),
    ("absdiffs", Rule::AbsDiff(true)),
    ("absdiffu", Rule::AbsDiff(false)),
    ("add", Rule::Add),
    ("addss", Rule::AddSat(true)),
    ("addus", Rule::AddSat(false)),
    ("sub", Rule::Sub),
    ("subss", Rule::SubSat(true)),
    ("subus", Rule::SubSat(false)),
    ("neg", Rule::Neg),
    ("negss", Rule::NegSat),
    ("avgs", Rule::AvgS),
    ("avgu", Rule::AvgU),
    ("haddu", Rule::HaddU),
    ("maxs", Rule::Max(true)),
    ("maxu", Rule::Max(false)),
    ("mins", Rule::Min(true)),
    ("minu", Rule::Min(false)),
    ("cmpeq", Rule::Cmp(Pred::Eq, true)),
    ("cmpne", Rule::Cmp(Pred::Ne, true)),
    ("cmpges", Rule::Cmp(Pred::Ge(true), true)),
    ("cmpgeu", Rule::Cmp(Pred::Ge(false), true)),
    ("cmpgts", Rule::Cmp(Pred::Gt(true), true)),
    ("cmpgtu", Rule::Cmp(Pred::Gt(false), true)),
    ("cmples", Rule::Cmp(Pred::Le(true), true)),
    ("cmpleu", Rule::Cmp(Pred::Le(false), true)),
    ("cmplts", Rule::Cmp(Pred::Lt(true), true)),
    ("cmpltu", Rule::Cmp(Pred::Lt(false), true)),
    ("seteq", Rule::Cmp(Pred::Eq, false)),
    ("setne", Rule::Cmp(Pred::Ne, false)),
    ("setges", Rule::Cmp(Pred::Ge(true), false)),
    ("setgeu", Rule::Cmp(Pred::Ge(false), false)),
    ("setgts", Rule::Cmp(Pred::Gt(true), false)),
    ("setgtu", Rule::Cmp(Pred::Gt(false), false)),
    ("setles", Rule::Cmp(Pred::Le(true), false)),
    ("setleu", Rule::Cmp(Pred::Le(false), false)),
    ("setlts", Rule::Cmp(Pred::Lt(true), false)),
    ("setltu", Rule::Cmp(Pred::Lt(false), false)),
    ("sads", Rule::Sad(true)),
    ("sadu", Rule::Sad(false)),
];

/// The rule and field width in bits of `name`, if it is one of these intrinsics.
fn parse(name: &str) -> Option<(Rule, u32)> {
    let rest = name.strip_prefix("__v")?;
    let (stem, bits) = if let Some(s) = rest.strip_suffix('2') {
        (s, 16)
    } else {
        (rest.strip_suffix('4')?, 8)
    };
    OPS.iter()
        .find(|(n, _)| *n == stem)
        .map(|(_, r)| (*r, bits))
}

/// Whether `name` is one of the SIMD intrinsics.
pub fn is_simd(name: &str) -> bool {
    parse(name).is_some()
}

/// The number of arguments `name` takes (1 for the `abs` and `neg` forms, else 2), if it is
/// one of these intrinsics: a call with another count is refused before the run.
pub fn arity(name: &str) -> Option<usize> {
    parse(name).map(|(rule, _)| if unary(rule) { 1 } else { 2 })
}

/// Whether the rule reads one argument (`abs`, `neg` forms) rather than two.
fn unary(rule: Rule) -> bool {
    matches!(rule, Rule::Abs | Rule::AbsSat | Rule::Neg | Rule::NegSat)
}

/// Runs `name` on one lane's arguments, or `None` when it is not one of these intrinsics.
/// The result is an `unsigned int`.
///
/// # Errors
/// Too few arguments, or one that is not an integer.
pub fn call(name: &str, args: &[KVal]) -> Option<Result<KVal, String>> {
    let (rule, bits) = parse(name)?;
    let want = if unary(rule) { 1 } else { 2 };
    let mut v = [0u32; 2];
    for (k, slot) in v.iter_mut().enumerate().take(want) {
        match args.get(k).and_then(KVal::as_int) {
            Some(n) => *slot = n as u32,
            None => {
                return Some(Err(format!(
                    "`{name}` takes {want} unsigned int argument(s); argument {} is {}",
                    k + 1,
                    if args.len() <= k {
                        "missing"
                    } else {
                        "not an integer"
                    }
                )))
            }
        }
    }
    Some(Ok(KVal::int(
        Scalar::U32,
        i128::from(apply(rule, bits, v[0], v[1])),
    )))
}

/// The packed result of `rule` over fields of `bits` bits of `a` and `b`.
fn apply(rule: Rule, bits: u32, a: u32, b: u32) -> u32 {
    let mask = (1u32 << bits) - 1;
    let field = |w: u32, k: u32| (w >> (k * bits)) & mask;
    let fields = 32 / bits;
    if let Rule::Sad(signed) = rule {
        return (0..fields)
            .map(|k| {
                let (x, y) = (
                    read(field(a, k), bits, signed),
                    read(field(b, k), bits, signed),
                );
                (x - y).unsigned_abs() as u32
            })
            .sum();
    }
    (0..fields).fold(0, |r, k| {
        r | ((lane(rule, bits, field(a, k), field(b, k)) & mask) << (k * bits))
    })
}

/// Field `f` of `bits` bits as a number, two's-complement when `signed`.
fn read(f: u32, bits: u32, signed: bool) -> i64 {
    if signed && f >> (bits - 1) == 1 {
        i64::from(f) - (1i64 << bits)
    } else {
        i64::from(f)
    }
}

/// One field's result (only its low `bits` bits are kept).
fn lane(rule: Rule, bits: u32, a: u32, b: u32) -> u32 {
    let (smin, smax) = (-(1i64 << (bits - 1)), (1i64 << (bits - 1)) - 1);
    let umax = (1i64 << bits) - 1;
    let s = |f| read(f, bits, true);
    let u = |f| read(f, bits, false);
    let by = |signed: bool, f| read(f, bits, signed);
    let r: i64 = match rule {
        Rule::Abs => s(a).abs(),
        Rule::AbsSat => s(a).abs().min(smax),
        Rule::AbsDiff(signed) => (by(signed, a) - by(signed, b)).abs(),
        Rule::Add => u(a) + u(b),
        Rule::AddSat(true) => (s(a) + s(b)).clamp(smin, smax),
        Rule::AddSat(false) => (u(a) + u(b)).min(umax),
        Rule::Sub => u(a) - u(b),
        Rule::SubSat(true) => (s(a) - s(b)).clamp(smin, smax),
        Rule::SubSat(false) => (u(a) - u(b)).max(0),
        Rule::Neg => -s(a),
        Rule::NegSat => (-s(a)).min(smax),
        Rule::AvgS => {
            let t = s(a) + s(b);
            if t < 0 {
                t >> 1
            } else {
                (t + 1) >> 1
            }
        }
        Rule::AvgU => (u(a) + u(b) + 1) >> 1,
        Rule::HaddU => (u(a) + u(b)) >> 1,
        Rule::Max(signed) => by(signed, a).max(by(signed, b)),
        Rule::Min(signed) => by(signed, a).min(by(signed, b)),
        Rule::Cmp(p, all_ones) => {
            let holds = match p {
                Pred::Eq => a == b,
                Pred::Ne => a != b,
                Pred::Ge(sg) => by(sg, a) >= by(sg, b),
                Pred::Gt(sg) => by(sg, a) > by(sg, b),
                Pred::Le(sg) => by(sg, a) <= by(sg, b),
                Pred::Lt(sg) => by(sg, a) < by(sg, b),
            };
            match (holds, all_ones) {
                (false, _) => 0,
                (true, true) => umax,
                (true, false) => 1,
            }
        }
        // The sums are formed over all fields by `apply`, never per field.
        Rule::Sad(_) => 0,
    };
    r as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(name: &str, args: &[u32]) -> u32 {
        let a: Vec<KVal> = args
            .iter()
            .map(|&n| KVal::int(Scalar::U32, i128::from(n)))
            .collect();
        call(name, &a).unwrap().unwrap().as_int().unwrap() as u32
    }

    #[test]
    fn every_listed_name_is_known() {
        // The CUDA Math API's "SIMD Intrinsics" list: each stem in both widths.
        for (stem, _) in OPS {
            for w in ["2", "4"] {
                assert!(is_simd(&format!("__v{stem}{w}")), "{stem}{w}");
            }
        }
        assert!(!is_simd("__vadd3") && !is_simd("__vfoo2") && !is_simd("__v2"));
    }

    #[test]
    fn values_worked_by_hand() {
        // Bytes low first: a = 0x7F, 0x80, 0x01, 0xFF (127, −128, 1, −1 signed);
        // b = 0x01, 0x01, 0xFF, 0xFF (1, 1, −1 / 255, −1 / 255).
        let (a, b) = (0xFF01_807F_u32, 0xFFFF_0101_u32);
        // Wrapping sums: 0x80, 0x81, 0x00, 0xFE.
        assert_eq!(go("__vadd4", &[a, b]), 0xFE00_8180);
        // Signed saturation: 127+1 → 127, −128+1 = −127 (0x81), 1−1 = 0, −1−1 = −2 (0xFE).
        assert_eq!(go("__vaddss4", &[a, b]), 0xFE00_817F);
        // Unsigned saturation: 128, 129, 1+255 → 255, 255+255 → 255.
        assert_eq!(go("__vaddus4", &[a, b]), 0xFFFF_8180);
        // Unsigned saturating difference: 126, 127, 1−255 → 0, 0.
        assert_eq!(go("__vsubus4", &[a, b]), 0x0000_7F7E);
        // Signed saturating difference: 126, −129 → −128 (0x80), 1−(−1) = 2, 0.
        assert_eq!(go("__vsubss4", &[a, b]), 0x0002_807E);
        // |a| wraps −128 to itself, saturates it to 127: 127, 0x80 / 0x7F, 1, 1.
        assert_eq!(go("__vabs4", &[a]), 0x0101_807F);
        assert_eq!(go("__vabsss4", &[a]), 0x0101_7F7F);
        // Negation: −127 = 0x81, −(−128) wraps to 0x80 / saturates to 0x7F, −1, 1.
        assert_eq!(go("__vneg4", &[a]), 0x01FF_8081);
        assert_eq!(go("__vnegss4", &[a]), 0x01FF_7F81);
        // Signed rounded average: (127+1+1)>>1 = 64; −127 < 0: −127>>1 = −64 (0xC0);
        // 0 → (0+1)>>1 = 0; −2 → −1 (0xFF).
        assert_eq!(go("__vavgs4", &[a, b]), 0xFF00_C040);
        // Unsigned: (128+1)>>1 = 64, (129+1)>>1 = 65, (256+1)>>1 = 128, (510+1)>>1 = 255;
        // truncating halving add: 64, 64, 128, 255.
        assert_eq!(go("__vavgu4", &[a, b]), 0xFF80_4140);
        assert_eq!(go("__vhaddu4", &[a, b]), 0xFF80_4040);
        // Comparisons: signed a > b in field 0 (127 > 1) and 2 (1 > −1); unsigned in field
        // 0 (127 > 1) and 1 (128 > 1); equal in field 3.
        assert_eq!(go("__vcmpgts4", &[a, b]), 0x00FF_00FF);
        assert_eq!(go("__vcmpgtu4", &[a, b]), 0x0000_FFFF);
        assert_eq!(go("__vseteq4", &[a, b]), 0x0100_0000);
        assert_eq!(go("__vsetles4", &[a, b]), 0x0100_0100);
        // Max / min signed: 127, 1, 1, −1; unsigned: 127, 128, 255, 255.
        assert_eq!(go("__vmaxs4", &[a, b]), 0xFF01_017F);
        assert_eq!(go("__vmaxu4", &[a, b]), 0xFFFF_807F);
        assert_eq!(go("__vmins4", &[a, b]), 0xFFFF_8001);
        // Sums of |a − b|: signed 126 + 129 + 2 + 0 = 257; unsigned 126 + 127 + 254 + 0 = 507.
        assert_eq!(go("__vsads4", &[a, b]), 257);
        assert_eq!(go("__vsadu4", &[a, b]), 507);
        // |a − b| per field, signed: 126, 129 (0x81), 2, 0; unsigned: 126, 127, 254, 0.
        assert_eq!(go("__vabsdiffs4", &[a, b]), 0x0002_817E);
        assert_eq!(go("__vabsdiffu4", &[a, b]), 0x00FE_7F7E);
    }

    #[test]
    fn halfwords_worked_by_hand() {
        // Halfwords low first: a = 0x7FFF (32767), 0x8000 (−32768 / 32768);
        // b = 0x0002, 0xFFFF (−1 / 65535).
        let (a, b) = (0x8000_7FFF_u32, 0xFFFF_0002_u32);
        // Wrapping: 0x8001, 0x7FFF; signed saturation: 32767, −32769 → −32768.
        assert_eq!(go("__vadd2", &[a, b]), 0x7FFF_8001);
        assert_eq!(go("__vaddss2", &[a, b]), 0x8000_7FFF);
        // Wrapping difference: 0x7FFD, 0x8000 − 0xFFFF = 0x8001; unsigned saturated: 32765, 0.
        assert_eq!(go("__vsub2", &[a, b]), 0x8001_7FFD);
        assert_eq!(go("__vsubus2", &[a, b]), 0x0000_7FFD);
        // Signed 32767 > 2 and −32768 < −1; unsigned 32767 > 2, 32768 < 65535.
        assert_eq!(go("__vcmpgts2", &[a, b]), 0x0000_FFFF);
        assert_eq!(go("__vsetltu2", &[a, b]), 0x0001_0000);
        assert_eq!(go("__vcmpne2", &[a, b]), 0xFFFF_FFFF);
        // Signed average: 32769 ≥ 0 → (32769+1)>>1 = 16385 (0x4001); −32769 < 0 → −16385
        // (0xBFFF).
        assert_eq!(go("__vavgs2", &[a, b]), 0xBFFF_4001);
        // Sum of |a − b| signed: 32765 + 32767 = 65532.
        assert_eq!(go("__vsads2", &[a, b]), 65532);
    }
}
