//! Pitched 2-D memory in host-read code: `cudaMallocPitch` / `hipMallocPitch` give the
//! allocation and its row pitch, `cudaMemcpy2D` / `hipMemcpy2D` copy a host array into it row
//! by row (or the device's rows back, which host code then no longer knows).

use super::const_eval::HostVal;
use super::host::{source_text, split_commas, DevWrite, HostState, MAX_FILL};
use super::*;

/// The row pitch crosslane gives a pitched allocation of `width` bytes: `width` rounded up to
/// a multiple of 512 bytes. CUDA Runtime API, cudaMallocPitch: "the function may pad the
/// allocation to ensure that corresponding pointers in any given row will continue to meet
/// the alignment requirements for coalescing", the pitch returned is the allocation's width
/// in bytes and at least `width`; the rule that picks it is the implementation's. 512 is
/// `cudaDeviceProp::textureAlignment` on current devices; a kernel that indexes rows by the
/// pitch it is given, as the API asks, finds the same cells under any pitch.
pub(super) const PITCH_ALIGN: u64 = 512;

impl Parser<'_> {
    /// `cudaMallocPitch(&d, &pitch, width, height)` (`hipMallocPitch` the same) or
    /// `cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind)` (`hipMemcpy2D` the same)
    /// at `k`, `name` the call's.
    pub(super) fn host_pitch(&mut self, st: &mut HostState, name: &str, k: usize) {
        let Some(c) = self.closing(k + 1) else {
            return;
        };
        let parts = split_commas(self.toks, k + 2, c);
        if name.ends_with("MallocPitch") {
            self.malloc_pitch(st, name, k, &parts);
        } else {
            self.memcpy_2d(st, name, k, c, &parts);
        }
    }

    /// A constant byte count of part `p`.
    fn pitch_bytes(&mut self, st: &HostState, p: Option<&(usize, usize)>) -> Option<u64> {
        let &(a, b) = p?;
        self.host_value(st, a, b)
            .and_then(HostVal::int)
            .and_then(|n| u64::try_from(n).ok())
    }

    /// The last name in part `p` (`&d`, `(void**)&d`, `&pitch`).
    fn pitch_name(&self, p: Option<&(usize, usize)>) -> Option<String> {
        let &(a, b) = p?;
        self.toks[a..b].iter().rev().find_map(|t| match &t.tok {
            Tok::Ident(n) => Some(n.clone()),
            _ => None,
        })
    }

    /// `cudaMallocPitch(&d, &pitch, width, height)`: fresh memory of `height` rows of
    /// [`PITCH_ALIGN`]-rounded pitch, that pitch stored into `pitch`.
    fn malloc_pitch(&mut self, st: &mut HostState, name: &str, k: usize, parts: &[(usize, usize)]) {
        let line = self.toks[k].line;
        let (Some(d), Some(pitch)) = (
            self.pitch_name(parts.first()),
            self.pitch_name(parts.get(1)),
        ) else {
            return;
        };
        st.ptrs.remove(&d);
        st.writes
            .insert(d.clone(), DevWrite::Fresh(name.to_string(), line));
        st.prior.remove(&d);
        st.copies.remove(&d);
        st.copied.remove(&d);
        st.fills.remove(&d);
        st.mallocs.remove(&d);
        if let Some(&(a, b)) = parts.get(2) {
            self.malloc_elem(st, &d, a, b);
        }
        let width = self.pitch_bytes(st, parts.get(2));
        let height = self.pitch_bytes(st, parts.get(3));
        let Some(w) = width else {
            let why = format!("`{name}` at line {line} is given a width with no constant value");
            Self::mark_unknown(st, &[pitch], &why);
            return;
        };
        let p = w.div_ceil(PITCH_ALIGN).max(1).saturating_mul(PITCH_ALIGN);
        st.unknown.remove(&pitch);
        st.env.insert(pitch, HostVal::Int(i128::from(p)));
        if let Some(bytes) = height.and_then(|h| p.checked_mul(h)) {
            st.mallocs.insert(d, (bytes, name.to_string(), line));
        }
    }

    /// `cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind)`: a host array's rows
    /// into pitched memory, or rows copied into a host array (unknown to host code after).
    fn memcpy_2d(
        &mut self,
        st: &mut HostState,
        name: &str,
        k: usize,
        c: usize,
        parts: &[(usize, usize)],
    ) {
        let toks = self.toks;
        let line = toks[k].line;
        let to_device = parts.get(6).is_some_and(|&(a, b)| {
            toks[a..b]
                .iter()
                .any(|t| matches!(&t.tok, Tok::Ident(n) if n.ends_with("HostToDevice")))
        });
        let dst = self.pitch_name(parts.first());
        let src = self.pitch_name(parts.get(2));
        let Some(dst) = dst else {
            return;
        };
        if !st.mallocs.contains_key(&dst) && !st.writes.contains_key(&dst) {
            // Into a host array: the device's rows, which host code does not know here.
            let why = format!("`{name}` at line {line} copies the device's values into it");
            Self::mark_unknown(st, std::slice::from_ref(&dst), &why);
            st.fills.remove(&dst);
            return;
        }
        let placed = to_device
            .then(|| self.rows_placed(st, &dst, src.as_deref(), parts))
            .flatten();
        match (placed, src) {
            (Some(cells), Some(h)) => {
                // After launches given `dst`, the rows are host code's and the rest what the
                // launches leave (`host_cells`).
                let rows = (
                    self.pitch_bytes(st, parts.get(1)),
                    self.pitch_bytes(st, parts.get(4)),
                    self.pitch_bytes(st, parts.get(5)),
                );
                let after_launch = st.prior.get(&dst).is_some_and(|p| !p.is_empty());
                match rows {
                    (Some(dp), Some(w), Some(hgt)) if after_launch && hgt <= MAX_FILL as u64 => {
                        let cells = st.host_cells.entry(dst.clone()).or_default();
                        cells.extend((0..hgt).map(|r| (r.saturating_mul(dp), w)));
                    }
                    _ => {
                        st.prior.remove(&dst);
                        st.host_cells.remove(&dst);
                    }
                }
                // Copies of launches' cells into the rows give way to them.
                let e = st.elem_bytes.get(&dst).copied().filter(|&e| e > 0);
                match (rows, e) {
                    ((Some(dp), Some(w), Some(hgt)), Some(e)) if hgt <= MAX_FILL as u64 => {
                        for r in 0..hgt {
                            let at = r.saturating_mul(dp) / e;
                            st.cut_dev_copies(&dst, Some((at, w.div_ceil(e))));
                        }
                    }
                    _ => st.cut_dev_copies(&dst, None),
                }
                st.copied.insert(dst.clone(), Some((cells, line)));
                st.writes.insert(dst.clone(), DevWrite::Copy);
                st.copies.insert(dst, h);
            }
            _ => {
                let why = format!(
                    "`{}` at line {line} copies rows into it whose values or layout are not \
                     read here (read are: a host array filled here, constant pitches, width \
                     and height, whole elements of the allocation's `sizeof(T)`)",
                    source_text(&toks[k..=c])
                );
                st.writes.insert(dst.clone(), DevWrite::Other(why));
                st.prior.remove(&dst);
            }
        }
    }

    /// The cells of pitched allocation `d` after `cudaMemcpy2D(d, dpitch, h, spitch, width,
    /// height, …)`: row r's `width` bytes from byte `r * spitch` of `h` land at byte `r *
    /// dpitch` of `d` (CUDA Runtime API, cudaMemcpy2D); the padding past `width` in each row
    /// and rows past `height` stay as they were, never written: undefined.
    fn rows_placed(
        &mut self,
        st: &HostState,
        d: &str,
        h: Option<&str>,
        parts: &[(usize, usize)],
    ) -> Option<Vec<String>> {
        let (values, _) = st.fills.get(h?)?;
        let elem = *st.elem_bytes.get(d)?;
        let total = st.mallocs.get(d)?.0;
        let dpitch = self.pitch_bytes(st, parts.get(1))?;
        let spitch = self.pitch_bytes(st, parts.get(3))?;
        let width = self.pitch_bytes(st, parts.get(4))?;
        let height = self.pitch_bytes(st, parts.get(5))?;
        if elem == 0 || [dpitch, spitch, width, total].iter().any(|b| b % elem != 0) {
            return None;
        }
        if width > dpitch || width > spitch || height.checked_mul(dpitch)? > total {
            return None;
        }
        let cells = usize::try_from(total / elem).ok()?;
        if cells > usize::try_from(MAX_FILL).ok()? {
            return None;
        }
        // What the allocation held (a memset, an earlier copy, fresh memory: `host_d2d`); the
        // cells no row reaches keep it.
        let mut out = super::host_d2d::base_cells(st, d)
            .ok()
            .filter(|b| b.len() == cells)
            .unwrap_or_else(|| vec!["undef".to_string(); cells]);
        for r in 0..height {
            for e in 0..width / elem {
                let from = usize::try_from(r * (spitch / elem) + e).ok()?;
                let to = usize::try_from(r * (dpitch / elem) + e).ok()?;
                *out.get_mut(to)? = values.get(from)?.clone();
            }
        }
        Some(out)
    }
}
