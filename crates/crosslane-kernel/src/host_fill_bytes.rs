//! A host array copied into a device buffer whose element type is not the array's: cudaMemcpy
//! copies bytes (CUDA Runtime API, "cudaMemcpy"), so the buffer holds the array's bytes,
//! little-endian, laid over its cells (an `unsigned char` array read as `uint4`, the CUDA
//! samples' histograms; a `float` array read through a `void*` parameter), given to the run as
//! a typed fill (`u8:0,37,74`, [`crate::memory::typed_cells`]).

/// A host array's values as the fill of a buffer of `elem` cells: as they are when the array's
/// element type is the buffer's (or not known), else as a typed list of the array's type
/// (`f32:1.5,2.5`, `u8:0,37,74`), whose bytes lie over the cells: cudaMemcpy copies bytes (CUDA
/// Runtime API, "cudaMemcpy"), so a `float` array copied into memory a `void*` parameter reads
/// through several pointer types, or an `unsigned char` array a `uint4*` parameter reads
/// (the histogram samples' `data_t`), gives the device the array's bytes, little-endian.
pub(crate) fn typed_host_fill(
    elem: crate::types::ValTy,
    a: &crate::ast::HostArg,
    values: &[String],
) -> String {
    let list = values.join(",");
    match host_fill_type(elem, a) {
        Some(word) if values.iter().all(|v| v.parse::<f64>().is_ok()) => format!("{word}:{list}"),
        _ => list,
    }
}

/// The typed-fill word of the host array `a` copies when its element type's bytes are not the
/// buffer's element's (a different size, or a float against an integer), `None` when the
/// values go in as they are (the same type, one of the same size and kind, or not known).
fn host_fill_type(elem: crate::types::ValTy, a: &crate::ast::HostArg) -> Option<&'static str> {
    use crate::types::Scalar;
    let s = a.fill_scalar?;
    let word = match s {
        Scalar::I8 => "i8",
        Scalar::U8 => "u8",
        Scalar::I16 => "i16",
        Scalar::U16 => "u16",
        Scalar::I32 => "i32",
        Scalar::U32 => "u32",
        Scalar::I64 => "i64",
        Scalar::U64 => "u64",
        Scalar::F32 => "f32",
        Scalar::F64 => "f64",
        _ => return None,
    };
    let float = |x: Scalar| matches!(x, Scalar::F16 | Scalar::Bf16 | Scalar::F32 | Scalar::F64);
    let integral = |x: Scalar| {
        matches!(
            x,
            Scalar::I8
                | Scalar::U8
                | Scalar::I16
                | Scalar::U16
                | Scalar::I32
                | Scalar::U32
                | Scalar::I64
                | Scalar::U64
        )
    };
    // Only bytes the emulator names on both sides: integers and IEEE floats.
    if !(integral(elem.scalar) || float(elem.scalar)) {
        return None;
    }
    let same = s.bits() == elem.scalar.bits() && float(s) == float(elem.scalar);
    (!same).then_some(word)
}

/// The elements of `elem` that host code's fill of `n` values of `a`'s array covers: its bytes
/// when they are laid over the cells ([`host_fill_type`]), else one value per scalar.
pub(crate) fn host_fill_elems(
    elem: crate::types::ValTy,
    a: &crate::ast::HostArg,
    n: usize,
) -> usize {
    let lanes = usize::from(elem.lanes.max(1));
    match (host_fill_type(elem, a), a.fill_scalar) {
        (Some(_), Some(s)) => {
            let bytes = n.saturating_mul((s.bits() / 8) as usize);
            let cell = usize::try_from(crate::vector_types::size_of(elem))
                .unwrap_or(1)
                .max(1);
            bytes.div_ceil(cell)
        }
        _ => n.div_ceil(lanes),
    }
}
