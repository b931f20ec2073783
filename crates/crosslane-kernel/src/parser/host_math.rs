//! The C math library and the half conversions as host code calls them in a fill
//! (`h[i] = sinf(i * 0.1f) + sqrtf((float)i);`, `hx[i] = __float2half(0.1f * i);`): the value
//! the host computes, which the device then reads.
//!
//! `sqrtf`, `fabsf`, `floorf`, `ceilf`, `truncf`, `roundf`, `fminf`, `fmaxf`, `fmodf` and
//! `fmaf` have one exact result (C17 7.12, F.10: sqrt and fma correctly rounded as IEEE 754
//! requires; the others exact). The transcendental ones (`sinf`, `cosf`, `tanf`, `expf`,
//! `exp2f`, `logf`, `log2f`, `log10f`, `powf`, `tanhf`, `atanf`, `atan2f`) are computed in
//! `double` (the `libm` crate, the same bits natively and in wasm) and rounded once to `float`:
//! the correctly rounded result but for a rare double rounding. The C standard does not fix
//! their result (C17 F.10/1: correct rounding "is not required"), and the GNU C Library manual
//! ("Known Maximum Errors in Math Functions") says glibc does not aim for correctly rounded
//! results except sqrt and fma, listing up to 1 ulp for some `float` functions: a host
//! compiled against glibc may therefore differ from this value by at most 1 ulp of `float`.
//! The `double` forms (`sin`, `exp`, …) are `libm`'s double results, under the same caveat.
//!
//! `__float2half(x)`, `__float2half_rn(x)` and a cast to `half` round to the nearest `half`
//! (`__float2bfloat16(x)` and a cast to `__nv_bfloat16` to the nearest `bfloat16`),
//! ties to even (CUDA Math API, "Half Precision Conversion and Data Movement":
//! `__float2half` converts "in round-to-nearest-even mode"); `__half2float` is exact. The value
//! is kept as the `float` it converts to (the host `__half` operators compute in `float`).

/// A math function's result: a `float` or a `double`.
pub(super) enum MathVal {
    /// A `float`.
    F32(f32),
    /// A `double`.
    Float(f64),
}

/// The value of the host call `name(args)` of the math library or a half conversion, each
/// argument given as a `float` and as a `double` (its value converted to each, [conv.double]);
/// `None` for another function or a wrong count of arguments.
pub(super) fn host_math(name: &str, args: &[(f32, f64)]) -> Option<MathVal> {
    let name = name.strip_prefix("std::").unwrap_or(name);
    let f = |k: usize| -> Option<f32> { args.get(k).map(|a| a.0) };
    let d = |k: usize| -> Option<f64> { args.get(k).map(|a| a.1) };
    // Rounded once from the double result (see the module).
    let via = |g: fn(f64) -> f64| -> Option<MathVal> {
        (args.len() == 1).then_some(())?;
        Some(MathVal::F32(g(f64::from(f(0)?)) as f32))
    };
    let one = |g: fn(f64) -> f64| -> Option<MathVal> {
        (args.len() == 1).then_some(())?;
        Some(MathVal::Float(g(d(0)?)))
    };
    Some(match name {
        "__float2half" | "__float2half_rn" | "__half2float" if args.len() == 1 => {
            MathVal::F32(to_half(f(0)?))
        }
        // CUDA Math API, "Bfloat16 Precision Conversion and Data Movement":
        // `__float2bfloat16` converts "in round-to-nearest-even mode"; `__bfloat162float` is
        // exact.
        "__float2bfloat16" | "__float2bfloat16_rn" | "__bfloat162float" if args.len() == 1 => {
            MathVal::F32(to_bf16(f(0)?))
        }
        "sqrtf" if args.len() == 1 => MathVal::F32(f(0)?.sqrt()),
        "fabsf" if args.len() == 1 => MathVal::F32(f(0)?.abs()),
        "floorf" if args.len() == 1 => MathVal::F32(f(0)?.floor()),
        "ceilf" if args.len() == 1 => MathVal::F32(f(0)?.ceil()),
        "truncf" if args.len() == 1 => MathVal::F32(f(0)?.trunc()),
        // C17 7.12.9.6: halfway cases away from zero.
        "roundf" if args.len() == 1 => MathVal::F32(f(0)?.round()),
        "fminf" if args.len() == 2 => MathVal::F32(libm::fminf(f(0)?, f(1)?)),
        "fmaxf" if args.len() == 2 => MathVal::F32(libm::fmaxf(f(0)?, f(1)?)),
        "fmodf" if args.len() == 2 => MathVal::F32(libm::fmodf(f(0)?, f(1)?)),
        "fmaf" if args.len() == 3 => MathVal::F32(f(0)?.mul_add(f(1)?, f(2)?)),
        "sinf" => via(libm::sin)?,
        "cosf" => via(libm::cos)?,
        "tanf" => via(libm::tan)?,
        "expf" => via(libm::exp)?,
        "exp2f" => via(libm::exp2)?,
        "logf" => via(libm::log)?,
        "log2f" => via(libm::log2)?,
        "log10f" => via(libm::log10)?,
        "tanhf" => via(libm::tanh)?,
        "atanf" => via(libm::atan)?,
        "powf" if args.len() == 2 => {
            MathVal::F32(libm::pow(f64::from(f(0)?), f64::from(f(1)?)) as f32)
        }
        "atan2f" if args.len() == 2 => {
            MathVal::F32(libm::atan2(f64::from(f(0)?), f64::from(f(1)?)) as f32)
        }
        "sqrt" if args.len() == 1 => MathVal::Float(d(0)?.sqrt()),
        "fabs" if args.len() == 1 => MathVal::Float(d(0)?.abs()),
        "floor" if args.len() == 1 => MathVal::Float(d(0)?.floor()),
        "ceil" if args.len() == 1 => MathVal::Float(d(0)?.ceil()),
        "sin" => one(libm::sin)?,
        "cos" => one(libm::cos)?,
        "exp" => one(libm::exp)?,
        "log" => one(libm::log)?,
        "pow" if args.len() == 2 => MathVal::Float(libm::pow(d(0)?, d(1)?)),
        "log2" => one(libm::log2)?,
        "log10" => one(libm::log10)?,
        "exp2" => one(libm::exp2)?,
        "tanh" => one(libm::tanh)?,
        "trunc" if args.len() == 1 => MathVal::Float(d(0)?.trunc()),
        "round" if args.len() == 1 => MathVal::Float(d(0)?.round()),
        _ => return None,
    })
}

/// `x` rounded to the nearest `half`, ties to even, as the `float` it converts back to.
pub(super) fn to_half(x: f32) -> f32 {
    half::f16::from_f32(x).to_f32()
}

/// `x` rounded to the nearest `bfloat16`, ties to even, as the `float` it converts back to.
pub(super) fn to_bf16(x: f32) -> f32 {
    half::bf16::from_f32(x).to_f32()
}
