//! The reduced-precision intrinsics of `cuda_fp16.h` / `cuda_bf16.h` and their HIP counterparts
//! (`hip_fp16.h`, `hip_bf16.h`, which use the same names): arithmetic, comparison, conversion and
//! data movement on `__half`, `__half2`, `__nv_bfloat16` and `__nv_bfloat162`.
//!
//! Sources: CUDA Math API reference, "Half Precision Intrinsics" (Half Arithmetic Functions,
//! Half2 Arithmetic Functions, Half Comparison Functions, Half2 Comparison Functions, Half
//! Precision Conversion and Data Movement) and "Bfloat16 Precision Intrinsics" (the same groups
//! for `__nv_bfloat16`); HIP's `hip_fp16.h` / `hip_bf16.h` declare the same functions with the
//! same semantics (HIP Runtime API reference, "Half precision intrinsics", "Bfloat16 precision
//! intrinsics").
//!
//! Every arithmetic intrinsic here is documented as round-to-nearest-even: the result is the
//! exact one rounded once to the 16-bit type. Sums, products and quotients of two 16-bit values
//! are computed in `f64`, whose 53 bits hold every exact sum and product of two `half`
//! (11-bit) or `bfloat16` (8-bit) significands, and round correctly for the quotient (53 ≥
//! 2·11 + 2, the double-rounding bound of Figueroa, "When is double rounding innocuous?",
//! 1995). A fused multiply-add rounds `a·b + c` once: the product is exact in `f64`, the sum is
//! rounded to odd in `f64` (TwoSum plus a sticky bit), then to the 16-bit type — innocuous for
//! the same reason (Boldo & Melquiond, "Emulation of FMA and correctly rounded sums: proved
//! algorithms using rounding to odd", 2008). The `half` crate does the final rounding.

use half::{bf16, f16};

use super::types::{round16, KVal, Scalar, ValTy};

/// The reduced-precision intrinsics this module runs (see [`call`]).
pub const INTRINSICS: &[&str] = &[
    // Half / bfloat16 arithmetic (one overload set per type in the vendor headers).
    "__hadd",
    "__hsub",
    "__hmul",
    "__hdiv",
    "__hfma",
    "__hneg",
    "__habs",
    "__hmax",
    "__hmin",
    "__hmax_nan",
    "__hmin_nan",
    // Half2 / bfloat162 arithmetic.
    "__hadd2",
    "__hsub2",
    "__hmul2",
    "__h2div",
    "__hfma2",
    "__hneg2",
    "__habs2",
    "__hmax2",
    "__hmin2",
    "__hmax2_nan",
    "__hmin2_nan",
    // Saturating arithmetic: the rounded result clamped to [0.0, 1.0].
    "__hadd_sat",
    "__hsub_sat",
    "__hmul_sat",
    "__hfma_sat",
    "__hadd2_sat",
    "__hsub2_sat",
    "__hmul2_sat",
    "__hfma2_sat",
    // Comparisons.
    "__heq",
    "__hne",
    "__hlt",
    "__hle",
    "__hgt",
    "__hge",
    "__hequ",
    "__hneu",
    "__hltu",
    "__hleu",
    "__hgtu",
    "__hgeu",
    "__hisnan",
    "__hisinf",
    "__heq2",
    "__hne2",
    "__hlt2",
    "__hle2",
    "__hgt2",
    "__hge2",
    "__hbeq2",
    "__hbne2",
    "__hblt2",
    "__hble2",
    "__hbgt2",
    "__hbge2",
    // Conversion and data movement.
    "__float2half_rz",
    "__float2half_rd",
    "__float2half_ru",
    "__float2bfloat16_rz",
    "__float2bfloat16_rd",
    "__float2bfloat16_ru",
    "__double2half",
    "__double2bfloat16",
    "__float2half2_rn",
    "__floats2half2_rn",
    "__float22half2_rn",
    "__half22float2",
    "__low2half",
    "__high2half",
    "__low2float",
    "__high2float",
    "__halves2half2",
    "__half2half2",
    "__low2half2",
    "__high2half2",
    "__lows2half2",
    "__highs2half2",
    "__lowhigh2highlow",
    "make_half2",
    "__int2half_rn",
    "__half2int_rn",
    "__half2int_rz",
    "__half_as_ushort",
    "__half_as_short",
    "__ushort_as_half",
    "__short_as_half",
    "__float2bfloat162_rn",
    "__floats2bfloat162_rn",
    "__float22bfloat162_rn",
    "__bfloat1622float2",
    "__low2bfloat16",
    "__high2bfloat16",
    "__halves2bfloat162",
    "__bfloat162bfloat162",
    "__lows2bfloat162",
    "__highs2bfloat162",
    "make_bfloat162",
    "__bfloat16_as_ushort",
    "__bfloat16_as_short",
    "__ushort_as_bfloat16",
    "__short_as_bfloat16",
];

/// Whether `name` is one of [`INTRINSICS`].
pub fn is_intrinsic(name: &str) -> bool {
    INTRINSICS.contains(&name)
}

/// Whether [`result_type`] knows `name`: one of [`INTRINSICS`], the half math functions, or
/// the float ↔ half / bfloat16 conversions run with the other per-lane built-ins.
pub fn types_result(name: &str) -> bool {
    is_intrinsic(name)
        || crate::mathlib::half_fns::is_half_fn(name)
        || matches!(
            name,
            "__float2half"
                | "__float2half_rn"
                | "__half2float"
                | "__float2bfloat16"
                | "__float2bfloat16_rn"
                | "__bfloat162float"
        )
}

/// The type a reduced-precision intrinsic gives for arguments of types `args` (`None` where the
/// parser cannot tell one), as `cuda_fp16.h` / `cuda_bf16.h` declare it (CUDA Math API, "Half
/// Precision Intrinsics" and "Bfloat16 Precision Intrinsics"): a conversion its destination type
/// (`__float2half` → `__half`, `__floats2half2_rn` → `__half2`, `__half2float` → `float`),
/// arithmetic and the `…2` comparisons their operands' type (each is overloaded for `__half`
/// and `__nv_bfloat16`, or their pairs), the scalar and `__hb…2` comparisons and `__hisnan`
/// `bool`, `__hisinf` `int`; the half math functions (`hsqrt`, `h2exp`, …) their argument's
/// type. What a lambda's or `auto` variable's type is deduced from ([dcl.spec.auto]).
/// `None` for another name, or an overloaded one whose operand types are unknown.
pub fn result_type(name: &str, args: &[Option<ValTy>]) -> Option<ValTy> {
    let one = |s: Scalar| Some(ValTy::scalar(s));
    let two = |s: Scalar| {
        Some(ValTy {
            scalar: s,
            lanes: 2,
        })
    };
    let operand = || args.iter().flatten().next().copied();
    match name {
        "__float2half" | "__float2half_rn" | "__float2half_rz" | "__float2half_rd"
        | "__float2half_ru" | "__double2half" | "__int2half_rn" | "__ushort_as_half"
        | "__short_as_half" | "__low2half" | "__high2half" => one(Scalar::F16),
        "__float2bfloat16"
        | "__float2bfloat16_rn"
        | "__float2bfloat16_rz"
        | "__float2bfloat16_rd"
        | "__float2bfloat16_ru"
        | "__double2bfloat16"
        | "__ushort_as_bfloat16"
        | "__short_as_bfloat16"
        | "__low2bfloat16"
        | "__high2bfloat16" => one(Scalar::Bf16),
        "__half2float" | "__bfloat162float" | "__low2float" | "__high2float" => one(Scalar::F32),
        "__float2half2_rn" | "__floats2half2_rn" | "__float22half2_rn" | "make_half2"
        | "__halves2half2" | "__half2half2" | "__lows2half2" | "__highs2half2" => two(Scalar::F16),
        "__float2bfloat162_rn"
        | "__floats2bfloat162_rn"
        | "__float22bfloat162_rn"
        | "make_bfloat162"
        | "__halves2bfloat162"
        | "__bfloat162bfloat162"
        | "__lows2bfloat162"
        | "__highs2bfloat162" => two(Scalar::Bf16),
        "__half22float2" | "__bfloat1622float2" => two(Scalar::F32),
        "__half2int_rn" | "__half2int_rz" | "__hisinf" => one(Scalar::I32),
        "__half_as_ushort" | "__bfloat16_as_ushort" => one(Scalar::U16),
        "__half_as_short" | "__bfloat16_as_short" => one(Scalar::I16),
        "__heq" | "__hne" | "__hlt" | "__hle" | "__hgt" | "__hge" | "__hequ" | "__hneu"
        | "__hltu" | "__hleu" | "__hgtu" | "__hgeu" | "__hisnan" | "__hbeq2" | "__hbne2"
        | "__hblt2" | "__hble2" | "__hbgt2" | "__hbge2" => one(Scalar::Bool),
        n if is_intrinsic(n) || crate::mathlib::half_fns::is_half_fn(n) => {
            operand().filter(|v| matches!(v.scalar, Scalar::F16 | Scalar::Bf16))
        }
        _ => None,
    }
}

fn h(ty: Scalar, x: f64) -> KVal {
    KVal::Float {
        ty,
        x: round16(ty, x),
        approx: None,
    }
}

fn pair(ty: Scalar, a: f64, b: f64) -> KVal {
    KVal::Vector {
        ty,
        items: vec![h(ty, a), h(ty, b)],
    }
}

/// `a·b + c` rounded once to `ty`: the product is exact in `f64` (at most 22 significant
/// bits), the sum is rounded to odd in `f64`, then to nearest even in `ty` (module doc).
pub fn fma16(ty: Scalar, a: f64, b: f64, c: f64) -> f64 {
    let p = a * b;
    let s = p + c;
    if !s.is_finite() {
        return round16(ty, s);
    }
    // TwoSum (Knuth): the exact error of `s`.
    let bp = s - c;
    let ap = s - bp;
    let err = (p - ap) + (c - bp);
    let odd = if err != 0.0 && s.to_bits() & 1 == 0 {
        // Round to odd: step one ulp toward the exact value.
        let bits = s.to_bits();
        let toward_zero = (err > 0.0) != (s > 0.0);
        if s == 0.0 {
            // An exact zero sum with an error cannot happen (TwoSum of a zero is exact).
            s
        } else if toward_zero {
            f64::from_bits(bits - 1)
        } else {
            f64::from_bits(bits + 1)
        }
    } else {
        s
    };
    round16(ty, odd)
}

/// The type and components of a 16-bit float argument, or why it is not one.
fn float16(name: &str, v: &KVal) -> Result<(Scalar, Vec<f64>), String> {
    let ty = v.val_ty().scalar;
    if !matches!(ty, Scalar::F16 | Scalar::Bf16) {
        return Err(format!(
            "`{name}` takes __half, __half2, __nv_bfloat16 or __nv_bfloat162 arguments, got {} \
             (convert with __float2half / __float2bfloat16 first)",
            v.val_ty().name()
        ));
    }
    let xs = match v {
        KVal::Vector { items, .. } => items.iter().filter_map(KVal::as_f64).collect(),
        other => vec![other.as_f64().unwrap_or(f64::NAN)],
    };
    Ok((ty, xs))
}

/// A float argument as C passes it to a `float` parameter (converted to `float` first).
fn as_float(name: &str, v: &KVal) -> Result<f64, String> {
    v.convert(ValTy::scalar(Scalar::F32))
        .map_err(|f| format!("`{name}`: {}", f.message))?
        .as_f64()
        .ok_or_else(|| format!("`{name}` needs a number"))
}

/// The two floats of a `float2` argument.
fn float2(name: &str, v: &KVal) -> Result<(f64, f64), String> {
    match v {
        KVal::Vector { items, .. } if items.len() == 2 => {
            Ok((as_float(name, &items[0])?, as_float(name, &items[1])?))
        }
        _ => Err(format!(
            "`{name}` takes a float2, got {}",
            v.val_ty().name()
        )),
    }
}

/// maximum / minimum as `__hmax` / `__hmin` define them: a NaN operand yields the other
/// operand; two NaNs a NaN; +0 is taken as greater than -0.
fn max_min(max: bool, nan_propagates: bool, a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        if nan_propagates || (a.is_nan() && b.is_nan()) {
            return f64::NAN;
        }
        return if a.is_nan() { b } else { a };
    }
    if a == b && a == 0.0 {
        let pos = if a.is_sign_positive() { a } else { b };
        let neg = if a.is_sign_negative() { a } else { b };
        return if max { pos } else { neg };
    }
    if (a > b) == max {
        a
    } else {
        b
    }
}

/// A rounded result saturated as the `_sat` intrinsics do ("with saturation to [0.0, 1.0]",
/// CUDA Math API, Half Arithmetic Functions): clamped to [+0.0, 1.0], a NaN to +0.0 (PTX ISA,
/// `add` / `mul` / `fma` on `.f16`: `.sat` "clamps the result to [0.0, 1.0]. NaN results are
/// flushed to +0.0f"). Clamping after the rounding is the same as before it: 0 and 1 are
/// 16-bit values and rounding is monotonic.
fn saturate(x: f64) -> f64 {
    if x.is_nan() || x <= 0.0 {
        0.0
    } else {
        x.min(1.0)
    }
}

/// An ordered (`u == false`: false when either is NaN) or unordered (true when either is NaN)
/// comparison.
fn compare(op: &str, unordered: bool, a: f64, b: f64) -> bool {
    if a.is_nan() || b.is_nan() {
        return unordered;
    }
    match op {
        "eq" => a == b,
        "ne" => a != b,
        "lt" => a < b,
        "le" => a <= b,
        "gt" => a > b,
        _ => a >= b,
    }
}

/// Conversion of a float to a 16-bit type with a directed rounding (`_rz`, `_rd`, `_ru`): the
/// nearest-even result, stepped one unit toward the rounding direction when it lies on the
/// wrong side of the exact value.
fn directed(ty: Scalar, x: f64, mode: &str) -> f64 {
    // The bits of the nearest-even value, and the value of a bit pattern, in `ty`.
    let bits = match ty {
        Scalar::Bf16 => bf16::from_f64(round16(ty, x)).to_bits(),
        _ => f16::from_f64(round16(ty, x)).to_bits(),
    };
    let value = |b: u16| match ty {
        Scalar::Bf16 => bf16::from_bits(b).to_f64(),
        _ => f16::from_bits(b).to_f64(),
    };
    let r = value(bits);
    if r == x || x.is_nan() {
        return r;
    }
    let step = |up: bool| {
        let positive = bits & 0x8000 == 0;
        let next = if up == positive {
            bits.wrapping_add(1)
        } else if bits & 0x7fff == 0 {
            // From a zero toward the other sign: the smallest subnormal of that sign.
            if up {
                0x0001
            } else {
                0x8001
            }
        } else {
            bits.wrapping_sub(1)
        };
        value(next)
    };
    match mode {
        "rz" if r.abs() > x.abs() => step(r < 0.0),
        "rd" if r > x => step(false),
        "ru" if r < x => step(true),
        _ => r,
    }
}

/// Runs a reduced-precision intrinsic on one lane's arguments; `None` when `name` is not one
/// of [`INTRINSICS`].
///
/// # Errors
/// A message naming the function when an argument has the wrong type or count.
pub fn call(name: &str, args: &[KVal]) -> Option<Result<KVal, String>> {
    if !is_intrinsic(name) {
        return None;
    }
    // `__hadd` is also the integer halving add of the CUDA Math API ("Integer Intrinsics":
    // `int __hadd(int, int)`) and of HIP's device functions: integer arguments select that
    // overload, computed by [`crate::mathlib`].
    if name == "__hadd" && !args.is_empty() && args.iter().all(|a| matches!(a, KVal::Int { .. })) {
        return None;
    }
    let note = args
        .iter()
        .filter_map(KVal::approx)
        .reduce(|p, q| if q.err > p.err { q } else { p });
    Some(run(name, args).map(|v| match note {
        None => v,
        Some(n) => with_note(name, args, v, n),
    }))
}

/// One float component of `v` moved by its own error (`sign` −1 or +1; unnoted components
/// and other values as they are): a corner of the argument's interval.
fn perturbed(v: &KVal, sign: f64) -> KVal {
    match v {
        KVal::Float {
            ty,
            x,
            approx: Some(a),
        } => KVal::Float {
            ty: *ty,
            x: x + sign * f64::from(a.err),
            approx: None,
        },
        KVal::Vector { ty, items } => KVal::Vector {
            ty: *ty,
            items: items.iter().map(|i| perturbed(i, sign)).collect(),
        },
        other => other.clone(),
    }
}

/// The float components of a value, in order.
fn floats(v: &KVal) -> Vec<f64> {
    match v {
        KVal::Float { x, .. } => vec![*x],
        KVal::Vector { items, .. } => items.iter().flat_map(floats).collect(),
        _ => Vec::new(),
    }
}

/// Result `v` of `name` on `args`, where an argument carries an accuracy note (`dominant`, the
/// one with the largest error): every function here is exact or correctly rounded itself, so
/// each float component's error is its largest change over the corners of the arguments'
/// intervals (every component of an argument moved by its error, one sign per argument; at
/// most 2^3 corners), plus one ulp for the rounding, as arithmetic on `float` carries it
/// ([`crate::accuracy::Approx::propagate`]).
fn with_note(name: &str, args: &[KVal], v: KVal, dominant: crate::accuracy::Approx) -> KVal {
    let base = floats(&v);
    let mut change = vec![0.0f64; base.len()];
    let n = args.len().min(3);
    for mask in 0u32..(1 << n) {
        let corner: Vec<KVal> = args
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let sign = if i < n && mask & (1 << i) != 0 {
                    1.0
                } else {
                    -1.0
                };
                perturbed(a, sign)
            })
            .collect();
        let moved = run(name, &corner).map(|r| floats(&r)).unwrap_or_default();
        for (k, c) in change.iter_mut().enumerate() {
            let d = match moved.get(k) {
                Some(m) if !(m.is_nan() && base[k].is_nan()) => (m - base[k]).abs(),
                Some(_) => 0.0,
                None => f64::INFINITY,
            };
            *c = c.max(if d.is_nan() { f64::INFINITY } else { d });
        }
    }
    if !dominant.err.is_finite() {
        change.iter_mut().for_each(|c| *c = f64::INFINITY);
    }
    let mut k = 0;
    set_notes(v, &change, &mut k, dominant)
}

fn set_notes(v: KVal, change: &[f64], k: &mut usize, dominant: crate::accuracy::Approx) -> KVal {
    match v {
        KVal::Float { ty, x, .. } => {
            let c = change.get(*k).copied().unwrap_or(f64::INFINITY);
            *k += 1;
            let approx = ty
                .float_fmt()
                .map(|fmt| crate::accuracy::Approx::carried(dominant, c, x, fmt));
            KVal::Float { ty, x, approx }
        }
        KVal::Vector { ty, items } => KVal::Vector {
            ty,
            items: items
                .into_iter()
                .map(|i| set_notes(i, change, k, dominant))
                .collect(),
        },
        other => other,
    }
}

fn run(name: &str, args: &[KVal]) -> Result<KVal, String> {
    let arity = match name {
        "__hfma" | "__hfma2" | "__hfma_sat" | "__hfma2_sat" => 3,
        "__hneg" | "__habs" | "__hneg2" | "__habs2" | "__hisnan" | "__hisinf" => 1,
        n if n.starts_with("__h") && !n.starts_with("__high") && !n.starts_with("__half") => 2,
        "__floats2half2_rn"
        | "__halves2half2"
        | "__lows2half2"
        | "__highs2half2"
        | "make_half2"
        | "__floats2bfloat162_rn"
        | "__halves2bfloat162"
        | "__lows2bfloat162"
        | "__highs2bfloat162"
        | "make_bfloat162" => 2,
        _ => 1,
    };
    if args.len() != arity {
        return Err(format!(
            "`{name}` takes {arity} argument(s), got {}",
            args.len()
        ));
    }
    let arg = |k: usize| float16(name, &args[k]);
    let bits16 = |k: usize| {
        args[k]
            .as_int()
            .map(|n| n as u16)
            .ok_or_else(|| format!("`{name}` takes an unsigned short or short"))
    };
    // Scalar and per-component arithmetic.
    let lanewise = |f: &dyn Fn(Scalar, &[f64]) -> f64| -> Result<KVal, String> {
        let parts: Vec<(Scalar, Vec<f64>)> = (0..args.len()).map(arg).collect::<Result<_, _>>()?;
        let ty = parts[0].0;
        let n = parts[0].1.len();
        if parts.iter().any(|(t, xs)| *t != ty || xs.len() != n) {
            return Err(format!(
                "`{name}`: its arguments must all have one type ({} here)",
                args.iter()
                    .map(|a| a.val_ty().name())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        let pair_wanted = name.contains('2');
        if pair_wanted != (n == 2) {
            return Err(format!(
                "`{name}` takes {} arguments, got {}",
                if pair_wanted {
                    "__half2 / __nv_bfloat162"
                } else {
                    "__half / __nv_bfloat16"
                },
                args[0].val_ty().name()
            ));
        }
        let items: Vec<KVal> = (0..n)
            .map(|k| {
                let xs: Vec<f64> = parts.iter().map(|(_, v)| v[k]).collect();
                h(ty, f(ty, &xs))
            })
            .collect();
        Ok(if n == 1 {
            items.into_iter().next().unwrap_or_else(|| h(ty, f64::NAN))
        } else {
            KVal::Vector { ty, items }
        })
    };
    let base = name.trim_end_matches("_nan").trim_end_matches('2');
    match name {
        "__hadd" | "__hadd2" => lanewise(&|_, x| x[0] + x[1]),
        "__hsub" | "__hsub2" => lanewise(&|_, x| x[0] - x[1]),
        "__hmul" | "__hmul2" => lanewise(&|_, x| x[0] * x[1]),
        "__hdiv" | "__h2div" => lanewise(&|_, x| x[0] / x[1]),
        "__hfma" | "__hfma2" => lanewise(&|ty, x| fma16(ty, x[0], x[1], x[2])),
        "__hadd_sat" | "__hadd2_sat" => lanewise(&|ty, x| saturate(round16(ty, x[0] + x[1]))),
        "__hsub_sat" | "__hsub2_sat" => lanewise(&|ty, x| saturate(round16(ty, x[0] - x[1]))),
        "__hmul_sat" | "__hmul2_sat" => lanewise(&|ty, x| saturate(round16(ty, x[0] * x[1]))),
        "__hfma_sat" | "__hfma2_sat" => lanewise(&|ty, x| saturate(fma16(ty, x[0], x[1], x[2]))),
        "__hneg" | "__hneg2" => lanewise(&|_, x| -x[0]),
        "__habs" | "__habs2" => lanewise(&|_, x| x[0].abs()),
        "__hmax" | "__hmin" | "__hmax_nan" | "__hmin_nan" | "__hmax2" | "__hmin2"
        | "__hmax2_nan" | "__hmin2_nan" => {
            let max = base == "__hmax";
            let nan = name.ends_with("_nan");
            lanewise(&|_, x| max_min(max, nan, x[0], x[1]))
        }
        "__heq" | "__hne" | "__hlt" | "__hle" | "__hgt" | "__hge" | "__hequ" | "__hneu"
        | "__hltu" | "__hleu" | "__hgtu" | "__hgeu" => {
            let (ta, a) = arg(0)?;
            let (tb, b) = arg(1)?;
            if a.len() != 1 || b.len() != 1 || ta != tb {
                return Err(format!(
                    "`{name}` compares two __half or two __nv_bfloat16 (use the ...2 forms for pairs)"
                ));
            }
            let unordered = name.ends_with('u');
            let op = &name[3..5];
            Ok(KVal::bool(compare(op, unordered, a[0], b[0])))
        }
        "__heq2" | "__hne2" | "__hlt2" | "__hle2" | "__hgt2" | "__hge2" => {
            let op = &name[3..5];
            lanewise(&|_, x| f64::from(u8::from(compare(op, false, x[0], x[1]))))
        }
        "__hbeq2" | "__hbne2" | "__hblt2" | "__hble2" | "__hbgt2" | "__hbge2" => {
            let (ta, a) = arg(0)?;
            let (tb, b) = arg(1)?;
            if a.len() != 2 || b.len() != 2 || ta != tb {
                return Err(format!(
                    "`{name}` compares two __half2 or two __nv_bfloat162"
                ));
            }
            let op = &name[4..6];
            // True iff the comparison holds for both halves.
            Ok(KVal::bool(
                compare(op, false, a[0], b[0]) && compare(op, false, a[1], b[1]),
            ))
        }
        "__hisnan" => {
            let (_, a) = arg(0)?;
            Ok(KVal::bool(a.first().is_some_and(|x| x.is_nan())))
        }
        "__hisinf" => {
            // -1 for -inf, 1 for +inf, 0 otherwise (CUDA Math API, __hisinf).
            let (_, a) = arg(0)?;
            let x = a.first().copied().unwrap_or(0.0);
            let r = if x == f64::INFINITY {
                1
            } else if x == f64::NEG_INFINITY {
                -1
            } else {
                0
            };
            Ok(KVal::int(Scalar::I32, r))
        }
        "__float2half_rz" | "__float2half_rd" | "__float2half_ru" => {
            let x = as_float(name, &args[0])?;
            Ok(KVal::float(
                Scalar::F16,
                directed(Scalar::F16, x, &name[13..]),
            ))
        }
        "__float2bfloat16_rz" | "__float2bfloat16_rd" | "__float2bfloat16_ru" => {
            let x = as_float(name, &args[0])?;
            Ok(KVal::float(
                Scalar::Bf16,
                directed(Scalar::Bf16, x, &name[17..]),
            ))
        }
        // From a double, rounded once to nearest even (not through float: converting to
        // float first could round twice).
        "__double2half" | "__double2bfloat16" => {
            let x = args[0]
                .convert(ValTy::scalar(Scalar::F64))
                .map_err(|f| format!("`{name}`: {}", f.message))?
                .as_f64()
                .ok_or_else(|| format!("`{name}` needs a number"))?;
            let ty = if name == "__double2half" {
                Scalar::F16
            } else {
                Scalar::Bf16
            };
            Ok(KVal::float(ty, x))
        }
        "__float2half2_rn" => {
            let x = as_float(name, &args[0])?;
            Ok(pair(Scalar::F16, x, x))
        }
        "__float2bfloat162_rn" => {
            let x = as_float(name, &args[0])?;
            Ok(pair(Scalar::Bf16, x, x))
        }
        "__floats2half2_rn" | "make_half2" => Ok(pair(
            Scalar::F16,
            as_float(name, &args[0])?,
            as_float(name, &args[1])?,
        )),
        "__floats2bfloat162_rn" | "make_bfloat162" => Ok(pair(
            Scalar::Bf16,
            as_float(name, &args[0])?,
            as_float(name, &args[1])?,
        )),
        "__float22half2_rn" => {
            let (a, b) = float2(name, &args[0])?;
            Ok(pair(Scalar::F16, a, b))
        }
        "__float22bfloat162_rn" => {
            let (a, b) = float2(name, &args[0])?;
            Ok(pair(Scalar::Bf16, a, b))
        }
        "__half22float2" | "__bfloat1622float2" => {
            let (_, a) = arg(0)?;
            if a.len() != 2 {
                return Err(format!("`{name}` takes a pair (__half2 / __nv_bfloat162)"));
            }
            Ok(KVal::Vector {
                ty: Scalar::F32,
                items: vec![
                    KVal::float(Scalar::F32, a[0]),
                    KVal::float(Scalar::F32, a[1]),
                ],
            })
        }
        "__low2half" | "__high2half" | "__low2bfloat16" | "__high2bfloat16" | "__low2float"
        | "__high2float" => {
            let (ty, a) = arg(0)?;
            if a.len() != 2 {
                return Err(format!("`{name}` takes a pair (__half2 / __nv_bfloat162)"));
            }
            let x = if name.starts_with("__low") {
                a[0]
            } else {
                a[1]
            };
            Ok(if name.ends_with("float") {
                KVal::float(Scalar::F32, x)
            } else {
                h(ty, x)
            })
        }
        "__halves2half2" | "__halves2bfloat162" => {
            let (ta, a) = arg(0)?;
            let (tb, b) = arg(1)?;
            if a.len() != 1 || b.len() != 1 || ta != tb {
                return Err(format!("`{name}` takes two __half or two __nv_bfloat16"));
            }
            Ok(pair(ta, a[0], b[0]))
        }
        "__half2half2" | "__bfloat162bfloat162" => {
            let (ty, a) = arg(0)?;
            if a.len() != 1 {
                return Err(format!("`{name}` takes one __half / __nv_bfloat16"));
            }
            Ok(pair(ty, a[0], a[0]))
        }
        "__low2half2" | "__high2half2" | "__lowhigh2highlow" => {
            let (ty, a) = arg(0)?;
            if a.len() != 2 {
                return Err(format!("`{name}` takes a __half2"));
            }
            Ok(match name {
                "__low2half2" => pair(ty, a[0], a[0]),
                "__high2half2" => pair(ty, a[1], a[1]),
                _ => pair(ty, a[1], a[0]),
            })
        }
        "__lows2half2" | "__highs2half2" | "__lows2bfloat162" | "__highs2bfloat162" => {
            let (ta, a) = arg(0)?;
            let (tb, b) = arg(1)?;
            if a.len() != 2 || b.len() != 2 || ta != tb {
                return Err(format!("`{name}` takes two pairs of one type"));
            }
            let k = usize::from(name.starts_with("__highs"));
            Ok(pair(ta, a[k], b[k]))
        }
        "__int2half_rn" => {
            let n = args[0]
                .as_int()
                .ok_or_else(|| format!("`{name}` takes an int"))?;
            Ok(h(Scalar::F16, n as f64))
        }
        "__half2int_rn" | "__half2int_rz" => {
            let (_, a) = arg(0)?;
            let x = a.first().copied().unwrap_or(f64::NAN);
            if x.is_nan() {
                return Err(format!(
                    "`{name}` of NaN: the CUDA Math API gives no value for it here"
                ));
            }
            // Every finite half fits an int (|x| ≤ 65504); infinities saturate.
            let r = if name.ends_with("rn") {
                x.round_ties_even()
            } else {
                x.trunc()
            };
            Ok(KVal::int(
                Scalar::I32,
                r.clamp(i32::MIN as f64, i32::MAX as f64) as i128,
            ))
        }
        "__half_as_ushort" | "__half_as_short" | "__bfloat16_as_ushort" | "__bfloat16_as_short" => {
            let (ty, a) = arg(0)?;
            let x = a.first().copied().unwrap_or(f64::NAN);
            let bits = if ty == Scalar::Bf16 {
                bf16::from_f64(x).to_bits()
            } else {
                f16::from_f64(x).to_bits()
            };
            Ok(if name.ends_with("ushort") {
                KVal::int(Scalar::U16, i128::from(bits))
            } else {
                KVal::int(Scalar::I16, i128::from(bits as i16))
            })
        }
        "__ushort_as_half" | "__short_as_half" => {
            Ok(h(Scalar::F16, f16::from_bits(bits16(0)?).to_f64()))
        }
        "__ushort_as_bfloat16" | "__short_as_bfloat16" => {
            Ok(h(Scalar::Bf16, bf16::from_bits(bits16(0)?).to_f64()))
        }
        _ => Err(format!("`{name}` is not a reduced-precision intrinsic")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hv(x: f64) -> KVal {
        KVal::float(Scalar::F16, x)
    }

    #[test]
    fn fma_rounds_once() {
        // 2049 is not a half (halves between 2048 and 4096 step by 2): 1·2049 is a tie between
        // 2048 and 2050 and rounds to even, 2048. 1 + 2^-11 + 2^-24 lies just above the
        // midpoint of 1 and 1 + 2^-10 (the half ulp at 1 is 2^-11), so it rounds up.
        assert_eq!(fma16(Scalar::F16, 1.0, 2049.0, 0.0), 2048.0);
        assert_eq!(
            fma16(Scalar::F16, 1.0, 1.0, 2f64.powi(-11) + 2f64.powi(-24)),
            1.0 + 2f64.powi(-10)
        );
    }

    #[test]
    fn pairs_and_conversions() {
        let p = run(
            "__floats2half2_rn",
            &[KVal::float(Scalar::F32, 1.5), KVal::float(Scalar::F32, 0.1)],
        )
        .unwrap();
        // 0.1f to half: 0.0999755859375 (binary 1.1001100110 × 2^-4, nearest even).
        assert_eq!(
            p,
            KVal::Vector {
                ty: Scalar::F16,
                items: vec![hv(1.5), hv(0.0999755859375)]
            }
        );
        assert_eq!(
            run("__high2float", std::slice::from_ref(&p)).unwrap(),
            KVal::float(Scalar::F32, 0.0999755859375)
        );
        assert_eq!(
            run("__hbeq2", &[p.clone(), p.clone()]).unwrap(),
            KVal::bool(true)
        );
        assert_eq!(run("__hmax", &[hv(f64::NAN), hv(2.0)]).unwrap(), hv(2.0));
        assert_eq!(
            run("__half_as_ushort", &[hv(1.0)]).unwrap(),
            KVal::int(Scalar::U16, 0x3c00)
        );
        // 1 + 2^-11 lies between halves 1 and 1 + 2^-10: rz and rd give 1, ru the upper one.
        let x = KVal::float(Scalar::F32, 1.0 + 2f64.powi(-11) + 2f64.powi(-20));
        assert_eq!(
            run("__float2half_rz", std::slice::from_ref(&x)).unwrap(),
            hv(1.0)
        );
        assert_eq!(
            run("__float2half_ru", &[x]).unwrap(),
            hv(1.0 + 2f64.powi(-10))
        );
        assert!(run("__hadd", &[hv(1.0), KVal::float(Scalar::F32, 1.0)]).is_err());
    }

    #[test]
    fn saturating_forms_clamp_to_zero_one() {
        // 0.75 + 0.5 = 1.25 → 1; 0.25 - 0.5 = -0.25 → +0; 0.5·0.5 + 0.25 = 0.5 (inside);
        // inf·0 is NaN → +0; -1·0 = -0 → +0 (the clamp's lower end is +0.0).
        let sat = |n: &str, a: &[f64]| {
            run(n, &a.iter().map(|&x| hv(x)).collect::<Vec<_>>())
                .unwrap()
                .as_f64()
                .unwrap()
        };
        assert_eq!(sat("__hadd_sat", &[0.75, 0.5]), 1.0);
        let z = sat("__hsub_sat", &[0.25, 0.5]);
        assert!(z == 0.0 && z.is_sign_positive());
        assert_eq!(sat("__hfma_sat", &[0.5, 0.5, 0.25]), 0.5);
        assert_eq!(sat("__hmul_sat", &[f64::INFINITY, 0.0]), 0.0);
        assert!(sat("__hmul_sat", &[-1.0, 0.0]).is_sign_positive());
        let p = KVal::Vector {
            ty: Scalar::F16,
            items: vec![hv(0.5), hv(2.0)],
        };
        assert_eq!(
            run("__hmul2_sat", &[p.clone(), p]).unwrap(),
            KVal::Vector {
                ty: Scalar::F16,
                items: vec![hv(0.25), hv(1.0)]
            }
        );
    }
}
