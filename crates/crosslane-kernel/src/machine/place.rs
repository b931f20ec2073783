//! Memory access: addresses, loads, places, stores and atomics.

use super::*;
use crate::ast::*;
use crate::exec::Executor;
use crate::trace::{LaneVal, MemWrite, Undef};
use crate::types::{KVal, Scalar, Ty, ValTy};
use crosslane_core::lanes::LaneMask;
use crosslane_core::result::Level;

impl Executor {
    /// The note added to an out-of-bounds access of buffer `buf` when its length is nobody's:
    /// a kernel parameter's buffer neither host code's allocation (read into
    /// `LaunchConfig::buffer_len`) nor the user sized, so the launch gave it the default of
    /// one cell per launched thread (`run --buffer`: "LEN defaults to what host code
    /// allocates, else one cell per launched thread"). The access is then past a length the
    /// tool chose, not one the program has, and the note says how to give the real one.
    /// Empty for any other buffer.
    fn default_len_hint(&self, buf: usize) -> String {
        let Some(b) = self.trace.memory.buffers.get(buf) else {
            return String::new();
        };
        let l = &self.trace.launch;
        let threads: usize = l.block_dim.iter().product::<usize>();
        let default = threads.saturating_mul(l.grid_dim.iter().product::<usize>());
        let typed = self
            .config
            .args
            .get(&b.name)
            .and_then(|f| crate::memory::typed_list_len(b.elem, f))
            .is_some();
        let param = l.params.iter().any(|p| p.name == b.name);
        if !param
            || typed
            || self.config.buffer_len.contains_key(&b.name)
            || b.cells.len() != default
            || self.config.views.contains_key(&b.name)
        {
            return String::new();
        }
        format!(
            " (its length, {default} cells, is the default of one cell per launched thread: \
             host code's allocation of `{0}` was not read; give the real length, CLI: --buffer \
             {0}:LEN=FILL)",
            b.name
        )
    }

    pub(crate) fn address(&self, p: &KVal, k: &KVal) -> Result<(usize, i64), String> {
        match (p, k.as_int()) {
            (KVal::Ptr { buf, offset, .. }, Some(k)) => {
                let k = i64::try_from(k).map_err(|_| "index out of range".to_string())?;
                Ok((*buf, offset.saturating_add(k)))
            }
            (KVal::Ptr { .. }, None) => Err("an index must be an integer".into()),
            _ => Err("only pointers, arrays and vectors can be indexed".into()),
        }
    }

    /// Lane `lane`'s plain read of cell `off` of buffer `buf` by the warp running: the value
    /// ([`Executor::load_untracked`]), the read recorded for the race check
    /// ([`super::racecheck`]).
    pub(crate) fn load(
        &mut self,
        buf: usize,
        off: i64,
        span: Span,
        lane: usize,
        cx: &mut StepCtx,
    ) -> LaneVal {
        self.race_read(self.current, buf, off, lane);
        self.load_untracked(buf, off, span, lane, cx)
    }

    /// Lane `lane`'s read of cell `off` of buffer `buf` as a value, or undefined with the
    /// reason (never written, outside the buffer, a MACA copy not yet visible); an atomic's
    /// read, which the race check does not record.
    pub(crate) fn load_untracked(
        &self,
        buf: usize,
        off: i64,
        span: Span,
        lane: usize,
        cx: &mut StepCtx,
    ) -> LaneVal {
        if let Some(u) = self.async_read(buf, off, span, lane, cx) {
            return Err(u);
        }
        if let Some(u) = self.maca_unready(buf, off, span) {
            cx.note(
                Level::Warning,
                span,
                u.why.clone(),
                "seed 002 §3.1.4, §3.1.10",
                Some(lane),
            );
            return Err(u);
        }
        // The buffer's name and size only for a message: a defined load allocates nothing.
        let (name, len) = self
            .trace
            .memory
            .buffers
            .get(buf)
            .map_or(("", 0), |b| (b.name.as_str(), b.cells.len()));
        match self.trace.memory.read(buf, off) {
            Ok(Some(v)) => Ok(v),
            Ok(None) => {
                if let Some(bits) = self.partial.whole_bits(buf, off) {
                    // The bytes of a float NaN stored through another type: kept as bytes
                    // (an integer view reads them), but no float value holds the payload.
                    let why = format!(
                        "`{name}[{off}]` holds the bytes {bits:#x}, a NaN as its element type, \
                         stored through another type; the emulator keeps floats as values, not \
                         NaN payloads (read these bytes through an integer type)"
                    );
                    cx.note(Level::Warning, span, why.clone(), "", Some(lane));
                    return Err(Undef::at(span, why));
                }
                if let Some(missing) = self.partial.unwritten(buf, off) {
                    // Some bytes written, not all ([`super::partial`]): the element has no
                    // value until every byte has one.
                    cx.note(
                        Level::Warning,
                        span,
                        format!("reads `{name}[{off}]`, an element written only in part ({missing} never written): undefined, as an element's value is all its bytes (write them all)"),
                        "ISO C++17 [basic.types]/4",
                        Some(lane),
                    );
                    return Err(Undef::at(
                        span,
                        format!("`{name}[{off}]` holds no value ({missing} never written)"),
                    ));
                }
                // A cell host code left undefined for a known reason (a signed overflow
                // computing it, `host_undef`): that reason, not "never written".
                if let Some(why) = crate::host_undef::reason_at(&self.config.undef_why, name, off) {
                    cx.note(
                        Level::Warning,
                        span,
                        format!("reads cells of `{name}` that host code left undefined (a signed overflow computing them)"),
                        "ISO C++17 [expr]/4",
                        Some(lane),
                    );
                    return Err(Undef::at(span, why));
                }
                // One message for all lanes; the cell is in each lane's reason.
                cx.note(
                    Level::Warning,
                    span,
                    format!("reads cells of `{name}` that were never written: undefined"),
                    "",
                    Some(lane),
                );
                Err(Undef::at(
                    span,
                    format!("`{name}[{off}]` holds no value (never written)"),
                ))
            }
            Err(m) => {
                cx.note(
                    Level::Warning,
                    span,
                    if self.trace.memory.string_of(buf).is_some() {
                        m.clone()
                    } else if name.is_empty() {
                        "reads through a null pointer (no buffer): undefined (C++17 [expr.unary.op]/1)"
                            .to_string()
                    } else {
                        format!(
                            "reads `{name}` outside its {len} cells: out-of-bounds access is undefined{}",
                            self.default_len_hint(buf)
                        )
                    },
                    oob_rule(self.trace.launch.dialect),
                    Some(lane),
                );
                Err(Undef::at(span, m))
            }
        }
    }

    pub(crate) fn place(
        &mut self,
        w: usize,
        e: &Expr,
        mask: LaneMask,
        cx: &mut StepCtx,
    ) -> Vec<Result<Place, Undef>> {
        let lanes = self.trace.launch.lanes;
        let mut out: Vec<Result<Place, Undef>> = vec![Err(Undef::idle()); lanes];
        let bad = |cx: &mut StepCtx, m: String| {
            cx.note(Level::Error, e.span, m.clone(), "", None);
            Err(Undef::at(e.span, m))
        };
        match &e.kind {
            ExprKind::Ident(name) => {
                let p = match self.idents.get(&(self.cur, e.id)) {
                    Some(&slot) => match self.warps[w].refs.get(&slot) {
                        Some(&buf) => Ok(Place::Mem(buf, 0)),
                        None => Ok(Place::Var(slot)),
                    },
                    None => bad(cx, format!("`{name}` is not a declared variable")),
                };
                for l in mask.iter().filter(|&l| l < lanes) {
                    out[l] = match p {
                        Ok(Place::Var(slot)) => match self.warps[w].lane_ref(slot, l) {
                            Some(buf) => Ok(Place::Mem(buf, 0)),
                            None => Ok(Place::Var(slot)),
                        },
                        _ => p.clone(),
                    };
                }
            }
            ExprKind::Member(base, _) | ExprKind::Index(base, _)
                if matches!(&base.kind, ExprKind::Ident(_))
                    && self.idents.get(&(self.cur, base.id)).is_some_and(|&s| {
                        matches!(self.slots.get(s).map(|s| s.ty), Some(Ty::Val(v)) if v.lanes > 1)
                    }) =>
            {
                let slot = self.idents[&(self.cur, base.id)];
                let ks: Vec<Option<usize>> = match &e.kind {
                    ExprKind::Member(_, _) => {
                        let k = match field_of(e) {
                            "x" => Some(0),
                            "y" => Some(1),
                            "z" => Some(2),
                            "w" => Some(3),
                            _ => None,
                        };
                        vec![k; lanes]
                    }
                    ExprKind::Index(_, idx) => {
                        let i = self.eval(w, idx, mask, cx);
                        i.iter()
                            .map(|v| v.as_ref().ok().and_then(KVal::as_int).and_then(|k| usize::try_from(k).ok()))
                            .collect()
                    }
                    _ => vec![None; lanes],
                };
                for l in mask.iter().filter(|&l| l < lanes) {
                    out[l] = match ks[l] {
                        Some(k) => Ok(Place::Comp(slot, k)),
                        None => bad(cx, "not a component of the vector".into()),
                    };
                }
            }
            ExprKind::Index(base, idx) => {
                let b = self.eval(w, base, mask, cx);
                let i = self.eval(w, idx, mask, cx);
                for l in mask.iter().filter(|&l| l < lanes) {
                    out[l] = match (&b[l], &i[l]) {
                        (Err(u), _) | (_, Err(u)) => {
                            cx.note(Level::Warning, e.span, format!("the address is undefined ({}): nothing is written", u.why), "", Some(l));
                            Err(u.clone())
                        }
                        (Ok(p), Ok(k)) => match self
                            .address(p, k)
                            .and_then(|(buf, off)| self.mem_place(p, buf, off))
                        {
                            Ok(place) => Ok(place),
                            Err(m) => bad(cx, m),
                        },
                    };
                }
            }
            ExprKind::Deref(p) => {
                let ptrs = self.eval(w, p, mask, cx);
                for l in mask.iter().filter(|&l| l < lanes) {
                    out[l] = match &ptrs[l] {
                        Err(u) => Err(u.clone()),
                        Ok(p) => match self
                            .address(p, &KVal::int(Scalar::I32, 0))
                            .and_then(|(buf, off)| self.mem_place(p, buf, off))
                        {
                            Ok(place) => Ok(place),
                            Err(m) => bad(cx, m),
                        },
                    };
                }
            }
            // A component of a vector element in memory: `out[i].x = …`.
            ExprKind::Member(base, field) if component(field).is_some() => {
                let k = component(field).unwrap_or(0);
                let places = self.place(w, base, mask, cx);
                for l in mask.iter().filter(|&l| l < lanes) {
                    out[l] = match places[l].clone() {
                        Ok(p) => match self.component_place(p, k) {
                            Ok(p) => Ok(p),
                            Err(m) => bad(cx, format!("`.{field}`: {m}")),
                        },
                        Err(u) => Err(u),
                    };
                }
            }
            // `v.at(i) += 1` through a `float& at(int)`: a call here yields a value.
            ExprKind::Call(..) => {
                let r = bad(
                    cx,
                    "a call's result cannot be assigned to here: a function returning a \
                     reference (`T& at(int i)`) is read as its value only; assign to what it \
                     refers to (`v.d[i] += …`) or return a pointer (`T* at(int i)`, `*v.at(i) += …`)"
                        .into(),
                );
                for l in mask.iter().filter(|&l| l < lanes) {
                    out[l] = r.clone();
                }
            }
            _ => {
                let r = bad(cx, "this expression cannot be assigned to".into());
                for l in mask.iter().filter(|&l| l < lanes) {
                    out[l] = r.clone();
                }
            }
        }
        out
    }

    pub(crate) fn read_place(
        &mut self,
        w: usize,
        p: Place,
        l: usize,
        span: Span,
        cx: &mut StepCtx,
    ) -> LaneVal {
        match p {
            Place::Var(slot) => self.read_lane(w, slot, span, l, cx),
            Place::Comp(slot, k) => match Some(self.read_lane(w, slot, span, l, cx)) {
                Some(Ok(KVal::Vector { items, .. })) => items
                    .get(k)
                    .cloned()
                    .ok_or_else(|| Undef::at(span, "component outside the vector")),
                Some(Err(u)) => Err(u),
                _ => Err(Undef::at(span, "not a vector")),
            },
            Place::Mem(buf, off) => self.load(buf, off, span, l, cx),
            Place::View { buf, at, elem } => self.load_components(buf, at, elem, span, l, cx),
        }
    }

    pub(crate) fn store_var(
        &mut self,
        w: usize,
        slot: usize,
        l: usize,
        v: LaneVal,
        span: Span,
        cx: &mut StepCtx,
    ) -> LaneVal {
        let ty = self.slots.get(slot).map(|s| s.ty);
        let v = v.and_then(|x| match (ty, &x) {
            (Some(Ty::Val(t)), _) => x.convert(t).map_err(|f| {
                cx.note(f.level, span, f.message.clone(), "", Some(l));
                Undef::at(span, f.message)
            }),
            (
                Some(Ty::Ptr(elem)),
                KVal::Ptr {
                    elem: from,
                    buf,
                    offset,
                },
            ) => crate::vector_types::recast(*from, elem, *offset)
                .map(|offset| KVal::Ptr {
                    elem,
                    buf: *buf,
                    offset,
                })
                .map_err(|f| {
                    cx.note(f.level, span, f.message.clone(), "", Some(l));
                    Undef::at(span, f.message)
                }),
            (Some(Ty::Ptr(elem)), z) if z.as_int() == Some(0) => Ok(KVal::Ptr {
                elem,
                buf: crate::types::NULL_BUF,
                offset: 0,
            }),
            (Some(Ty::Ptr(_)), _) => {
                let m = "only a pointer can be stored in a pointer variable".to_string();
                cx.note(Level::Error, span, m.clone(), "", Some(l));
                Err(Undef::at(span, m))
            }
            _ => Ok(x),
        });
        if let Some(buf) = self.warps[w].lane_ref(slot, l) {
            let _ = self.write_place(w, Place::Mem(buf, 0), l, v.clone(), span, cx);
        } else if let Some(r) = self.warps[w].vars.get_mut(slot) {
            let bytes = r.set(l, v.clone(), &mut self.reasons);
            self.meter.trace_bytes = self.meter.trace_bytes.saturating_add(bytes);
        }
        cx.changed.insert(slot);
        v
    }

    pub(crate) fn write_place(
        &mut self,
        w: usize,
        p: Place,
        l: usize,
        v: LaneVal,
        span: Span,
        cx: &mut StepCtx,
    ) -> LaneVal {
        match p {
            Place::Var(slot) => self.store_var(w, slot, l, v, span, cx),
            Place::View { buf, at, elem } => {
                self.store_components(w, (buf, at, elem), l, v, span, cx)
            }
            Place::Comp(slot, k) => {
                let cur = self.warps[w]
                    .vars
                    .get(slot)
                    .and_then(|r| r.get(l, &self.reasons));
                let elem = match self.slots.get(slot).map(|s| s.ty) {
                    Some(Ty::Val(t)) => t,
                    _ => return Err(Undef::at(span, "not a vector")),
                };
                let mut items = match cur {
                    Some(Ok(KVal::Vector { items, .. })) => items,
                    _ => vec![KVal::zero(ValTy::scalar(elem.scalar)); elem.lanes as usize],
                };
                let comp = v.and_then(|x| {
                    x.convert(ValTy::scalar(elem.scalar))
                        .map_err(|f| Undef::at(span, f.message))
                });
                match comp {
                    Ok(c) if k < items.len() => {
                        items[k] = c.clone();
                        let _ = self.store_var(
                            w,
                            slot,
                            l,
                            Ok(KVal::Vector {
                                ty: elem.scalar,
                                items,
                            }),
                            span,
                            cx,
                        );
                        Ok(c)
                    }
                    Ok(_) => Err(Undef::at(span, "component outside the vector")),
                    Err(u) => {
                        let _ = self.store_var(w, slot, l, Err(u.clone()), span, cx);
                        Err(u)
                    }
                }
            }
            Place::Mem(buf, off) => self.write_mem(w, (buf, off, u64::MAX), l, v, span, cx),
        }
    }
}

impl Executor {
    /// Writes `v` (converted to the element type) into cell `off` of buffer `buf` for lane
    /// `l`, as a store of the bytes `mask` (bit k: byte k of the cell; `u64::MAX` for a whole
    /// store) of it: another lane's write of some of those bytes in the same statement is a
    /// conflict, with a warning; writes of different bytes (two lanes storing the two halves of
    /// one word) are not. Records the write in the step; returns the value stored.
    pub(crate) fn write_mem(
        &mut self,
        w: usize,
        (buf, off, mask): (usize, i64, u64),
        l: usize,
        v: LaneVal,
        span: Span,
        cx: &mut StepCtx,
    ) -> LaneVal {
        let elem = self.trace.memory.buffers.get(buf).map(|b| b.elem);
        let v = match (v, elem) {
            (Ok(x), Some(t)) => x.convert(t).map_err(|f| {
                cx.note(f.level, span, f.message.clone(), "", Some(l));
                Undef::at(span, f.message)
            }),
            (v, _) => v,
        };
        // The buffer's name and size only for a message (no copy per lane otherwise).
        let about = |memory: &crate::memory::Memory| {
            memory
                .buffers
                .get(buf)
                .map_or((String::new(), 0), |b| (b.name.clone(), b.cells.len()))
        };
        self.bytes_written(cx, (buf, off, mask), l, span);
        self.race_write(w, buf, off, l, v.as_ref().ok());
        match self.trace.memory.write(buf, off, v.as_ref().ok().cloned()) {
            Ok(()) => {
                // A whole-cell store replaces any bytes written before it.
                self.partial.forget(buf, off);
                cx.writes.push(MemWrite {
                    buffer: buf,
                    index: off as usize,
                    value: v.as_ref().ok().cloned(),
                    lane: l,
                });
                if let Err(u) = &v {
                    let (name, _) = about(&self.trace.memory);
                    cx.note(
                        Level::Warning,
                        span,
                        format!("stores undefined values in `{name}` (e.g. {})", u.why),
                        "",
                        Some(l),
                    );
                }
                v
            }
            Err(m) => {
                let (name, len) = about(&self.trace.memory);
                cx.note(
                    Level::Warning,
                    span,
                    if self.trace.memory.string_of(buf).is_some() {
                        format!("{m}; nothing is written")
                    } else if name.is_empty() {
                        "writes through a null pointer (no buffer): undefined (C++17 [expr.unary.op]/1); nothing is written".to_string()
                    } else {
                        format!(
                            "writes `{name}` outside its {len} cells: out-of-bounds access is undefined; nothing is written{}",
                            self.default_len_hint(buf)
                        )
                    },
                    oob_rule(self.trace.launch.dialect),
                    Some(l),
                );
                Err(Undef::at(span, m))
            }
        }
    }
}

impl Executor {
    /// Records that lane `l` writes the bytes `mask` of cell `off` of buffer `buf` in this
    /// statement, with a warning when another lane wrote some of them in it (one value
    /// survives, which is undefined); writes of different bytes of one cell are no conflict.
    pub(crate) fn bytes_written(
        &self,
        cx: &mut StepCtx,
        (buf, off, mask): (usize, i64, u64),
        l: usize,
        span: Span,
    ) {
        let ws = cx.written.entry((buf, off)).or_default();
        let other = ws
            .iter()
            .rev()
            .find(|(o, m)| *o != l && m & mask != 0)
            .map(|(o, _)| *o);
        match ws.iter_mut().find(|(o, _)| *o == l) {
            Some((_, m)) => *m |= mask,
            None => ws.push((l, mask)),
        }
        if let Some(other) = other {
            let name = self
                .trace
                .memory
                .buffers
                .get(buf)
                .map_or(String::new(), |b| b.name.clone());
            let m = format!("several lanes write `{name}[{off}]` in one statement: one value survives (here the highest lane's)");
            cx.note(
                Level::Warning,
                span,
                m.clone(),
                race_rule(self.trace.launch.dialect),
                Some(l),
            );
            cx.note(Level::Warning, span, m, "", Some(other));
        }
    }
}

/// The component a field names (`x y z w` → 0..=3).
fn component(field: &str) -> Option<usize> {
    match field {
        "x" => Some(0),
        "y" => Some(1),
        "z" => Some(2),
        "w" => Some(3),
        _ => None,
    }
}

/// The rule an out-of-bounds access breaks, in the dialect's own document.
fn oob_rule(d: crosslane_core::op::Dialect) -> &'static str {
    match d {
        // A load through an invalid memory reference gives any in-bounds value or zero, a
        // store writes some in-bounds location or nothing: the emulator's undefined value and
        // dropped store are among the outcomes allowed.
        crosslane_core::op::Dialect::Wgsl => {
            "WGSL spec, Out-of-Bounds Access: a load gives any value of the buffer or zero; a store may write anywhere in it or nothing"
        }
        _ => "ISO C++17 [expr.add]/4",
    }
}

/// The rule several lanes writing one cell in one statement meets, in the dialect's document.
fn race_rule(d: crosslane_core::op::Dialect) -> &'static str {
    match d {
        crosslane_core::op::Dialect::Wgsl => {
            "WGSL spec, Memory Model: non-atomic writes of one location by several invocations race; which value remains is not determined"
        }
        _ => {
            "CUDA C++ Programming Guide: concurrent writes to one address by a warp — one succeeds, which is undefined"
        }
    }
}
