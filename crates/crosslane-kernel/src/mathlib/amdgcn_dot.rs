//! clang's AMDGPU dot-product and approximate-math built-ins, and the ROCm device libraries'
//! OCML single-precision functions that HIP's math headers call.
//!
//! **Dot products** (clang `BuiltinsAMDGPU.def`, "Deep learning builtins"; semantics: the
//! instructions' pseudocode in AMD's ISA guides, "AMD RDNA3 ISA" and "AMD Instinct MI300
//! (CDNA3) ISA", VOP3P opcodes):
//! - `int __builtin_amdgcn_sdot4(int a, int b, int c, bool clamp)`: `V_DOT4_I32_I8`, the four
//!   products of the signed bytes of `a` and `b` (byte k with byte k) added to `c`;
//! - `unsigned __builtin_amdgcn_udot4(unsigned a, unsigned b, unsigned c, bool clamp)`:
//!   `V_DOT4_U32_U8`, the same with unsigned bytes;
//! - `int __builtin_amdgcn_sudot4(bool a_signed, int a, bool b_signed, int b, int c, bool
//!   clamp)`: `V_DOT4_I32_IU8` (GFX11+), each operand's bytes signed or unsigned as its flag
//!   says (the instruction's NEG bits);
//! - `float __builtin_amdgcn_fdot2(half2 a, half2 b, float c, bool clamp)`: `V_DOT2_F32_F16`,
//!   `tmp = c; tmp += a.x·b.x; tmp += a.y·b.y` in single precision (each product of two halves
//!   is exact in `float`; each add rounds to nearest even).
//!
//! With `clamp` false an integer sum wraps modulo 2³² (the adds of the pseudocode); with it the
//! result saturates to the destination's range, and `fdot2`'s float result is clamped to
//! [0.0, 1.0]. Source: the VOP3P `clamp` bit, LLVM `docs/AMDGPUModifierSyntax.rst`, "clamp":
//! "For integer operations, clamp modifier indicates that the result must be clamped to the
//! largest and smallest representable value"; "For floating-point operations … clamped to
//! the range [0.0, 1.0]". A NaN `fdot2` result under the clamp depends on the kernel's
//! DX10_CLAMP mode bit (AMD ISA guides, MODE register: set, NaN clamps to zero; clear, NaN
//! passes through; gfx12 has no such bit), which crosslane does not model: that lane's result
//! is undefined with a message.
//!
//! **Which targets have them** (clang `BuiltinsAMDGPU.def`: each builtin's required target
//! feature; the features per processor: clang `test/CodeGenOpenCL/amdgpu-features.cl`):
//! `sdot4` needs `dot1-insts` (gfx90a, gfx942, gfx950, gfx1030 — not GFX9 gfx900 nor GFX11/12),
//! `udot4` `dot7-insts` and `fdot2` `dot10-insts` (all the known targets but gfx900),
//! `sudot4` `dot8-insts` (gfx1100, gfx1150, gfx1200). A call on a target without the feature
//! is refused before the run, naming the targets that have it ([`target_refusal`]).
//!
//! **Approximate math** (every target): `__builtin_amdgcn_rcpf` (`V_RCP_F32`, 1/x),
//! `__builtin_amdgcn_rsqf` (`V_RSQ_F32`, 1/√x) and `__builtin_amdgcn_exp2f` (`V_EXP_F32`,
//! 2ˣ). The ISA guides give each "1 ULP" of precision; the value computed here is the
//! correctly rounded one and carries a 1-ulp note naming the instruction, as the other
//! approximate functions of the math library do ([`super::Approx`]).
//!
//! **OCML** (ROCm-Device-Libs, `ocml.h`: `__ocml_exp2_f32` and kin, the functions HIP's
//! `expf`, `exp2f`, `sqrtf`, … are defined with in `__clang_hip_math.h`): `__ocml_NAME_f32`
//! runs as the math library's `NAMEf` ([`ocml_alias`]), with the same notes, HIP's table's
//! in a HIP launch.

use super::{noted_result, Bound};
use crate::types::{KVal, Scalar};

/// The source of the approximate instructions' notes.
pub const SRC_ISA: &str = "AMD RDNA3 ISA / AMD Instinct MI300 (CDNA3) ISA";

/// Id of the first note of an approximate instruction: `AMD_NOTES + row of [`APPROX`]` (past
/// the half functions' ids, which start at 3000).
pub const AMD_NOTES: u16 = 5000;

/// The approximate built-ins and their instructions.
const APPROX: &[(&str, &str)] = &[
    ("__builtin_amdgcn_rcpf", "V_RCP_F32"),
    ("__builtin_amdgcn_rsqf", "V_RSQ_F32"),
    ("__builtin_amdgcn_exp2f", "V_EXP_F32"),
];

/// A dot-product built-in: name, argument count, result type, required target feature,
/// instruction.
struct Dot {
    name: &'static str,
    arity: usize,
    ty: Scalar,
    feature: &'static str,
    insn: &'static str,
}

const DOTS: &[Dot] = &[
    Dot {
        name: "__builtin_amdgcn_sdot4",
        arity: 4,
        ty: Scalar::I32,
        feature: "dot1-insts",
        insn: "V_DOT4_I32_I8",
    },
    Dot {
        name: "__builtin_amdgcn_udot4",
        arity: 4,
        ty: Scalar::U32,
        feature: "dot7-insts",
        insn: "V_DOT4_U32_U8",
    },
    Dot {
        name: "__builtin_amdgcn_sudot4",
        arity: 6,
        ty: Scalar::I32,
        feature: "dot8-insts",
        insn: "V_DOT4_I32_IU8",
    },
    Dot {
        name: "__builtin_amdgcn_fdot2",
        arity: 4,
        ty: Scalar::F32,
        feature: "dot10-insts",
        insn: "V_DOT2_F32_F16",
    },
];

/// The known targets with each dot feature (clang `amdgpu-features.cl`; gfx900 has none).
const FEATURES: &[(&str, &[&str])] = &[
    ("dot1-insts", &["gfx90a", "gfx942", "gfx950", "gfx1030"]),
    (
        "dot7-insts",
        &[
            "gfx90a", "gfx942", "gfx950", "gfx1030", "gfx1100", "gfx1150", "gfx1200",
        ],
    ),
    ("dot8-insts", &["gfx1100", "gfx1150", "gfx1200"]),
    (
        "dot10-insts",
        &[
            "gfx90a", "gfx942", "gfx950", "gfx1030", "gfx1100", "gfx1150", "gfx1200",
        ],
    ),
];

/// Every target [`FEATURES`] knows.
const KNOWN: &[&str] = &[
    "gfx900", "gfx90a", "gfx942", "gfx950", "gfx1030", "gfx1100", "gfx1150", "gfx1200",
];

/// The OCML functions run as the math library's (`__ocml_exp2_f32` → `exp2f`).
const OCML: &[&str] = &[
    "exp", "exp2", "exp10", "expm1", "log", "log2", "log10", "log1p", "sqrt", "rsqrt", "cbrt",
    "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "asinh", "acosh",
    "atanh", "pow", "erf", "erfc", "fabs", "floor", "ceil", "trunc", "round", "rint", "fma",
    "fmax", "fmin", "fmod", "hypot", "fdim", "copysign",
];

/// The math library's name for OCML function `name` (`__ocml_exp2_f32` → `exp2f`), `None`
/// for any other name.
pub fn ocml_alias(name: &str) -> Option<String> {
    let base = name.strip_prefix("__ocml_")?.strip_suffix("_f32")?;
    OCML.contains(&base).then(|| format!("{base}f"))
}

/// Whether `name` is one of the dot-product or approximate built-ins.
pub fn is_builtin(name: &str) -> bool {
    DOTS.iter().any(|d| d.name == name) || APPROX.iter().any(|(n, _)| *n == name)
}

/// The argument count of a built-in of this module.
pub fn arity(name: &str) -> Option<usize> {
    if let Some(d) = DOTS.iter().find(|d| d.name == name) {
        return Some(d.arity);
    }
    APPROX.iter().any(|(n, _)| *n == name).then_some(1)
}

/// The result type of a built-in of this module (clang's prototype).
pub fn result_type(name: &str) -> Option<Scalar> {
    if let Some(d) = DOTS.iter().find(|d| d.name == name) {
        return Some(d.ty);
    }
    APPROX
        .iter()
        .any(|(n, _)| *n == name)
        .then_some(Scalar::F32)
}

/// The refusal of dot built-in `name` on AMD target `target` when the target lacks its
/// instruction: "`__builtin_amdgcn_sdot4` (V_DOT4_I32_I8) does not exist on gfx1100; it
/// exists on gfx90a, …". `None` when it exists there, for another name, or for a target
/// this table does not know (or none: a CUDA run).
pub fn target_refusal(name: &str, target: Option<&str>) -> Option<String> {
    let d = DOTS.iter().find(|d| d.name == name)?;
    let t = target?;
    if !KNOWN.contains(&t) {
        return None;
    }
    let (_, with) = FEATURES.iter().find(|(f, _)| *f == d.feature)?;
    if with.contains(&t) {
        return None;
    }
    Some(format!(
        "`{name}` ({}) does not exist on {t}; it exists on {} (clang BuiltinsAMDGPU.def: the \
         builtin needs target feature {}); pick one with --arch, or write the four byte \
         products out",
        d.insn,
        with.join(", "),
        d.feature
    ))
}

/// The note name and source of note id `id`, when it is one of this module's.
pub fn note_name(id: u16) -> Option<(&'static str, &'static str)> {
    let (_, insn) = APPROX.get(usize::from(id.checked_sub(AMD_NOTES)?))?;
    Some((insn, SRC_ISA))
}

/// Runs built-in `name` on one lane's arguments; `None` when it is not one of this module's.
///
/// # Errors
/// A missing or non-numeric argument; `fdot2` with `clamp` true whose sum is NaN.
pub fn call(name: &str, args: &[KVal]) -> Option<Result<KVal, String>> {
    if let Some(k) = APPROX.iter().position(|(n, _)| *n == name) {
        return Some(approx(name, k, args));
    }
    let d = DOTS.iter().find(|d| d.name == name)?;
    if args.len() != d.arity {
        return Some(Err(format!(
            "`{name}` takes {} arguments, got {}",
            d.arity,
            args.len()
        )));
    }
    Some(if d.ty == Scalar::F32 {
        fdot2_call(name, args)
    } else {
        int_dot(name, args)
    })
}

fn int_arg(name: &str, args: &[KVal], k: usize) -> Result<i128, String> {
    args.get(k)
        .and_then(KVal::as_int)
        .ok_or_else(|| format!("`{name}` needs an integer as argument {}", k + 1))
}

fn int_dot(name: &str, args: &[KVal]) -> Result<KVal, String> {
    let v: Vec<i128> = (0..args.len())
        .map(|k| int_arg(name, args, k))
        .collect::<Result<_, _>>()?;
    Ok(match name {
        "__builtin_amdgcn_sdot4" => KVal::int(
            Scalar::I32,
            i128::from(dot4_i32(
                v[0] as u32,
                true,
                v[1] as u32,
                true,
                v[2] as u32,
                v[3] != 0,
            )),
        ),
        "__builtin_amdgcn_sudot4" => KVal::int(
            Scalar::I32,
            i128::from(dot4_i32(
                v[1] as u32,
                v[0] != 0,
                v[3] as u32,
                v[2] != 0,
                v[4] as u32,
                v[5] != 0,
            )),
        ),
        _ => KVal::int(
            Scalar::U32,
            i128::from(udot4(v[0] as u32, v[1] as u32, v[2] as u32, v[3] != 0)),
        ),
    })
}

/// Byte `k` of `x`, sign-extended when `signed`.
fn byte(x: u32, k: u32, signed: bool) -> i64 {
    let b = (x >> (8 * k)) & 0xff;
    if signed {
        i64::from(b as u8 as i8)
    } else {
        i64::from(b)
    }
}

/// `V_DOT4_I32_I8` (both operands signed) and `V_DOT4_I32_IU8`: `c + Σ a[k]·b[k]` as a 32-bit
/// signed integer, wrapped, or saturated to [−2³¹, 2³¹ − 1] with `clamp`.
fn dot4_i32(a: u32, a_signed: bool, b: u32, b_signed: bool, c: u32, clamp: bool) -> i32 {
    let sum = (0..4).fold(i64::from(c as i32), |s, k| {
        s + byte(a, k, a_signed) * byte(b, k, b_signed)
    });
    if clamp {
        sum.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
    } else {
        sum as i32
    }
}

/// `V_DOT4_U32_U8`: `c + Σ a[k]·b[k]` of unsigned bytes, wrapped, or saturated to 2³² − 1.
fn udot4(a: u32, b: u32, c: u32, clamp: bool) -> u32 {
    let sum = (0..4).fold(u64::from(c), |s, k| {
        s + (byte(a, k, false) * byte(b, k, false)) as u64
    });
    if clamp {
        sum.min(u64::from(u32::MAX)) as u32
    } else {
        sum as u32
    }
}

/// The two halves of a `half2` argument.
fn halves(name: &str, v: Option<&KVal>, k: usize) -> Result<[f32; 2], String> {
    match v {
        Some(KVal::Vector { items, .. }) if items.len() == 2 => {
            let h = |i: usize| items[i].as_f64().map(|x| x as f32);
            match (h(0), h(1)) {
                (Some(x), Some(y)) => Ok([x, y]),
                _ => Err(format!("`{name}`: argument {} has no value", k + 1)),
            }
        }
        _ => Err(format!("`{name}` takes a half2 as argument {}", k + 1)),
    }
}

fn fdot2_call(name: &str, args: &[KVal]) -> Result<KVal, String> {
    let a = halves(name, args.first(), 0)?;
    let b = halves(name, args.get(1), 1)?;
    let c = args
        .get(2)
        .and_then(KVal::as_f64)
        .ok_or_else(|| format!("`{name}` needs a float as argument 3"))? as f32;
    let v = fdot2(a, b, c);
    let v = if int_arg(name, args, 3)? != 0 {
        clamp01(v).ok_or_else(|| {
            format!(
                "`{name}` with clamp = true: the sum is NaN, and V_DOT2_F32_F16's clamp of a \
                 NaN is 0.0 or NaN by the kernel's DX10_CLAMP mode bit (AMD ISA, MODE \
                 register), which crosslane does not model; test the inputs with isnan first"
            )
        })?
    } else {
        v
    };
    Ok(KVal::float(Scalar::F32, f64::from(v)))
}

/// The VOP3 float clamp: `v` limited to [0.0, 1.0] (LLVM `AMDGPUModifierSyntax.rst`, "clamp");
/// `None` for a NaN, whose clamp the DX10_CLAMP mode bit decides. −0.0 lies in the range and
/// is kept.
fn clamp01(v: f32) -> Option<f32> {
    if v.is_nan() {
        None
    } else if v > 1.0 {
        Some(1.0)
    } else if v < 0.0 {
        Some(0.0)
    } else {
        Some(v)
    }
}

/// `V_DOT2_F32_F16`: `tmp = c; tmp += a0·b0; tmp += a1·b1`, each add rounded to `float` (the
/// products of halves are exact in `float`: 11 × 11 significant bits).
fn fdot2(a: [f32; 2], b: [f32; 2], c: f32) -> f32 {
    let t = c + a[0] * b[0];
    t + a[1] * b[1]
}

fn approx(name: &str, k: usize, args: &[KVal]) -> Result<KVal, String> {
    let x = args
        .first()
        .and_then(KVal::as_f64)
        .ok_or_else(|| format!("`{name}` needs a float argument"))?;
    let x = f64::from(x as f32);
    let f = move |p: &[f64]| {
        let x = p[0];
        let v = match k {
            0 => 1.0 / x,
            1 => 1.0 / x.sqrt(),
            _ => x.exp2(),
        };
        f64::from(v as f32)
    };
    let id = AMD_NOTES + k as u16;
    Ok(noted_result(
        Scalar::F32,
        f(&[x]),
        Some((id, Bound::Ulp(1))),
        args,
        &[x],
        &f,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_products_by_the_pseudocode() {
        // a = 0x01FF7F80: bytes (low first) 0x80 = −128, 0x7F = 127, 0xFF = −1, 0x01 = 1;
        // b = 0x02030405: 5, 4, 3, 2. −640 + 508 − 3 + 2 = −133; + c (10) = −123.
        assert_eq!(
            dot4_i32(0x01FF_7F80, true, 0x0203_0405, true, 10, false),
            -123
        );
        // Unsigned a: 128·5 + 127·4 + 255·3 + 1·2 = 640 + 508 + 765 + 2 = 1915; + 10.
        assert_eq!(
            dot4_i32(0x01FF_7F80, false, 0x0203_0405, true, 10, false),
            1925
        );
        assert_eq!(udot4(0x01FF_7F80, 0x0203_0405, 10, false), 1925);
        // Saturation: i32::MAX + 1·1 clamps to i32::MAX, wraps to i32::MIN without clamp.
        let max = i32::MAX as u32;
        assert_eq!(dot4_i32(1, true, 1, true, max, true), i32::MAX);
        assert_eq!(dot4_i32(1, true, 1, true, max, false), i32::MIN);
        // (−128)·(−128)·4 = 65536 added to c = −2³¹: −2147483648 + 65536, in range.
        assert_eq!(
            dot4_i32(0x8080_8080, true, 0x8080_8080, true, 0x8000_0000, true),
            -2_147_418_112
        );
        // Below the range: −2³¹ + (−1)·1 saturates to −2³¹ with clamp, wraps to 2³¹ − 1.
        assert_eq!(dot4_i32(0xff, true, 1, true, 0x8000_0000, true), i32::MIN);
        assert_eq!(dot4_i32(0xff, true, 1, true, 0x8000_0000, false), i32::MAX);
        // u32: 0xFFFFFFFF + 255·255 saturates, or wraps to 255·255 − 1 = 65024.
        assert_eq!(udot4(0xff, 0xff, u32::MAX, true), u32::MAX);
        assert_eq!(udot4(0xff, 0xff, u32::MAX, false), 65024);
    }

    #[test]
    fn fdot2_rounds_after_each_add() {
        // 1 + 0.5·0.5 + 2·3 = 7.25 exactly.
        assert_eq!(fdot2([0.5, 2.0], [0.5, 3.0], 1.0), 7.25);
        // c = 2^24: c + 1·1 rounds to 2^24 (ties to even), then + 1·1 again: 2^24. A single
        // rounding of the exact sum 2^24 + 2 would give 2^24 + 2.
        let c = 16_777_216.0f32;
        assert_eq!(fdot2([1.0, 1.0], [1.0, 1.0], c), c);
    }

    #[test]
    fn the_float_clamp_limits_to_the_unit_interval() {
        assert_eq!(clamp01(7.25), Some(1.0));
        assert_eq!(clamp01(-3.0), Some(0.0));
        assert_eq!(clamp01(0.375), Some(0.375));
        assert_eq!(clamp01(f32::INFINITY), Some(1.0));
        assert_eq!(clamp01(f32::NEG_INFINITY), Some(0.0));
        assert_eq!(clamp01(f32::NAN), None);
    }

    #[test]
    fn targets_without_the_feature_are_named() {
        let m = target_refusal("__builtin_amdgcn_sdot4", Some("gfx1100")).expect("refused");
        assert!(m.contains("V_DOT4_I32_I8") && m.contains("gfx90a, gfx942, gfx950, gfx1030"));
        assert!(target_refusal("__builtin_amdgcn_sdot4", Some("gfx942")).is_none());
        assert!(target_refusal("__builtin_amdgcn_sudot4", Some("gfx1030")).is_some());
        assert!(target_refusal("__builtin_amdgcn_sudot4", Some("gfx1150")).is_none());
        assert!(target_refusal("__builtin_amdgcn_udot4", Some("gfx900")).is_some());
        assert!(target_refusal("__builtin_amdgcn_rcpf", Some("gfx900")).is_none());
        assert_eq!(ocml_alias("__ocml_exp2_f32").as_deref(), Some("exp2f"));
        assert_eq!(ocml_alias("__ocml_exp2_f64"), None);
    }
}
