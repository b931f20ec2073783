//! Memory through a pointer whose element type differs from the buffer's cells: a `float4*`
//! over a float buffer reads and writes four consecutive cells, a `float*` over a `float4`
//! buffer one component ([`crate::vector_types::view`]); a component of a vector
//! element in memory (`out[i].x = …`) is such a place too.

use super::*;
use crate::exec::Executor;
use crate::trace::{LaneVal, Undef};
use crate::types::{KVal, ValTy};
use crate::vector_types::{view, View};

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
            Some(View::Components) => {
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
        &self,
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
        &self,
        buf: usize,
        at: i64,
        elem: ValTy,
        span: Span,
        lane: usize,
        cx: &mut StepCtx,
    ) -> LaneVal {
        let per_cell = i64::from(self.cell_ty(buf).map_or(1, |c| c.lanes.max(1)));
        let n = elem.lanes.max(1);
        let mut items = Vec::with_capacity(usize::from(n));
        for j in 0..i64::from(n) {
            let s = at.saturating_add(j);
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
    /// cells. A component of a vector cell that was never written cannot be set alone (the
    /// emulator keeps a vector cell whole): it stays undefined, with a warning.
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
                    let name = self
                        .trace
                        .memory
                        .buffers
                        .get(buf)
                        .map_or(String::new(), |b| b.name.clone());
                    cx.note(
                        Level::Warning,
                        span,
                        format!("writes one component of `{name}[{cell}]`, an element never written: its other components are undefined, so the element stays undefined (write the whole element)"),
                        "",
                        Some(l),
                    );
                    continue;
                }
                // Out of bounds or not a vector: the whole-cell store reports it.
                _ => comp,
            };
            let _ = self.write_place(w, Place::Mem(buf, cell), l, whole, span, cx);
        }
        v
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
