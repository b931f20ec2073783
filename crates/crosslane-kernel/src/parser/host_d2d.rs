//! A device-to-device copy of part of a buffer: `cudaMemcpy(d_b + 4, d_a + 8, 16 *
//! sizeof(int), cudaMemcpyDeviceToDevice)` (also `hipMemcpy`, `cudaMemcpyDefault` between two
//! device allocations, and the `…Async` forms in stream order). It copies exactly `count`
//! bytes from the source's element on into the destination's (CUDA Runtime API, cudaMemcpy:
//! "Copies count bytes from the memory area pointed to by src to the memory area pointed to by
//! dst"; `cudaMemcpyDefault` infers the direction from the pointers, "Unified Virtual
//! Addressing"; C++17 [expr.add]/4: `d + n` points n elements in). Cells outside the copied
//! range keep what they held.
//!
//! What the source holds is host code's account of it (a copy, a memset, fresh undefined
//! memory), put into the destination's cells here, and, where launches wrote the source
//! before the copy, those launches' cells ([`DevCopy`]), which `crate::sequence` puts over
//! them once it has run the launches.

use super::host::{source_text, DevWrite, HostState};
use super::Parser;
use crate::ast::DevCopy;
use crate::lexer::Tok;

/// The value a cell of scalar type word `w` holds whose little-endian bytes are `b` (as many
/// as the type's size), as a fill's text: `None` for a type not known here, a float whose bits
/// are a NaN (the emulator keeps no NaN payload), or a `bool` byte other than 0 and 1 (no
/// value of `bool`: C++17 [basic.fundamental]/6 gives it the values `true` and `false` only).
/// The `w` bytes a memset fill (`u8:1` over the whole buffer, or `u8:1,1,undef,…`) gives, as
/// a byte list's items; `None` for any other fill.
pub(super) fn memset_bytes(fill: &str, w: u64) -> Option<Vec<String>> {
    let list = fill.strip_prefix("u8:")?;
    let mut items: Vec<String> = list.split(',').map(str::to_string).collect();
    if items.len() == 1 {
        items = vec![items[0].clone(); usize::try_from(w).ok()?];
    }
    items.resize(usize::try_from(w).ok()?, "undef".to_string());
    Some(items)
}

pub(super) fn cell_of_bytes(w: &str, b: &[u8]) -> Option<String> {
    let mut a = [0u8; 8];
    let n = b.len().min(8);
    a[..n].copy_from_slice(&b[..n]);
    let u = u64::from_le_bytes(a);
    Some(match (w, n) {
        ("char" | "int8_t" | "signed char", 1) => (a[0] as i8).to_string(),
        ("uint8_t" | "unsigned char", 1) => a[0].to_string(),
        ("bool", 1) => match a[0] {
            0 | 1 => a[0].to_string(),
            _ => return None,
        },
        ("short" | "int16_t", 2) => (u as u16 as i16).to_string(),
        ("uint16_t" | "unsigned short", 2) => (u as u16).to_string(),
        ("int" | "int32_t", 4) => (u as u32 as i32).to_string(),
        ("unsigned" | "uint32_t" | "unsigned int", 4) => (u as u32).to_string(),
        ("long" | "int64_t" | "long long", 8) => (u as i64).to_string(),
        ("size_t" | "uint64_t" | "unsigned long", 8) => u.to_string(),
        ("float", 4) => {
            let x = f32::from_bits(u as u32);
            (!x.is_nan()).then(|| format!("{:?}", f64::from(x)))?
        }
        ("double", 8) => {
            let x = f64::from_bits(u);
            (!x.is_nan()).then(|| format!("{x:?}"))?
        }
        _ => return None,
    })
}

/// The `total` cells of `e`-byte type word `w` a memset fill (`u8:1` over the whole buffer,
/// or a byte list with `undef` items) gives: a cell with an undefined byte is undefined.
/// `None` when a cell's bytes are no value text here ([`cell_of_bytes`]).
pub(super) fn memset_cells(fill: &str, w: &str, e: u64, total: u64) -> Option<Vec<String>> {
    let bytes = memset_bytes(fill, total.checked_mul(e)?)?;
    let e = usize::try_from(e).ok()?.max(1);
    bytes
        .chunks(e)
        .map(|c| {
            let b: Option<Vec<u8>> = c.iter().map(|x| x.parse::<u8>().ok()).collect();
            match b {
                Some(b) => cell_of_bytes(w, &b),
                None => Some("undef".to_string()),
            }
        })
        .collect()
}

/// What host code's own account says allocation `d` holds, cell by cell (its launches aside):
/// a copy's values, a memset's cells, fresh memory's undefined ones; `Err` with why when that
/// is not read here.
pub(super) fn base_cells(st: &HostState, d: &str) -> Result<Vec<String>, String> {
    let e = st.elem_bytes.get(d).copied().unwrap_or(0);
    let total = match st.mallocs.get(d) {
        Some(m) if e > 0 => m.0 / e,
        _ => return Err(format!("the element size of `{d}` is not read here")),
    };
    let undef = || vec!["undef".to_string(); usize::try_from(total).unwrap_or(0)];
    match st.writes.get(d) {
        Some(DevWrite::Fresh(..)) => Ok(undef()),
        Some(DevWrite::Copy) => match st.copied.get(d) {
            Some(Some((v, _))) => {
                let mut v = v.clone();
                v.resize(usize::try_from(total).unwrap_or(0), "undef".to_string());
                Ok(v)
            }
            _ => Err(format!("the values copied into `{d}` are not read here")),
        },
        Some(DevWrite::Memset(Ok((fill, what)))) => {
            let w = st.elem_word.get(d).map_or("", String::as_str);
            memset_cells(fill, w, e, total).ok_or_else(|| {
                format!("the bytes {what} sets are no `{w}` values read here (a NaN's bits, a byte no `bool` holds)")
            })
        }
        Some(DevWrite::Memset(Err(why)) | DevWrite::Other(why)) => Err(why.clone()),
        None => Err(format!("what `{d}` holds is not read here")),
    }
}

impl Parser<'_> {
    /// `cudaMemcpy(dst, src, count, kind)` at `k` (its `)` at `c`, arguments `parts`) between
    /// two device allocations host code made (`kind` `…DeviceToDevice` or `…Default`): records
    /// the cells it writes (see the module doc). Returns whether it was taken here.
    pub(super) fn device_copy(
        &mut self,
        st: &mut HostState,
        k: usize,
        c: usize,
        parts: &[(usize, usize)],
    ) -> bool {
        let toks = self.toks;
        let (Some(&(da, db)), Some(&(sa, sb)), Some(&(na, nb)), Some(&(ka, kb))) =
            (parts.first(), parts.get(1), parts.get(2), parts.get(3))
        else {
            return false;
        };
        let kind = toks[ka..kb].iter().any(|t| {
            matches!(&t.tok, Tok::Ident(n) if n.ends_with("DeviceToDevice") || n.ends_with("Default") || n.ends_with("DEVICE_TO_DEVICE"))
        });
        if !kind {
            return false;
        }
        let (Some(dst), Some(src)) = (self.ptr_value(st, da, db), self.ptr_value(st, sa, sb))
        else {
            return false;
        };
        let managed = |n: &str| {
            st.mallocs
                .get(n)
                .is_some_and(|m| super::host_text::host_visible(&m.1))
        };
        let device = |n: &str| st.mallocs.contains_key(n) && st.writes.contains_key(n);
        if !device(&dst.alloc) || !device(&src.alloc) || managed(&dst.alloc) || managed(&src.alloc)
        {
            return false;
        }
        let (d, s) = (dst.alloc.clone(), src.alloc.clone());
        let line = toks[k].line;
        let what = format!("`{}` at line {line}", source_text(&toks[k..=c]));
        let bytes = self
            .host_value(st, na, nb)
            .and_then(super::const_eval::HostVal::int)
            .and_then(|n| u64::try_from(n).ok());
        let fail = |st: &mut HostState, why: String| {
            st.cut_dev_copies(&d, None);
            st.prior.remove(&d);
            st.host_cells.remove(&d);
            st.writes.insert(d.clone(), DevWrite::Other(why));
            true
        };
        let (de, se) = (
            st.elem_bytes.get(&d).copied(),
            st.elem_bytes.get(&s).copied(),
        );
        let (dw, sw) = (st.elem_word.get(&d), st.elem_word.get(&s));
        let (Some(e), true) = (de.filter(|&e| e > 0), de == se && dw == sw) else {
            return fail(
                st,
                format!(
                    "{what} copies between allocations whose element types are not both read \
                     here as one type, so its cells are not read"
                ),
            );
        };
        let (Some(doff), Some(soff), Some(bytes)) = (dst.offset, src.offset, bytes) else {
            return fail(
                st,
                format!("{what} copies with an offset or a count host code does not know"),
            );
        };
        if bytes % e != 0 {
            return fail(
                st,
                format!("{what} copies {bytes} bytes, no whole number of {e}-byte cells"),
            );
        }
        let n = bytes / e;
        let dtotal = st.mallocs[&d].0 / e;
        let stotal = st.mallocs[&s].0 / e;
        if doff.saturating_add(n) > dtotal || soff.saturating_add(n) > stotal {
            return fail(
                st,
                format!(
                    "{what} copies {n} cells from element {soff} of `{s}` ({stotal} cells) \
                     into element {doff} of `{d}` ({dtotal} cells): past the end of an \
                     allocation, which the CUDA Runtime API does not define"
                ),
            );
        }
        if n == 0 || (d == s && doff == soff) {
            return true;
        }
        if d == s && doff < soff + n && soff < doff + n {
            // Overlapping ranges of one allocation: `memcpy`'s contract, which cudaMemcpy
            // shares, does not say what they hold (C17 7.24.2.1/2).
            return fail(
                st,
                format!(
                    "{what} copies between overlapping ranges of `{d}`, which a memcpy does \
                     not define"
                ),
            );
        }
        if doff == 0 && soff == 0 && n == dtotal && d != s {
            // All of `d`: it holds what `s` holds, launches included (`host_mem`).
            Self::copy_device(st, &d, &s);
            return true;
        }
        let src_base = match base_cells(st, &s) {
            Ok(v) => v,
            Err(why) => {
                return fail(
                    st,
                    format!("{what} copies from `{s}`, whose cells are not read here ({why})"),
                )
            }
        };
        let (s0, s1) = (soff as usize, (soff + n) as usize);
        let values: Vec<String> = src_base[s0..s1].to_vec();
        // What launches left in the source's range, over host code's account of it.
        let mut recs = Vec::new();
        if let Some(p) = st.prior.get(&s).filter(|p| !p.is_empty()) {
            let keep: Vec<(u64, u64)> = st
                .host_cells
                .get(&s)
                .map(|r| {
                    r.iter()
                        .map(|&(b, l)| (b / e, l.saturating_add(b % e).div_ceil(e)))
                        .collect()
                })
                .unwrap_or_default();
            recs.push(DevCopy {
                at: doff,
                len: n,
                src: p.iter().map(|x| (x.1, x.2)).collect(),
                src_device: s.clone(),
                src_at: soff,
                src_keep: keep,
            });
        }
        // Copies into the source from launches' cells, within the range copied.
        for r in st.dev_copies.get(&s).cloned().unwrap_or_default() {
            let lo = r.at.max(soff);
            let hi = r.at.saturating_add(r.len).min(soff + n);
            if lo < hi {
                recs.push(DevCopy {
                    at: doff + (lo - soff),
                    len: hi - lo,
                    src_at: r.src_at + (lo - r.at),
                    ..r
                });
            }
        }
        if !self.write_cells(st, &d, doff, values, line, &s) {
            return fail(
                st,
                format!("{what} copies into part of `{d}`, whose other cells are not read here"),
            );
        }
        st.cut_dev_copies(&d, Some((doff, n)));
        st.dev_copies.entry(d).or_default().extend(recs);
        true
    }

    /// Writes `values` into allocation `d` from element `start` on, over what host code's own
    /// account says it held (see [`base_cells`]); after launches given `d` those cells are
    /// host code's (`HostState::host_cells`), the rest what the launches leave. `from` names
    /// the source for the launch's note. False when what `d` held is not read.
    pub(super) fn write_cells(
        &mut self,
        st: &mut HostState,
        d: &str,
        start: u64,
        values: Vec<String>,
        line: u32,
        from: &str,
    ) -> bool {
        let Ok(mut base) = base_cells(st, d) else {
            return false;
        };
        let e = st.elem_bytes.get(d).copied().unwrap_or(1).max(1);
        let (s0, n) = (start as usize, values.len());
        if s0.saturating_add(n) > base.len() {
            return false;
        }
        base[s0..s0 + n].clone_from_slice(&values);
        if st.prior.get(d).is_some_and(|p| !p.is_empty()) {
            st.host_cells
                .entry(d.to_string())
                .or_default()
                .push((start.saturating_mul(e), (n as u64).saturating_mul(e)));
        } else {
            st.host_cells.remove(d);
        }
        let name = match st.copies.get(d) {
            Some(old) if matches!(st.writes.get(d), Some(DevWrite::Copy)) && old != from => {
                format!("{old}` then `{from}")
            }
            _ => from.to_string(),
        };
        st.copied.insert(d.to_string(), Some((base, line)));
        st.writes.insert(d.to_string(), DevWrite::Copy);
        st.copies.insert(d.to_string(), name);
        true
    }
}

/// The copies of launches' cells into allocation `d` ([`HostState::dev_copies`]) as a view of
/// it from element `offset` on sees them: each clipped to the view, `at` counted from its
/// start.
pub(super) fn view_copies(st: &HostState, d: &str, offset: u64) -> Vec<DevCopy> {
    let Some(list) = st.dev_copies.get(d) else {
        return Vec::new();
    };
    list.iter()
        .filter_map(|r| {
            let end = r.at.saturating_add(r.len);
            let lo = r.at.max(offset);
            (end > lo).then(|| DevCopy {
                at: lo - offset,
                len: end - lo,
                src_at: r.src_at + (lo - r.at),
                ..r.clone()
            })
        })
        .collect()
}

impl Parser<'_> {
    /// Whether `cudaMemcpy(dst, src, count, cudaMemcpyDefault)` (its `parts`) copies from a
    /// device allocation host code made into memory that is none (CUDA Runtime API,
    /// cudaMemcpy: with `cudaMemcpyDefault` "the type of transfer is inferred from the pointer
    /// values").
    pub(super) fn default_to_host(&mut self, st: &HostState, parts: &[(usize, usize)]) -> bool {
        let toks = self.toks;
        let (Some(&(da, db)), Some(&(sa, sb)), Some(&(ka, kb))) =
            (parts.first(), parts.get(1), parts.get(3))
        else {
            return false;
        };
        let default = toks[ka..kb]
            .iter()
            .any(|t| matches!(&t.tok, Tok::Ident(n) if n.ends_with("Default")));
        let device = |p: Option<super::host_state::PtrVal>| {
            p.is_some_and(|p| st.mallocs.contains_key(&p.alloc))
        };
        default && !device(self.ptr_value(st, da, db)) && device(self.ptr_value(st, sa, sb))
    }

    /// `cudaMemcpy(h, d, count, cudaMemcpyDeviceToHost)` (its `parts`, the call at `k`) into
    /// host array `h` from its first cell: the cells copied are `h`'s from there on when host
    /// code knows them (a copy, a memset, fresh memory's undefined cells), or once the reading
    /// again gives the launches' cells ([`crate::ast::Readback`]). Returns whether `h`'s
    /// values are known after it.
    pub(super) fn read_back(
        &mut self,
        st: &mut HostState,
        k: usize,
        parts: &[(usize, usize)],
        h: &str,
    ) -> bool {
        let toks = self.toks;
        let (Some(&(da, db)), Some(&(sa, sb)), Some(&(na, nb))) =
            (parts.first(), parts.get(1), parts.get(2))
        else {
            return false;
        };
        // Into `h` or `&h[0]` itself.
        let whole_h = match &toks[da..db] {
            [t] => matches!(&t.tok, Tok::Ident(n) if n == h),
            _ => false,
        };
        let Some(src) = self.ptr_value(st, sa, sb) else {
            return false;
        };
        let d = src.alloc.clone();
        let managed = st
            .mallocs
            .get(&d)
            .is_some_and(|m| super::host_text::host_visible(&m.1));
        let (Some(off), Some(&e), Some(&len)) =
            (src.offset, st.elem_bytes.get(&d), st.arrays.get(h))
        else {
            return false;
        };
        let bytes = self
            .host_value(st, na, nb)
            .and_then(super::const_eval::HostVal::int)
            .and_then(|n| u64::try_from(n).ok());
        // The host array's element: the same size as the device's.
        let h_elem = st
            .array_bytes
            .get(h)
            .map(|b| b / u64::try_from(len.max(1)).unwrap_or(1));
        let Some(bytes) = bytes.filter(|b| e > 0 && b % e == 0) else {
            return false;
        };
        let n = bytes / e;
        if !whole_h || managed || h_elem != Some(e) || i128::from(n) > len {
            return false;
        }
        let Ok(base) = base_cells(st, &d) else {
            return false;
        };
        let (s0, s1) = (off as usize, (off + n) as usize);
        let Some(base) = base.get(s0..s1).map(<[String]>::to_vec) else {
            return false;
        };
        let launched =
            st.prior.get(&d).is_some_and(|p| !p.is_empty()) || !view_copies(st, &d, off).is_empty();
        let line = toks[k].line;
        let values = if launched {
            // A copy back met again in one reading (a host loop's iterations) is a copy of its
            // own each time: its key counts the times met, so each iteration is given the
            // values its own launches left.
            let site = (line, toks[k].col);
            let occ = READBACKS_SEEN.with(|s| {
                let mut s = s.borrow_mut();
                let n = s.entry(site).or_insert(0);
                let o = *n;
                *n = n.saturating_add(1);
                o
            });
            let key = (site.0, site.1, occ);
            let given = READBACKS.with(|m| m.borrow().get(&key).cloned());
            match given.filter(|v| v.len() as u64 == n) {
                Some(v) => v,
                // The last reading the round budget allows: `h` stays unknown, the limit said.
                None if READBACKS_LAST.with(std::cell::Cell::get) => {
                    let why = format!(
                        "`cudaMemcpy` at line {line} copies the device's values into it, and \
                         they are not read: host code copies launches' results back {} times \
                         or more in a chain (a host loop's iterations), past crosslane's limit \
                         of {} readings of the program (`sequence::readback::MAX_ROUNDS`)",
                        MAX_ROUNDS, MAX_ROUNDS
                    );
                    Self::mark_unknown(st, &[h.to_string()], &why);
                    st.fills.remove(h);
                    return true;
                }
                None => {
                    let mut arg = crate::ast::HostArg {
                        text: d.clone(),
                        ..crate::ast::HostArg::default()
                    };
                    Self::alloc_arg(st, &d, off, &mut arg);
                    self.readbacks.push(crate::ast::Readback {
                        key,
                        id: u32::try_from(self.launches.len()).unwrap_or(u32::MAX),
                        arg,
                        base,
                        host: h.to_string(),
                    });
                    return false;
                }
            }
        } else {
            base
        };
        let mut cells = st.fills.get(h).map(|f| f.0.clone()).unwrap_or_default();
        cells.resize(usize::try_from(len).unwrap_or(0), "undef".to_string());
        cells[..values.len()].clone_from_slice(&values);
        st.fills.insert(h.to_string(), (cells, line));
        st.unknown.remove(h);
        true
    }
}

/// Most times the program is read again (a chain of copies back, each needing the one before:
/// a host loop's round trips take one reading per iteration). A copy back the last reading
/// still meets unread leaves its host array unknown, with a reason naming this limit.
pub const MAX_ROUNDS: usize = 16;

thread_local! {
    /// The values of device-to-host copies of launches' cells the reading again is given
    /// (`crate::sequence`'s `readback`), by the copy call's line and column and the time the
    /// reading meets it ([`crate::ast::Readback::key`]).
    pub(crate) static READBACKS: std::cell::RefCell<std::collections::HashMap<(u32, u32, u32), Vec<String>>> =
        std::cell::RefCell::new(std::collections::HashMap::new());
    /// How many times this reading has met each copy back, by line and column: a loop's
    /// later iteration is a copy of its own, never given the first one's values.
    pub(crate) static READBACKS_SEEN: std::cell::RefCell<std::collections::HashMap<(u32, u32), u32>> =
        std::cell::RefCell::new(std::collections::HashMap::new());
    /// The host arrays this reading copied to the device while they had no value (a copy back
    /// not yet read had filled them): a later iteration's copy back into one of them is read in
    /// a further round; one into a host array never copied in again is not (its values would
    /// change nothing the device does).
    pub(crate) static READBACKS_USED: std::cell::RefCell<std::collections::HashSet<String>> =
        std::cell::RefCell::new(std::collections::HashSet::new());
    /// Set for the last reading the round budget allows: a copy back not given values there
    /// is never read, and the host array's reason names the limit.
    pub(crate) static READBACKS_LAST: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}
