//! Cells written a part at a time: the bytes of a memory cell that was never written whole,
//! kept until every byte of it has been written.
//!
//! Inference kernels build an element from its parts: FlashInfer's and vLLM's `vec_t` fill a
//! `uint2`/`uint4` through `((half*)&data)[i] = …` and store it with one `*(uint4*)p = data`;
//! a `float` is assembled from its four bytes through an `unsigned char*`. C++17
//! [basic.types]/4 makes an object's value its object representation, the sequence of its
//! bytes ([intro.memory]/1: each byte is a memory location of its own, [intro.memory]/3), so
//! once every byte of a cell has been written the cell has a value, whichever parts wrote
//! them; while some byte is unwritten the cell has none (an indeterminate value,
//! [dcl.init]/12). The emulator keeps a cell as one value (`Option<KVal>`), so the bytes of a
//! cell written only in part are held here beside it: a cell is in this table only while its
//! memory cell is `None`. The write that supplies its last byte stores the whole value as a
//! plain store (recorded in the step, checked by the race check); a whole-cell store drops the
//! entry. A read of the cell before then stays undefined and names the bytes never written;
//! a read of bytes that were written (`p[0]` after `p[0] = 0`) gets them.
//!
//! Bounded: an entry per cell of memory at most, each of the cell's size (at most 32 bytes).

use std::collections::HashMap;

use crate::ast::Span;
use crate::exec::Executor;
use crate::memory::Space;
use crate::types::{KVal, ValTy};
use crate::vector_types::{from_raw_bits, size_of};
use crate::KernelDiagnostic;
use crosslane_core::result::Level;

/// A cell's bytes (`None`: never written) and where it was last written.
type Written = (Vec<Option<u8>>, Span);

/// The written bytes of cells never written whole, by (buffer, cell).
#[derive(Clone, Debug, Default)]
pub(crate) struct PartialCells {
    cells: HashMap<(usize, i64), Written>,
}

impl PartialCells {
    /// Drops cell `c` of buffer `buf` (a whole-cell store gave it a value, or none).
    pub(crate) fn forget(&mut self, buf: usize, c: i64) {
        if !self.cells.is_empty() {
            self.cells.remove(&(buf, c));
        }
    }

    /// Byte `k` of cell `c` of buffer `buf` (little-endian within the cell), if written.
    pub(crate) fn byte(&self, buf: usize, c: i64, k: usize) -> Option<u8> {
        self.cells.get(&(buf, c))?.0.get(k).copied().flatten()
    }

    /// Whether cell `c` of buffer `buf` has some bytes written.
    pub(crate) fn has(&self, buf: usize, c: i64) -> bool {
        self.cells.contains_key(&(buf, c))
    }

    /// Writes `bytes` (offset within the cell, byte) into cell `c` of buffer `buf`, whose cells
    /// are `cell`. Returns every byte of the cell once all of them are written (and drops the
    /// entry), else `None`.
    pub(crate) fn put(
        &mut self,
        (buf, c): (usize, i64),
        cell: ValTy,
        bytes: impl IntoIterator<Item = (usize, u8)>,
        at: Span,
    ) -> Option<Vec<u8>> {
        let n = usize::try_from(size_of(cell)).unwrap_or(0);
        let (entry, last) = self
            .cells
            .entry((buf, c))
            .or_insert_with(|| (vec![None; n], at));
        *last = at;
        for (k, b) in bytes {
            if let Some(slot) = entry.get_mut(k) {
                *slot = Some(b);
            }
        }
        let whole: Option<Vec<u8>> = entry.iter().copied().collect();
        if whole.is_some() {
            self.cells.remove(&(buf, c));
        }
        whole
    }

    /// The bytes of cell `c` of buffer `buf` never written, as text (`bytes 2..=3 of 4`), when
    /// some of its bytes were written.
    /// Keeps every byte of cell `c` of buffer `buf` (of type `cell`) although they are all
    /// written: bytes that make no value the emulator holds (a float NaN's), read back through
    /// an integer view as they are.
    pub(crate) fn put_whole(
        &mut self,
        (buf, c): (usize, i64),
        cell: ValTy,
        bytes: impl IntoIterator<Item = (usize, u8)>,
        at: Span,
    ) {
        let n = usize::try_from(size_of(cell)).unwrap_or(0);
        let mut all = vec![None; n];
        for (k, b) in bytes {
            if let Some(slot) = all.get_mut(k) {
                *slot = Some(b);
            }
        }
        self.cells.insert((buf, c), (all, at));
    }

    /// The bits of cell `c` of buffer `buf` when all its bytes are kept here ([`Self::put_whole`]:
    /// a float NaN's), least significant byte first.
    pub(crate) fn whole_bits(&self, buf: usize, c: i64) -> Option<u64> {
        let (bytes, _) = self.cells.get(&(buf, c))?;
        bytes
            .iter()
            .rev()
            .try_fold(0u64, |acc, b| Some((acc << 8) | u64::from((*b)?)))
    }

    pub(crate) fn unwritten(&self, buf: usize, c: i64) -> Option<String> {
        let (bytes, _) = self.cells.get(&(buf, c))?;
        if bytes.iter().all(Option::is_some) {
            return None;
        }
        let mut runs: Vec<(usize, usize)> = Vec::new();
        for (k, b) in bytes.iter().enumerate() {
            if b.is_some() {
                continue;
            }
            match runs.last_mut() {
                Some((_, end)) if *end + 1 == k => *end = k,
                _ => runs.push((k, k)),
            }
        }
        let list: Vec<String> = runs
            .iter()
            .map(|&(a, b)| {
                if a == b {
                    a.to_string()
                } else {
                    format!("{a}..={b}")
                }
            })
            .collect();
        let word = if runs.len() == 1 && runs[0].0 == runs[0].1 {
            "byte"
        } else {
            "bytes"
        };
        Some(format!("{word} {} of {}", list.join(", "), bytes.len()))
    }
}

impl Executor {
    /// At the end of a run: a warning per statement that last wrote part of a global memory
    /// cell no statement completed, naming the first such cell and its unwritten bytes (the
    /// cell ends undefined, and the buffer shows no value there). Local and shared cells end
    /// with their thread or block, read or not.
    pub(crate) fn note_partial_cells(&mut self) {
        let mut by_span: Vec<(Span, usize, i64, usize)> = Vec::new();
        for (&(buf, c), (bytes, at)) in &self.partial.cells {
            // A cell whose bytes are all written (a NaN's, kept as bytes) is no partial write.
            if bytes.iter().all(Option::is_some) {
                continue;
            }
            let global = self
                .trace
                .memory
                .buffers
                .get(buf)
                .is_some_and(|b| b.space == Space::Global);
            if !global {
                continue;
            }
            match by_span.iter_mut().find(|(s, ..)| s == at) {
                Some((_, b, first, n)) => {
                    if (buf, c) < (*b, *first) {
                        (*b, *first) = (buf, c);
                    }
                    *n += 1;
                }
                None => by_span.push((*at, buf, c, 1)),
            }
        }
        // Sorted whole (the table has no order of its own): the same run, the same report.
        by_span.sort_by_key(|&(s, b, c, _)| (s.shown().line, s.shown().col, s.col, b, c));
        for (at, buf, c, n) in by_span {
            let name = self
                .trace
                .memory
                .buffers
                .get(buf)
                .map_or(String::new(), |b| b.name.clone());
            let missing = self.partial.unwritten(buf, c).unwrap_or_default();
            let more = match n {
                1 => String::new(),
                2 => " and 1 more element".to_string(),
                n => format!(" and {} more elements", n - 1),
            };
            let shown = at.shown();
            let d = KernelDiagnostic {
                line: shown.line.max(1),
                col: shown.col.max(1),
                level: Level::Warning,
                message: format!(
                    "writes part of `{name}[{c}]`{more}, and no statement writes the rest \
                     ({missing} never written): the element ends undefined, as an element's \
                     value is all its bytes"
                ),
                rule: "ISO C++17 [basic.types]/4".to_string(),
            };
            self.diag_log.admit(&d);
            self.trace.diagnostics.push(d);
        }
    }
}

/// The value of a `cell` from its little-endian bytes (a vector's components in order).
///
/// # Errors
/// [`from_raw_bits`]'s refusal (a float NaN, whose payload the emulator does not keep).
pub(crate) fn cell_value(cell: ValTy, bytes: &[u8]) -> Result<KVal, String> {
    let comp = (cell.scalar.bits().div_ceil(8) as usize).max(1);
    let mut items = bytes
        .chunks(comp)
        .map(|c| {
            let bits = c
                .iter()
                .rev()
                .fold(0u64, |acc, byte| (acc << 8) | u64::from(*byte));
            from_raw_bits(cell.scalar, bits)
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(if cell.lanes <= 1 && items.len() == 1 {
        items.swap_remove(0)
    } else {
        KVal::Vector {
            ty: cell.scalar,
            items,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Scalar;

    #[test]
    fn a_cell_is_whole_when_its_last_byte_is_written() {
        // 1.0f is 0x3f800000 (IEEE 754 binary32), bytes 00 00 80 3f from the lowest.
        let f32t = ValTy::scalar(Scalar::F32);
        let mut p = PartialCells::default();
        let at = Span { line: 1, col: 1 };
        assert_eq!(p.put((0, 0), f32t, [(0, 0), (1, 0)], at), None);
        assert_eq!(p.unwritten(0, 0).as_deref(), Some("bytes 2..=3 of 4"));
        assert_eq!(p.byte(0, 0, 1), Some(0));
        assert_eq!(p.put((0, 0), f32t, [(3, 0x3f)], at), None);
        assert_eq!(p.unwritten(0, 0).as_deref(), Some("byte 2 of 4"));
        let all = p.put((0, 0), f32t, [(2, 0x80)], at).unwrap();
        assert_eq!(all, vec![0, 0, 0x80, 0x3f]);
        assert!(!p.has(0, 0));
        assert_eq!(cell_value(f32t, &all), Ok(KVal::float(Scalar::F32, 1.0)));
    }

    #[test]
    fn vector_cells_from_bytes() {
        // A uint2 whose bytes are 00 3c 00 40 | 00 42 00 44: the halves 1, 2, 3, 4 (0x3c00,
        // 0x4000, 0x4200, 0x4400) two to a word, the first in the low bytes.
        let u2 = ValTy {
            scalar: Scalar::U32,
            lanes: 2,
        };
        let v = cell_value(u2, &[0, 0x3c, 0, 0x40, 0, 0x42, 0, 0x44]).unwrap();
        assert_eq!(
            v,
            KVal::Vector {
                ty: Scalar::U32,
                items: vec![
                    KVal::int(Scalar::U32, 0x4000_3c00),
                    KVal::int(Scalar::U32, 0x4400_4200)
                ]
            }
        );
        // The f32 bits 0x7fc00000 are a NaN: refused, not a number picked.
        let f32t = ValTy::scalar(Scalar::F32);
        assert!(cell_value(f32t, &[0, 0, 0xc0, 0x7f]).is_err());
    }
}
