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
        // Only as the cells of a buffer of structs mixing `f16` with 4-byte scalars
        // ([`HALF_WORDS`]); WGSL has no 16-bit integer type.
        (ScalarKind::Uint, 2) => Scalar::U16,
        (ScalarKind::Float, 8) => Scalar::F64,
        (ScalarKind::Bool, _) => Scalar::Bool,
        _ => return None,
    })
}

/// A composite type's WGSL spelling for messages and buffer headers (`mat4x3<f32>`,
/// `array<vec4<f32>, 8>`; a struct by its name).
fn wgsl_type_name(module: &naga::Module, inner: &TypeInner) -> String {
    match inner {
        TypeInner::Scalar(s) => wgsl_scalar_name(*s),
        TypeInner::Vector { size, scalar } => {
            format!("vec{}<{}>", *size as u32, wgsl_scalar_name(*scalar))
        }
        TypeInner::Matrix {
            columns,
            rows,
            scalar,
        } => format!(
            "mat{}x{}<{}>",
            *columns as u32,
            *rows as u32,
            wgsl_scalar_name(*scalar)
        ),
        TypeInner::Array { base, size, .. } => {
            let t = &module.types[*base];
            let e = t.name.clone().unwrap_or_else(|| match &t.inner {
                TypeInner::Scalar(s) => wgsl_scalar_name(*s),
                TypeInner::Vector { size, scalar } => {
                    format!("vec{}<{}>", *size as u32, wgsl_scalar_name(*scalar))
                }
                other => type_word(other).to_string(),
            });
            match size {
                ArraySize::Constant(n) => format!("array<{e}, {n}>"),
                _ => format!("array<{e}>"),
            }
        }
        other => type_word(other).to_string(),
    }
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

/// Cells a value of type `inner` takes: a vector's size, a matrix's or struct's size in
/// cells (padding included, see [`layout_size`]), else 1.
pub(super) fn vec_comps_in(module: &naga::Module, inner: &TypeInner) -> u32 {
    match inner {
        TypeInner::Vector { size, .. } => *size as u32,
        TypeInner::Struct { .. } | TypeInner::Matrix { .. } => layout_size(module, inner),
        _ => 1,
    }
}

/// The one scalar every cell of a type holds: its scalar leaves (of scalars, atomics,
/// vectors, matrices, arrays and structs, nested to any depth) when they are all one type;
/// `u32` when they mix 32-bit types (each access converts the bits, see
/// `Lower::cell_to_value`); [`HALF_WORDS`] (2-byte cells) when `f16` scalars, vectors or
/// matrices mix with 4-byte scalars (each access reads or writes its member's bytes through a
/// view of its type). Errors for other leaves of different widths (a 4-byte vector, matrix or
/// atomic beside `f16`) and for types without a memory layout.
pub(super) fn cell_scalar(
    module: &naga::Module,
    inner: &TypeInner,
) -> Result<naga::Scalar, String> {
    // Each type visited once (an explicit stack: nesting depth comes from the input).
    let mut seen: HashSet<Handle<naga::Type>> = HashSet::new();
    let mut stack: Vec<Handle<naga::Type>> = Vec::new();
    let mut leaves: Vec<naga::Scalar> = Vec::new();
    // Whether a 4-byte leaf is more than a plain scalar (a vector, matrix or atomic): its
    // components or its atomicity need 4-byte cells, so it cannot sit beside `f16`.
    let mut wide_composite = false;
    // Whether every `bool` leaf is a scalar struct member with four bytes of its own (a
    // multiple-of-4 offset, the next member 4 or more bytes on): such a member can take a
    // 4-byte cell of a struct of 32-bit types (workgroup memory only; `bool` is not
    // host-shareable, WGSL § Memory Layout, so naga's 1-byte `bool` leaves the layout free).
    let mut bools_own_cells = true;
    let mut visit = |t: &TypeInner, stack: &mut Vec<Handle<naga::Type>>| -> Result<(), String> {
        if let TypeInner::Struct { members, span } = t {
            for (i, m) in members.iter().enumerate() {
                if let TypeInner::Scalar(s) = module.types[m.ty].inner {
                    if s.kind == ScalarKind::Bool {
                        let next = members.get(i + 1).map_or(*span, |n| n.offset);
                        if m.offset % 4 != 0 || next < m.offset + 4 {
                            bools_own_cells = false;
                        }
                    }
                }
            }
        }
        match t {
            TypeInner::Vector { scalar, .. } | TypeInner::Matrix { scalar, .. }
                if scalar.kind == ScalarKind::Bool =>
            {
                bools_own_cells = false;
            }
            TypeInner::Array { base, .. } if matches!(module.types[*base].inner, TypeInner::Scalar(s) if s.kind == ScalarKind::Bool) =>
            {
                bools_own_cells = false;
            }
            _ => {}
        }
        match t {
            TypeInner::Scalar(s)
            | TypeInner::Atomic(s)
            | TypeInner::Vector { scalar: s, .. }
            | TypeInner::Matrix { scalar: s, .. } => {
                if s.width == 4 && !matches!(t, TypeInner::Scalar(_)) {
                    wide_composite = true;
                }
                if !leaves.contains(s) {
                    leaves.push(*s);
                }
            }
            TypeInner::Array { base, .. } => stack.push(*base),
            TypeInner::Struct { members, .. } => stack.extend(members.iter().map(|m| m.ty)),
            other => {
                return Err(format!(
                    "a {} has no memory layout the emulator holds",
                    type_word(other)
                ))
            }
        }
        Ok(())
    };
    visit(inner, &mut stack)?;
    while let Some(h) = stack.pop() {
        if seen.insert(h) {
            visit(&module.types[h].inner, &mut stack)?;
        }
    }
    let first = *leaves.first().ok_or("an empty struct")?;
    if leaves.iter().all(|s| *s == first) {
        return Ok(first);
    }
    if leaves.iter().all(|s| s.width == 4) {
        return Ok(naga::Scalar::U32);
    }
    if bools_own_cells
        && leaves
            .iter()
            .all(|s| s.width == 4 || s.kind == ScalarKind::Bool)
    {
        return Ok(naga::Scalar::U32);
    }
    if !wide_composite
        && leaves
            .iter()
            .all(|s| *s == naga::Scalar::F16 || (s.width == 4 && s.kind != ScalarKind::Bool))
    {
        return Ok(HALF_WORDS);
    }
    Err(
        "structs mixing `f16` with 4-byte vectors, matrices or atomics (or `bool` with \
         `f16`, or `bool` members closer than 4 bytes apart, or `bool` vectors and arrays \
         beside other types) are emulated only as function or private variables: a buffer \
         may mix \
         `f16` scalars, vectors and matrices with 4-byte scalars only; hold the 4-byte \
         vector's components as scalar members, or each `f16` pair in a `u32` member \
         converted with `unpack2x16float` / `pack2x16float`"
            .into(),
    )
}

/// The cells of a buffer (or array) of structs mixing `f16` scalars, vectors and matrices
/// with 4-byte scalars (`struct P { a: f16, b: f16, n: u32, v: vec2<f16> }`): 2-byte cells,
/// the unit of WGSL's layout there (WGSL § 13.4 Memory Layout: `f16` has size and alignment
/// 2, `vec2<f16>` size and alignment 4, a 4-byte scalar size and alignment 4, so every member
/// starts at an even offset and a 4-byte one at a multiple of 4 bytes). An `f16` is its cell's
/// bits; a 4-byte member is the two cells at its offset, low half first (WGSL § Internal
/// Layout of Values: little-endian), read and written whole through a view of its type
/// (`Lower::typed_view`), as the engine reads a `uint*` over `uint16_t` cells.
pub(super) const HALF_WORDS: naga::Scalar = naga::Scalar {
    kind: ScalarKind::Uint,
    width: 2,
};

/// The bytes of one cell of a type (its [`cell_scalar`]'s width; 2 for a
/// [`held_mixed_struct`]; 4 when it has none).
pub(super) fn cell_width(module: &naga::Module, inner: &TypeInner) -> u32 {
    if held_mixed_struct(module, inner) {
        return 2;
    }
    cell_scalar(module, inner).map_or(4, |s| u32::from(s.width.max(1)))
}

/// Whether `inner` is a struct mixing `f16` members (scalars, vectors, matrices) with 4-byte
/// scalar members, and nothing else: a function or private variable of it is held one local
/// per member cell, numbered in 2-byte cells (WGSL § 13.4 Memory Layout: `f16` has size and
/// alignment 2, so every member starts at a distinct even offset and each `f16` component
/// at its own 2-byte cell; a 4-byte scalar takes the cell at its offset). A struct that also
/// holds arrays or nested structs is not this one: [`cell_scalar`] gives it 2-byte cells
/// ([`HALF_WORDS`]) in memory and a `let` or function `var` of it is held one local per data
/// cell ([`real_cells`]); an access into a member of 4-byte cells (an `array<u32, N>`)
/// scales its own cell numbers by 2 there (WGSL § 13.4 Memory Layout: byte offsets agree).
pub(super) fn held_mixed_struct(module: &naga::Module, inner: &TypeInner) -> bool {
    let TypeInner::Struct { members, .. } = inner else {
        return false;
    };
    let (mut half, mut word) = (false, false);
    for m in members {
        match &module.types[m.ty].inner {
            TypeInner::Scalar(s) if s.width == 4 => word = true,
            TypeInner::Scalar(s)
            | TypeInner::Vector { scalar: s, .. }
            | TypeInner::Matrix { scalar: s, .. }
                if *s == naga::Scalar::F16 =>
            {
                half = true
            }
            _ => return false,
        }
    }
    half && word
}

/// A type's size in cells, padding included (WGSL § Alignment and Size, as naga computes it;
/// a runtime-sized array counts one element).
pub(super) fn layout_size(module: &naga::Module, inner: &TypeInner) -> u32 {
    inner.size(module.to_ctx()) / cell_width(module, inner)
}

/// Cells from one matrix column to the next: a column is a `vecR`, aligned as one (WGSL §
/// Alignment and Size: `matCxR<f32>` has columns 8 bytes apart for R = 2, 16 for R = 3, 4).
pub(super) fn column_stride(rows: naga::VectorSize, scalar: naga::Scalar, width: u32) -> u32 {
    let comps = if rows as u32 == 2 { 2 } else { 4 };
    comps * u32::from(scalar.width) / width.max(1)
}

/// The cells of a value of type `inner` that hold data (the rest is padding, WGSL §
/// Alignment and Size), each with its scalar, in cell order; cells are `width` bytes. A
/// runtime-sized array holds none here (see [`runtime_tail`]). Errors past `limit` cells.
pub(super) fn real_cells(
    module: &naga::Module,
    inner: &TypeInner,
    width: u32,
    limit: usize,
) -> Result<Vec<(u32, naga::Scalar)>, String> {
    let width = width.max(1);
    let mut out = Vec::new();
    let mut stack: Vec<(&TypeInner, u32)> = vec![(inner, 0)];
    let too_big = || format!("a value of more than {limit} cells is not held by the emulator");
    while let Some((t, off)) = stack.pop() {
        if out.len() > limit || stack.len() > limit {
            return Err(too_big());
        }
        match t {
            TypeInner::Scalar(s) | TypeInner::Atomic(s) => out.push((off / width, *s)),
            TypeInner::Vector { size, scalar } => {
                for c in 0..*size as u32 {
                    out.push((
                        off.saturating_add(c * u32::from(scalar.width)) / width,
                        *scalar,
                    ));
                }
            }
            TypeInner::Matrix {
                columns,
                rows,
                scalar,
            } => {
                let cs = column_stride(*rows, *scalar, width);
                for c in 0..*columns as u32 {
                    for r in 0..*rows as u32 {
                        out.push((
                            (off / width)
                                .saturating_add(c * cs)
                                .saturating_add(r * u32::from(scalar.width) / width),
                            *scalar,
                        ));
                    }
                }
            }
            TypeInner::Array {
                base,
                size: ArraySize::Constant(n),
                stride,
            } => {
                if n.get() as usize > limit {
                    return Err(too_big());
                }
                for i in 0..n.get() {
                    let at = i.checked_mul(*stride).and_then(|x| x.checked_add(off));
                    stack.push((&module.types[*base].inner, at.ok_or_else(too_big)?));
                }
            }
            TypeInner::Array { .. } => {}
            TypeInner::Struct { members, .. } => {
                for m in members {
                    let at = off.checked_add(m.offset).ok_or_else(too_big)?;
                    stack.push((&module.types[m.ty].inner, at));
                }
            }
            other => {
                return Err(format!(
                    "a {} has no memory layout the emulator holds",
                    type_word(other)
                ))
            }
        }
    }
    out.sort_by_key(|c| c.0);
    Ok(out)
}

/// The runtime-sized array a buffer of type `inner` ends with: (its first cell, its element
/// stride in cells) for `array<T>` itself (0, stride) or a struct whose last member is one.
pub fn runtime_tail(module: &naga::Module, inner: &TypeInner) -> Option<(u32, u32)> {
    let w = cell_width(module, inner);
    match inner {
        TypeInner::Array {
            size: ArraySize::Dynamic,
            stride,
            ..
        } => Some((0, stride / w)),
        TypeInner::Struct { members, .. } => {
            let last = members.last()?;
            match &module.types[last.ty].inner {
                TypeInner::Array {
                    size: ArraySize::Dynamic,
                    stride,
                    ..
                } => Some((last.offset / w, stride / w)),
                _ => None,
            }
        }
        _ => None,
    }
}

/// A struct held flat in cells laid out as WGSL lays out its bytes (WGSL § Memory Layout:
/// each member at its offset, padding included, the struct's size rounded to its alignment),
/// one cell per [`cell_scalar`]'s width. Returns (the cells' scalar, the struct's cells, each
/// member's first cell).
pub(super) fn struct_layout(
    module: &naga::Module,
    inner: &TypeInner,
) -> Result<(naga::Scalar, u32, Vec<u32>), String> {
    let TypeInner::Struct { members, span } = inner else {
        return Err("not a struct".into());
    };
    // A held mixed struct: 2-byte cells (`held_mixed_struct`), each local of its own type.
    let sc = if held_mixed_struct(module, inner) {
        naga::Scalar::F16
    } else {
        cell_scalar(module, inner)?
    };
    let w = u32::from(sc.width.max(1));
    let starts = members.iter().map(|m| m.offset / w).collect();
    Ok((sc, *span / w, starts))
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
    let width = cell_width(module, inner);
    if width == 1 {
        // bool (not host-shareable; workgroup only): one cell per element component.
        return vec_comps_in(module, inner);
    }
    (stride / width).max(1)
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
    // `own`: the name of the type handle read (`b : B`), so two structs of one layout keep
    // their own names; else the first type of that layout's.
    let scalar = |inner: &TypeInner, own: Option<String>| -> Result<(ValTy, String), String> {
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
            // A struct, a matrix or an array held flat: its cells as WGSL lays out its bytes.
            TypeInner::Struct { .. } | TypeInner::Matrix { .. } | TypeInner::Array { .. } => {
                let sc = cell_scalar(module, inner)?;
                let name = own
                    .or_else(|| {
                        module
                            .types
                            .iter()
                            .find(|(_, t)| &t.inner == inner)
                            .and_then(|(_, t)| t.name.clone())
                    })
                    .unwrap_or_else(|| wgsl_type_name(module, inner));
                scalar_of(sc)
                    .map(|k| (ValTy::scalar(k), name))
                    .ok_or_else(|| format!("type {sc:?} is not emulated"))
            }
            _ => Err("this type is not emulated".into()),
        }
    };
    match &module.types[ty].inner {
        // Held one local per cell (never as one run of cells): its cells' own types.
        t if held_mixed_struct(module, t) => Ok((
            ValTy::scalar(Scalar::F16),
            Count::Scalar,
            wgsl_type_name(module, t),
        )),
        TypeInner::Array { base, size, .. } => {
            let (e, n) = scalar(&module.types[*base].inner, module.types[*base].name.clone())?;
            let count = match size {
                ArraySize::Constant(n) => Count::Fixed(n.get() as usize),
                ArraySize::Dynamic => Count::Runtime,
                // Sized by an override: known with the pipeline's values (see `lower`).
                ArraySize::Pending(_) => Count::Runtime,
            };
            Ok((e, count, n))
        }
        other => scalar(other, module.types[ty].name.clone()).map(|(e, n)| (e, Count::Scalar, n)),
    }
}

/// [`elem_of`] for a variable in storage, uniform or workgroup memory: a struct mixing `f16`
/// with 4-byte scalars is one run of 2-byte cells there ([`HALF_WORDS`]; shared by the
/// invocations, so not held one local per cell as a function or private one is).
pub(super) fn memory_elem_of(
    module: &naga::Module,
    ty: Handle<naga::Type>,
) -> Result<(ValTy, Count, String), String> {
    match &module.types[ty].inner {
        t if held_mixed_struct(module, t) => Ok((
            ValTy::scalar(Scalar::U16),
            Count::Scalar,
            module.types[ty]
                .name
                .clone()
                .unwrap_or_else(|| wgsl_type_name(module, t)),
        )),
        _ => elem_of(module, ty),
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
