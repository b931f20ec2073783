//! WGSL's built-in functions on one scalar component: the numeric, bit and packing built-ins
//! (WGSL spec § 17.5 "Numeric Built-in Functions", § 17.9 "Data Packing Built-in Functions",
//! § 17.10 "Data Unpacking Built-in Functions") and WGSL's float → integer conversion
//! (§ 15.7.6 "Floating Point Conversion"). The WGSL lowering calls them by the
//! engine names `wgsl.NAME` ([`PREFIX`]), one call per vector component (the spec's
//! "component-wise"); a packing built-in gets every component of its vector, an unpacking one
//! its `u32` and the component wanted.
//!
//! Values are computed in f64 and rounded once to the operand's type (f32 or f16), so each
//! emulated result is the correctly rounded one; a GPU may differ from it by the bound of the
//! spec's § 15.7.4 "Floating Point Accuracy" table, which [`accuracy`] gives per built-in.
//!
//! Undefined results are values with a reason (an `Err` here becomes an undefined lane with a
//! warning): an argument outside the built-in's domain (`log` of a negative number,
//! `inverseSqrt(0)`), a finite argument whose result overflows the type, and NaN converted to
//! an integer — the spec lets an implementation assume none of these occur (§ 15.7.2
//! "Differences from IEEE-754": overflow, infinities and NaNs give indeterminate values).

use half::f16;

use naga::MathFunction;

use crate::types::{KVal, Scalar};

/// The WGSL name of a math built-in (naga's variant name with a lower-case
/// first letter is WGSL's, but for `smoothstep`).
pub fn wgsl_name(fun: MathFunction) -> String {
    if fun == MathFunction::SmoothStep {
        return "smoothstep".into();
    }
    let n = format!("{fun:?}");
    let mut c = n.chars();
    match c.next() {
        Some(f) => f.to_lowercase().chain(c).collect(),
        None => n,
    }
}

/// The engine call name prefix of WGSL built-ins: `wgsl.exp` is WGSL's `exp`. C has no such
/// names, so a C kernel never reaches them.
pub const PREFIX: &str = "wgsl.";

/// Whether `name` (without [`PREFIX`]) is a built-in [`eval`] runs.
pub fn is_builtin(name: &str) -> bool {
    accuracy(name).is_some()
}

/// The accuracy bound of built-in `name` for f32 (WGSL spec § 15.7.4 "Floating Point
/// Accuracy", the f32 column): "correctly rounded" where the spec requires the exact result,
/// else the bound as the table states it ("inherited from" names the expression whose
/// operations' bounds add up). `None` for a name that is not a built-in here.
pub fn accuracy(name: &str) -> Option<&'static str> {
    Some(match name {
        // Exact by definition (integer results, selections, roundings, bit moves).
        "abs" | "ceil" | "floor" | "round" | "trunc" | "sign" | "step" | "saturate"
        | "modf.fract" | "modf.whole" | "frexp.fract" | "frexp.exp" | "ldexp" | "quantizeToF16"
        | "i32" | "u32" | "countOneBits" | "countLeadingZeros" | "countTrailingZeros"
        | "firstLeadingBit" | "firstTrailingBit" | "extractBits" | "insertBits" | "reverseBits"
        | "pack4xI8" | "pack4xU8" | "pack4xI8Clamp" | "pack4xU8Clamp" | "unpack4xI8"
        | "unpack4xU8" | "dot4I8Packed" | "dot4U8Packed" | "pack2x16float" | "unpack2x16float" => {
            "correctly rounded"
        }
        "fract" => "inherited from e - floor(e)",
        "exp" | "exp2" => "3 + 2 * |x| ULP",
        "log" | "log2" => "3 ULP outside [0.5, 2.0]; absolute error < 2^-21 inside",
        "pow" => "inherited from exp2(y * log2(x))",
        "sqrt" => "inherited from 1.0 / inverseSqrt(x)",
        "inverseSqrt" => "2 ULP",
        "sin" | "cos" => "absolute error <= 2^-11 inside [-pi, pi]",
        "tan" => "inherited from sin(x) / cos(x)",
        "asin" => "inherited from atan2(x, sqrt(1.0 - x * x))",
        "acos" => "inherited from atan2(sqrt(1.0 - x * x), x)",
        "atan" | "atan2" => "4096 ULP",
        "sinh" => "inherited from (exp(x) - exp(-x)) * 0.5",
        "cosh" => "inherited from (exp(x) + exp(-x)) * 0.5",
        "tanh" => "inherited from sinh(x) / cosh(x)",
        "asinh" => "inherited from log(x + sqrt(x * x + 1.0))",
        "acosh" => "inherited from log(x + sqrt(x * x - 1.0))",
        "atanh" => "inherited from log((1.0 + x) / (1.0 - x)) * 0.5",
        "degrees" => "inherited from x * 57.295779513082322865",
        "radians" => "inherited from x * 0.017453292519943295474",
        "fma" => "inherited from x * y + z",
        "mix" => "inherited from e1 * (1.0 - e3) + e2 * e3",
        "smoothstep" => "inherited from t * t * (3.0 - 2.0 * t)",
        "dot" => "inherited from the sum of e1[i] * e2[i]",
        "length" => "inherited from sqrt(dot(e, e))",
        "distance" => "inherited from length(e1 - e2)",
        "normalize" => "inherited from e / length(e)",
        "cross" | "reflect" | "faceForward" | "refract" => {
            "inherited from the operations of its formula"
        }
        "pack4x8snorm" | "pack4x8unorm" | "pack2x16snorm" | "pack2x16unorm" => {
            "correctly rounded (the spec's formula, floor(0.5 + scale * clamped))"
        }
        "unpack4x8snorm" | "unpack4x8unorm" | "unpack2x16snorm" | "unpack2x16unorm" => {
            "3 ULP (a division by the scale)"
        }
        _ => return None,
    })
}

/// Where the bounds of [`accuracy`] come from.
pub const ACCURACY_SOURCE: &str = "WGSL spec, § 15.7.4 Floating Point Accuracy (f32)";

/// One built-in a shader calls whose result may differ on a GPU: its name and its bound.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Bound {
    /// The WGSL built-in's name.
    pub builtin: String,
    /// Its accuracy bound ([`accuracy`]).
    pub ulp: &'static str,
    /// [`ACCURACY_SOURCE`].
    pub source: &'static str,
}

/// The inexact built-ins `module` calls (each once, in name order) with their bounds: where
/// a GPU's result may differ from the emulator's correctly rounded one.
pub fn bounds(module: &naga::Module) -> Vec<Bound> {
    let mut names = std::collections::BTreeSet::new();
    let functions = module
        .functions
        .iter()
        .map(|(_, f)| f)
        .chain(module.entry_points.iter().map(|e| &e.function));
    for f in functions {
        for (_, e) in f.expressions.iter() {
            if let naga::Expression::Math { fun, .. } = e {
                names.insert(wgsl_name(*fun));
            }
        }
    }
    names
        .into_iter()
        .filter_map(|n| {
            let ulp = accuracy(&n)?;
            (ulp != "correctly rounded").then_some(Bound {
                builtin: n,
                ulp,
                source: ACCURACY_SOURCE,
            })
        })
        .collect()
}

/// Runs built-in `name` (without [`PREFIX`]) on one component's arguments.
///
/// # Errors
/// A message giving the reason a result is undefined (domain, overflow, NaN, an out-of-range
/// `f16`), or naming a wrong argument count or type.
pub fn eval(name: &str, args: &[KVal]) -> Result<KVal, String> {
    let need = |n: usize| {
        if args.len() < n {
            Err(format!(
                "`{name}` takes {n} argument(s), got {}",
                args.len()
            ))
        } else {
            Ok(())
        }
    };
    need(1)?;
    let ty = args[0].val_ty().scalar;
    let f = |k: usize| args.get(k).and_then(KVal::as_f64).unwrap_or(f64::NAN);
    let int = |k: usize| args.get(k).and_then(KVal::as_int).unwrap_or(0);
    // The bits of a 32-bit integer argument.
    let bits = |k: usize| int(k) as u32;
    let out_int = |v: u32| {
        KVal::int(
            ty,
            if ty.is_signed() {
                v as i32 as i128
            } else {
                v as i128
            },
        )
    };
    if ty.is_float() {
        if let Some(r) = float_fn(name, args.len(), &f)? {
            let v = finite(name, ty, &f, args.len(), r)?;
            // An f32 result of an inexact built-in carries the spec's bound, and an argument's
            // error carried through the built-in, so a device's result within it is told
            // apart from a wrong one.
            if ty == Scalar::F32 {
                let xs: Vec<f64> = (0..args.len()).map(f).collect();
                let own = super::inherited::own_bound(name, &xs);
                if own.is_none() && args.iter().all(|a| a.approx().is_none()) {
                    return Ok(v);
                }
                let x = v.as_f64().unwrap_or(f64::NAN);
                let inputs: Vec<(f64, Option<crate::accuracy::Approx>)> = args
                    .iter()
                    .map(|a| (a.as_f64().unwrap_or(f64::NAN), a.approx()))
                    .collect();
                let at = |p: &[f64]| {
                    float_fn(name, p.len(), &|k| p.get(k).copied().unwrap_or(f64::NAN))
                        .ok()
                        .flatten()
                        .unwrap_or(f64::NAN)
                };
                return Ok(KVal::propagated(ty, x, own, &inputs, &at));
            }
            return Ok(v);
        }
    }
    Ok(match name {
        "abs" => {
            // WGSL § abs: the most negative signed value is its own absolute value.
            let n = int(0);
            if ty.is_float() {
                KVal::float(ty, f(0).abs())
            } else {
                KVal::int(ty, n.wrapping_abs())
            }
        }
        "sign" => KVal::int(ty, int(0).signum()),
        "i32" | "u32" => return float_to_int(name, f(0)),
        "frexp.exp" => KVal::int(Scalar::I32, i128::from(frexp(f(0)).1)),
        "countOneBits" => out_int(bits(0).count_ones()),
        "countLeadingZeros" => out_int(bits(0).leading_zeros()),
        "countTrailingZeros" => out_int(bits(0).trailing_zeros()),
        "reverseBits" => out_int(bits(0).reverse_bits()),
        "firstLeadingBit" => {
            // WGSL § firstLeadingBit: for signed values, the first bit from the top that
            // differs from the sign bit; -1 (all ones) when there is none.
            let v = bits(0);
            let v = if ty.is_signed() && (v as i32) < 0 {
                !v
            } else {
                v
            };
            out_int(if v == 0 {
                u32::MAX
            } else {
                31 - v.leading_zeros()
            })
        }
        "firstTrailingBit" => {
            let v = bits(0);
            out_int(if v == 0 { u32::MAX } else { v.trailing_zeros() })
        }
        "extractBits" => {
            need(3)?;
            // WGSL § extractBits: o = min(offset, 32), c = min(count, 32 - o); signed values
            // are sign-extended from bit c - 1; c = 0 gives 0.
            let o = (int(1) as u32).min(32);
            let c = (int(2) as u32).min(32 - o);
            if c == 0 {
                return Ok(out_int(0));
            }
            let field = ((u64::from(bits(0)) >> o) & ((1u64 << c) - 1)) as u32;
            let v = if ty.is_signed() && c < 32 && field >> (c - 1) & 1 == 1 {
                field | !((1u32 << c) - 1)
            } else {
                field
            };
            out_int(v)
        }
        "insertBits" => {
            need(4)?;
            let o = (int(2) as u32).min(32);
            let c = (int(3) as u32).min(32 - o);
            let mask = (((1u64 << c) - 1) << o) as u32;
            let v = (bits(0) & !mask) | (((u64::from(bits(1))) << o) as u32 & mask);
            out_int(v)
        }
        "pack4x8snorm" | "pack4x8unorm" | "pack2x16snorm" | "pack2x16unorm" => {
            let (n, width, lo, scale) = match name {
                "pack4x8snorm" => (4, 8, -1.0, 127.0),
                "pack4x8unorm" => (4, 8, 0.0, 255.0),
                "pack2x16snorm" => (2, 16, -1.0, 32767.0),
                _ => (2, 16, 0.0, 65535.0),
            };
            need(n)?;
            let mut out = 0u32;
            for k in 0..n {
                // WGSL § pack4x8snorm etc.: floor(0.5 + scale * min(1, max(lo, e[k]))).
                let x = f(k);
                if x.is_nan() {
                    return Err(format!("`{name}` of NaN is indeterminate (WGSL § 15.7.2)"));
                }
                let q = (0.5 + scale * x.clamp(lo, 1.0)).floor() as i64;
                let field = (q as u32) & ((1u64 << width) - 1) as u32;
                out |= field << (width * k as u32);
            }
            KVal::int(Scalar::U32, i128::from(out))
        }
        "pack2x16float" => {
            need(2)?;
            let mut out = 0u32;
            for k in 0..2 {
                let h = to_f16(name, f(k))?;
                out |= u32::from(h.to_bits()) << (16 * k);
            }
            KVal::int(Scalar::U32, i128::from(out))
        }
        "pack4xI8" | "pack4xU8" | "pack4xI8Clamp" | "pack4xU8Clamp" => {
            need(4)?;
            let mut out = 0u32;
            for k in 0..4 {
                let v = int(k);
                let v = match name {
                    "pack4xI8Clamp" => v.clamp(-128, 127),
                    "pack4xU8Clamp" => v.clamp(0, 255),
                    _ => v,
                };
                out |= ((v as u32) & 0xff) << (8 * k);
            }
            KVal::int(Scalar::U32, i128::from(out))
        }
        "unpack4x8snorm" | "unpack4x8unorm" | "unpack2x16snorm" | "unpack2x16unorm"
        | "unpack2x16float" | "unpack4xI8" | "unpack4xU8" => {
            need(2)?;
            let v = bits(0);
            let k = (int(1) as u32).min(3);
            let byte = (v >> (8 * k)) & 0xff;
            let half = (v >> (16 * k.min(1))) & 0xffff;
            match name {
                "unpack4x8snorm" => {
                    KVal::float(Scalar::F32, (f64::from(byte as u8 as i8) / 127.0).max(-1.0))
                }
                "unpack4x8unorm" => KVal::float(Scalar::F32, f64::from(byte) / 255.0),
                "unpack2x16snorm" => KVal::float(
                    Scalar::F32,
                    (f64::from(half as u16 as i16) / 32767.0).max(-1.0),
                ),
                "unpack2x16unorm" => KVal::float(Scalar::F32, f64::from(half) / 65535.0),
                "unpack2x16float" => KVal::float(Scalar::F32, f16::from_bits(half as u16).to_f64()),
                "unpack4xI8" => KVal::int(Scalar::I32, i128::from(byte as u8 as i8)),
                _ => KVal::int(Scalar::U32, i128::from(byte)),
            }
        }
        "dot4I8Packed" | "dot4U8Packed" => {
            need(2)?;
            let (a, b) = (bits(0), bits(1));
            let mut sum: i64 = 0;
            for k in 0..4 {
                let (x, y) = ((a >> (8 * k)) & 0xff, (b >> (8 * k)) & 0xff);
                sum += if name == "dot4I8Packed" {
                    i64::from(x as u8 as i8) * i64::from(y as u8 as i8)
                } else {
                    i64::from(x) * i64::from(y)
                };
            }
            if name == "dot4I8Packed" {
                KVal::int(Scalar::I32, i128::from(sum))
            } else {
                KVal::int(Scalar::U32, i128::from(sum))
            }
        }
        _ => return Err(format!("`{name}` is not a WGSL built-in on {}", ty.name())),
    })
}

/// The float built-ins: `Ok(Some(r))` with the unrounded result, `Ok(None)` for a name that
/// is not one, `Err` for an argument outside the domain.
fn float_fn(name: &str, n: usize, f: &dyn Fn(usize) -> f64) -> Result<Option<f64>, String> {
    let arity = |k: usize| {
        if n < k {
            Err(format!("`{name}` takes {k} arguments, got {n}"))
        } else {
            Ok(())
        }
    };
    let domain = |ok: bool, what: &str| {
        if ok {
            Ok(())
        } else {
            Err(format!(
                "`{name}({})` is outside its domain ({what}): indeterminate (WGSL § {name}, \
                 § 15.7.2)",
                f(0)
            ))
        }
    };
    let x = f(0);
    Ok(Some(match name {
        "ceil" => x.ceil(),
        "floor" => x.floor(),
        // WGSL § round: to the nearest integer, ties to even.
        "round" => x.round_ties_even(),
        "trunc" => x.trunc(),
        "fract" => x - x.floor(),
        "sign" => {
            if x > 0.0 {
                1.0
            } else if x < 0.0 {
                -1.0
            } else {
                0.0
            }
        }
        "saturate" => x.clamp(0.0, 1.0),
        "exp" => x.exp(),
        "exp2" => x.exp2(),
        "log" | "log2" => {
            domain(x > 0.0, "x > 0")?;
            if name == "log" {
                x.ln()
            } else {
                x.log2()
            }
        }
        "pow" => {
            arity(2)?;
            domain(x >= 0.0, "x >= 0; the spec defines it as exp2(y * log2(x))")?;
            x.powf(f(1))
        }
        "sqrt" => {
            domain(x >= 0.0, "x >= 0")?;
            x.sqrt()
        }
        "inverseSqrt" => {
            domain(x > 0.0, "x > 0")?;
            1.0 / x.sqrt()
        }
        "sin" => x.sin(),
        "cos" => x.cos(),
        "tan" => x.tan(),
        "asin" | "acos" => {
            domain(x.abs() <= 1.0, "|x| <= 1")?;
            if name == "asin" {
                x.asin()
            } else {
                x.acos()
            }
        }
        "atan" => x.atan(),
        "atan2" => {
            arity(2)?;
            x.atan2(f(1))
        }
        "sinh" => x.sinh(),
        "cosh" => x.cosh(),
        "tanh" => x.tanh(),
        "asinh" => x.asinh(),
        "acosh" => {
            domain(x >= 1.0, "x >= 1")?;
            x.acosh()
        }
        "atanh" => {
            domain(x.abs() < 1.0, "|x| < 1")?;
            x.atanh()
        }
        "degrees" => x.to_degrees(),
        "radians" => x.to_radians(),
        "step" => {
            // WGSL § step(edge, x): 1.0 when edge <= x, else 0.0.
            arity(2)?;
            if x <= f(1) {
                1.0
            } else {
                0.0
            }
        }
        "fma" => {
            arity(3)?;
            x.mul_add(f(1), f(2))
        }
        "mix" => {
            arity(3)?;
            let t = f(2);
            x * (1.0 - t) + f(1) * t
        }
        "smoothstep" => {
            // WGSL § smoothstep(low, high, x): t * t * (3 - 2t), t = clamp((x - low) /
            // (high - low), 0, 1).
            arity(3)?;
            let t = ((f(2) - x) / (f(1) - x)).clamp(0.0, 1.0);
            t * t * (3.0 - 2.0 * t)
        }
        "ldexp" => {
            arity(2)?;
            let e = f(1).clamp(-2000.0, 2000.0) as i32;
            x * 2f64.powi(e)
        }
        "quantizeToF16" => to_f16(name, x)?.to_f64(),
        "modf.fract" => x - x.trunc(),
        "modf.whole" => x.trunc(),
        "frexp.fract" => frexp(x).0,
        _ => return Ok(None),
    }))
}

/// The result of a float built-in rounded to `ty`; a finite argument list giving a result
/// that is not finite in `ty` is indeterminate (WGSL § 15.7.2: overflow).
fn finite(
    name: &str,
    ty: Scalar,
    f: &dyn Fn(usize) -> f64,
    n: usize,
    r: f64,
) -> Result<KVal, String> {
    let v = KVal::float(ty, r);
    let finite_args = (0..n).all(|k| f(k).is_finite());
    if finite_args && !v.as_f64().is_some_and(f64::is_finite) {
        return Err(format!(
            "`{name}` overflows {}: indeterminate (WGSL § 15.7.2, overflow)",
            ty.name()
        ));
    }
    Ok(v)
}

/// `x = fract * 2^exp` with |fract| in [0.5, 1) (WGSL § frexp; 0 gives (0, 0)).
fn frexp(x: f64) -> (f64, i32) {
    if x == 0.0 || !x.is_finite() {
        return (x, 0);
    }
    let mut e = x.abs().log2().floor() as i32 + 1;
    let mut m = x / 2f64.powi(e);
    // log2 can be off by one at exact powers of two.
    if m.abs() >= 1.0 {
        m /= 2.0;
        e += 1;
    } else if m.abs() < 0.5 {
        m *= 2.0;
        e -= 1;
    }
    (m, e)
}

/// `x` as f16, rounded to nearest even; outside f16's finite range it is indeterminate (WGSL
/// § quantizeToF16, § pack2x16float).
fn to_f16(name: &str, x: f64) -> Result<f16, String> {
    let h = f16::from_f64(x);
    if x.is_finite() && !h.is_finite() {
        return Err(format!(
            "`{name}`: {x} is outside the finite range of f16 (65504): indeterminate (WGSL § \
             {name})"
        ));
    }
    Ok(h)
}

/// WGSL § 15.7.6 "Floating Point Conversion", float → `i32` / `u32`: rounded toward zero,
/// then the closest value of the type (saturating); NaN is indeterminate (§ 15.7.2).
fn float_to_int(name: &str, x: f64) -> Result<KVal, String> {
    if x.is_nan() {
        return Err(format!(
            "`{name}(NaN)` is indeterminate (WGSL § 15.7.2: NaN is not expected)"
        ));
    }
    let t = x.trunc();
    Ok(if name == "i32" {
        KVal::int(
            Scalar::I32,
            t.clamp(f64::from(i32::MIN), f64::from(i32::MAX)) as i128,
        )
    } else {
        KVal::int(Scalar::U32, t.clamp(0.0, f64::from(u32::MAX)) as i128)
    })
}

#[cfg(test)]
mod tests {
    // Full paths: the import-circle check reads `super::` from the file, not the block.
    use crate::types::{KVal, Scalar};
    use crate::wgsl::math::{eval, frexp};

    fn f32v(x: f32) -> KVal {
        KVal::float(Scalar::F32, f64::from(x))
    }
    fn i32v(x: i32) -> KVal {
        KVal::int(Scalar::I32, i128::from(x))
    }
    fn u32v(x: u32) -> KVal {
        KVal::int(Scalar::U32, i128::from(x))
    }
    fn num(r: Result<KVal, String>) -> f64 {
        r.ok().and_then(|v| v.as_f64()).unwrap_or(f64::NAN)
    }
    fn int(r: Result<KVal, String>) -> i128 {
        r.ok().and_then(|v| v.as_int()).unwrap_or(-999)
    }

    #[test]
    fn round_is_ties_to_even_and_fract_is_x_minus_floor() {
        // WGSL § round: 2.5 → 2, 3.5 → 4, -2.5 → -2.
        assert_eq!(num(eval("round", &[f32v(2.5)])), 2.0);
        assert_eq!(num(eval("round", &[f32v(3.5)])), 4.0);
        assert_eq!(num(eval("round", &[f32v(-2.5)])), -2.0);
        // fract(-0.25) = -0.25 - floor(-0.25) = -0.25 + 1 = 0.75.
        assert_eq!(num(eval("fract", &[f32v(-0.25)])), 0.75);
    }

    #[test]
    fn domains_and_overflow_are_indeterminate_with_a_reason() {
        assert!(eval("log", &[f32v(-1.0)]).unwrap_err().contains("domain"));
        assert!(eval("inverseSqrt", &[f32v(0.0)]).is_err());
        // e^89 ≈ 4.5e38 > f32's 3.4e38.
        assert!(eval("exp", &[f32v(89.0)])
            .unwrap_err()
            .contains("overflows"));
        assert_eq!(num(eval("inverseSqrt", &[f32v(4.0)])), 0.5);
    }

    #[test]
    fn float_to_int_saturates() {
        // WGSL § 15.7.6: rounded toward zero, then the closest value of the type.
        assert_eq!(int(eval("i32", &[f32v(3e9)])), i128::from(i32::MAX));
        assert_eq!(int(eval("i32", &[f32v(-3e9)])), i128::from(i32::MIN));
        assert_eq!(int(eval("i32", &[f32v(-7.9)])), -7);
        assert_eq!(int(eval("u32", &[f32v(-5.0)])), 0);
        assert_eq!(int(eval("u32", &[f32v(5e9)])), i128::from(u32::MAX));
        assert!(eval("u32", &[f32v(f32::NAN)]).is_err());
    }

    #[test]
    fn bit_builtins_by_hand() {
        assert_eq!(int(eval("abs", &[i32v(i32::MIN)])), i128::from(i32::MIN));
        // firstLeadingBit(-1) and (0) are -1; of -8 (…11111000) the first 0 from the top is
        // bit 2.
        assert_eq!(int(eval("firstLeadingBit", &[i32v(-1)])), -1);
        assert_eq!(int(eval("firstLeadingBit", &[i32v(-8)])), 2);
        assert_eq!(int(eval("firstLeadingBit", &[u32v(0x10)])), 4);
        assert_eq!(
            int(eval("firstTrailingBit", &[u32v(0)])),
            i128::from(u32::MAX)
        );
        // extractBits(0xF0, 4, 4) = 0xF; as i32 the field's top bit sign-extends to -1.
        assert_eq!(
            int(eval("extractBits", &[u32v(0xF0), u32v(4), u32v(4)])),
            15
        );
        assert_eq!(
            int(eval("extractBits", &[i32v(0xF0), u32v(4), u32v(4)])),
            -1
        );
        // insertBits(0, 0b101, 8, 3) = 0x500.
        assert_eq!(
            int(eval("insertBits", &[u32v(0), u32v(5), u32v(8), u32v(3)])),
            0x500
        );
        assert_eq!(int(eval("reverseBits", &[u32v(1)])), 0x8000_0000);
    }

    #[test]
    fn packing_by_the_spec_formulas() {
        // pack4x8unorm(1, 0.5, 0, 0): floor(0.5 + 255) = 255, floor(0.5 + 127.5) = 128.
        let v = [f32v(1.0), f32v(0.5), f32v(0.0), f32v(0.0)];
        assert_eq!(int(eval("pack4x8unorm", &v)), 0x80ff);
        // pack4x8snorm(-1, 1, 0, 0.5): -127 = 0x81, 127 = 0x7f, 0, floor(64) = 0x40.
        let v = [f32v(-1.0), f32v(1.0), f32v(0.0), f32v(0.5)];
        assert_eq!(int(eval("pack4x8snorm", &v)), 0x4000_7f81);
        // pack4xI8Clamp(300, -300, -1, 5) = 0x05ff807f.
        let v = [i32v(300), i32v(-300), i32v(-1), i32v(5)];
        assert_eq!(int(eval("pack4xI8Clamp", &v)), 0x05ff_807f);
        // dot4I8Packed(0x02_ff_03_04, 0x01_01_01_02): 4*2 + 3*1 + (-1)*1 + 2*1 = 12.
        assert_eq!(
            int(eval(
                "dot4I8Packed",
                &[u32v(0x02ff_0304), u32v(0x0101_0102)]
            )),
            12
        );
        // pack2x16float(1.0, -2.0): 0x3c00 | 0xc000 << 16.
        assert_eq!(
            int(eval("pack2x16float", &[f32v(1.0), f32v(-2.0)])),
            0xc000_3c00
        );
        assert_eq!(num(eval("unpack4x8snorm", &[u32v(0x81), u32v(0)])), -1.0);
        assert_eq!(int(eval("unpack4xI8", &[u32v(0x80_00), u32v(1)])), -128);
    }

    #[test]
    fn frexp_and_modf() {
        assert_eq!(frexp(8.0), (0.5, 4));
        assert_eq!(frexp(-3.0), (-0.75, 2));
        assert_eq!(num(eval("modf.fract", &[f32v(-2.5)])), -0.5);
        assert_eq!(num(eval("modf.whole", &[f32v(-2.5)])), -2.0);
    }

    #[test]
    fn f32_results_of_inexact_builtins_carry_the_spec_bound() {
        // WGSL § 15.7.4, f32 column: inverseSqrt 2 ULP; exp 3 + 2|x| ULP (x = 1.5: 3 + 3 = 6);
        // log 3 ULP outside [0.5, 2] (x = 4) and an absolute bound inside (x = 1); atan 4096.
        let ulp = |r: Result<KVal, String>| r.ok().and_then(|v| v.approx()).and_then(|a| a.ulp());
        assert_eq!(ulp(eval("inverseSqrt", &[f32v(4.0)])), Some(2));
        assert_eq!(ulp(eval("exp", &[f32v(1.5)])), Some(6));
        assert_eq!(ulp(eval("exp2", &[f32v(-0.25)])), Some(3));
        assert_eq!(ulp(eval("log", &[f32v(4.0)])), Some(3));
        let inside = eval("log", &[f32v(1.0)]).ok().and_then(|v| v.approx());
        assert_eq!(
            inside.map(|a| a.bound),
            Some(crate::accuracy::Bound::AbsPow2(-21.0))
        );
        assert_eq!(ulp(eval("atan", &[f32v(1.0)])), Some(4096));
        // Correctly rounded built-ins carry nothing.
        assert!(eval("floor", &[f32v(1.5)])
            .ok()
            .and_then(|v| v.approx())
            .is_none());
        assert_eq!(
            eval("inverseSqrt", &[f32v(4.0)])
                .ok()
                .and_then(|v| v.approx())
                .map(|a| a.name()),
            Some("inverseSqrt")
        );
    }

    /// `round` of a value that may be off at a tie (q8_block_quant's `round(v / d)` with the
    /// quotient -63.5 ± 3 ulp): the device may round to -63 where the emulator gives -64
    /// (ties to even), so the result carries an error of at least 1 (the integer step) plus a
    /// rounding.
    #[test]
    fn round_of_an_uncertain_tie_carries_the_step() {
        use crate::accuracy::{Approx, Bound, Fmt};
        let q = KVal::approx_float(
            Scalar::F32,
            -63.5,
            Some(Approx::own(0, Bound::Ulp(3), -63.5, Fmt::F32)),
        );
        let r = eval("round", &[q]).expect("rounds");
        assert_eq!(r.as_f64(), Some(-64.0));
        let err = r.approx().map(|a| f64::from(a.err)).unwrap_or(0.0);
        // 1 for the step, plus one ulp of 64 (2^-17) for the rounding.
        assert!((1.0..1.0 + 2f64.powi(-16)).contains(&err), "{err}");
    }
}
