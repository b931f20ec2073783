//! naga types → engine types: scalars, vector and struct cell counts, element types, names for messages.

use super::*;

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

fn wgsl_scalar_name(s: naga::Scalar) -> String {
    match (s.kind, s.width) {
        (ScalarKind::Sint, 4) => "i32".into(),
        (ScalarKind::Uint, 4) => "u32".into(),
        (ScalarKind::Float, 4) => "f32".into(),
        (ScalarKind::Float, 2) => "f16".into(),
        (ScalarKind::Bool, _) => "bool".into(),
        (k, w) => format!("{k:?}{}", w * 8),
    }
}

/// Cells a value of type `inner` takes: a vector's size, a struct's members' cells in
/// declaration order (see [`struct_layout`]), else 1.
pub(super) fn vec_comps_in(module: &naga::Module, inner: &TypeInner) -> u32 {
    match inner {
        TypeInner::Vector { size, .. } => *size as u32,
        // Members that are scalars or vectors (the only ones `struct_layout` accepts); no
        // recursion into nested structs.
        TypeInner::Struct { members, .. } => members
            .iter()
            .map(|m| match &module.types[m.ty].inner {
                TypeInner::Vector { size, .. } => *size as u32,
                _ => 1,
            })
            .sum(),
        _ => 1,
    }
}

/// A struct held flat: its members' scalars in declaration order, one cell each. Only
/// structs whose members are scalars or vectors of one scalar type, without padding (WGSL §
/// Memory Layout: each member's offset is the cells before it times the scalar's size), so
/// the cells are the buffer's bytes. Returns (the scalar, the cells, each member's first
/// cell).
pub(super) fn struct_layout(
    module: &naga::Module,
    inner: &TypeInner,
) -> Result<(naga::Scalar, u32, Vec<u32>), String> {
    let TypeInner::Struct { members, span } = inner else {
        return Err("not a struct".into());
    };
    let mut first: Option<naga::Scalar> = None;
    let mut cells = 0u32;
    let mut starts = Vec::new();
    for m in members {
        let (sc, n) = match &module.types[m.ty].inner {
            TypeInner::Scalar(sc) => (*sc, 1),
            TypeInner::Vector { size, scalar } => (*scalar, *size as u32),
            _ => {
                return Err(format!(
                    "member `{}`: only scalar and vector members are emulated yet",
                    m.name.as_deref().unwrap_or("?")
                ))
            }
        };
        if first.is_some_and(|f| f != sc) {
            return Err(format!(
                "member `{}`: structs whose members mix scalar types are not emulated yet",
                m.name.as_deref().unwrap_or("?")
            ));
        }
        first = Some(sc);
        if m.offset != cells * u32::from(sc.width) {
            return Err(format!(
                "member `{}` sits after padding (offset {} bytes); only packed structs are \
                 emulated yet",
                m.name.as_deref().unwrap_or("?"),
                m.offset
            ));
        }
        starts.push(cells);
        cells += n;
    }
    let sc = first.ok_or("an empty struct")?;
    if *span != cells * u32::from(sc.width) {
        return Err(format!(
            "the struct ends in padding ({span} bytes for {cells} values); only packed structs \
             are emulated yet"
        ));
    }
    Ok((sc, cells, starts))
}

/// Components of each element of a variable of type `ty`: an array's element's, or the
/// variable's own (see `vec_comps_in`). Each component is one cell.
pub fn components(module: &naga::Module, ty: Handle<naga::Type>) -> u32 {
    match &module.types[ty].inner {
        TypeInner::Array { base, .. } => vec_comps_in(module, &module.types[*base].inner),
        other => vec_comps_in(module, other),
    }
}

/// The name of component `k` of a vector held as one local per component: `v.x`, `v.y`, …
pub(super) fn comp_name(name: &str, k: u32) -> String {
    match ["x", "y", "z", "w"].get(k as usize) {
        Some(c) => format!("{name}.{c}"),
        None => format!("{name}.{k}"),
    }
}

/// The element type of a variable of type `ty`: a scalar, an atomic, a vector (its component
/// type; see [`components`]), or an array of one of those.
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
            // A vector is held as its components, one cell each (WGSL § Memory Layout:
            // vec2 and vec4 arrays are tightly packed, so the cells are the buffer's bytes).
            TypeInner::Vector { size, scalar } => scalar_of(*scalar)
                .map(|k| {
                    (
                        ValTy::scalar(k),
                        format!("vec{}<{}>", *size as u32, wgsl_scalar_name(*scalar)),
                    )
                })
                .ok_or_else(|| format!("type {scalar:?} is not emulated")),
            // A packed struct of one scalar type: its members' cells in declaration order.
            TypeInner::Struct { .. } => {
                let (sc, _, _) = struct_layout(module, inner)?;
                let name = module
                    .types
                    .iter()
                    .find(|(_, t)| &t.inner == inner)
                    .and_then(|(_, t)| t.name.clone())
                    .unwrap_or_else(|| "struct".into());
                scalar_of(sc)
                    .map(|k| (ValTy::scalar(k), name))
                    .ok_or_else(|| format!("type {sc:?} is not emulated"))
            }
            _ => Err("this type is not emulated".into()),
        }
    };
    match &module.types[ty].inner {
        TypeInner::Array { base, size, .. } => {
            if let TypeInner::Vector {
                size: naga::VectorSize::Tri,
                ..
            } = module.types[*base].inner
            {
                // WGSL § Memory Layout: an array<vec3<T>> element takes 16 bytes, 4 of them
                // padding; the cells here have no padding.
                return Err(
                    "arrays of vec3 (16-byte stride with padding) are not emulated \
                            yet; use vec4 or separate arrays"
                        .into(),
                );
            }
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
