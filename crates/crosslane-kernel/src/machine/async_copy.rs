//! CUDA's asynchronous copies to shared memory not yet waited for: `cuda::memcpy_async` with a
//! `cuda::barrier` (`barrier_header.rs`), `cooperative_groups::memcpy_async` with `cg::wait` /
//! `cg::wait_prior<N>` (`parser/cg_async.rs`) and `__pipeline_memcpy_async` with
//! `__pipeline_commit` / `__pipeline_wait_prior(N)` (`pp/predefined.rs`). Their models write
//! the destination at the call and mark each cell written as pending ([`ASYNC_COPY`]); a read
//! of a pending cell is undefined, with the reason, until the copying thread's wait completes
//! the copy ([`ASYNC_WAIT`]); after it the cell reads the copied value.
//!
//! Source: CUDA C++ Programming Guide, "Asynchronous Data Copies": the copy is performed
//! asynchronously, "as if performed by another thread", and its completion is observed only
//! through the wait it is bound to (the barrier's `arrive_and_wait`, `cg::wait`,
//! `__pipeline_wait_prior`); reading or writing the destination before that is a data race.
//! "Pipeline Primitives Interface": `__pipeline_commit` closes the current batch of copies, and
//! `__pipeline_wait_prior(N)` waits until at most `N` of the committed batches are still
//! pending.

use std::collections::HashMap;

use super::StepCtx;
use crate::ast::{Expr, Span};
use crate::exec::Executor;
use crate::trace::{LaneVal, Undef};
use crate::types::{KVal, Scalar};
use crosslane_core::lanes::LaneMask;
use crosslane_core::result::Level;

/// `__crosslane_async_copy(dst, bytes, api)`: the models' mark that the cells from `dst` on,
/// covering `bytes` bytes, are the destination of an asynchronous copy of `api` (0
/// `cuda::memcpy_async`, 1 `cg::memcpy_async`, 2 `__pipeline_memcpy_async`) not yet waited for.
pub const ASYNC_COPY: &str = "__crosslane_async_copy";
/// `__crosslane_async_commit()`: the calling thread's copies so far form a batch
/// (`__pipeline_commit`).
pub const ASYNC_COMMIT: &str = "__crosslane_async_commit";
/// `__crosslane_async_wait(n)`: the calling thread's copies complete — all of them for a
/// negative `n`, else those of its committed batches but the newest `n`
/// (`__pipeline_wait_prior(n)`).
pub const ASYNC_WAIT: &str = "__crosslane_async_wait";

/// The rule the reasons cite.
const RULE: &str = "CUDA C++ Programming Guide, Asynchronous Data Copies (the copy completes only at its wait; reading the destination before it is a race)";

/// Cells one copy marks at most (a budget: the rest go unmarked).
const MAX_MARK: u64 = 1 << 16;

/// A pending copy's destination cell: who issued it, in which of the thread's batches, by
/// which interface.
#[derive(Clone, Debug)]
struct Pending {
    block: usize,
    warp: usize,
    lane: usize,
    batch: u64,
    api: u8,
}

/// Destination cells of asynchronous copies not yet waited for, and each thread's count of
/// committed batches.
#[derive(Clone, Debug, Default)]
pub(crate) struct AsyncCopies {
    pending: HashMap<(usize, i64), Pending>,
    committed: HashMap<(usize, usize, usize), u64>,
}

impl AsyncCopies {
    /// Whether some cell waits for its copy (typed loads then take the general path).
    pub(crate) fn cells_pending(&self) -> bool {
        !self.pending.is_empty()
    }
}

/// The interface and its wait, as the reason names them.
fn api_words(api: u8) -> (&'static str, &'static str) {
    match api {
        1 => ("cooperative_groups::memcpy_async", "`cg::wait(group)`"),
        2 => (
            "__pipeline_memcpy_async",
            "`__pipeline_wait_prior(0)` after `__pipeline_commit()`",
        ),
        _ => ("cuda::memcpy_async", "`arrive_and_wait()` on its barrier"),
    }
}

impl Executor {
    /// The reason a read of cell `cell` of buffer `buf` is undefined: an asynchronous copy
    /// into it not yet waited for.
    pub(crate) fn async_unready(&self, buf: usize, cell: i64, span: Span) -> Option<Undef> {
        let p = self.async_copies.pending.get(&(buf, cell))?;
        // Another block's copy into its own shared memory is no copy of this block's.
        let shared = self
            .trace
            .memory
            .buffers
            .get(buf)
            .is_some_and(|b| matches!(b.space, crate::memory::Space::Shared { .. }));
        if shared && p.block != self.block {
            return None;
        }
        let name = self
            .trace
            .memory
            .buffers
            .get(buf)
            .map_or("", |b| b.name.as_str());
        let (api, wait) = api_words(p.api);
        Some(Undef::at(
            span,
            format!(
                "`{name}[{cell}]` is the destination of a `{api}` not yet complete: the copy runs asynchronously and its data is there only after {wait}, so reading it before the wait is a race (undefined)"
            ),
        ))
    }

    /// The models' calls ([`ASYNC_COPY`], [`ASYNC_COMMIT`], [`ASYNC_WAIT`]) by `mask` lanes of
    /// warp `w`; `None` for any other name.
    pub(crate) fn async_copy_call(
        &mut self,
        w: usize,
        name: &str,
        args: &[Expr],
        mask: LaneMask,
        cx: &mut StepCtx,
    ) -> Option<Vec<LaneVal>> {
        if !matches!(name, ASYNC_COPY | ASYNC_COMMIT | ASYNC_WAIT) {
            return None;
        }
        let lanes = self.trace.launch.lanes;
        let vals: Vec<Vec<LaneVal>> = args.iter().map(|a| self.eval(w, a, mask, cx)).collect();
        let int =
            |k: usize, l: usize| -> Option<i128> { vals.get(k)?.get(l)?.as_ref().ok()?.as_int() };
        let block = self.block;
        let warp = self.warps.get(w).map_or(0, |x| x.index);
        let mut limits: Vec<Option<u64>> = vec![None; lanes];
        for l in mask.iter().filter(|&l| l < lanes) {
            let who = (block, warp, l);
            let batch = self.async_copies.committed.get(&who).copied().unwrap_or(0);
            match name {
                ASYNC_COPY => {
                    let Some(Ok(KVal::Ptr { buf, offset, .. })) =
                        vals.first().and_then(|v| v.get(l))
                    else {
                        continue;
                    };
                    let (buf, offset) = (*buf, *offset);
                    let Some(b) = self.trace.memory.buffers.get(buf) else {
                        continue;
                    };
                    let elem =
                        u64::from(b.elem.scalar.bits().max(8) / 8) * u64::from(b.elem.lanes.max(1));
                    let bytes = int(1, l).and_then(|v| u64::try_from(v).ok()).unwrap_or(0);
                    let cells = bytes.div_ceil(elem.max(1)).clamp(1, MAX_MARK);
                    let api = int(2, l).and_then(|v| u8::try_from(v).ok()).unwrap_or(0);
                    let len = b.cells.len() as i64;
                    for k in 0..cells as i64 {
                        let c = offset.saturating_add(k);
                        if (0..len).contains(&c) {
                            self.async_copies.pending.insert(
                                (buf, c),
                                Pending {
                                    block,
                                    warp,
                                    lane: l,
                                    batch,
                                    api,
                                },
                            );
                        }
                    }
                }
                ASYNC_COMMIT => {
                    self.async_copies
                        .committed
                        .insert(who, batch.saturating_add(1));
                }
                _ => {
                    // The batches this lane's wait completes: those below `limit`.
                    let limit = match int(0, l).map(u64::try_from) {
                        Some(Ok(n)) => batch.saturating_sub(n),
                        _ => u64::MAX,
                    };
                    if let Some(x) = limits.get_mut(l) {
                        *x = Some(limit);
                    }
                }
            }
        }
        // One pass over the pending cells for all the waiting lanes.
        if limits.iter().any(Option::is_some) {
            self.async_copies.pending.retain(|_, p| {
                let done = p.block == block
                    && p.warp == warp
                    && limits
                        .get(p.lane)
                        .copied()
                        .flatten()
                        .is_some_and(|limit| p.batch < limit);
                !done
            });
        }
        let mut out = vec![Err(Undef::idle()); lanes];
        for l in mask.iter().filter(|&l| l < lanes) {
            out[l] = Ok(KVal::int(Scalar::I32, 0));
        }
        Some(out)
    }

    /// Warns once per read of a cell an asynchronous copy has not completed, and gives the
    /// undefined value with the reason.
    pub(crate) fn async_read(
        &self,
        buf: usize,
        off: i64,
        span: Span,
        lane: usize,
        cx: &mut StepCtx,
    ) -> Option<Undef> {
        let u = self.async_unready(buf, off, span)?;
        // One message for all lanes and cells; the cell is in each lane's reason.
        let p = self.async_copies.pending.get(&(buf, off))?;

        let name = self
            .trace
            .memory
            .buffers
            .get(buf)
            .map_or("", |b| b.name.as_str());
        let (api, wait) = api_words(p.api);
        cx.note(
            Level::Warning,
            span,
            format!("reads cells of `{name}` that a `{api}` has not completed: undefined until {wait} (the copy is asynchronous; reading its destination before the wait is a race)"),
            RULE,
            Some(lane),
        );
        Some(u)
    }
}
