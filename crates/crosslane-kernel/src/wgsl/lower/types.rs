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

/// Cells a value of type `inner` takes: a vector's size, a struct's size in cells (padding
/// included, see [`struct_layout`]), else 1.
pub(super) fn vec_comps_in(module: &naga::Module, inner: &TypeInner) -> u32 {
    match inner {
        TypeInner::Vector { size, .. } => *size as u32,
        TypeInner::Struct { .. } => struct_layout(module, inner).map_or(1, |l| l.1),
        _ => 1,
    }
}

/// The scalars a member of type `inner` holds (a scalar, an atomic, a vector, or a fixed-size
/// array of those), or why it is not emulated.
fn leaf_scalar(module: &naga::Module, inner: &TypeInner) -> Result<naga::Scalar, String> {
    match inner {
        TypeInner::Scalar(s) | TypeInner::Atomic(s) => Ok(*s),
        TypeInner::Vector { scalar, .. } => Ok(*scalar),
        TypeInner::Array {
            base,
            size: ArraySize::Constant(_),
            ..
        } => match &module.types[*base].inner {
            TypeInner::Scalar(s) | TypeInner::Atomic(s) => Ok(*s),
            TypeInner::Vector { scalar, .. } => Ok(*scalar),
            _ => Err("arrays of structs or arrays inside a struct are not emulated yet".into()),
        },
        TypeInner::Array { .. } => {
            Err("a runtime-sized array inside a struct is not emulated yet".into())
        }
        TypeInner::Struct { .. } => Err("nested structs are not emulated yet".into()),
        _ => Err("matrices and other members are not emulated yet".into()),
    }
}

/// A struct held flat in cells laid out as WGSL lays out its bytes (WGSL § Memory Layout:
/// each member at its offset, padding included, the struct's size rounded to its alignment),
/// one cell per scalar's width: members are scalars, atomics, vectors, or fixed-size arrays of
/// those, all of one width (4 bytes, or all `f16`). Members of different 32-bit types share a
/// buffer of `u32` cells, each access converting the bits (see `Lower::cell_to_value`). Returns
/// (the cells' scalar, the struct's cells, each member's first cell).
pub(super) fn struct_layout(
    module: &naga::Module,
    inner: &TypeInner,
) -> Result<(naga::Scalar, u32, Vec<u32>), String> {
    let TypeInner::Struct { members, span } = inner else {
        return Err("not a struct".into());
    };
    let mut first: Option<naga::Scalar> = None;
    let mut mixed = false;
    let mut starts = Vec::new();
    for m in members {
        let name = m.name.as_deref().unwrap_or("?");
        let sc = leaf_scalar(module, &module.types[m.ty].inner)
            .map_err(|e| format!("member `{name}`: {e}"))?;
        if let Some(f) = first {
            if f.width != sc.width {
                return Err(format!(
                    "member `{name}`: structs mixing {}-byte and {}-byte scalars are not \
                     emulated yet",
                    f.width, sc.width
                ));
            }
            mixed |= f != sc;
        }
        first = Some(first.unwrap_or(sc));
        starts.push(m.offset / u32::from(sc.width.max(1)));
    }
    let sc = first.ok_or("an empty struct")?;
    let sc = if mixed { naga::Scalar::U32 } else { sc };
    Ok((sc, *span / u32::from(sc.width.max(1)), starts))
}

/// Components of each element of a variable of type `ty`: an array's element's, or the
/// variable's own (see `vec_comps_in`). Each component is one cell.
pub fn components(module: &naga::Module, ty: Handle<naga::Type>) -> u32 {
    match &module.types[ty].inner {
        TypeInner::Array { base, stride, .. } => stride_cells(module, *base, *stride),
        other => vec_comps_in(module, other),
    }
}

/// Cells from one array element to the next: the stride in bytes over the cell width (WGSL §
/// Memory Layout: `array<vec3<f32>>` has a 16-byte stride, 4 cells of which 1 is padding).
pub(super) fn stride_cells(module: &naga::Module, elem: Handle<naga::Type>, stride: u32) -> u32 {
    let inner = &module.types[elem].inner;
    let width = match inner {
        TypeInner::Struct { .. } => struct_layout(module, inner).map_or(4, |l| l.0.width),
        other => leaf_scalar(module, other).map_or(4, |s| s.width),
    };
    if width == 1 {
        // bool (not host-shareable; workgroup only): one cell per element component.
        return vec_comps_in(module, inner);
    }
    (stride / u32::from(width.max(1))).max(1)
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
