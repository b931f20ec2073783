//! The operators HIP's vector types (`float2`, `int4`, `uint3`, … — `HIP_vector_type<T, n>`)
//! define, as `amd_hip_vector_types.h` writes them (ROCm/clr,
//! `hipamd/include/hip/amd_detail/amd_hip_vector_types.h`, the `HIP_vector_type` class and the
//! free operator templates after it):
//!
//! | operator | defined for | result |
//! |---|---|---|
//! | `+ - * /`, `+= -= *= /=` | every `T` | a vector of `T`, component by component |
//! | `% ^ \| & >> <<` and their compound forms | integral `T` (`enable_if<is_integral<T>>`) | a vector of `T` |
//! | `==` | every `T` | `bool`: true iff every component compares equal (`_hip_any_zero(x.data == y.data, n - 1)`) |
//! | `!=` | every `T` | `bool`: `!(x == y)`, so true iff some component differs or is NaN |
//! | unary `-` | signed `T`, `float` and `double` included (`enable_if<is_signed<U>>`) | a vector of `T` |
//! | unary `~` | integral `T` | a vector of `T` |
//! | `++`, `--` | every `T` | `*this += HIP_vector_type{1}` |
//!
//! No `< <= > >=`, no unary `+` or `!`, no `&&`/`||`: the header declares none and the class has
//! no conversion to a scalar, so hipcc refuses them; so does crosslane, before the value is
//! used. A scalar operand `U` of a binary operator becomes `HIP_vector_type<T, n>{u}`: the
//! explicit constructor's `static_cast<T>(u)` in every component (so `int4 * 1.5` multiplies
//! by 1). Both vectors of a binary operator are one `HIP_vector_type<T, n>`: a `float2` and an
//! `int2` match no overload. Each component is computed as `T`: the header's operators act on
//! the `ext_vector_type` member `data`, whose arithmetic on `char`/`short` elements stays in
//! the element type, so the usual arithmetic conversions' promotion to `int` is undone here by
//! the conversion back to `T` (modulo 2^N for the integer types, C++17 \[conv.integral\]/2).
//! `__half2`, `__hip_bfloat162` and the 8-bit float pairs are other classes (`hip_fp16.h`,
//! `hip_bf16.h`, `hip_fp8.h`) and are not this module's.

use crate::types::{binary, unary, BinOp, Fault, KVal, Scalar, UnOp, ValTy};

/// HIP's name of vector type `ty` (`float2`, `uchar4`, `ulonglong2`): the
/// `__MAKE_VECTOR_TYPE__(CUDA_name, T)` names of amd_hip_vector_types.h.
fn cuda_name(ty: ValTy) -> String {
    let base = match ty.scalar {
        Scalar::F32 => "float",
        Scalar::F64 => "double",
        Scalar::I8 => "char",
        Scalar::U8 => "uchar",
        Scalar::I16 => "short",
        Scalar::U16 => "ushort",
        Scalar::I32 => "int",
        Scalar::U32 => "uint",
        Scalar::I64 => "longlong",
        _ => "ulonglong",
    };
    format!("{base}{}", ty.lanes)
}

/// The `HIP_vector_type` of `v` (a vector of two or more components whose element is one of
/// the header's `T`s); `None` for scalars, pointers and the half, bfloat16 and 8-bit pairs.
pub fn hip_vector(v: &KVal) -> Option<ValTy> {
    let KVal::Vector { items, ty } = v else {
        return None;
    };
    let element = matches!(
        ty,
        Scalar::F32
            | Scalar::F64
            | Scalar::I8
            | Scalar::U8
            | Scalar::I16
            | Scalar::U16
            | Scalar::I32
            | Scalar::U32
            | Scalar::I64
            | Scalar::U64
    );
    (element && items.len() > 1).then(|| v.val_ty())
}

fn integral_only(op: BinOp) -> bool {
    matches!(
        op,
        BinOp::Rem | BinOp::Xor | BinOp::Or | BinOp::And | BinOp::Shl | BinOp::Shr
    )
}

/// Why `amd_hip_vector_types.h` defines no `a op b` (`None` when it does, or neither operand
/// is a HIP vector).
pub fn refusal(op: BinOp, a: &KVal, b: &KVal) -> Option<String> {
    let (va, vb) = (hip_vector(a), hip_vector(b));
    let ty = va.or(vb)?;
    let name = cuda_name(ty);
    let token = op.token();
    // More than 4 elements is no `HIP_vector_type` but a clang extended vector, whose
    // comparisons give a vector of -1/0 per element (clang Language Extensions, "Vectors and
    // Extended Vectors"): not modelled, and never HIP's one `bool`.
    if ty.lanes > 4
        && matches!(
            op,
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
        )
    {
        return Some(format!(
            "`{token}` of a {}-element clang extended vector gives a vector of -1/0 per element \
             (clang, \"Vectors and Extended Vectors\"), which is not modelled here: compare \
             each element (`a[i] {token} b[i]`)",
            ty.lanes
        ));
    }
    if let (Some(x), Some(y)) = (va, vb) {
        if x != y {
            return Some(format!(
                "HIP defines `{token}` on two vectors of one type (amd_hip_vector_types.h: \
                 `operator{token}(const HIP_vector_type<T, n>&, const HIP_vector_type<T, n>&)`); \
                 {} and {} differ: convert one first (`make_{}(…)`)",
                cuda_name(x),
                cuda_name(y),
                name
            ));
        }
    }
    // A pointer beside a vector is no overload's operand either.
    if matches!(a, KVal::Ptr { .. }) || matches!(b, KVal::Ptr { .. }) {
        return Some(format!(
            "HIP defines no `{token}` of a pointer and {name}: dereference it first"
        ));
    }
    match op {
        BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => Some(format!(
            "HIP defines no `{token}` on {name} (amd_hip_vector_types.h declares only `==` and \
             `!=`, each giving one bool): compare each component (`a.x {token} b.x`)"
        )),
        _ if integral_only(op) && ty.scalar.is_float() => Some(format!(
            "HIP defines `{token}` only on vectors of an integral type (amd_hip_vector_types.h: \
             `enable_if<is_integral<T>>`), not on {name}: apply it to each component"
        )),
        _ => None,
    }
}

/// `a op b` where one operand is a HIP vector and [`refusal`] found none: `==`/`!=` as the one
/// `bool` the header returns, the others component by component in `T`. `None` when neither
/// operand is a HIP vector.
///
/// # Errors
/// [`Fault`]: a component's undefined behaviour (a signed overflow, a division by zero, a
/// shift past the width) or a scalar that does not convert to `T`.
pub fn apply(op: BinOp, a: &KVal, b: &KVal) -> Option<Result<KVal, Fault>> {
    let ty = hip_vector(a).or_else(|| hip_vector(b))?;
    Some(run(op, ty, a, b))
}

fn run(op: BinOp, ty: ValTy, a: &KVal, b: &KVal) -> Result<KVal, Fault> {
    // A scalar operand: `HIP_vector_type<T, n>{u}`, `static_cast<T>(u)` in each component.
    let splat = |v: &KVal| -> Result<Vec<KVal>, Fault> {
        match v {
            KVal::Vector { items, .. } => Ok(items.clone()),
            s => Ok(vec![
                s.convert(ValTy::scalar(ty.scalar))?;
                usize::from(ty.lanes)
            ]),
        }
    };
    let (xs, ys) = (splat(a)?, splat(b)?);
    if matches!(op, BinOp::Eq | BinOp::Ne) {
        let mut all = true;
        for (x, y) in xs.iter().zip(&ys) {
            let eq = binary(BinOp::Eq, x, y)?
                .truthy()
                .ok_or_else(|| Fault::error("a component comparison gave no truth value"))?;
            all &= eq;
        }
        return Ok(KVal::bool(if op == BinOp::Eq { all } else { !all }));
    }
    let items = xs
        .iter()
        .zip(&ys)
        .map(|(x, y)| binary(op, x, y).and_then(|r| r.convert(ValTy::scalar(ty.scalar))))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(KVal::Vector {
        ty: ty.scalar,
        items,
    })
}

/// Why `amd_hip_vector_types.h` defines no unary `op` on `v` (`None` when it does or `v` is no
/// HIP vector).
pub fn unary_refusal(op: UnOp, v: &KVal) -> Option<String> {
    let ty = hip_vector(v)?;
    let name = cuda_name(ty);
    match op {
        UnOp::Neg if !ty.scalar.is_float() && !ty.scalar.is_signed() => Some(format!(
            "HIP defines unary `-` only on vectors of a signed type (amd_hip_vector_types.h: \
             `enable_if<is_signed<U>>`), not on {name}: negate each component"
        )),
        UnOp::BitNot if ty.scalar.is_float() => Some(format!(
            "HIP defines `~` only on vectors of an integral type (amd_hip_vector_types.h: \
             `enable_if<is_integral<U>>`), not on {name}"
        )),
        UnOp::Plus | UnOp::Not => Some(format!(
            "HIP defines no unary `{}` on {name} (amd_hip_vector_types.h declares none and the \
             class converts to no scalar): apply it to each component",
            if op == UnOp::Plus { "+" } else { "!" }
        )),
        _ => None,
    }
}

/// Unary `op` on HIP vector `v`, each component computed as `T`; `None` when `v` is no HIP
/// vector.
///
/// # Errors
/// [`Fault`]: a component's undefined behaviour (`-INT_MIN`).
pub fn apply_unary(op: UnOp, v: &KVal) -> Option<Result<KVal, Fault>> {
    let ty = hip_vector(v)?;
    let KVal::Vector { items, .. } = v else {
        return None;
    };
    Some(
        items
            .iter()
            .map(|c| unary(op, c).and_then(|r| r.convert(ValTy::scalar(ty.scalar))))
            .collect::<Result<Vec<_>, _>>()
            .map(|items| KVal::Vector {
                ty: ty.scalar,
                items,
            }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(ty: Scalar, xs: &[f64]) -> KVal {
        KVal::Vector {
            ty,
            items: xs
                .iter()
                .map(|&x| {
                    if ty.is_float() {
                        KVal::float(ty, x)
                    } else {
                        KVal::int(ty, x as i128)
                    }
                })
                .collect(),
        }
    }

    #[test]
    fn equality_is_one_bool_over_all_components() {
        let a = v(Scalar::F32, &[1.0, 2.0]);
        let b = v(Scalar::F32, &[1.0, 3.0]);
        assert_eq!(apply(BinOp::Eq, &a, &a).unwrap(), Ok(KVal::bool(true)));
        assert_eq!(apply(BinOp::Eq, &a, &b).unwrap(), Ok(KVal::bool(false)));
        assert_eq!(apply(BinOp::Ne, &a, &b).unwrap(), Ok(KVal::bool(true)));
        // A NaN component: `==` false, `!=` (its negation) true.
        let n = v(Scalar::F32, &[f64::NAN, 2.0]);
        assert_eq!(apply(BinOp::Eq, &n, &n).unwrap(), Ok(KVal::bool(false)));
        assert_eq!(apply(BinOp::Ne, &n, &n).unwrap(), Ok(KVal::bool(true)));
        // A scalar compares as the vector of it: (2, 2) == 2.
        let two = v(Scalar::I32, &[2.0, 2.0]);
        let s = KVal::int(Scalar::I32, 2);
        assert_eq!(apply(BinOp::Eq, &two, &s).unwrap(), Ok(KVal::bool(true)));
    }

    #[test]
    fn scalars_convert_to_t_and_results_stay_t() {
        // int4 * 1.5: static_cast<int>(1.5) = 1.
        let q = v(Scalar::I32, &[3.0, -4.0]);
        let r = apply(BinOp::Mul, &q, &KVal::float(Scalar::F64, 1.5)).unwrap();
        assert_eq!(r, Ok(v(Scalar::I32, &[3.0, -4.0])));
        // uchar2 (200, 100) + (100, 100) = (300 mod 256, 200) = (44, 200).
        let a = v(Scalar::U8, &[200.0, 100.0]);
        let b = v(Scalar::U8, &[100.0, 100.0]);
        assert_eq!(
            apply(BinOp::Add, &a, &b).unwrap(),
            Ok(v(Scalar::U8, &[44.0, 200.0]))
        );
    }

    #[test]
    fn refusals_follow_the_header() {
        let f = v(Scalar::F32, &[1.0, 2.0]);
        let i = v(Scalar::I32, &[1.0, 2.0]);
        let u = v(Scalar::U32, &[1.0, 2.0]);
        assert!(refusal(BinOp::Lt, &f, &f).unwrap().contains("no `<`"));
        assert!(refusal(BinOp::Rem, &f, &f).unwrap().contains("integral"));
        assert!(refusal(BinOp::Rem, &i, &i).is_none());
        assert!(refusal(BinOp::Add, &f, &i).unwrap().contains("differ"));
        assert!(unary_refusal(UnOp::Neg, &u).is_some());
        assert!(unary_refusal(UnOp::Neg, &f).is_none());
        assert!(unary_refusal(UnOp::BitNot, &f).is_some());
        assert!(unary_refusal(UnOp::Plus, &i).is_some());
    }
}
