//! Host code that copies what launches left back to the host, changes it and copies it in
//! again (`cudaMemcpy(h, d, …, cudaMemcpyDeviceToHost); for (…) h[i] = h[i] * 2 + 1;
//! cudaMemcpy(d, h, …, cudaMemcpyHostToDevice);`): the host reading does not run kernels, so
//! it records each such copy ([`Readback`]); here the launches before it run (as
//! `sequence.rs` runs a traced launch's earlier ones), the copied cells are read from what they
//! left, and the program is read again with those values in the host array, so that host code
//! after the copy computes with them (CUDA Runtime API, cudaMemcpy: the copy returns once the
//! launches before it on the stream finished, "synchronous with respect to the host"). A
//! copied cell the launches left undefined stays undefined. At most [`MAX_ROUNDS`] readings,
//! each giving the copies whose launches need no copy not yet read.

use std::collections::HashMap;

use super::{earlier, pick, run_one, Ran};
use crate::ast::{HostLaunch, Readback, Span};
use crate::exec::LaunchConfig;
use crate::parser::host_d2d::{READBACKS, READBACKS_LAST, READBACKS_SEEN, READBACKS_USED};
use crate::parser::Parsed;

/// Most times the program is read again; defined beside the readings' bookkeeping in the
/// parser, whose reason for an unread copy names it.
pub use crate::parser::host_d2d::MAX_ROUNDS;

/// `parsed` read again with the values of its device-to-host copies of launches' cells, as far
/// as the launches before each run here; `parsed` itself when none could be read.
///
/// Each round reads the copies that come after the fewest launches (the same `id`): a later
/// copy may depend on them through host code (`h[i] += 1; cudaMemcpy(d, h, …)` before the next
/// launch), so it is read in a later round, from the reading given their values.
pub(crate) fn resolve(source: &str, parsed: Parsed, config: &LaunchConfig) -> Parsed {
    let mut parsed = parsed;
    let mut got: HashMap<(u32, u32, u32), Vec<String>> = HashMap::new();
    for round in 0..MAX_ROUNDS {
        let before = got.len();
        // A later iteration's copy back is read only when host code copies its array to the
        // device again (the reading that met it said so): a loop that only prints what each
        // iteration copied back costs no reading per iteration.
        let used = READBACKS_USED.with(|u| u.borrow().clone());
        parsed
            .program
            .readbacks
            .retain(|rb| rb.key.2 == 0 || used.contains(&rb.host));
        let mut ids: Vec<u32> = parsed.program.readbacks.iter().map(|rb| rb.id).collect();
        ids.sort_unstable();
        ids.dedup();
        // The copies after the fewest launches that can be read (one that cannot, a launch
        // that did not run, does not hold the others back).
        for id in ids {
            for rb in parsed.program.readbacks.clone() {
                if got.contains_key(&rb.key) || rb.id != id {
                    continue;
                }
                if let Some(v) = values(source, &parsed, config, &rb) {
                    got.insert(rb.key, v);
                }
            }
            if got.len() > before {
                break;
            }
        }
        if got.len() == before {
            break;
        }
        READBACKS.with(|m| m.borrow_mut().clone_from(&got));
        READBACKS_SEEN.with(|s| s.borrow_mut().clear());
        READBACKS_LAST.with(|l| l.set(round + 1 == MAX_ROUNDS));
        let again = crate::front_end::parse_for_launch(source, config);
        READBACKS.with(|m| m.borrow_mut().clear());
        READBACKS_SEEN.with(|s| s.borrow_mut().clear());
        READBACKS_LAST.with(|l| l.set(false));
        match again {
            Ok(p) => parsed = p,
            Err(_) => break,
        }
        if parsed.program.readbacks.is_empty() {
            break;
        }
    }
    parsed
}

/// The cells copy `rb` takes: host code's values under what the launches before it left
/// (each run here, untraced, as `sequence.rs` runs a traced launch's earlier ones), the cells
/// host code wrote after them kept; `None` when a launch could not run or a cell is no scalar.
fn values(
    source: &str,
    parsed: &Parsed,
    config: &LaunchConfig,
    rb: &Readback,
) -> Option<Vec<String>> {
    let probe = HostLaunch {
        span: Span {
            line: rb.key.0,
            col: rb.key.1,
        },
        args: vec![rb.arg.clone()],
        id: rb.id,
        ..HostLaunch::default()
    };
    let mut ran = Ran::for_program(&parsed.program);
    for id in earlier(&parsed.program, &ran.touch, &probe) {
        let l = parsed.program.launches.iter().find(|l| l.id == id)?.clone();
        run_one(source, parsed, l, config, false, &mut ran);
        if ran.stop.is_some() {
            return None;
        }
    }
    let a = &rb.arg;
    let n = rb.base.len();
    // The element type: the newest launch's buffer of the allocation.
    let elem = a
        .prior_ids
        .iter()
        .chain(a.dev_copies.iter().flat_map(|c| &c.src))
        .find_map(|s| pick(&ran, *s, "", &a.device).or_else(|| pick(&ran, *s, "", "")))
        .map(|(b, _)| b.elem)?;
    let mut cells: Vec<Option<crate::types::KVal>> = rb
        .base
        .iter()
        .map(|t| crate::memory::parse_cell(elem, t, &a.device).ok().flatten())
        .collect();
    for src in &a.prior_ids {
        let (from, at) = pick(&ran, *src, "", &a.device)?;
        for (i, c) in cells.iter_mut().enumerate() {
            let i = i as u64;
            if a.host_cells
                .iter()
                .any(|&(s, k)| i >= s && i < s.saturating_add(k))
            {
                continue;
            }
            let v = (a.offset + i)
                .checked_sub(at)
                .and_then(|j| usize::try_from(j).ok())
                .and_then(|j| from.cells.get(j));
            if let Some(v) = v {
                c.clone_from(v);
            }
        }
    }
    for dc in &a.dev_copies {
        for src in &dc.src {
            let (from, at) = pick(&ran, *src, "", &dc.src_device)?;
            for t in 0..dc.len {
                let se = dc.src_at.saturating_add(t);
                if dc
                    .src_keep
                    .iter()
                    .any(|&(s, k)| se >= s && se < s.saturating_add(k))
                {
                    continue;
                }
                let v = se
                    .checked_sub(at)
                    .and_then(|j| usize::try_from(j).ok())
                    .and_then(|j| from.cells.get(j));
                let cell = usize::try_from(dc.at.saturating_add(t))
                    .ok()
                    .filter(|&i| i < n)
                    .and_then(|i| cells.get_mut(i));
                if let (Some(v), Some(c)) = (v, cell) {
                    c.clone_from(v);
                }
            }
        }
    }
    cells
        .iter()
        .map(|c| match c {
            None => Some("undef".to_string()),
            Some(v @ crate::types::KVal::Int { .. } | v @ crate::types::KVal::Float { .. }) => {
                Some(v.to_string())
            }
            Some(_) => None,
        })
        .collect()
}
