//! A `*_sync` call whose lanes pass different, disjoint sync masks runs once per mask group.
//!
//! The rule binds the threads *named in* a caller's mask: "all non-exited threads named in mask
//! must execute the same intrinsic with the same mask" (CUDA C++ Programming Guide, Warp
//! Shuffle Functions and Warp Vote Functions; PTX ISA, `shfl.sync`: the executing thread waits
//! for the non-exited threads of `membermask` that execute `shfl.sync` with the same
//! `membermask`). So a warp may split into disjoint groups, each calling with its own mask
//! that names its own lanes — the warp split by `__match_any_sync` and reduced per group with
//! `__reduce_add_sync(peers, v)`, or halves that exchange within themselves. Each group's call
//! is then an ordinary call with one mask. Masks that overlap without being equal are left to
//! the op, whose uniform-mask rule makes every lane undefined with its reason.

use crosslane_core::args::Role;
use crosslane_core::lanes::LaneMask;
use crosslane_core::op::OpSpec;

use crate::trace::LaneVal;
use crate::types::to_declared;

/// The active lanes of a call grouped by the sync mask each passes, when the op takes a sync
/// mask ([`Role::SyncMask`]), the active lanes pass two or more different masks, and those
/// masks are pairwise disjoint. `None` otherwise (one mask, an undefined or negative mask, or
/// overlapping masks): the call runs as one. Bounded by the lane count (at most 128 groups,
/// compared pairwise).
pub(crate) fn groups(
    spec: &OpSpec,
    lanes: usize,
    active: LaneMask,
    args: &[Vec<LaneVal>],
) -> Option<Vec<LaneMask>> {
    let k = spec.args.iter().position(|a| a.role == Role::SyncMask)?;
    let c_type = crate::types::sync_mask_type(spec.args.get(k)?.ty, lanes);
    let row = args.get(k)?;
    let mut groups: Vec<(u128, LaneMask)> = Vec::new();
    for l in active.iter().filter(|&l| l < lanes) {
        let m = row.get(l)?.as_ref().ok()?.as_int()?;
        let m = u128::try_from(to_declared(m, c_type)).ok()?;
        match groups.iter_mut().find(|(v, _)| *v == m) {
            Some((_, g)) => *g = g.with(l),
            None => groups.push((m, LaneMask(0).with(l))),
        }
    }
    if groups.len() < 2 {
        return None;
    }
    for (i, (a, _)) in groups.iter().enumerate() {
        if groups[i + 1..].iter().any(|(b, _)| a & b != 0) {
            return None;
        }
    }
    Some(groups.into_iter().map(|(_, g)| g).collect())
}
