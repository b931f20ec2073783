//! The CUDA Math API in kernels, with HIP's and MACA's same-named functions: the single- and
//! double-precision standard functions ([`table`]), the intrinsics with their rounding modes
//! and documented fast paths ([`intrinsics`]), the integer intrinsics ([`integer`]), the
//! SIMD intrinsics on packed bytes and halfwords ([`simd`]), the float-to-integer type casting
//! intrinsics (`__float2int_rn`, `__double2ull_rz`: [`cast`]) and a `double`'s bits
//! (`__double_as_longlong`: [`double_bits`]), clang's AMDGPU bit built-ins
//! `ubfe`/`sbfe`/`perm` ([`amdgcn`]), the
//! constants of `float.h`, `math.h` and `math_constants.h` ([`constants`]), the special
//! functions `libm` lacks (`erfcx`, `normcdfinv`, `cyl_bessel_i0`, `norm3d`: [`special`]), and the
//! half-precision math functions of `cuda_fp16.h` / `cuda_bf16.h` ([`half_fns`]: `hexp`,
//! `h2rsqrt`, …).
//!
//! **What is computed.** A function whose result IEEE 754 defines exactly (`sqrtf`, `fmaf`,
//! `floorf`, `fmodf`, `__fadd_rz`, …) gives that result. Every other function gives the
//! correctly rounded value in practice: a `float` function is evaluated by the `libm` crate's
//! double-precision function at the (exact) `float` argument and rounded once to `float` (the
//! double result is within one double ulp, so the rounding is the correctly rounded `float`
//! except in rare double-rounding cases); a `double` function is the `libm` crate's (within
//! about one ulp). The device's result of such a function may differ from this value by the
//! maximum error the vendor documents, and the result says so: it carries an [`Approx`] —
//! the function, its bound, and the absolute error carried to the value — which arithmetic
//! on it propagates (each operation over its operands' intervals plus one rounding:
//! [`Approx::propagate`]), the JSON shows as `"ulp"` (the carried bound in ulps of the
//! value), and the trace as "device may differ by ≤ N ulp (CUDA Math API, expf)" or, after
//! arithmetic, "… (CUDA Math API, expf, then 9 operations)".
//!
//! **Sources.** NVIDIA, CUDA C++ Programming Guide, appendix "Mathematical Functions":
//! "Single-Precision Floating-Point Functions", "Double-Precision Floating-Point Functions"
//! (maximum ulp error tables) and "Intrinsic Functions"; CUDA Math API reference (the
//! functions' definitions: `__fdividef`'s range rule, `__saturatef`, the integer intrinsics).
//! HIP (ROCm, "HIP math API") and MACA provide the same functions under the same names. A HIP
//! kernel's notes use ROCm's own table where it has the function ([`hip`]: a different
//! measure, against the C++ standard library over a test range, which the note states); MACA's
//! and every other dialect's are CUDA's.

/// The result type of a float-to-integer casting intrinsic (`__float2uint_rn`: [`cast`]), of a SIMD video intrinsic (`__vadd4`: `unsigned int`, CUDA Math API "SIMD
/// Intrinsics") or an AMD bit / clock builtin (`__builtin_amdgcn_ubfe` and `perm`: `unsigned
/// int`, `sbfe`: `int`, `s_memtime` / `s_memrealtime`: `unsigned long`, as clang declares them);
/// `None` for any other name.
pub(crate) fn bit_builtin_scalar(name: &str) -> Option<crate::types::Scalar> {
    use crate::types::Scalar;
    match name {
        n if simd::is_simd(n) => Some(Scalar::U32),
        n if cast::is_cast(n) => cast::result_type(n),
        n if double_bits::is_double_bits(n) => double_bits::result_type(n),
        "__builtin_amdgcn_ubfe" | "__builtin_amdgcn_perm" => Some(Scalar::U32),
        "__builtin_amdgcn_sbfe" => Some(Scalar::I32),
        amdgcn::FMED3F => Some(Scalar::F32),
        n if amdgcn_dot::result_type(n).is_some() => amdgcn_dot::result_type(n),
        n if amdgcn_fp8::is_builtin(n) => amdgcn_fp8::result_type(n),
        "__builtin_amdgcn_s_memtime" | "__builtin_amdgcn_s_memrealtime" => Some(Scalar::U64),
        _ => None,
    }
}

pub mod amdgcn;
pub mod amdgcn_dot;
pub mod amdgcn_fp8;
pub mod cast;
pub mod constants;
pub mod double_bits;
pub mod half_fns;
pub mod hip;
pub mod integer;
pub mod intrinsics;
pub mod simd;
pub mod special;
pub mod table;
pub mod to_float;

use serde::Serialize;

pub use super::accuracy::{Approx, Bound};
use super::types::{KVal, Scalar};

pub use constants::{builtin_call, constant};

/// The single-precision table.
pub const SRC_F32: &str =
    "CUDA C++ Programming Guide, Mathematical Functions, Single-Precision Floating-Point Functions";
/// The double-precision table.
pub const SRC_F64: &str =
    "CUDA C++ Programming Guide, Mathematical Functions, Double-Precision Floating-Point Functions";

/// The intrinsics table.
pub const SRC_INTR: &str =
    "CUDA C++ Programming Guide, Mathematical Functions, Intrinsic Functions";

/// The bounds of inline PTX's approximate instructions ([`crate::ptx_ops`]).
pub const SRC_PTX: &str = "PTX ISA 8.5, Floating-Point Instructions";

/// The WGSL built-ins' bounds (the f32 column), for the notes WGSL results carry.
pub const SRC_WGSL: &str = "WGSL spec, § 15.7.4 Floating Point Accuracy (f32)";

/// Id of the first intrinsic note (notes below it are `2 * row + single`).
pub const INTRINSIC_NOTES: u16 = 1000;

/// The function name and the source of note id `id` ([`Approx::function`]).
pub fn note_name(id: u16) -> (&'static str, &'static str) {
    if let Some(n) = hip::note_name(id) {
        return n;
    }
    if let Some(n) = amdgcn_dot::note_name(id) {
        return n;
    }
    if let Some(n) = half_fns::note_name(id) {
        return n;
    }
    if id >= INTRINSIC_NOTES {
        return intrinsics::note_name(id - INTRINSIC_NOTES);
    }
    match table::ROWS.get(usize::from(id / 2)) {
        Some(r) if id % 2 == 1 => (r.single, SRC_F32),
        Some(r) => (r.double, SRC_F64),
        None => ("?", ""),
    }
}

impl Approx {
    /// The function's name (`expf`).
    pub fn name(self) -> &'static str {
        note_name(self.function).0
    }

    /// The document the bound is from.
    pub fn source(self) -> &'static str {
        note_name(self.function).1
    }

    /// "device may differ by ≤ 2 ulp (CUDA Math API, expf)"; a value computed from such a
    /// result states the bound carried to it and how many operations followed: "device may
    /// differ by ≤ 40 ulp (CUDA Math API, expf, then 9 operations)". A HIP note names HIP's
    /// table, its measure and the test range its bound holds on ([`hip`]); a WGSL one the
    /// spec; an inline PTX instruction's the PTX ISA ("… (PTX ISA 8.5, Floating-Point
    /// Instructions, ex2.approx.f32)").
    pub fn note(self) -> String {
        let after = self.ops_words();
        match hip::range_words(self.function) {
            Some(range) => format!(
                "device may differ {} (HIP math API, {}{after}, against the C++ standard library; HIP states its bound for {range})",
                self.words(),
                self.name()
            ),
            None if self.source() == SRC_PTX => format!(
                "device may differ {} ({SRC_PTX}, {}{after})",
                self.words(),
                self.name()
            ),
            None if self.source() == amdgcn_dot::SRC_ISA => format!(
                "device may differ {} ({}, {}{after})",
                self.words(),
                amdgcn_dot::SRC_ISA,
                self.name()
            ),
            None if self.source() == SRC_WGSL => format!(
                "device may differ {} (WGSL spec, {}{after})",
                self.words(),
                self.name()
            ),
            None => format!(
                "device may differ {} (CUDA Math API, {}{after})",
                self.words(),
                self.name()
            ),
        }
    }
}

impl Serialize for Approx {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("Approx", 4)?;
        st.serialize_field("ulp", &self.ulp())?;
        st.serialize_field(
            "abs_error_log2",
            &match self.bound {
                Bound::AbsPow2(e) => Some(e),
                _ => None,
            },
        )?;
        st.serialize_field("function", self.name())?;
        st.serialize_field("note", &self.note())?;
        st.end()
    }
}

/// What a math call gives: its value, and the values it stores through pointer arguments
/// (`sincosf(x, &s, &c)`: argument 1 gets the sine, argument 2 the cosine).
#[derive(Clone, Debug, PartialEq)]
pub struct Call {
    /// The result (`void` functions: an `int` 0 nobody reads).
    pub value: KVal,
    /// `(argument index, value)` for each pointer argument written.
    pub stores: Vec<(usize, KVal)>,
}

impl Call {
    fn value(value: KVal) -> Self {
        Call {
            value,
            stores: Vec::new(),
        }
    }
}

/// Whether `name` is a function of this library.
pub fn is_math(name: &str) -> bool {
    table::find(name).is_some()
        || intrinsics::is_intrinsic(name)
        || half_fns::is_half_fn(name)
        || integer::is_integer(name)
        || simd::is_simd(name)
        || amdgcn::is_amdgcn(name)
        || amdgcn_dot::is_builtin(name)
        || amdgcn_fp8::is_builtin(name)
        || amdgcn_dot::ocml_alias(name).is_some()
        || cast::is_cast(name)
        || to_float::is_to_float(name)
        || double_bits::is_double_bits(name)
        || table::OUT_PARAMS.iter().any(|(n, _)| *n == name)
}

/// The exact number of arguments `name` takes, for the functions whose count is checked before
/// the run (the SIMD intrinsics and the AMD bit built-ins); `None` for any other name.
pub fn fixed_arity(name: &str) -> Option<usize> {
    simd::arity(name)
        .or_else(|| amdgcn::is_amdgcn(name).then_some(3))
        .or_else(|| amdgcn_dot::arity(name))
        .or_else(|| amdgcn_fp8::arity(name))
}

/// The arguments of `name` that are pointers it stores through (`sincosf`: 1 and 2), if any.
pub fn out_params(name: &str) -> Option<&'static [usize]> {
    table::OUT_PARAMS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, a)| *a)
}

/// Applies `name` to one lane's arguments (pointer arguments of [`out_params`] functions are
/// not read: pass anything there). `None` when `name` is not a function of this library.
///
/// # Errors
/// A message naming the function when there are too few arguments or one is not a number.
pub fn call(name: &str, args: &[KVal]) -> Option<Result<Call, String>> {
    // `__ocml_exp2_f32` is `exp2f` ([`amdgcn_dot::ocml_alias`]).
    if let Some(alias) = amdgcn_dot::ocml_alias(name) {
        return call(&alias, args);
    }
    if let Some(r) = amdgcn_dot::call(name, args) {
        return Some(r.map(Call::value));
    }
    if let Some(r) = table::call(name, args) {
        return Some(r);
    }
    if let Some(r) = intrinsics::call(name, args) {
        return Some(r.map(Call::value));
    }
    if let Some(r) = half_fns::call(name, args) {
        return Some(r.map(Call::value));
    }
    if let Some(r) = simd::call(name, args) {
        return Some(r.map(Call::value));
    }
    if let Some(r) = amdgcn::call(name, args) {
        return Some(r.map(Call::value));
    }
    // CUDA's rule (PTX `cvt`: clamped); a HIP launch calls `cast::call` with HIP's rule first.
    if let Some(r) = cast::call(name, args, cast::Rule::Saturate) {
        return Some(r.map(Call::value));
    }
    if let Some(r) = to_float::call(name, args) {
        return Some(r.map(Call::value));
    }
    if let Some(r) = double_bits::call(name, args) {
        return Some(r.map(Call::value));
    }
    integer::call(name, args).map(|r| r.map(Call::value))
}

/// The numeric value of argument `k`, or an error naming the function.
fn num(name: &str, args: &[KVal], k: usize) -> Result<f64, String> {
    match args.get(k) {
        Some(v) => v
            .as_f64()
            .ok_or_else(|| format!("`{name}` needs a number as argument {}", k + 1)),
        None => Err(format!(
            "`{name}` takes at least {} argument(s), got {}",
            k + 1,
            args.len()
        )),
    }
}

/// The widest accuracy note among the arguments.
fn args_note(args: &[KVal]) -> Option<Approx> {
    args.iter().filter_map(KVal::approx).reduce(Approx::wider)
}

/// The result `value` of a math call in `ty` with its note: `own`, the function's own
/// documented bound (`None`: the function is exact), plus the arguments' errors carried
/// through `f`, the function on the arguments' values `xs` (the first `xs.len()` of `args`
/// carry the notes; [`Approx::propagate`]). No note when neither is inexact.
fn noted_result(
    ty: Scalar,
    value: f64,
    own: Option<(u16, Bound)>,
    args: &[KVal],
    xs: &[f64],
    f: &dyn Fn(&[f64]) -> f64,
) -> KVal {
    if own.is_none() && args.iter().all(|a| a.approx().is_none()) {
        return KVal::float(ty, value);
    }
    let inputs: Vec<(f64, Option<Approx>)> = xs
        .iter()
        .enumerate()
        .map(|(k, &x)| (x, args.get(k).and_then(KVal::approx)))
        .collect();
    KVal::propagated(ty, value, own, &inputs, f)
}

/// Whether a call of the double-precision name works in single precision: C++ overloads the
/// `math.h` names for `float` (CUDA Math API: "`exp(float)`" is `expf`), so `exp(x)` of a
/// `float` (or `half`, which converts to `float`) is `expf`; any `double` or integer argument
/// makes it `double` (an integer converts to `double`, C++ [c.math]).
fn single_overload(args: &[KVal]) -> bool {
    single_overload_of(
        args.iter()
            .filter(|a| !matches!(a, KVal::Ptr { .. }))
            .map(|a| a.val_ty().scalar),
    )
}

/// [`single_overload`] on the arguments' scalar types (pointers left out).
fn single_overload_of(args: impl Iterator<Item = Scalar>) -> bool {
    let mut any_float = false;
    for s in args {
        match s {
            Scalar::F32 | Scalar::F16 | Scalar::Bf16 => any_float = true,
            _ => return false,
        }
    }
    any_float
}

/// The type a call of `name` returns for arguments of scalar types `args` (pointer arguments
/// left out), as its declaration in the CUDA Math API gives it: a standard function's
/// single-precision name (`expf`) returns `float`, its double-precision name `double`, or
/// `float` where every argument is a `float` (or `half`, `bfloat16`) and the `float` overload
/// is chosen (C++ [c.math]; `std::nearbyint(float)`); the classifications (`isnan`)
/// `bool`, `ilogb` `int`, `lround`/`lrint` and the `ll` forms `long` / `long long` (64-bit,
/// LP64); the fast intrinsics (`__expf`, `__fdividef`) and the rounded single-precision ones
/// (`__fadd_rn`) `float`, the double ones (`__dadd_rn`, `__fma_rn`) `double`. `None` for
/// another name (the integer functions, the vector-type ones).
pub fn result_type(name: &str, args: &[Scalar]) -> Option<Scalar> {
    if let Some(alias) = amdgcn_dot::ocml_alias(name) {
        return result_type(&alias, args);
    }
    let name = name.strip_prefix("std::").unwrap_or(name);
    if let Some((_, r, single_name)) = table::find(name) {
        // `ldexp(float, int)`: the `int` of an `FInt` row takes no part in the choice.
        let chosen = match r.eval {
            table::Eval::FInt(_) => &args[..1.min(args.len())],
            _ => args,
        };
        let single = single_name || single_overload_of(chosen.iter().copied());
        return Some(match r.eval {
            table::Eval::Pred(_) => Scalar::Bool,
            table::Eval::ToInt(_) => Scalar::I32,
            table::Eval::ToLong(_) => Scalar::I64,
            _ if single => Scalar::F32,
            _ => Scalar::F64,
        });
    }
    intrinsics::result_type(name)
        .or_else(|| cast::result_type(name))
        .or_else(|| to_float::result_type(name))
}

/// The accuracy notes of a row of values (lanes of a variable, cells of a buffer) as text
/// lines, one per distinct note with the indices it applies to: `≈ lanes 0-31: device may
/// differ by ≤ 2 ulp (CUDA Math API, expf)`. `what` names the indices (`lanes`, `cells`).
pub fn note_lines<'a>(
    what: &str,
    values: impl Iterator<Item = (usize, Option<&'a KVal>)>,
) -> Vec<String> {
    let mut groups: Vec<(String, Vec<usize>)> = Vec::new();
    for (i, v) in values {
        let Some(a) = v.and_then(KVal::approx) else {
            continue;
        };
        let note = a.note();
        match groups.iter_mut().find(|g| g.0 == note) {
            Some(g) => g.1.push(i),
            None => groups.push((note, vec![i])),
        }
    }
    groups
        .into_iter()
        .map(|(note, idx)| {
            format!(
                "≈ {what} {}: {note}",
                crosslane_core::lanes::list_lanes(&idx)
            )
        })
        .collect()
}

/// What `--use-fast-math` changes, as the trace states it at launch.
pub const FAST_MATH_NOTE: &str = "fast math (--use_fast_math): expf, exp10f, logf, log2f, log10f, sinf, cosf, tanf, powf and tanhf run as their intrinsics (__expf, …) with those bounds; float x/y may differ by ≤ 2 ulp (-prec-div=false, full range: unlike __fdividef it has no zero result for 2^126 < |y| < 2^128) and sqrtf by ≤ 1 ulp (-prec-sqrt=false, compute capability 5.2 and later; 3 ulp before); denormal float arguments and results of arithmetic and math functions are flushed to zero (-ftz=true)";

/// `op` on `a` and `b` as `--use_fast_math` compiles it (CUDA C++ Programming Guide,
/// Mathematical Functions and Intrinsic Functions; NVCC documentation, `--use_fast_math`
/// implies `--ftz=true --prec-div=false --prec-sqrt=false --fmad=true`): a `float` operation's
/// denormal operands and result are flushed to zero (PTX ISA, `.ftz`), and a `float` division
/// carries the -prec-div=false bound, 2 ulp over the full range ("x/y: 0 for compute
/// capability ≥ 2 when compiled with -prec-div=true; 2 (full range), otherwise"; "the regular
/// division / operator … delivers the correct result to within the accuracy stated" where
/// `__fdividef` gives 0). `compute` is the operation itself (the dialect's rules); any other
/// type is computed as it is.
///
/// # Errors
/// As `compute`.
pub fn fast_binary(
    op: crate::types::BinOp,
    a: &KVal,
    b: &KVal,
    compute: impl FnOnce(&KVal, &KVal) -> Result<KVal, crate::types::Fault>,
) -> Result<KVal, crate::types::Fault> {
    let single = |v: &KVal| {
        matches!(
            v,
            KVal::Float {
                ty: Scalar::F32,
                ..
            }
        )
    };
    if !single(a) && !single(b) {
        return compute(a, b);
    }
    let (a, b) = (flush_denormal(a.clone()), flush_denormal(b.clone()));
    let r = compute(&a, &b)?;
    if !single(&r) {
        return Ok(r);
    }
    let r = flush_denormal(r);
    match (op, r) {
        (crate::types::BinOp::Div, KVal::Float { ty, x, .. }) => {
            // The division's own bound, with the operands' errors carried through it.
            let div = intrinsics::named_note("x/y (-prec-div=false)", Bound::Ulp(2));
            let (p, q) = (
                a.as_f64().unwrap_or(f64::NAN),
                b.as_f64().unwrap_or(f64::NAN),
            );
            let inputs = [(p, a.approx()), (q, b.approx())];
            Ok(KVal::propagated(ty, x, div, &inputs, &|v| v[0] / v[1]))
        }
        (_, r) => Ok(r),
    }
}

/// The note a `sqrtf` result carries under `--use_fast_math` (-prec-sqrt=false): "sqrtf(x): 0
/// when compiled with -prec-sqrt=true; otherwise 1 for compute capability ≥ 5.2 and 3
/// otherwise" (CUDA C++ Programming Guide, Single-Precision Floating-Point Functions); the
/// bound of current devices, 1 ulp. `value` is the correctly rounded root.
pub fn fast_sqrt(value: KVal) -> KVal {
    match value {
        KVal::Float {
            ty: Scalar::F32,
            x,
            approx,
        } => {
            let Some((id, bound)) =
                intrinsics::named_note("sqrtf (-prec-sqrt=false)", Bound::Ulp(1))
            else {
                return KVal::Float {
                    ty: Scalar::F32,
                    x,
                    approx,
                };
            };
            let own = Approx::own(id, bound, x, crate::accuracy::Fmt::F32);
            // A root of a value that was off keeps that error (already carried through the
            // root) on top of the root's own bound.
            let approx = match approx {
                Some(old) => own.plus_inherited(old, x, crate::accuracy::Fmt::F32),
                None => own,
            };
            KVal::Float {
                ty: Scalar::F32,
                x,
                approx: Some(approx),
            }
        }
        other => other,
    }
}

/// The function nvcc's `--use_fast_math` calls for `name`: the intrinsic of the single-
/// precision functions CUDA C++ Programming Guide, "Intrinsic Functions" lists ("the
/// `-use_fast_math` compiler option … forces each function in Table … to compile to its
/// intrinsic counterpart"); every other name unchanged.
pub fn fast_math_name(name: &str) -> &str {
    match name {
        "expf" => "__expf",
        "exp10f" => "__exp10f",
        "logf" => "__logf",
        "log2f" => "__log2f",
        "log10f" => "__log10f",
        "sinf" => "__sinf",
        "cosf" => "__cosf",
        "tanf" => "__tanf",
        "powf" => "__powf",
        "tanhf" => "__tanhf",
        // CUDA Math API, `fdividef`: "If --use_fast_math is specified, use __fdividef()".
        "fdividef" => "__fdividef",
        other => other,
    }
}

/// A `float` with a denormal magnitude becomes a zero of its sign (`-ftz=true`: PTX ISA,
/// "`.ftz`: subnormal inputs and results are flushed to sign-preserving zero"); other values
/// are returned as they are.
pub fn flush_denormal(v: KVal) -> KVal {
    match v {
        KVal::Float {
            ty: Scalar::F32,
            x,
            approx,
        } if x != 0.0 && x.abs() < f64::from(f32::MIN_POSITIVE) => {
            KVal::approx_float(Scalar::F32, 0.0f64.copysign(x), approx)
        }
        other => other,
    }
}

/// [`flush_denormal`] on every argument.
pub fn flush_args(args: Vec<KVal>) -> Vec<KVal> {
    args.into_iter().map(flush_denormal).collect()
}
