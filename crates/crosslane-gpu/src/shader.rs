//! A user's WGSL compute shader on a device (the CLI's `run FILE.wgsl --gpu`, the page's "Run on
//! this GPU"): the buffers as bytes in the shader's layout, and each buffer read back diffed
//! cell by cell with the emulator's run of the same shader.
//!
//! A cell is a **match** (the same bits), a **mismatch**, or **indeterminate** by the spec (the
//! emulator's value is undefined or indeterminate there: the device may hold anything). The
//! device's own subgroup size decides the emulator run the diff is against.

use serde::Serialize;

use crosslane_kernel::memory::Memory;
use crosslane_kernel::wgsl::Binding;
use crosslane_kernel::{KVal, Scalar, ValTy};

/// One buffer binding as uploaded.
#[derive(Clone, Debug, PartialEq)]
pub struct ShaderBuffer {
    /// The variable's name.
    pub name: String,
    /// `@group`.
    pub group: u32,
    /// `@binding`.
    pub binding: u32,
    /// A `var<uniform>` (else storage).
    pub uniform: bool,
    /// The element type.
    pub elem: ValTy,
    /// The initial contents, little-endian, in the shader's layout.
    pub bytes: Vec<u8>,
}

/// Bytes of one element in a storage buffer (WGSL § Memory Layout: f16 is 2 bytes, the 32-bit
/// scalars and their atomics 4).
pub fn elem_bytes(elem: ValTy) -> usize {
    let scalar = match elem.scalar {
        Scalar::I8 | Scalar::U8 => 1,
        Scalar::F16 | Scalar::Bf16 | Scalar::I16 | Scalar::U16 => 2,
        Scalar::I64 | Scalar::U64 | Scalar::F64 => 8,
        _ => 4,
    };
    scalar * usize::from(elem.lanes.max(1))
}

/// A cell's bits in the element type (`None`: undefined or indeterminate).
pub fn cell_bits(c: &Option<KVal>, elem: ValTy) -> Option<u64> {
    let v = c.as_ref()?;
    Some(match (v, elem.scalar) {
        (KVal::Float { x, .. }, Scalar::F32) => u64::from((*x as f32).to_bits()),
        (KVal::Float { x, .. }, Scalar::F16) => u64::from(half::f16::from_f64(*x).to_bits()),
        (KVal::Float { x, .. }, Scalar::F64) => x.to_bits(),
        (KVal::Int { bits, .. }, s) => {
            let w = s.bits().clamp(1, 64);
            if w == 64 {
                *bits
            } else {
                bits & ((1u64 << w) - 1)
            }
        }
        _ => return None,
    })
}

/// The initial bytes of a buffer from the emulator's initial cells (an uninitialized cell
/// uploads as zero).
pub fn encode(cells: &[Option<KVal>], elem: ValTy) -> Vec<u8> {
    let n = elem_bytes(elem);
    let mut out = Vec::with_capacity(cells.len() * n);
    for c in cells {
        let b = cell_bits(c, elem).unwrap_or(0).to_le_bytes();
        out.extend_from_slice(&b[..n.min(8)]);
    }
    out
}

/// Every binding of a shader as uploaded: its initial bytes from the emulator's initial memory
/// (`initial`, the trace's `initial_memory`), in binding order. A binding with no buffer in
/// `initial` uploads empty. The CLI's `run --gpu` and the page's "Run on this GPU" both upload
/// through here.
pub fn upload(bindings: &[Binding], initial: &Memory) -> Vec<ShaderBuffer> {
    bindings
        .iter()
        .map(|b| ShaderBuffer {
            name: b.name.clone(),
            group: b.group,
            binding: b.binding,
            uniform: b.space == "uniform",
            elem: b.elem,
            bytes: initial
                .buffers
                .iter()
                .find(|m| m.name == b.name)
                .map(|m| encode(&m.cells, b.elem))
                .unwrap_or_default(),
        })
        .collect()
}

/// How one cell compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CellVerdict {
    /// The same bits.
    Match,
    /// Different bits.
    Mismatch,
    /// The emulator's value is undefined or indeterminate (the spec allows any value).
    Indeterminate,
}

/// One buffer's diff.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BufferDiff {
    /// The variable's name.
    pub name: String,
    /// Cells with the same bits.
    #[serde(rename = "match")]
    pub matched: usize,
    /// Cells with different bits.
    #[serde(rename = "mismatch")]
    pub mismatched: usize,
    /// Cells the spec leaves indeterminate.
    pub indeterminate: usize,
    /// Each cell's verdict and the device's bits, in order.
    #[serde(skip)]
    pub cells: Vec<(CellVerdict, u64)>,
}

/// Diffs a buffer read back from the device with the emulator's final cells.
pub fn diff(name: &str, emulator: &[Option<KVal>], device: &[u8], elem: ValTy) -> BufferDiff {
    let n = elem_bytes(elem);
    let mut d = BufferDiff {
        name: name.to_string(),
        matched: 0,
        mismatched: 0,
        indeterminate: 0,
        cells: Vec::with_capacity(emulator.len()),
    };
    for (k, c) in emulator.iter().enumerate() {
        let mut b = [0u8; 8];
        if let Some(src) = device.get(k * n..k * n + n.min(8)) {
            b[..src.len()].copy_from_slice(src);
        }
        let got = u64::from_le_bytes(b);
        let v = match cell_bits(c, elem) {
            None => {
                d.indeterminate += 1;
                CellVerdict::Indeterminate
            }
            Some(want) if want == got => {
                d.matched += 1;
                CellVerdict::Match
            }
            Some(_) => {
                d.mismatched += 1;
                CellVerdict::Mismatch
            }
        };
        d.cells.push((v, got));
    }
    d
}

/// The device's bits of a cell as a number in the element type (for display).
pub fn bits_text(bits: u64, elem: ValTy) -> String {
    match elem.scalar {
        Scalar::F32 => format!("{}", f32::from_bits(bits as u32)),
        Scalar::F16 => format!("{}", half::f16::from_bits(bits as u16)),
        Scalar::I32 => format!("{}", bits as u32 as i32),
        _ => format!("{bits}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_diff_by_bits_and_undefined_is_indeterminate() {
        let u = ValTy::scalar(Scalar::U32);
        let emu = vec![
            Some(KVal::int(Scalar::U32, 5)),
            None,
            Some(KVal::int(Scalar::U32, 7)),
        ];
        let dev: Vec<u8> = [5u32, 99, 8].iter().flat_map(|w| w.to_le_bytes()).collect();
        let d = diff("b", &emu, &dev, u);
        assert_eq!((d.matched, d.mismatched, d.indeterminate), (1, 1, 1));
        let h = ValTy::scalar(Scalar::F16);
        assert_eq!(
            encode(&[Some(KVal::float(Scalar::F16, 1.0))], h),
            vec![0x00, 0x3c]
        );
    }
}
