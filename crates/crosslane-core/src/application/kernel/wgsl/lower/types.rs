//! naga's types mapped to the engine's: scalars, variables' element types and counts, and the
//! words a refusal names a type or an expression kind with.

use super::*;

#[derive(Clone, Copy)]
pub(super) enum Count {
    Scalar,
    Fixed(usize),
    Runtime,
}

pub(super) fn scalar_of(s: naga::Scalar) -> Option<Scalar> {
    Some(match (s.kind, s.width) {
        (ScalarKind::Sint, 4) => Scalar::I32,
        (ScalarKind::Uint, 4) => Scalar::U32,
        (ScalarKind::Sint, 8) => Scalar::I64,
        (ScalarKind::Uint, 8) => Scalar::U64,
        (ScalarKind::Float, 4) => Scalar::F32,
        (ScalarKind::Float, 2) => Scalar::F16,
        (ScalarKind::Float, 8) => Scalar::F64,
        (ScalarKind::Bool, _) => Scalar::Bool,
        _ => return None,
    })
}

pub(super) fn wgsl_scalar_name(s: naga::Scalar) -> String {
    match (s.kind, s.width) {
        (ScalarKind::Sint, 4) => "i32".into(),
        (ScalarKind::Uint, 4) => "u32".into(),
        (ScalarKind::Float, 4) => "f32".into(),
        (ScalarKind::Float, 2) => "f16".into(),
        (ScalarKind::Bool, _) => "bool".into(),
        (k, w) => format!("{k:?}{}", w * 8),
    }
}

/// The element type of a variable of type `ty`: a scalar, an atomic, or an array of either.
pub(super) fn elem_of(
    module: &naga::Module,
    ty: Handle<naga::Type>,
) -> Result<(ValTy, Count, String), String> {
    let scalar = |inner: &TypeInner| -> Result<(ValTy, String), String> {
        match inner {
            TypeInner::Scalar(s) => scalar_of(*s)
                .map(|k| (ValTy::scalar(k), wgsl_scalar_name(*s)))
                .ok_or_else(|| format!("type {s:?} is not emulated")),
            TypeInner::Atomic(s) => scalar_of(*s)
                .map(|k| {
                    (
                        ValTy::scalar(k),
                        format!("atomic<{}>", wgsl_scalar_name(*s)),
                    )
                })
                .ok_or_else(|| format!("type {s:?} is not emulated")),
            TypeInner::Vector { .. } => {
                Err("vector-typed variables are not emulated yet (use scalars)".into())
            }
            TypeInner::Struct { .. } => {
                Err("struct-typed variables are not emulated yet (use an array of scalars)".into())
            }
            _ => Err("this type is not emulated".into()),
        }
    };
    match &module.types[ty].inner {
        TypeInner::Array { base, size, .. } => {
            let (e, n) = scalar(&module.types[*base].inner)?;
            let count = match size {
                ArraySize::Constant(n) => Count::Fixed(n.get() as usize),
                ArraySize::Dynamic => Count::Runtime,
                ArraySize::Pending(_) => {
                    return Err("override-sized arrays are not emulated".into())
                }
            };
            Ok((e, count, n))
        }
        other => scalar(other).map(|(e, n)| (e, Count::Scalar, n)),
    }
}

pub(super) fn type_word(t: &TypeInner) -> &'static str {
    match t {
        TypeInner::Vector { .. } => "vector",
        TypeInner::Matrix { .. } => "matrix",
        TypeInner::Struct { .. } => "struct",
        TypeInner::Array { .. } => "array",
        TypeInner::Pointer { .. } | TypeInner::ValuePointer { .. } => "pointer",
        _ => "this",
    }
}

pub(super) fn expr_word(e: &Expression) -> &'static str {
    match e {
        Expression::Compose { .. } => "a vector or struct constructor",
        Expression::Splat { .. } => "a vector splat",
        Expression::Swizzle { .. } => "a swizzle",
        Expression::Relational { .. } => "all/any",
        Expression::Derivative { .. } => "a derivative",
        Expression::ImageSample { .. } | Expression::ImageLoad { .. } => "a texture access",
        Expression::Override(_) => "an override",
        _ => "this kind",
    }
}
