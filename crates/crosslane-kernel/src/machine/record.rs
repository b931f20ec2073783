//! A step's record in the trace ([`KernelStep`]): the variables it changed as rows, its memory
//! writes, cross-lane operations and diagnostics.
//!
//! A step at a line of library code (crosslane's `<mma.h>`, all on its `#include` line) is
//! shown at the user's statement that called it, with its diagnostics.
//!
//! A lane-local array named in [`crate::ast::Program::element_arrays`] (a `wmma::fragment`'s
//! `x`) is shown as each lane's elements, a vector of the array's cells, instead of the pointer
//! to the lane's buffer the register holds; a lane whose array has a cell never written is
//! undefined, naming that cell. The array counts as changed by every step that writes one of
//! its cells, so the lanes table shows its elements where they change.

use crate::ast::Span;
use crate::budget;
use crate::exec::Executor;
use crate::lane_row::LaneRow;
use crate::lane_val::{LaneVal, Undef};
use crate::machine::{StepCtx, Warp};
use crate::memory::Space;
use crate::trace::{step_bytes, CellWrite, KernelStep, MemWrite, TraceMode, VarRow};
use crate::types::KVal;
use crosslane_core::lanes::LaneMask;

impl Executor {
    /// Records the step `cx` describes (its statement at `span`..`end`, run by `active`) in
    /// the trace, or only its diagnostics under [`TraceMode::None`].
    pub(crate) fn record(
        &mut self,
        w: usize,
        span: Span,
        end: Span,
        active: LaneMask,
        mut cx: StepCtx,
    ) {
        let (span, end) = self.user_site(w, span, end);
        if !self.library_lines.is_empty() {
            for d in &mut cx.diags {
                if self.library_lines.contains(&d.1.line) {
                    d.1 = span;
                }
            }
        }
        self.race_report(span, &mut cx);
        self.warp_race_report(span, &mut cx);
        if self.maca.loads_pending() {
            self.maca_note_changes(w, span.line, &cx.changed);
        }
        if !cx.changed.is_empty() || !cx.writes.is_empty() {
            self.barrier_round.changed = true;
        }
        if !cx.changed.is_empty() || cx.writes.len() > cx.same_writes {
            self.spin.epoch = self.spin.epoch.wrapping_add(1);
        }
        let written = self.written_element_arrays(w, &cx.writes);
        cx.changed.extend(written);
        let lanes = self.trace.launch.lanes;
        let stats = &mut self.trace.stats;
        stats.steps = stats.steps.saturating_add(1);
        stats.lane_statements = stats
            .lane_statements
            .saturating_add(u64::from(active.count()));
        if !cx.ops.is_empty() {
            stats.last_op_step = Some(stats.steps - 1);
        }
        // What the step cost beyond its statement and nodes: its notes, memory writes
        // (atomics included), cross-lane operations and barrier round.
        self.charge_diagnostics(cx.notes);
        self.meter.work(
            budget::MEMORY_OP_WORK
                .saturating_mul(cx.writes.len() as u64)
                .saturating_add(budget::MEMORY_OP_WORK.saturating_mul(cx.ops.len() as u64))
                .saturating_add(if cx.barrier { budget::BARRIER_WORK } else { 0 }),
        );
        if self.mode == TraceMode::None {
            self.record_diagnostics_only(lanes, cx.diags);
            return;
        }
        let warp = &self.warps[w];
        let rows: Vec<(usize, Vec<LaneVal>)> = cx
            .changed
            .iter()
            .map(|&id| (id, self.shown_row(warp, id)))
            .collect();
        let warp_index = warp.index;
        let table = &mut self.trace.reasons;
        let mut reason_bytes = 0u64;
        let changes: Vec<VarRow> = rows
            .into_iter()
            .map(|(id, values)| VarRow {
                slot: u32::try_from(id).unwrap_or(u32::MAX),
                row: LaneRow::encode(&values, |u| {
                    let (id, bytes) = table.intern(u);
                    reason_bytes += bytes;
                    id
                }),
            })
            .collect();
        self.meter.trace_bytes = self.meter.trace_bytes.saturating_add(reason_bytes);
        let diagnostics = self
            .diag_log
            .filter(crate::machine::step_diagnostics(lanes, cx.diags));
        let step = KernelStep {
            // Its position in the run (the steps counted so far include it), also when the
            // trace holds only the steps since a checkpoint (`replay`).
            index: usize::try_from(self.trace.stats.steps.saturating_sub(1)).unwrap_or(usize::MAX),
            block: self.block,
            warp: warp_index,
            line: span.line,
            col: span.shown().col,
            text: self.text(span, end),
            active,
            lanes,
            changes,
            memory_writes: cx.writes.into_iter().map(CellWrite::new).collect(),
            ops: cx.ops,
            diagnostics,
        };
        self.meter.trace_bytes = self.meter.trace_bytes.saturating_add(step_bytes(&step));
        self.trace.steps.push(step);
    }

    /// Where a step at `span`..`end` is shown: itself, or for a step at a line of library code
    /// ([`crate::ast::Program::library_lines`]: crosslane's `<mma.h>`) the warp's last step at
    /// a line of the user's own, the call that runs the library code (library code runs only
    /// from such a call), so the trace shows `wmma::mma_sync`'s steps at its call.
    fn user_site(&mut self, w: usize, span: Span, end: Span) -> (Span, Span) {
        if self.library_lines.is_empty() {
            return (span, end);
        }
        let key = (self.block, self.warps.get(w).map_or(w, |x| x.index));
        if self.library_lines.contains(&span.line) {
            return self.user_sites.get(&key).copied().unwrap_or((span, end));
        }
        self.user_sites.insert(key, (span, end));
        (span, end)
    }

    /// Whether slot `id` is an element array ([`crate::ast::Program::element_arrays`]).
    pub(crate) fn is_element_array(&self, id: usize) -> bool {
        !self.element_arrays.is_empty()
            && self.slots.get(id).is_some_and(|s| {
                let own = s.name.rsplit("::").next().unwrap_or(&s.name);
                self.element_arrays.iter().any(|n| n == own)
            })
    }

    /// The element arrays of warp `w` one of whose lanes' buffers `writes` wrote.
    fn written_element_arrays(&self, w: usize, writes: &[MemWrite]) -> Vec<usize> {
        if self.element_arrays.is_empty() || writes.is_empty() {
            return Vec::new();
        }
        let Some(warp) = self.warps.get(w) else {
            return Vec::new();
        };
        (0..self.slots.len())
            .filter(|&id| self.is_element_array(id))
            .filter(|&id| {
                let Some(reg) = warp.vars.get(id) else {
                    return false;
                };
                reg.row(&self.reasons).iter().any(|v| {
                    matches!(v, Ok(KVal::Ptr { buf, .. })
                        if writes.iter().any(|m| m.buffer == *buf))
                })
            })
            .collect()
    }

    /// Slot `id`'s value in every lane of `warp` as the trace shows it: its register, or for
    /// an element array each lane's cells (module doc).
    pub(crate) fn shown_row(&self, warp: &Warp, id: usize) -> Vec<LaneVal> {
        let row = warp
            .vars
            .get(id)
            .map(|r| r.row(&self.reasons))
            .unwrap_or_default();
        if !self.is_element_array(id) {
            return row;
        }
        let name = self.slots.get(id).map_or("", |s| s.name.as_str());
        row.into_iter()
            .map(|v| match v {
                Ok(KVal::Ptr {
                    elem,
                    buf,
                    offset: 0,
                }) => self
                    .lane_elements(name, elem.scalar, buf)
                    .unwrap_or(Ok(KVal::Ptr {
                        elem,
                        buf,
                        offset: 0,
                    })),
                other => other,
            })
            .collect()
    }

    /// The cells of lane-local buffer `buf` as a vector of `ty`, or undefined naming the first
    /// cell never written; `None` when `buf` is not a lane's own array.
    fn lane_elements(&self, name: &str, ty: crate::types::Scalar, buf: usize) -> Option<LaneVal> {
        let b = self.trace.memory.buffers.get(buf)?;
        if !matches!(b.space, Space::Local { .. }) {
            return None;
        }
        let mut items = Vec::with_capacity(b.cells.len());
        for (i, c) in b.cells.iter().enumerate() {
            match c {
                Some(k) => items.push(k.clone()),
                None => {
                    return Some(Err(Undef {
                        line: 0,
                        col: 0,
                        why: format!("`{name}[{i}]` of this lane has no value yet"),
                        uninit: true,
                    }))
                }
            }
        }
        Some(Ok(KVal::Vector { ty, items }))
    }
}
