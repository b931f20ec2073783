//! A host-to-device copy that writes only part of a device buffer: `cudaMemcpy(d + 16, h, …)`
//! or `&d[16]` (into an offset of `d`), and a copy of fewer cells than an earlier copy left
//! (`cudaMemcpy(d, small, 16, …)` after a full copy). Each writes its cells over what `d` held,
//! in order, as the device does (CUDA Runtime API, cudaMemcpy: "Copies count bytes from the
//! memory area pointed to by src to the memory area pointed to by dst"; C++17 [expr.add]/4:
//! `d + n` points n elements past `d`). Cells no write reached keep what they held: undefined
//! for fresh `cudaMalloc` memory ("The memory is not cleared").

use super::const_eval::HostVal;
use super::host::{source_text, DevWrite, HostState};
use super::Parser;
use crate::lexer::Tok;

/// Bytes of a scalar type word as `sizeof(T)` names it in a copy's count (the CUDA/HIP data
/// models: `int` 4, `long` 8 on Linux x86-64, `half` 2).
pub(super) fn type_bytes(w: &str) -> Option<u64> {
    Some(match w {
        "char" | "int8_t" | "uint8_t" | "bool" => 1,
        "short" | "int16_t" | "uint16_t" | "half" | "__half" | "__nv_bfloat16"
        | "maca_bfloat16" | "__maca_bfloat16" => 2,
        "int" | "unsigned" | "float" | "int32_t" | "uint32_t" => 4,
        "double" | "long" | "size_t" | "int64_t" | "uint64_t" => 8,
        _ => return None,
    })
}

/// Bytes of the scalar type a `sizeof(T)` in tokens names (`n * sizeof(float)`: 4), when one
/// does.
pub(super) fn sizeof_word(toks: &[crate::lexer::Token]) -> Option<(u64, String)> {
    toks.windows(4)
        .find_map(|w| match (&w[0].tok, &w[1].tok, &w[2].tok, &w[3].tok) {
            (Tok::Ident(s), Tok::Punct("("), Tok::Ident(t), Tok::Punct(")")) if s == "sizeof" => {
                Some((type_bytes(t)?, t.clone()))
            }
            _ => None,
        })
}

/// The value of one cell of scalar type word `w` whose every byte is `b` (what `cudaMemset(d,
/// b, …)` leaves: CUDA Runtime API, cudaMemset fills bytes), as a fill's text; `None` for a
/// type not known here or a float whose bits are a NaN (the emulator keeps no NaN payload).
pub(super) fn memset_cell(w: &str, b: u8) -> Option<String> {
    let bits = u64::from_le_bytes([b; 8]);
    Some(match w {
        "char" | "int8_t" => i8::from_le_bytes([b]).to_string(),
        "uint8_t" | "bool" => b.to_string(),
        "short" | "int16_t" => i16::from_le_bytes([b; 2]).to_string(),
        "uint16_t" => u16::from_le_bytes([b; 2]).to_string(),
        "int" | "int32_t" => i32::from_le_bytes([b; 4]).to_string(),
        "unsigned" | "uint32_t" => u32::from_le_bytes([b; 4]).to_string(),
        "long" | "int64_t" => i64::from_le_bytes([b; 8]).to_string(),
        "size_t" | "uint64_t" => bits.to_string(),
        "float" => {
            let x = f32::from_bits(bits as u32);
            (!x.is_nan()).then(|| format!("{:?}", f64::from(x)))?
        }
        "double" => {
            let x = f64::from_bits(bits);
            (!x.is_nan()).then(|| format!("{x:?}"))?
        }
        _ => return None,
    })
}

impl Parser<'_> {
    /// A host-to-device copy at `k` (its `)` at `c`, arguments `parts`: dst, src, count, …) of
    /// host array `h` that writes part of its device buffer. Returns whether it was taken here
    /// (the caller reads a whole-buffer copy of `d` itself).
    pub(super) fn host_copy_part(
        &mut self,
        st: &mut HostState,
        k: usize,
        c: usize,
        parts: &[(usize, usize)],
        h: &str,
        src_off: Option<u64>,
    ) -> bool {
        let toks = self.toks;
        let (Some(&(da, db)), Some(&(na, nb))) = (parts.first(), parts.get(2)) else {
            return false;
        };
        // The destination: `d`, `d + off`, `&d[off]`, an alias (`host_ptr`).
        let Some(dst) = self.ptr_value(st, da, db) else {
            return false;
        };
        let (d, off) = (dst.alloc, dst.offset.map(i128::from));
        if !st.writes.contains_key(&d) {
            return false;
        }
        let line = toks[k].line;
        let what = format!("`{}` at line {line}", source_text(&toks[k..=c]));
        // `h + 4`: the source from that element on.
        let src = match src_off {
            Some(o) => st
                .fills
                .get(h)
                .and_then(|f| f.0.get(usize::try_from(o).ok()?..).map(<[String]>::to_vec)),
            None => None,
        };
        let shifted = src_off != Some(0);
        // Launches given `d` before: a copy into part of it keeps what they wrote elsewhere.
        let after_launch = st.prior.get(&d).is_some_and(|p| !p.is_empty());
        // Cells copied: the whole source for `sizeof(h)`, else bytes / sizeof(T).
        let words: Vec<&Tok> = toks[na..nb].iter().map(|t| &t.tok).collect();
        let whole_src = matches!(words.as_slice(),
            [Tok::Ident(s), Tok::Punct("("), Tok::Ident(x), Tok::Punct(")")] if s == "sizeof" && x == h);
        let elem_word = words.windows(4).find_map(|w| match w {
            [Tok::Ident(s), Tok::Punct("("), Tok::Ident(t), Tok::Punct(")")]
                if s == "sizeof" && type_bytes(t).is_some() =>
            {
                Some(t.as_str())
            }
            _ => None,
        });
        let elem = elem_word
            .and_then(type_bytes)
            .or_else(|| st.elem_bytes.get(&d).copied());
        let bytes = self
            .host_value(st, na, nb)
            .and_then(HostVal::int)
            .and_then(|n| u64::try_from(n).ok());
        let cells = match (&src, whole_src, elem, bytes) {
            (Some(s), true, _, _) => Some(s.len() as u64),
            (_, false, Some(e), Some(b)) => Some(b / e),
            _ => None,
        };
        let prior = match st.writes.get(&d) {
            Some(DevWrite::Copy) => st.copied.get(&d).cloned().flatten().map(|f| f.0),
            _ => None,
        };
        // A copy of the whole source into the start of `d` that covers all an earlier copy
        // wrote: the caller's plain copy.
        // (A source whose fill is not read, or a count not read, into the start: the caller's
        // copy says so.)
        if off == Some(0)
            && !shifted
            && !after_launch
            && (src.is_none() || (cells.is_none() && prior.is_none()))
        {
            return false;
        }
        let total_cells = st
            .mallocs
            .get(&d)
            .map(|m| m.0)
            .zip(elem)
            .map(|(b, e)| b / e.max(1));
        let covers_all = total_cells
            .zip(cells)
            .is_some_and(|(t, n)| off == Some(0) && n >= t);
        if off == Some(0)
            && !shifted
            && (!after_launch || covers_all)
            && src
                .as_ref()
                .zip(cells)
                .is_some_and(|(s, n)| n >= s.len() as u64)
            && prior
                .as_ref()
                .zip(cells)
                .is_none_or(|(p, n)| n >= p.len() as u64)
        {
            return false;
        }
        let total = match (st.mallocs.get(&d).map(|m| m.0), elem, &prior) {
            (Some(b), Some(e), _) => Some(b / e),
            (_, _, Some(p)) => Some(p.len() as u64),
            _ => None,
        };
        // Host code's own account of what `d` held (`host_d2d::base_cells`): after launches
        // it lies under them, so a cell none of them reaches keeps it, and the launches'
        // cells are put over the rest (`host_cells`).
        let read_base = super::host_d2d::base_cells(st, &d)
            .ok()
            .filter(|b| total.is_none_or(|t| b.len() as u64 == t));
        let base = match st.writes.get(&d) {
            _ if read_base.is_some() => read_base,
            _ if after_launch => total.map(|t| vec!["undef".to_string(); t as usize]),
            Some(DevWrite::Copy) => prior.clone(),
            Some(DevWrite::Fresh(..)) => total.map(|t| vec!["undef".to_string(); t as usize]),
            // A memset of one byte over the buffer: each cell that byte repeated.
            Some(DevWrite::Memset(Ok((fill, _)))) => {
                let byte = fill.strip_prefix("u8:").and_then(|b| b.parse::<u8>().ok());
                let cell = byte.zip(elem_word).and_then(|(b, w)| memset_cell(w, b));
                cell.zip(total).map(|(c, t)| vec![c; t as usize])
            }
            _ => None,
        };
        let merged = match (base, src, off, cells, total) {
            (Some(mut base), Some(src), Some(off), Some(n), Some(t))
                if off >= 0 && (off as u64).saturating_add(n) <= t && n <= src.len() as u64 =>
            {
                base.resize(t as usize, "undef".to_string());
                let off = off as usize;
                base[off..off + n as usize].clone_from_slice(&src[..n as usize]);
                Some(base)
            }
            _ => None,
        };
        let range = match (&merged, off, cells) {
            (Some(_), Some(o), Some(n)) => u64::try_from(o).ok().map(|o| (o, n)),
            _ => None,
        };
        st.cut_dev_copies(&d, range);
        match (&merged, after_launch, off, cells, elem) {
            (Some(_), true, Some(o), Some(n), Some(e)) => {
                let (o, n, e) = (o as u64, n, e);
                st.host_cells
                    .entry(d.clone())
                    .or_default()
                    .push((o.saturating_mul(e), n.saturating_mul(e)));
            }
            _ => {
                st.prior.remove(&d);
                st.host_cells.remove(&d);
            }
        }
        match merged {
            Some(values) => {
                let from = match st.copies.get(&d).filter(|_| prior.is_some()) {
                    Some(p) if p != h => format!("{p}` then `{h}"),
                    _ if matches!(st.writes.get(&d), Some(DevWrite::Memset(_))) => {
                        format!("{}` then `{h}", "cudaMemset")
                    }
                    _ => h.to_string(),
                };
                st.copied.insert(d.clone(), Some((values, line)));
                st.writes.insert(d.clone(), DevWrite::Copy);
                st.copies.insert(d, from);
            }
            None => {
                // A host array copied in while it has no value: a copy back that filled it
                // is worth reading (`sequence::readback`).
                if st.unknown.contains_key(h) {
                    super::host_d2d::READBACKS_USED.with(|u| u.borrow_mut().insert(h.to_string()));
                }
                let why = match st.unknown.get(h).filter(|_| src_off == Some(0)) {
                    // `cudaMemcpy(h, d, …D2H); h[i] += 1; cudaMemcpy(d, h, …H2D);`: host
                    // code's change of what a launch left is not followed.
                    Some(reason) => format!(
                        "{what} copies `{h}` into it, which has no value here ({reason}); \
                         host code changing the device's values between launches is not \
                         followed here (it is when the launches before the copy back run, \
                         without --single-launch, and the copy fills a host array from its \
                         first cell): make the change in a kernel launched between them, or \
                         set the cells"
                    ),
                    None => format!(
                        "{what} copies part of `{h}` into part of it, and which cells (or \
                         what the rest holds) is not read here"
                    ),
                };
                st.writes.insert(d, DevWrite::Other(why));
            }
        }
        true
    }

    /// The host array a device-to-host copy writes from an element on (`h + 4`, `&h[4]`,
    /// part `p` of the call): it holds the device's values from there, so host code no longer
    /// knows it.
    pub(super) fn host_dst(
        &mut self,
        st: &HostState,
        p: Option<&(usize, usize)>,
    ) -> Option<String> {
        let &(a, b) = p?;
        self.host_array_at(st, a, b).map(|(h, _)| h)
    }

    /// A copy of host array of structs `h` into `d`: the member fills host code wrote
    /// (`h[i].x = …`, kept as `h.x`) are `d`'s members' values now (`d.x`), the copy's
    /// snapshot as [`HostState::copied`] keeps the whole array's.
    pub(super) fn copy_members(st: &mut HostState, d: &str, h: &str) {
        let old = format!("{d}.");
        st.copied.retain(|k, _| !k.starts_with(&old));
        let prefix = format!("{h}.");
        let members: Vec<(String, (Vec<String>, u32))> = st
            .fills
            .iter()
            .filter_map(|(k, v)| Some((format!("{d}.{}", k.strip_prefix(&prefix)?), v.clone())))
            .collect();
        for (k, v) in members {
            st.copied.insert(k, Some(v));
        }
    }

    /// The member fills copied into `d` ([`Self::copy_members`]): each member's path and values,
    /// sorted, with the line of the first.
    pub(super) fn copied_members(st: &HostState, d: &str) -> (Vec<(String, Vec<String>)>, u32) {
        let prefix = format!("{d}.");
        let mut line = 0;
        let mut members: Vec<(String, Vec<String>)> = st
            .copied
            .iter()
            .filter_map(|(k, v)| {
                let (values, l) = v.as_ref()?;
                line = *l;
                Some((k.strip_prefix(&prefix)?.to_string(), values.clone()))
            })
            .collect();
        members.sort();
        (members, line)
    }
}
