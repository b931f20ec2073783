//! A user's WGSL compute shader on a device (the CLI's `run FILE.wgsl --gpu`, the page's "Run on
//! this GPU"): the buffers as bytes in the shader's layout, and each buffer read back diffed
//! cell by cell with the emulator's run of the same shader.
//!
//! A cell is a **match** (the same bits), a **match within N ulp** (a float from an inexact
//! built-in whose documented bound is N ulp, and the device's value is at most N ulp away), a
//! **mismatch**, or **indeterminate** by the spec (the emulator's value is undefined or
//! indeterminate there: the device may hold anything). The device's own subgroup size decides
//! the emulator run the diff is against.

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
    /// Whether the entry point (or a helper it calls) uses the variable: only those are bound
    /// ([`bind_groups`]); an unused buffer is still uploaded and read back, unchanged.
    pub used: bool,
}

/// The bind groups a dispatch sets, from the pipeline's automatic layout: for each group index
/// from 0 to the highest `@group` of a used buffer, the `(@binding, index into buffers)` of
/// the used buffers in it, by binding. A buffer the entry point does not use has no slot in
/// that layout, so binding it is a validation error (WebGPU spec, "default pipeline layout":
/// only the bindings statically used by the entry point are in it); a group index below the
/// highest one with no used buffer has an empty layout, and still needs a (then empty) bind
/// group set before the dispatch (WebGPU spec, "Validate encoder bind groups": every bind
/// group layout of the pipeline layout needs a compatible bind group).
pub fn bind_groups(buffers: &[ShaderBuffer]) -> Vec<(u32, Vec<(u32, usize)>)> {
    let Some(top) = buffers.iter().filter(|b| b.used).map(|b| b.group).max() else {
        return Vec::new();
    };
    // `@group` is below maxBindGroups (4 by default) or the device refused the shader.
    (0..=top)
        .map(|g| {
            let mut entries: Vec<(u32, usize)> = buffers
                .iter()
                .enumerate()
                .filter(|(_, b)| b.used && b.group == g)
                .map(|(k, b)| (b.binding, k))
                .collect();
            entries.sort_unstable();
            (g, entries)
        })
        .collect()
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
        // A buffer of structs mixing `f16` with 4-byte scalars is held in 2-byte `u16` cells;
        // an `f16` member's cell holds the half written through its typed view.
        (
            KVal::Float {
                ty: Scalar::F16, x, ..
            },
            Scalar::U16,
        ) => u64::from(half::f16::from_f64(*x).to_bits()),
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
            used: b.used,
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
    /// Different bits, but the emulator's cell carries an accuracy note of `bound` ulp (the
    /// spec's or vendor's bound for the inexact built-in it came from: WGSL § Floating Point
    /// Accuracy; CUDA Math API, Mathematical Functions) and the device's value is `ulp` ulp
    /// away ([`ulp_distance`]), no more than `bound`.
    Within {
        /// The distance in ulp.
        ulp: u32,
        /// The cell's documented bound in ulp.
        bound: u32,
    },
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
    /// Cells with different bits within their documented ulp bound ([`CellVerdict::Within`]).
    pub within_ulp: usize,
    /// The largest bound among those cells (0 when there are none).
    pub within_bound: u32,
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
        within_ulp: 0,
        within_bound: 0,
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
            Some(want) => match within(c.as_ref(), want, got, elem) {
                Some(v @ CellVerdict::Within { bound, .. }) => {
                    d.within_ulp += 1;
                    d.within_bound = d.within_bound.max(bound);
                    v
                }
                _ => {
                    d.mismatched += 1;
                    CellVerdict::Mismatch
                }
            },
        };
        d.cells.push((v, got));
    }
    d
}

/// The distance in ulp between two floats of `elem`'s type given as bit patterns: how many
/// representable values lie from one to the other, counted on the bit patterns read as
/// sign-magnitude integers (so +0 and -0 are 0 apart, and the step across zero counts each
/// subnormal). This is the ulp of the WGSL spec (§ Floating Point Accuracy: "ULP(x) is the
/// minimum distance between two distinct floating point numbers that straddle x", and an
/// error of N ulp lets the result be any of the N nearest values each side) and of the CUDA
/// Math API's "maximum ulp error". `None` for a NaN on either side or a non-float type.
pub fn ulp_distance(a: u64, b: u64, elem: ValTy) -> Option<u64> {
    let (bits, finite_nan) = match elem.scalar {
        Scalar::F32 => (32u32, 0x7f80_0000u64),
        Scalar::F16 => (16, 0x7c00),
        Scalar::F64 => (64, 0x7ff0_0000_0000_0000),
        _ => return None,
    };
    let sign = 1u64 << (bits - 1);
    let mag_mask = sign - 1;
    let key = |x: u64| -> Option<i128> {
        let mag = x & mag_mask;
        // Exponent all ones with a nonzero mantissa: a NaN, no distance.
        if mag > finite_nan {
            return None;
        }
        let m = i128::from(mag);
        Some(if x & sign != 0 { -m } else { m })
    };
    let d = (key(a)? - key(b)?).unsigned_abs();
    u64::try_from(d).ok()
}

/// The verdict for a cell whose bits differ from the emulator's: [`CellVerdict::Within`] when
/// the emulator's value carries an ulp bound and the device's bits are within it.
fn within(emu: Option<&KVal>, want: u64, got: u64, elem: ValTy) -> Option<CellVerdict> {
    let bound = emu?.approx()?.ulp()?;
    let ulp = ulp_distance(want, got, elem)?;
    (ulp <= u64::from(bound)).then_some(CellVerdict::Within {
        ulp: ulp as u32,
        bound,
    })
}

impl CellVerdict {
    /// `match`, `match (within N ulp)` (N the cell's bound), `mismatch`, `indeterminate`.
    pub fn text(self) -> String {
        match self {
            CellVerdict::Match => "match".into(),
            CellVerdict::Within { bound, .. } => format!("match (within {bound} ulp)"),
            CellVerdict::Mismatch => "mismatch".into(),
            CellVerdict::Indeterminate => "indeterminate".into(),
        }
    }
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

    fn buf(name: &str, group: u32, binding: u32, used: bool) -> ShaderBuffer {
        ShaderBuffer {
            name: name.into(),
            group,
            binding,
            uniform: false,
            elem: ValTy::scalar(Scalar::U32),
            bytes: vec![0; 4],
            used,
        }
    }

    /// Worked from the WebGPU spec's default pipeline layout: used bindings only, by group
    /// then binding; empty groups below the highest used one stay (as empty bind groups),
    /// groups above it are not in the layout.
    #[test]
    fn bind_groups_hold_only_the_used_buffers() {
        let bufs = [
            buf("a", 0, 1, true),
            buf("unused", 0, 0, false),
            buf("c", 2, 5, true),
            buf("b", 0, 0, false),
            buf("d", 2, 0, true),
            buf("later", 3, 0, false),
        ];
        assert_eq!(
            bind_groups(&bufs),
            vec![(0, vec![(1, 0)]), (1, vec![]), (2, vec![(0, 4), (5, 2)])]
        );
        // Group 0 only unused: an empty group 0 before the used group 1.
        let bufs = [buf("x", 0, 0, false), buf("y", 1, 2, true)];
        assert_eq!(bind_groups(&bufs), vec![(0, vec![]), (1, vec![(2, 1)])]);
        // Nothing used: nothing bound.
        assert_eq!(bind_groups(&[buf("x", 0, 0, false)]), vec![]);
    }

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

    #[test]
    fn ulp_distance_counts_representable_floats_between_bit_patterns() {
        let f = ValTy::scalar(Scalar::F32);
        // 1.0 = 0x3f800000; the next float up is 0x3f800001 (1 + 2^-23), the one below
        // 0x3f7fffff (1 − 2^-24): each 1 ulp away, 2 apart from each other.
        assert_eq!(ulp_distance(0x3f80_0000, 0x3f80_0001, f), Some(1));
        assert_eq!(ulp_distance(0x3f7f_ffff, 0x3f80_0001, f), Some(2));
        // +0 and -0 are the same value; the smallest subnormals ±2^-149 are 2 apart across 0.
        assert_eq!(ulp_distance(0x0000_0000, 0x8000_0000, f), Some(0));
        assert_eq!(ulp_distance(0x0000_0001, 0x8000_0001, f), Some(2));
        // FLT_MAX (0x7f7fffff) to +inf (0x7f800000) is one step; a NaN has no distance.
        assert_eq!(ulp_distance(0x7f7f_ffff, 0x7f80_0000, f), Some(1));
        assert_eq!(ulp_distance(0x7fc0_0000, 0x3f80_0000, f), None);
        // f16: 1.0 = 0x3c00, 1 + 2^-10 = 0x3c01.
        let h = ValTy::scalar(Scalar::F16);
        assert_eq!(ulp_distance(0x3c00, 0x3c01, h), Some(1));
        assert_eq!(ulp_distance(1, 2, ValTy::scalar(Scalar::U32)), None);
    }

    #[test]
    fn a_cell_within_its_ulp_bound_matches_and_says_so() {
        use crosslane_kernel::accuracy::{Approx, Bound, Fmt};
        let f = ValTy::scalar(Scalar::F32);
        let note = Some(Approx::own(0, Bound::Ulp(2), 1.0, Fmt::F32));
        let noted = |x: f64| Some(KVal::approx_float(Scalar::F32, x, note));
        // Emulator 1.0 (0x3f800000) in every cell; device bits by hand: 2 ulp up (within the
        // 2-ulp note), 3 ulp up (outside), 1 ulp down (within), and 1 ulp up in a cell without a
        // note (a mismatch: no bound was documented for it).
        let emu = vec![
            noted(1.0),
            noted(1.0),
            noted(1.0),
            Some(KVal::float(Scalar::F32, 1.0)),
        ];
        let dev: Vec<u8> = [0x3f80_0002u32, 0x3f80_0003, 0x3f7f_ffff, 0x3f80_0001]
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect();
        let d = diff("y", &emu, &dev, f);
        assert_eq!(
            d.cells.iter().map(|c| c.0).collect::<Vec<_>>(),
            [
                CellVerdict::Within { ulp: 2, bound: 2 },
                CellVerdict::Mismatch,
                CellVerdict::Within { ulp: 1, bound: 2 },
                CellVerdict::Mismatch,
            ]
        );
        assert_eq!(
            (d.matched, d.within_ulp, d.within_bound, d.mismatched),
            (0, 2, 2, 2)
        );
        assert_eq!(d.cells[0].0.text(), "match (within 2 ulp)");
        let j = serde_json::to_value(&d).unwrap_or_default();
        assert_eq!(
            (j["within_ulp"].as_u64(), j["mismatch"].as_u64()),
            (Some(2), Some(2))
        );
    }
}
