//! The rules a `__syncwarp(mask)` call must keep, checked per call: lanes run together here, so
//! the call waits only for the other path of an `if` on sm_70+ (`machine::converge` lets two
//! calls with the same mask meet), and a call the vendor leaves undefined is reported rather
//! than passed over in silence.
//!
//! Source: CUDA C++ Programming Guide, Synchronization Functions (`__syncwarp`): "Each calling
//! thread must have its own bit set in the mask and all non-exited threads named in mask must
//! execute a corresponding `__syncwarp()` with the same mask, or the result is undefined"; PTX
//! ISA, `bar.warp.sync` (waits for the non-exited threads of `membermask`). A named lane that
//! has exited is therefore allowed, and the run goes on (a note says so).

use super::*;
use crate::ast::Span;
use crate::exec::Executor;
use crate::trace::LaneVal;
use crosslane_core::lanes::LaneMask;
use crosslane_core::result::Level;

/// The rule every report here cites.
const RULE: &str =
    "CUDA C++ Programming Guide, Synchronization Functions (__syncwarp); PTX ISA, bar.warp.sync";

impl Executor {
    /// Checks one `__syncwarp(mask)` of warp `w` by its `active` lanes, with each lane's `mask`
    /// value: a caller missing from its own mask, callers whose masks name each other but
    /// differ, and named lanes that are on another path of the warp are warnings (undefined);
    /// named lanes that have exited get a note (allowed).
    pub(crate) fn check_syncwarp(
        &mut self,
        w: usize,
        mask: &[LaneVal],
        active: LaneMask,
        span: Span,
        cx: &mut StepCtx,
    ) {
        let its = self.trace.launch.dialect != crosslane_core::op::Dialect::Cuda
            || super::converge::has_its(self.config.preprocess.arch.as_deref());
        let warp = &self.warps[w];
        let lanes = warp.status.len().min(64);
        let of = |l: usize| -> Option<u64> {
            match mask.get(l) {
                Some(Ok(v)) => v.as_int().map(|m| m as u64),
                _ => None,
            }
        };
        let mut reports: Vec<(Level, String, usize)> = Vec::new();
        for l in active.iter() {
            let Some(m) = of(l) else {
                continue;
            };
            if m >> l & 1 == 0 {
                reports.push((
                    Level::Warning,
                    format!("`__syncwarp` with a mask ({m:#x}) that does not name the calling lane: undefined (each calling thread must have its own bit set)"),
                    l,
                ));
                continue;
            }
            for other in 0..lanes {
                if other == l || m >> other & 1 == 0 || !warp.exists.contains(other) {
                    continue;
                }
                if active.contains(other) {
                    if of(other).is_some_and(|o| o != m) {
                        reports.push((
                            Level::Warning,
                            format!("`__syncwarp` masks differ between lanes that name each other (this lane {m:#x}): undefined (every thread named must execute it with the same mask)"),
                            l,
                        ));
                        break;
                    }
                } else if warp.status.get(other) == Some(&LaneStatus::Running) {
                    reports.push((Level::Warning, other_path(its, m, other), l));
                    break;
                }
            }
        }
        // Named lanes that have exited: allowed ("non-exited threads"), said once per lane.
        let mut exited = LaneMask::none();
        for l in active.iter() {
            let Some(m) = of(l) else {
                continue;
            };
            for other in 0..lanes {
                if m >> other & 1 == 1
                    && warp.exists.contains(other)
                    && warp.status.get(other) == Some(&LaneStatus::Returned)
                {
                    exited = exited.with(other);
                }
            }
        }
        for other in exited.iter() {
            reports.push((
                Level::Info,
                "`__syncwarp`'s mask names this lane, which has exited: only the non-exited lanes named must reach it, so the others go on".to_string(),
                other,
            ));
        }
        for (level, message, lane) in reports {
            cx.note(level, span, message, RULE, Some(lane));
        }
    }
}

/// Why a `__syncwarp(m)` whose mask names lane `other`, on another path of the warp, is
/// undefined: on a target with independent thread scheduling (`its`) the other path reached no
/// `__syncwarp` with the same mask before the paths joined (a matching one meets,
/// `machine::converge`); below sm_70 the lanes must execute the same `__syncwarp()` in
/// convergence (PTX ISA, bar.warp.sync: "for .target sm_6x or below").
fn other_path(its: bool, m: u64, other: usize) -> String {
    if its {
        format!("`__syncwarp({m:#x})` names lane {other}, which is on another path here and reaches no `__syncwarp` with the same mask on it: every non-exited thread named must execute a `__syncwarp` with the same mask, else the result is undefined (unless that lane exits first)")
    } else {
        format!("`__syncwarp({m:#x})` names lane {other}, which is on another path here: for sm_6x and below all threads in the mask must execute the same `__syncwarp()` in convergence, so the result is undefined (sm_70 and later would wait for the other path's `__syncwarp` with the same mask)")
    }
}
