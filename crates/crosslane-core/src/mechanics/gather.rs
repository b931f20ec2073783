//! The shared mechanics of a "pull" cross-lane op: each destination lane picks what it receives,
//! and the engine resolves inactive destinations, inactive sources and out-of-warp reads once for
//! every dialect, recording provenance.

use crate::op::OpInput;
use crate::result::{Diagnostic, LaneResult, Source};
use crate::value::Value;

/// What one destination lane receives, as decided by a dialect's rule.
#[derive(Clone, Debug, PartialEq)]
pub enum Pick {
    /// Read the operand of lane `j`.
    Lane(usize),
    /// The caller's own value, returned by the fallback rule given.
    Own(String),
    /// Zero, written by the rule given.
    Zero(String),
    /// The old / fill value given, kept by the rule given.
    Old(Value, String),
    /// Undefined by the rule given; optionally the lane the formula selected.
    Undefined(String, Option<usize>),
}

/// Resolves one pick per destination lane into results.
///
/// * Destination lanes outside `input.active` compute nothing ([`LaneResult::inactive`]).
/// * `Pick::Lane(j)` with `j` outside the warp is never read: undefined (no dialect rule reaches
///   here; the check keeps a faulty rule from indexing out of bounds).
/// * `Pick::Lane(j)` with `j` inactive is handed to `on_inactive_source(i, j)`, the dialect's rule
///   for reading an inactive lane (undefined for CUDA/Ascend/WGSL, zero for ds_swizzle, …). If
///   that returns another `Lane`, the result is undefined.
pub fn gather(
    input: &OpInput,
    pick: impl Fn(usize) -> Pick,
    on_inactive_source: impl Fn(usize, usize) -> Pick,
) -> Vec<LaneResult> {
    (0..input.lanes)
        .map(|i| {
            if !input.active.contains(i) {
                return LaneResult::inactive();
            }
            let mut p = pick(i);
            if let Pick::Lane(j) = p {
                if j >= input.lanes {
                    p = Pick::Undefined(
                        format!("source lane {j} is outside the {}-lane warp", input.lanes),
                        None,
                    );
                } else if !input.active.contains(j) {
                    p = match on_inactive_source(i, j) {
                        Pick::Lane(_) => {
                            Pick::Undefined(format!("source lane {j} is inactive"), Some(j))
                        }
                        other => other,
                    };
                }
            }
            resolve(input, i, p)
        })
        .collect()
}

fn resolve(input: &OpInput, i: usize, p: Pick) -> LaneResult {
    let zero = Value::from_bits(input.ty, 0);
    match p {
        Pick::Lane(j) => match input.values.get(j) {
            Some(v) => LaneResult::lane(*v, j),
            None => LaneResult::undefined(format!("source lane {j} has no value"), Some(j)),
        },
        Pick::Own(why) => match input.values.get(i) {
            Some(v) => LaneResult::own(*v, i, why),
            None => LaneResult::undefined(why, None),
        },
        Pick::Zero(why) => LaneResult::zero(zero, why),
        Pick::Old(v, why) => LaneResult::old(v, why),
        Pick::Undefined(why, hint) => LaneResult::undefined(why, hint),
    }
}

/// The standard "inactive source is undefined" rule (CUDA, Ascend, HIP, WGSL): reading a lane that
/// did not execute the call returns whatever its register holds (CUDA C++ Programming Guide, Warp
/// Shuffle Functions: "If the target thread is inactive, the retrieved value is undefined"). The
/// reason names the inactivity, not the register's contents: the register may well hold a
/// value, which the read is still not promised.
pub fn inactive_is_undefined(_dst: usize, src: usize) -> Pick {
    Pick::Undefined(
        format!(
            "source lane {src} is inactive, and a value read from an inactive lane is undefined"
        ),
        Some(src),
    )
}

/// Adds one warning summarising the undefined lanes of `results` (how many, and the first one's
/// reason), so the page and the CLI show it beside the drawing. Adds nothing when no lane is
/// undefined.
pub fn note_undefined(results: &[LaneResult], diagnostics: &mut Vec<Diagnostic>) {
    let undefined: Vec<usize> = results
        .iter()
        .enumerate()
        .filter(|(_, r)| r.source == Source::Undefined)
        .map(|(i, _)| i)
        .collect();
    if let Some(first) = undefined.first() {
        let why = results[*first].why.clone().unwrap_or_default();
        diagnostics.push(Diagnostic::warning(
            format!(
                "{} lane(s) undefined, e.g. lane {first}: {why}",
                undefined.len()
            ),
            "see each lane's reason",
        ));
    }
}
