//! Memory through a pointer whose element type differs from the buffer's cells: a `float4*`
//! over a float buffer reads and writes four consecutive cells, a `float*` over a `float4`
//! buffer one component ([`crate::vector_types::view`]); a component of a vector
//! element in memory (`out[i].x = …`) is such a place too.

use super::*;
use crate::exec::Executor;
use crate::reinterpret::scalar_bytes;
use crate::trace::{LaneVal, Undef};
use crate::types::{KVal, ValTy};
use crate::vector_types::{from_raw_bits, raw_bits, size_of, view, View};
use crosslane_core::lanes::LaneMask;

/// The refusal of an address the emulator cannot give.
pub(crate) const NO_ADDRESS: &str = "taking the address of a variable is not supported (only \
     of a local, a `__shared__` variable, an array element or a component of a vector element \
     in memory)";

impl Executor {
    /// The element type of buffer `buf`'s cells.
    fn cell_ty(&self, buf: usize) -> Option<ValTy> {
        self.trace.memory.buffers.get(buf).map(|b| b.elem)
    }

    /// Where element `off` of pointer `p` (into buffer `buf`) lies: a whole cell, or
    /// components of cells.
    ///
    /// # Errors
    /// The refusal of a bit reinterpretation ([`View::Refused`]) or an offset out of range.
    pub(crate) fn mem_place(&self, p: &KVal, buf: usize, off: i64) -> Result<Place, String> {
        let KVal::Ptr { elem, .. } = p else {
            return Ok(Place::Mem(buf, off));
        };
        match self.cell_ty(buf).map(|c| view(*elem, c)) {
            Some(View::Components | View::Bits) => {
                let at = off
                    .checked_mul(i64::from(elem.lanes))
                    .ok_or_else(|| "pointer offset out of range".to_string())?;
                Ok(Place::View {
                    buf,
                    at,
                    elem: *elem,
                })
            }
            Some(View::Refused(m)) => Err(m),
            _ => Ok(Place::Mem(buf, off)),
        }
    }

    /// Loads element `off` of pointer `p` in buffer `buf` for lane `lane`.
    pub(crate) fn load_as(
        &mut self,
        p: &KVal,
        (buf, off): (usize, i64),
        span: Span,
        lane: usize,
        cx: &mut StepCtx,
    ) -> LaneVal {
        match self.mem_place(p, buf, off) {
            Ok(Place::View { buf, at, elem }) => {
                self.load_components(buf, at, elem, span, lane, cx)
            }
            Ok(_) => self.load(buf, off, span, lane, cx),
            Err(m) => {
                cx.note(Level::Error, span, m.clone(), "", Some(lane));
                Err(Undef::at(span, m))
            }
        }
    }

    /// `elem.lanes` components of the buffer's cells from component `at` on (counting every
    /// cell's components in order).
    pub(crate) fn load_components(
        &mut self,
        buf: usize,
        at: i64,
        elem: ValTy,
        span: Span,
        lane: usize,
        cx: &mut StepCtx,
    ) -> LaneVal {
        if let Some(cell) = self.cell_ty(buf).filter(|c| c.scalar != elem.scalar) {
            return self.load_bits(buf, cell, at, elem, span, lane, cx);
        }
        let per_cell = i64::from(self.cell_ty(buf).map_or(1, |c| c.lanes.max(1)));
        let n = elem.lanes.max(1);
        let mut items = Vec::with_capacity(usize::from(n));
        for j in 0..i64::from(n) {
            let s = at.saturating_add(j);
            if let Some(c) = self
                .cell_ty(buf)
                .filter(|c| c.lanes > 1 && self.partial.has(buf, s.div_euclid(per_cell)))
            {
                let k = s.rem_euclid(per_cell) as usize;
                if let Some(v) = self.partial_component(buf, c, s.div_euclid(per_cell), k, lane) {
                    items.push(v);
                    continue;
                }
            }
            let cell = self.load(buf, s.div_euclid(per_cell), span, lane, cx)?;
            items.push(match cell {
                KVal::Vector { items: comps, .. } => {
                    let k = s.rem_euclid(per_cell) as usize;
                    comps
                        .get(k)
                        .cloned()
                        .ok_or_else(|| Undef::at(span, "component outside the element"))?
                }
                one => one,
            });
        }
        Ok(match items.len() {
            1 => items.swap_remove(0),
            _ => KVal::Vector {
                ty: elem.scalar,
                items,
            },
        })
    }

    /// Stores `v` (converted to `elem`) as components `at..at + elem.lanes` of the buffer's
    /// cells. A component of a vector cell that was never written is kept as bytes of the cell
    /// until every component is written, when the cell gets its value (C++17
    /// [basic.types]/4, [`super::partial`]).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn store_components(
        &mut self,
        w: usize,
        (buf, at, elem): (usize, i64, ValTy),
        l: usize,
        v: LaneVal,
        span: Span,
        cx: &mut StepCtx,
    ) -> LaneVal {
        let v = v.and_then(|x| {
            x.convert(elem).map_err(|f| {
                cx.note(f.level, span, f.message.clone(), "", Some(l));
                Undef::at(span, f.message)
            })
        });
        let comps: Vec<LaneVal> = match &v {
            Ok(KVal::Vector { items, .. }) => items.iter().cloned().map(Ok).collect(),
            Ok(x) => vec![Ok(x.clone())],
            Err(u) => vec![Err(u.clone()); usize::from(elem.lanes.max(1))],
        };
        if let Some(cell) = self.cell_ty(buf).filter(|c| c.scalar != elem.scalar) {
            self.store_bits(w, (buf, cell, at, elem), l, &comps, span, cx);
            return v;
        }
        let per_cell = i64::from(self.cell_ty(buf).map_or(1, |c| c.lanes.max(1)));
        for (j, comp) in comps.into_iter().enumerate() {
            let s = at.saturating_add(j as i64);
            let cell = s.div_euclid(per_cell);
            if per_cell == 1 {
                let _ = self.write_place(w, Place::Mem(buf, cell), l, comp, span, cx);
                continue;
            }
            let k = s.rem_euclid(per_cell) as usize;
            let whole = match self.trace.memory.read(buf, cell) {
                Ok(Some(KVal::Vector { ty, mut items })) if k < items.len() => match comp {
                    Ok(c) => {
                        items[k] = c;
                        Ok(KVal::Vector { ty, items })
                    }
                    Err(u) => Err(u),
                },
                Ok(None) => {
                    // A component of an element never written whole: its bytes join the
                    // element's written bytes ([`super::partial`]).
                    let cb = scalar_bytes(elem.scalar);
                    let raw = comp.and_then(|c| raw_bits(&c).ok_or_else(|| nan_undef(span)));
                    let bytes = (0..cb).map(|i| {
                        let b = raw.clone().map(|r| (r >> (8 * i)) & 0xff);
                        (k * cb + i, b)
                    });
                    let whole = (buf, self.cell_ty(buf).unwrap_or(elem), cell);
                    self.store_part(w, whole, l, bytes.collect(), span, cx);
                    continue;
                }
                // Out of bounds or not a vector: the whole-cell store reports it.
                _ => comp,
            };
            let cb = scalar_bytes(elem.scalar);
            let mask = byte_mask(k * cb, (k + 1) * cb);
            let _ = self.write_mem(w, (buf, cell, mask), l, whole, span, cx);
        }
        v
    }

    /// The byte `b` of the buffer (counting every cell's components in order, little-endian):
    /// which cell, and which component and byte of it.
    fn byte_at(cell: ValTy, b: i64) -> (i64, usize, u32) {
        let comp = i64::from(cell.scalar.bits().div_ceil(8)).max(1);
        let per_cell = comp * i64::from(cell.lanes.max(1));
        (
            b.div_euclid(per_cell),
            (b.rem_euclid(per_cell) / comp) as usize,
            (b.rem_euclid(comp) * 8) as u32,
        )
    }

    /// `elem` read from the bytes of `cell`-typed memory ([`View::Bits`]): component `at + j`
    /// of `elem` starts at byte `(at + j) * bytes(elem's component)`. A cell that is undefined
    /// (or out of bounds) makes the value undefined with the cell's reason.
    #[allow(clippy::too_many_arguments)]
    fn load_bits(
        &mut self,
        buf: usize,
        cell: ValTy,
        at: i64,
        elem: ValTy,
        span: Span,
        lane: usize,
        cx: &mut StepCtx,
    ) -> LaneVal {
        let cb = i64::from(elem.scalar.bits().div_ceil(8));
        let mut items = Vec::with_capacity(usize::from(elem.lanes.max(1)));
        for j in 0..i64::from(elem.lanes.max(1)) {
            let start = at.saturating_add(j).saturating_mul(cb);
            let mut bits = 0u64;
            // The cell read last, so a run of bytes in one cell loads it once.
            let mut held: Option<(i64, KVal)> = None;
            for k in 0..cb {
                let (c, comp, shift) = Self::byte_at(cell, start.saturating_add(k));
                // A byte written into a cell never written whole ([`super::partial`]).
                let in_cell = comp * scalar_bytes(cell.scalar) + (shift / 8) as usize;
                if let Some(b) = self.partial_byte(buf, c, in_cell) {
                    self.race_read(self.current, buf, c, lane);
                    bits |= u64::from(b) << (8 * k as u32);
                    continue;
                }
                let value = match &held {
                    Some((hc, v)) if *hc == c => v.clone(),
                    _ => {
                        let v = self.load(buf, c, span, lane, cx)?;
                        held = Some((c, v.clone()));
                        v
                    }
                };
                let part = match &value {
                    KVal::Vector { items, .. } => items.get(comp).cloned(),
                    one => Some(one.clone()),
                };
                let raw = part.as_ref().and_then(raw_bits).ok_or_else(|| {
                    Undef::at(
                        span,
                        format!(
                            "byte {} of `{}` is part of a {} NaN, whose bits the emulator does not keep",
                            start.saturating_add(k),
                            self.buf_name(buf),
                            cell.scalar.name()
                        ),
                    )
                })?;
                bits |= ((raw >> shift) & 0xff) << (8 * k as u32);
            }
            items.push(from_raw_bits(elem.scalar, bits).map_err(|m| Undef::at(span, m))?);
        }
        Ok(match items.len() {
            1 => items.swap_remove(0),
            _ => KVal::Vector {
                ty: elem.scalar,
                items,
            },
        })
    }

    /// Stores the components `comps` of an `elem` value into the bytes of `cell`-typed memory
    /// ([`View::Bits`]): each cell touched is read, its bytes replaced, and written back whole.
    /// A cell partly covered that was never written keeps the bytes written until all of them
    /// are, when it gets its value ([`super::partial`]: C++17 [basic.types]/4, an object's
    /// value is all its bytes); an undefined component makes every cell it covers undefined.
    #[allow(clippy::too_many_arguments)]
    fn store_bits(
        &mut self,
        w: usize,
        (buf, cell, at, elem): (usize, ValTy, i64, ValTy),
        l: usize,
        comps: &[LaneVal],
        span: Span,
        cx: &mut StepCtx,
    ) {
        let eb = i64::from(elem.scalar.bits().div_ceil(8));
        let cell_bytes = i64::try_from(size_of(cell)).unwrap_or(1).max(1);
        let first = at.saturating_mul(eb);
        let end = first.saturating_add(eb.saturating_mul(comps.len() as i64));
        // The value's bytes, each with its component's undefined reason if any.
        let byte = |b: i64| -> Result<u64, Undef> {
            let j = (b - first) / eb;
            let comp = comps
                .get(j as usize)
                .cloned()
                .unwrap_or_else(|| Err(Undef::at(span, "no value")))?;
            let raw = raw_bits(&comp).ok_or_else(|| {
                Undef::at(
                    span,
                    "a NaN's bits are not kept by the emulator: stored undefined",
                )
            })?;
            Ok((raw >> (8 * ((b - first) % eb) as u32)) & 0xff)
        };
        let mut c = first.div_euclid(cell_bytes);
        while c.saturating_mul(cell_bytes) < end {
            let lo = c.saturating_mul(cell_bytes);
            let hi = lo.saturating_add(cell_bytes);
            let covered = lo >= first && hi <= end;
            // An integer stored over a whole float cell whose bits are a NaN (`-1` through an
            // `int*` into `float` memory): memory holds bytes, so they are kept as the cell's
            // bytes (see `store_part`), never made undefined.
            if covered && Self::nan_bytes(cell, lo, hi, &byte) {
                let bytes = (lo..hi).map(|b| ((b - lo) as usize, byte(b))).collect();
                self.store_part(w, (buf, cell, c), l, bytes, span, cx);
                c = c.saturating_add(1);
                continue;
            }
            // A cell the value covers whole needs none of its old bytes.
            let old: Option<LaneVal> = if covered {
                None
            } else {
                match self.trace.memory.read(buf, c) {
                    Ok(Some(v)) => Some(Ok(v)),
                    Ok(None) => {
                        // Some bytes of an element never written whole: kept until all of
                        // them are written ([`super::partial`]).
                        let bytes = (lo.max(first)..hi.min(end))
                            .map(|b| ((b - lo) as usize, byte(b)))
                            .collect();
                        self.store_part(w, (buf, cell, c), l, bytes, span, cx);
                        c = c.saturating_add(1);
                        continue;
                    }
                    // Out of bounds: the whole-cell store below reports it.
                    Err(_) => Some(Err(Undef::at(span, "outside the buffer"))),
                }
            };
            let new = self.splice_cell(cell, c, old, first, end, &byte, span);
            let mask = byte_mask((lo.max(first) - lo) as usize, (hi.min(end) - lo) as usize);
            let _ = self.write_mem(w, (buf, c, mask), l, new, span, cx);
            c = c.saturating_add(1);
        }
    }

    /// Writes `bytes` (offset within the cell, byte or its undefined reason) into cell `c` of
    /// buffer `buf` (of type `cell`), a cell never written whole ([`super::partial`]). The
    /// write that completes the cell stores its value as a plain store; an undefined byte
    /// stores the cell undefined (its other bytes are then of no use). A write that leaves
    /// bytes unwritten is recorded nowhere else: the cell has no value yet, so the step shows
    /// no change and the race check sees the store that completes it.
    fn store_part(
        &mut self,
        w: usize,
        (buf, cell, c): (usize, ValTy, i64),
        l: usize,
        bytes: Vec<(usize, Result<u64, Undef>)>,
        span: Span,
        cx: &mut StepCtx,
    ) {
        let mask = bytes
            .iter()
            .fold(0u64, |m, (k, _)| m | byte_mask(*k, *k + 1));
        let mut ok = Vec::with_capacity(bytes.len());
        for (k, b) in bytes {
            match b {
                Ok(b) => ok.push((k, (b & 0xff) as u8)),
                Err(u) => {
                    let _ = self.write_mem(w, (buf, c, mask), l, Err(u), span, cx);
                    return;
                }
            }
        }
        // The machine's state changed (for the barrier's deadlock test).
        self.barrier_round.changed = true;
        self.spin.epoch = self.spin.epoch.wrapping_add(1);
        match self.partial.put((buf, c), cell, ok, span) {
            Some(all) if super::partial::cell_value(cell, &all).is_err() && cell.lanes <= 1 => {
                // The bytes of a float NaN: the emulator keeps floats as values, so the cell
                // keeps its bytes instead (no value of its own); an integer view reads them
                // exactly, a float read of the cell is undefined, saying so.
                let _ = self.trace.memory.write(buf, c, None);
                self.partial
                    .put_whole((buf, c), cell, all.into_iter().enumerate(), span);
                self.race_write(w, buf, c, l, None);
                self.bytes_written(cx, (buf, c, mask), l, span);
            }
            Some(all) => {
                let v = super::partial::cell_value(cell, &all).map_err(|m| Undef::at(span, m));
                let _ = self.write_mem(w, (buf, c, mask), l, v, span, cx);
            }
            // No store yet; the bytes still count as this lane's in the statement.
            None => self.bytes_written(cx, (buf, c, mask), l, span),
        }
    }

    /// Whether the bytes `lo..hi` that `byte` gives (one whole cell of type `cell`) are all
    /// defined and make a float NaN, which the emulator cannot hold as a value.
    fn nan_bytes(cell: ValTy, lo: i64, hi: i64, byte: &dyn Fn(i64) -> Result<u64, Undef>) -> bool {
        if cell.lanes > 1 || !cell.scalar.is_float() || cell.scalar.is_fp8() {
            return false;
        }
        let mut bits = 0u64;
        for b in lo..hi {
            match byte(b) {
                Ok(v) => bits |= (v & 0xff) << (8 * (b - lo) as u32),
                Err(_) => return false,
            }
        }
        from_raw_bits(cell.scalar, bits).is_err()
    }

    /// Byte `k` of cell `c` of buffer `buf` while the cell has no value of its own and that
    /// byte was written ([`super::partial`]); `None` otherwise (a cell set whole, say from the
    /// page, is read as the cell).
    fn partial_byte(&self, buf: usize, c: i64, k: usize) -> Option<u8> {
        if !self.partial.has(buf, c) || !matches!(self.trace.memory.read(buf, c), Ok(None)) {
            return None;
        }
        self.partial.byte(buf, c, k)
    }

    /// Component `k` of vector cell `c` of buffer `buf` from the bytes written into it while the
    /// cell was never written whole ([`super::partial`]), if they are all written.
    fn partial_component(
        &mut self,
        buf: usize,
        cell: ValTy,
        c: i64,
        k: usize,
        lane: usize,
    ) -> Option<KVal> {
        let cb = scalar_bytes(cell.scalar);
        let mut bits = 0u64;
        for i in 0..cb {
            bits |= u64::from(self.partial_byte(buf, c, k * cb + i)?) << (8 * i);
        }
        self.race_read(self.current, buf, c, lane);
        from_raw_bits(cell.scalar, bits).ok()
    }

    /// Cell `c` (of type `cell`) with the bytes `first..end` of the buffer replaced by `byte`.
    #[allow(clippy::too_many_arguments)]
    fn splice_cell(
        &self,
        cell: ValTy,
        c: i64,
        old: Option<LaneVal>,
        first: i64,
        end: i64,
        byte: &dyn Fn(i64) -> Result<u64, Undef>,
        span: Span,
    ) -> LaneVal {
        let cb = i64::from(cell.scalar.bits().div_ceil(8)).max(1);
        let lo = c.saturating_mul(cb * i64::from(cell.lanes.max(1)));
        let old_comp = |k: usize| -> Result<u64, Undef> {
            let nan = || Undef::at(span, "a NaN's bits are not kept by the emulator");
            match &old {
                None => Ok(0),
                Some(Ok(KVal::Vector { items, .. })) => {
                    items.get(k).and_then(raw_bits).ok_or_else(nan)
                }
                Some(Ok(v)) => raw_bits(v).ok_or_else(nan),
                Some(Err(u)) => Err(u.clone()),
            }
        };
        let mut items = Vec::with_capacity(usize::from(cell.lanes.max(1)));
        for k in 0..usize::from(cell.lanes.max(1)) {
            let base = lo + k as i64 * cb;
            let inside = (0..cb).any(|i| (first..end).contains(&(base + i)));
            let all_inside = (0..cb).all(|i| (first..end).contains(&(base + i)));
            let mut bits = if all_inside { 0 } else { old_comp(k)? };
            if inside {
                for i in 0..cb {
                    if (first..end).contains(&(base + i)) {
                        let shift = 8 * i as u32;
                        bits = (bits & !(0xffu64 << shift)) | (byte(base + i)? << shift);
                    }
                }
            }
            items.push(from_raw_bits(cell.scalar, bits).map_err(|m| Undef::at(span, m))?);
        }
        Ok(match items.len() {
            1 => items.swap_remove(0),
            _ => KVal::Vector {
                ty: cell.scalar,
                items,
            },
        })
    }

    /// The name of buffer `buf` (empty when there is none).
    fn buf_name(&self, buf: usize) -> String {
        self.trace
            .memory
            .buffers
            .get(buf)
            .map_or(String::new(), |b| b.name.clone())
    }

    /// `&v.x` (`.y .z .w`) of a vector element in memory: `atomicAdd(&out[i].x, a)` on a
    /// `float4` buffer, `&((float4*)p)[i].y`. The value is a pointer to that component, of the
    /// component's type ([expr.unary.op]/3: the address of the member subobject; CUDA's vector
    /// types are structs of `x y z w` members, "Built-in Vector Types"), so an access or an
    /// atomic through it reads and writes that component alone. A component of a local vector
    /// variable whose address is taken lives in its lane's own cell of the vector type
    /// ([`Warp::lane_refs`]), so `&v.y` is a pointer to that cell's component
    /// (`(__half2*)&f4.y`, HeCBench gemv's view of a loaded `float4`); any other component of a
    /// register has no address: refused with the message of any other `&`.
    pub(crate) fn component_address(
        &mut self,
        w: usize,
        e: &Expr,
        inner: &Expr,
        mask: LaneMask,
        cx: &mut StepCtx,
    ) -> Vec<LaneVal> {
        let lanes = self.trace.launch.lanes;
        if let Some(out) = self.local_component_address(w, inner, mask) {
            return out;
        }
        let places = self.place(w, inner, mask, cx);
        let mut out = vec![Err(Undef::idle()); lanes];
        let mut refused = false;
        for l in mask.iter().filter(|&l| l < lanes) {
            out[l] = match &places[l] {
                Ok(Place::View { buf, at, elem }) if elem.lanes == 1 => Ok(KVal::Ptr {
                    elem: *elem,
                    buf: *buf,
                    offset: *at,
                }),
                Err(u) => Err(u.clone()),
                Ok(_) => {
                    refused = true;
                    Err(Undef::at(e.span, NO_ADDRESS))
                }
            };
        }
        if refused {
            cx.note(Level::Error, e.span, NO_ADDRESS.to_string(), "", None);
        }
        out
    }

    /// `&v.x` of a local vector `v` that lives in per-lane memory: per lane, a pointer of the
    /// component's scalar type to component `k` of its cell. `None` where `inner` is not such
    /// a member.
    fn local_component_address(
        &self,
        w: usize,
        inner: &Expr,
        mask: LaneMask,
    ) -> Option<Vec<LaneVal>> {
        let ExprKind::Member(base, f) = &inner.kind else {
            return None;
        };
        let k = match f.as_str() {
            "x" => 0,
            "y" => 1,
            "z" => 2,
            "w" => 3,
            _ => return None,
        };
        if !matches!(base.kind, ExprKind::Ident(_)) {
            return None;
        }
        let slot = *self.idents.get(&(self.cur, base.id))?;
        if !self.warps[w].lane_refs.contains_key(&slot) {
            return None;
        }
        let lanes = self.trace.launch.lanes;
        let mut out = vec![Err(Undef::idle()); lanes];
        for l in mask.iter().filter(|&l| l < lanes) {
            out[l] = match self.warps[w].lane_ref(slot, l) {
                Some(buf) => match self.cell_ty(buf) {
                    Some(cell) if usize::from(cell.lanes) > k => Ok(KVal::Ptr {
                        elem: ValTy::scalar(cell.scalar),
                        buf,
                        offset: k as i64,
                    }),
                    _ => Err(Undef::at(inner.span, "not a component of the vector")),
                },
                None => Err(Undef::at(
                    inner.span,
                    "the variable is not declared in this lane",
                )),
            };
        }
        Some(out)
    }

    /// Component `k` of the vector element at place `p` in memory (`out[i].x`).
    pub(crate) fn component_place(&self, p: Place, k: usize) -> Result<Place, String> {
        let comp = |elem: ValTy| ValTy::scalar(elem.scalar);
        match p {
            Place::Mem(buf, off) => match self.cell_ty(buf) {
                Some(c) if usize::from(c.lanes) > k && c.lanes > 1 => Ok(Place::View {
                    buf,
                    at: off
                        .checked_mul(i64::from(c.lanes))
                        .and_then(|a| a.checked_add(k as i64))
                        .ok_or_else(|| "pointer offset out of range".to_string())?,
                    elem: comp(c),
                }),
                _ => Err("not a component of a vector element".into()),
            },
            Place::View { buf, at, elem } if usize::from(elem.lanes) > k && elem.lanes > 1 => {
                Ok(Place::View {
                    buf,
                    at: at.saturating_add(k as i64),
                    elem: comp(elem),
                })
            }
            _ => Err("not a component of a vector element".into()),
        }
    }
}

/// The undefined reason of a NaN's bytes, which the emulator does not keep.
fn nan_undef(span: Span) -> Undef {
    Undef::at(
        span,
        "a NaN's bits are not kept by the emulator: stored undefined",
    )
}

/// The bytes `from..to` of a cell as a mask (bit k: byte k), bytes past 63 in bit 63.
fn byte_mask(from: usize, to: usize) -> u64 {
    (from..to).fold(0u64, |m, k| m | 1u64 << k.min(63))
}
