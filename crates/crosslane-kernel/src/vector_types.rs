//! CUDA and HIP vector types (`float4`, `int2`, `uchar4`, …; `__half2` and `__nv_bfloat162`
//! are pairs of 16-bit floats): their names, the `make_<type>` constructors, how a pointer to
//! them views memory holding scalars (`reinterpret_cast<float4*>(p)[i]` reads four consecutive
//! cells), their alignment, and the operators and shuffles the vendor headers define on them.
//!
//! Sources: CUDA C++ Programming Guide, "Built-in Vector Types" (the names, `make_<type>`,
//! the `x y z w` fields, and the alignment table) and "Device Memory Accesses" (a vector
//! access must be aligned to its size: "Reading non-naturally aligned 8-byte or 16-byte words
//! produces incorrect results"); "Warp Shuffle Functions" (the types `__shfl*_sync` takes);
//! CUDA's `vector_types.h` declares no operators on these types (the samples' `helper_math.h`
//! adds them; it is not part of CUDA); HIP's `amd_hip_vector_types.h` defines the arithmetic
//! operators `+ - * /` (and compound assignments) component by component (HIP Programming
//! Guide, "Vector types"); `cuda_fp16.hpp` / `cuda_bf16.hpp` define `+ - * /` on `__half2` and
//! `__nv_bfloat162` component by component and `==` etc. on them as "both halves compare"
//! (`__hbeq2`…).

use super::types::{BinOp, Fault, KVal, Scalar, UnOp, ValTy};
use crosslane_core::op::Dialect;

/// CUDA's built-in vector type named `w` (`float2`, `int4`, `uint3`, `ulonglong2`, …).
pub fn cuda_vector(w: &str) -> Option<ValTy> {
    let lanes = w.chars().last()?.to_digit(10)?;
    if !(1..=4).contains(&lanes) {
        return None;
    }
    let scalar = match w.get(..w.len() - 1)? {
        "float" => Scalar::F32,
        "double" => Scalar::F64,
        "int" => Scalar::I32,
        "uint" => Scalar::U32,
        "long" | "longlong" => Scalar::I64,
        "ulong" | "ulonglong" => Scalar::U64,
        "short" => Scalar::I16,
        "ushort" => Scalar::U16,
        "char" => Scalar::I8,
        "uchar" => Scalar::U8,
        _ => return None,
    };
    Some(ValTy {
        scalar,
        lanes: lanes as u8,
    })
}

/// The type a `make_<type>` constructor builds (`make_float4` → 4 × float), if `name` is one.
pub fn constructor(name: &str) -> Option<ValTy> {
    let w = name.strip_prefix("make_")?;
    cuda_vector(w).or_else(|| ext_vector(w))
}

/// The prefix of the type words the front end gives clang's extended vectors that no HIP or
/// CUDA vector type spells (`typedef float v8 __attribute__((ext_vector_type(8)));` names
/// `__crosslane_ext_float8`).
pub const EXT_PREFIX: &str = "__crosslane_ext_";

/// The vector type of an extended-vector word (`__crosslane_ext_float16` → 16 × `float`;
/// elements `float`, `double`, `int`, `uint`, `half` (`_Float16`), `short`, `ushort`; 2, 4, 8
/// or 16 of them): clang's extended vector of that element and count (clang Language
/// Extensions, "Vectors and Extended Vectors").
pub fn ext_vector(w: &str) -> Option<ValTy> {
    let rest = w.strip_prefix(EXT_PREFIX)?;
    let split = rest.find(|c: char| c.is_ascii_digit())?;
    let lanes: u8 = rest.get(split..)?.parse().ok()?;
    let scalar = match rest.get(..split)? {
        "float" => Scalar::F32,
        "double" => Scalar::F64,
        "int" => Scalar::I32,
        "uint" => Scalar::U32,
        "half" => Scalar::F16,
        "short" => Scalar::I16,
        "ushort" => Scalar::U16,
        _ => return None,
    };
    matches!(lanes, 2 | 4 | 8 | 16).then_some(ValTy { scalar, lanes })
}

/// The extended-vector word of `v` ([`ext_vector`]'s inverse), `None` for a type it does not
/// name.
pub fn ext_name(v: ValTy) -> Option<String> {
    let base = match v.scalar {
        Scalar::F32 => "float",
        Scalar::F64 => "double",
        Scalar::I32 => "int",
        Scalar::U32 => "uint",
        Scalar::F16 => "half",
        Scalar::I16 => "short",
        Scalar::U16 => "ushort",
        _ => return None,
    };
    matches!(v.lanes, 2 | 4 | 8 | 16).then(|| format!("{EXT_PREFIX}{base}{}", v.lanes))
}

/// `make_<type>(a, b, …)`: one argument per component, each converted to the component type
/// as an assignment converts it.
///
/// # Errors
/// A message when the count of arguments is not the type's, or a conversion is undefined.
pub fn construct(name: &str, ty: ValTy, args: &[KVal]) -> Result<KVal, String> {
    if args.len() != usize::from(ty.lanes) {
        return Err(format!(
            "`{name}` takes {} arguments, one per component, got {}",
            ty.lanes,
            args.len()
        ));
    }
    let items = args
        .iter()
        .map(|a| a.convert(ValTy::scalar(ty.scalar)))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|f| format!("`{name}`: {}", f.message))?;
    // `float1` is one float here (a 1-component vector reads as its component).
    Ok(match items.as_slice() {
        [one] => one.clone(),
        _ => KVal::Vector {
            ty: ty.scalar,
            items,
        },
    })
}

/// Bytes of one value of `ty` (components × component bytes, no padding).
pub fn size_of(ty: ValTy) -> u64 {
    u64::from(ty.scalar.bits().div_ceil(8)) * u64::from(ty.lanes.max(1))
}

/// The alignment CUDA gives `ty` in bytes (CUDA C++ Programming Guide, "Built-in Vector
/// Types", alignment table): 1- and 3-component types that of their component, 2-component
/// types twice it, 4-component types four times it but at most 16 (`double4`, `long4`).
pub fn alignment(ty: ValTy) -> u64 {
    let one = u64::from(ty.scalar.bits().div_ceil(8));
    match ty.lanes {
        2 => 2 * one,
        4 => (4 * one).min(16),
        _ => one,
    }
}

/// A pointer's element offset after casting it from `from` to `to` elements
/// (`reinterpret_cast<const float4*>(p)`). Only casts between one component type and vectors
/// of it move the offset (it counts elements of the pointer's type); other casts keep it, as
/// before.
///
/// # Errors
/// [`Fault`]: undefined (a warning) when the address is not aligned for `to` (CUDA C++
/// Programming Guide, "Device Memory Accesses"), an error when it is aligned but falls inside
/// an element of `to` the emulator cannot name (a `float3*` at cell 1).
pub fn recast(from: ValTy, to: ValTy, offset: i64) -> Result<i64, Fault> {
    if bit_view(from, to) {
        return recast_bytes(from, to, offset);
    }
    if from.scalar != to.scalar || from.lanes == to.lanes || from.lanes == 0 || to.lanes == 0 {
        return Ok(offset);
    }
    let cells = offset
        .checked_mul(i64::from(from.lanes))
        .ok_or_else(|| Fault::ub("pointer offset out of range"))?;
    let n = i64::from(to.lanes);
    if cells.rem_euclid(n) == 0 {
        return Ok(cells / n);
    }
    let bytes = cells.unsigned_abs() * u64::from(to.scalar.bits().div_ceil(8));
    if bytes % alignment(to) != 0 {
        Err(Fault::ub(format!(
            "a {} pointer to component {cells} of {} memory is not {}-byte aligned: a {} access there is undefined (CUDA C++ Programming Guide, Device Memory Accesses: a vector access must be aligned to its size)",
            to.name(),
            to.scalar.name(),
            alignment(to),
            to.name()
        )))
    } else {
        Err(Fault::error(format!(
            "a {} pointer starting at component {cells} (inside an element) is not supported: the emulator counts {} elements from the buffer's start",
            to.name(),
            to.name()
        )))
    }
}

/// Whether a pointer to `elem` over `cell` memory reads bytes reinterpreted: different
/// component types (neither `bool`), except two integer types of one width with one
/// component count (`unsigned*` over `int` cells), whose conversion modulo 2^N already is the
/// reinterpretation of the bits ([conv.integral]/2). This is the shape of a 128-bit load of
/// eight halves through `int4` / `uint4` / `float4`, of `__half2` views of such a value, and of
/// an `int*` over `int8_t` cells (four of them, the packed loads of quantized blocks:
/// [basic.lval]/11, [intro.memory]), of a `float*` (`half*`, `int*`) over a `char*` buffer addressed with byte strides (CUDA C++
/// Programming Guide, "Device Memory Accesses": an access reads its size in bytes; memory is
/// bytes, little-endian on every NVIDIA and AMD GPU).
pub fn bit_view(elem: ValTy, cell: ValTy) -> bool {
    let same_int = !elem.scalar.is_float()
        && !cell.scalar.is_float()
        && elem.scalar.bits() == cell.scalar.bits()
        && elem.lanes == cell.lanes;
    elem.scalar != cell.scalar
        && !same_int
        && elem.lanes > 0
        && cell.lanes > 0
        && elem.scalar != Scalar::Bool
        && cell.scalar != Scalar::Bool
}

/// [`recast`] of a pointer between types whose components differ ([`bit_view`]): the offset
/// moves by bytes.
fn recast_bytes(from: ValTy, to: ValTy, offset: i64) -> Result<i64, Fault> {
    let bytes = i128::from(offset) * i128::from(size_of(from));
    let size = i128::from(size_of(to));
    if size == 0 {
        return Ok(offset);
    }
    if bytes % size == 0 {
        return i64::try_from(bytes / size).map_err(|_| Fault::ub("pointer offset out of range"));
    }
    if bytes % i128::from(alignment(to)) != 0 {
        return Err(Fault::ub(format!(
            "a {} pointer to byte {bytes} of {} memory is not {}-byte aligned: a {} access there is undefined (CUDA C++ Programming Guide, Device Memory Accesses: an access must be aligned to its size)",
            to.name(),
            from.name(),
            alignment(to),
            to.name()
        )));
    }
    Err(Fault::error(format!(
        "a {} pointer starting at byte {bytes} (inside an element) is not supported: the emulator counts {} elements from the buffer's start",
        to.name(),
        to.name()
    )))
}

/// The raw bits of a scalar value `v` of its own type (`None`: not a number of a fixed width,
/// or a float NaN, whose payload the emulator does not keep).
pub fn raw_bits(v: &KVal) -> Option<u64> {
    match v {
        KVal::Int { ty, bits } if *ty != Scalar::Bool => Some(*bits),
        KVal::Float { ty, x, .. } if ty.is_fp8() => {
            ty.fp8_format().and_then(|f| f.encode(*x)).map(u64::from)
        }
        KVal::Float { ty, x, .. } if !x.is_nan() => Some(match ty {
            Scalar::F16 => u64::from(half::f16::from_f64(*x).to_bits()),
            Scalar::Bf16 => u64::from(half::bf16::from_f64(*x).to_bits()),
            Scalar::F32 => u64::from((*x as f32).to_bits()),
            _ => x.to_bits(),
        }),
        _ => None,
    }
}

/// The value of type `ty` whose bits are the low `ty.bits()` of `bits`.
///
/// # Errors
/// A float NaN bit pattern (of a type wider than 8 bits): the emulator keeps floats as values, so a NaN's payload (which
/// bits a later integer view would see) is not kept; the message says so.
pub fn from_raw_bits(ty: Scalar, bits: u64) -> Result<KVal, String> {
    let mask = if ty.bits() >= 64 {
        u64::MAX
    } else {
        (1u64 << ty.bits()) - 1
    };
    let b = bits & mask;
    let x = match ty {
        Scalar::F16 => half::f16::from_bits(b as u16).to_f64(),
        Scalar::Bf16 => half::bf16::from_bits(b as u16).to_f64(),
        Scalar::F32 => f64::from(f32::from_bits(b as u32)),
        Scalar::F64 => f64::from_bits(b),
        t if t.is_fp8() => t.fp8_format().map_or(f64::NAN, |f| f.decode(b as u8)),
        _ => return Ok(KVal::Int { ty, bits: b }),
    };
    // An 8-bit float's NaN is a value like its others: reading it loses nothing a later
    // read as a value needs (writing it back as bytes is refused where the format has more
    // than one NaN encoding, `fp8_format::Format::encode`).
    if x.is_nan() && !ty.is_fp8() {
        return Err(format!(
            "the bits {b:#x} read as {} are a NaN; the emulator keeps floats as values, not their NaN payloads, so this value is not modelled (read these bytes as an integer type)",
            ty.name()
        ));
    }
    Ok(KVal::Float {
        ty,
        x,
        approx: None,
    })
}

/// How a pointer of element type `elem` reads a buffer whose cells are `cell`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum View {
    /// Cell by cell (the same type, or a same-size type whose cell is read as it is stored).
    Whole,
    /// `elem.lanes` consecutive components of `cell`s (`float4` through a float buffer, a
    /// `float` through a `float4` buffer, `__half2` through `__half` cells).
    Components,
    /// The bytes of the cells read as `elem`'s components ([`bit_view`]): eight `__half`
    /// cells through an `int4`, one `int4` cell through `__half2`.
    Bits,
    /// A reinterpretation of bits between different component types, which the emulator does
    /// not model: the message says what to write instead.
    Refused(String),
}

/// The view a pointer to `elem` has of cells of `cell`.
pub fn view(elem: ValTy, cell: ValTy) -> View {
    if elem == cell || elem.lanes == 0 || cell.lanes == 0 {
        return View::Whole;
    }
    if bit_view(elem, cell) {
        return View::Bits;
    }
    if elem.lanes == cell.lanes {
        return View::Whole;
    }
    if elem.scalar == cell.scalar {
        return View::Components;
    }
    View::Refused(format!(
        "reading or writing {} cells as {} reinterprets their bits, which is not modelled: access them as {} and convert each component (for a wide load of 16-bit values, load __half2 / __nv_bfloat162 pairs)",
        cell.name(),
        elem.name(),
        cell.name()
    ))
}

/// Why the vendor headers define no operator `op` on these operands (`None` when they do, or
/// when the operands are not vectors): CUDA defines none on its vector types (only on
/// `__half2` / `__nv_bfloat162`, arithmetic); HIP's `HIP_vector_type` defines those
/// [`crate::hip_vector_ops`] lists; on HIP's 8-bit float pairs only arithmetic is modelled.
pub fn operator_refusal(dialect: Dialect, op: BinOp, a: &KVal, b: &KVal) -> Option<String> {
    // `cuda_fp8.h` declares no operators on its 8-bit floats and their conversion operators
    // are `explicit` (`explicit operator float() const`), so nvcc refuses `q * s`; HIP's
    // `hip_fp8.h` declares `operator float()` without `explicit`, so there the operand is its
    // float.
    // A pointer to fp8 cells is no fp8 value: `q + row * n` is pointer arithmetic.
    let fp8 = [a, b]
        .into_iter()
        .filter(|v| !matches!(v, KVal::Ptr { .. }))
        .map(|v| v.val_ty().scalar)
        .find(|s| s.is_fp8());
    if let (Dialect::Cuda, Some(s)) = (dialect, fp8) {
        return Some(format!(
            "cuda_fp8.h defines no `{}` on {} and its conversion to float is explicit: convert first (`float(q) {} …`)",
            op.token(),
            s.name(),
            op.token()
        ));
    }
    let vector = |v: &KVal| match v {
        KVal::Vector { items, .. } if items.len() > 1 => Some(v.val_ty()),
        _ => None,
    };
    let ty = vector(a).or_else(|| vector(b))?;
    let arithmetic = matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div);
    let half_pair = matches!(ty.scalar, Scalar::F16 | Scalar::Bf16) && ty.lanes == 2;
    match dialect {
        Dialect::Cuda if half_pair && (arithmetic || is_compare(op)) => None,
        Dialect::Cuda => Some(format!(
            "CUDA defines no `{}` on {} (vector_types.h declares none; helper_math.h from the CUDA samples is not part of CUDA): compute each component (`r.x = a.x {} b.x; …`)",
            op.token(),
            cuda_name(ty),
            op.token()
        )),
        Dialect::Hip if half_pair => None,
        Dialect::Hip
            if crate::hip_vector_ops::hip_vector(a).is_some()
                || crate::hip_vector_ops::hip_vector(b).is_some() =>
        {
            crate::hip_vector_ops::refusal(op, a, b)
        }
        Dialect::Hip if arithmetic => None,
        Dialect::Hip => Some(format!(
            "`{}` on {} is not modelled for HIP vectors here (HIP defines + - * / component by component): compare or combine each component",
            op.token(),
            cuda_name(ty)
        )),
        _ => None,
    }
}

/// Why the vendor headers define no unary `op` on `v` (`None` when they do or `v` is not a
/// vector): CUDA defines none on its vector types, only `-` on `__half2` / `__nv_bfloat162`
/// (`cuda_fp16.hpp`, `cuda_bf16.hpp`); HIP's `HIP_vector_type` defines `-` (signed and float
/// elements) and `~` (integral elements) component by component ([`crate::hip_vector_ops`]).
pub fn unary_refusal(dialect: Dialect, op: UnOp, v: &KVal) -> Option<String> {
    let KVal::Vector { items, .. } = v else {
        return None;
    };
    if items.len() < 2 {
        return None;
    }
    let ty = v.val_ty();
    let half_pair = matches!(ty.scalar, Scalar::F16 | Scalar::Bf16) && ty.lanes == 2;
    let token = match op {
        UnOp::Neg => "-",
        UnOp::Plus => "+",
        UnOp::BitNot => "~",
        UnOp::Not => "!",
    };
    match dialect {
        Dialect::Cuda if half_pair && matches!(op, UnOp::Neg | UnOp::Plus) => None,
        Dialect::Cuda => Some(format!(
            "CUDA defines no unary `{token}` on {} (vector_types.h declares no operators): apply it to each component",
            cuda_name(ty)
        )),
        Dialect::Hip if crate::hip_vector_ops::hip_vector(v).is_some() => {
            crate::hip_vector_ops::unary_refusal(op, v)
        }
        Dialect::Hip if op == UnOp::Not => Some(format!(
            "HIP defines no `!` on {}: test each component",
            cuda_name(ty)
        )),
        _ => None,
    }
}

fn is_compare(op: BinOp) -> bool {
    matches!(
        op,
        BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne
    )
}

/// `a OP b` for two `__half2` / `__nv_bfloat162` in CUDA and HIP: `cuda_fp16.hpp` defines the
/// comparison operators as `__hbeq2`, `__hbne2`, `__hblt2`… — true iff the comparison holds
/// for both halves (so `!=` is true only when both halves differ). `None` for other operands.
pub fn half_pair_compare(op: BinOp, a: &KVal, b: &KVal) -> Option<KVal> {
    let pair = |v: &KVal| match v {
        KVal::Vector { ty, items }
            if items.len() == 2 && matches!(ty, Scalar::F16 | Scalar::Bf16) =>
        {
            Some((items[0].as_f64()?, items[1].as_f64()?))
        }
        _ => None,
    };
    if !is_compare(op) {
        return None;
    }
    let ((a0, a1), (b0, b1)) = (pair(a)?, pair(b)?);
    let holds = |x: f64, y: f64| match op {
        BinOp::Lt => x < y,
        BinOp::Le => x <= y,
        BinOp::Gt => x > y,
        BinOp::Ge => x >= y,
        BinOp::Eq => x == y,
        // Ordered not-equal: false for NaN (CUDA Math API, __hbne2).
        _ => !x.is_nan() && !y.is_nan() && x != y,
    };
    Some(KVal::bool(holds(a0, b0) && holds(a1, b1)))
}

/// The vendor's spelling of a vector type (`float4`, `__half2`).
pub fn cuda_name(ty: ValTy) -> String {
    let base = match ty.scalar {
        Scalar::F32 => "float",
        Scalar::F64 => "double",
        Scalar::I32 => "int",
        Scalar::U32 => "uint",
        Scalar::I64 => "longlong",
        Scalar::U64 => "ulonglong",
        Scalar::I16 => "short",
        Scalar::U16 => "ushort",
        Scalar::I8 => "char",
        Scalar::U8 => "uchar",
        Scalar::F16 if ty.lanes == 2 => return "__half2".into(),
        Scalar::Bf16 if ty.lanes == 2 => return "__nv_bfloat162".into(),
        // `__nv_fp8x4_e4m3`, `__hip_fp8x2_e4m3_fnuz`: the vendor's pair and quad names.
        s if s.is_fp8() && ty.lanes > 1 => {
            let name = s.name();
            let (vendor, format) = name[2..].split_at(name[2..].find("fp8_").unwrap_or(0));
            return format!(
                "__{vendor}fp8x{}_{}",
                ty.lanes,
                &format[4.min(format.len())..]
            );
        }
        _ => return ty.name(),
    };
    if ty.lanes == 1 {
        return base.to_string();
    }
    format!("{base}{}", ty.lanes)
}

/// Why a CUDA or HIP warp shuffle (or other lane operation) cannot take `v` as its operand:
/// CUDA's `__shfl*_sync` take `int`, `unsigned`, `long`, `long long` (and unsigned), `float`,
/// `double`, and with `cuda_fp16.h` / `cuda_bf16.h` `__half`, `__half2`, `__nv_bfloat16`,
/// `__nv_bfloat162` (CUDA C++ Programming Guide, "Warp Shuffle Functions"); HIP's `__shfl*`
/// take the same scalar types and, from `hip_fp16.h`, `__half` / `__half2` (HIP Programming
/// Guide, "Warp shuffle functions"). Neither defines them for `float4` and the other built-in
/// vector types. `None` when the operand is allowed (or the dialect is another's).
pub fn shuffle_refusal(dialect: Dialect, op: &str, v: &KVal) -> Option<String> {
    if !matches!(dialect, Dialect::Cuda | Dialect::Hip) {
        return None;
    }
    let KVal::Vector { items, .. } = v else {
        return None;
    };
    if items.len() < 2 || v.to_core().is_some() {
        return None;
    }
    let ty = v.val_ty();
    Some(format!(
        "{} defines no `{op}` of {} (its shuffles take int, unsigned, long, long long, float, double, __half, __half2{}): shuffle each component (`v.x = {op}(…, v.x, …); v.y = …`)",
        if dialect == Dialect::Cuda { "CUDA" } else { "HIP" },
        cuda_name(ty),
        if dialect == Dialect::Cuda {
            ", __nv_bfloat16, __nv_bfloat162"
        } else {
            ""
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_alignment_and_recast() {
        assert_eq!(
            constructor("make_float4"),
            Some(ValTy {
                scalar: Scalar::F32,
                lanes: 4
            })
        );
        assert_eq!(constructor("make_foo4"), None);
        let f = ValTy::scalar(Scalar::F32);
        let f4 = ValTy {
            scalar: Scalar::F32,
            lanes: 4,
        };
        let d4 = ValTy {
            scalar: Scalar::F64,
            lanes: 4,
        };
        // The Programming Guide's table: float4 16, double4 16, char2 2, float3 4.
        assert_eq!(alignment(f4), 16);
        assert_eq!(alignment(d4), 16);
        assert_eq!(alignment(cuda_vector("char2").unwrap()), 2);
        assert_eq!(alignment(cuda_vector("float3").unwrap()), 4);
        // &p[8] as float4*: element 2; &p[6]: 24 bytes, not 16-aligned (undefined).
        assert_eq!(recast(f, f4, 8).unwrap(), 2);
        assert_eq!(recast(f4, f, 3).unwrap(), 12);
        assert!(recast(f, f4, 6).is_err());
        let e = recast(f, f4, 6).unwrap_err();
        assert_eq!(e.level, crosslane_core::result::Level::Warning);
        assert_eq!(view(f4, f), View::Components);
        // A float4 over half cells reads their bytes; 8 halves are one float4 (16 bytes),
        // and half 4 (byte 8) is not 16-aligned.
        let h = ValTy::scalar(Scalar::F16);
        assert_eq!(view(f4, h), View::Bits);
        assert_eq!(recast(h, f4, 16).unwrap(), 2);
        assert_eq!(recast(f4, h, 1).unwrap(), 8);
        assert!(recast(h, f4, 4).is_err());
        // A bool is no bytes the emulator names.
        assert!(matches!(
            view(f4, ValTy::scalar(Scalar::Bool)),
            View::Refused(_)
        ));
    }

    #[test]
    fn raw_bits_round_trip_and_nan_is_refused() {
        // binary16 1.0 = 0x3C00; float 1.0 = 0x3F800000; the f32 bits 0x7FC00001 are a NaN.
        let one = KVal::float(Scalar::F16, 1.0);
        assert_eq!(raw_bits(&one), Some(0x3C00));
        assert_eq!(raw_bits(&KVal::float(Scalar::F32, 1.0)), Some(0x3F80_0000));
        assert_eq!(from_raw_bits(Scalar::F16, 0x3C00), Ok(one));
        assert!(from_raw_bits(Scalar::F32, 0x7FC0_0001).is_err());
        assert_eq!(
            from_raw_bits(Scalar::I32, 0x4000_3C00),
            Ok(KVal::int(Scalar::I32, 0x4000_3C00))
        );
    }
}
