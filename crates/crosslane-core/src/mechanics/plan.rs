//! A compiled data-movement plan: the per-lane provenance of a [`Step`] turned into a table that
//! moves raw bits, so the same op can be applied to many operand rows at memory speed.
//!
//! Rule evaluation (which lane reads what, and why) happens once in the dialect; the plan replays
//! only the data movement, and the benchmark measures lane-results per second through it. The GPU
//! check does not use it: there the device computes each lane's source lane from the vendor's
//! formula itself (`crosslane-gpu`'s `formula.rs`).

use crate::result::Source;
use crate::trace::Step;

/// What one destination lane receives, as raw bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// The operand of lane `j` (also used for the caller's own value: `j = i`).
    Lane(u32),
    /// A constant bit pattern (zero, or the old / fill value the rule kept).
    Const(u64),
    /// Undefined or inactive: no value.
    None,
}

/// One [`Move`] per lane, plus the lanes whose result carries no value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Per destination lane.
    pub moves: Vec<Move>,
}

impl Plan {
    /// The plan a step's results describe. Lanes whose source is `Computed` (reductions, ballots)
    /// cannot be replayed as data movement and become `Move::None`; [`Plan::is_pure_movement`]
    /// says whether any lane was lost that way.
    pub fn from_step(step: &Step) -> Plan {
        let moves = step
            .results
            .iter()
            .map(|r| match (r.source, r.from, r.value) {
                (Source::Lane | Source::Own, Some(j), Some(_)) => Move::Lane(j as u32),
                (Source::Zero | Source::Old, _, Some(v)) => Move::Const(v.bits),
                _ => Move::None,
            })
            .collect();
        Plan { moves }
    }

    /// Whether every lane of `step` is replayed exactly (no computed lanes).
    pub fn is_pure_movement(step: &Step) -> bool {
        step.results.iter().all(|r| r.source != Source::Computed)
    }

    /// Applies the plan to one operand row (raw bits, one per lane) into `out` (same length as
    /// the plan). Undefined lanes get `undefined_fill` (callers track them through `moves`). A
    /// source lane outside `src` is treated as undefined, so no input can index out of bounds.
    pub fn apply(&self, src: &[u64], out: &mut [u64], undefined_fill: u64) {
        for (o, m) in out.iter_mut().zip(&self.moves) {
            *o = match *m {
                Move::Lane(j) => src.get(j as usize).copied().unwrap_or(undefined_fill),
                Move::Const(bits) => bits,
                Move::None => undefined_fill,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::OpRequest;

    #[test]
    fn plan_replays_the_seed_xor_example() {
        let step = OpRequest {
            dialect: "ascend".into(),
            op: "asc_shfl_xor".into(),
            params: [
                ("lane_mask".to_string(), "1".to_string()),
                ("width".to_string(), "16".to_string()),
            ]
            .into_iter()
            .collect(),
            ..Default::default()
        }
        .run()
        .unwrap();
        let plan = Plan::from_step(&step);
        let src: Vec<u64> = (100..132).collect();
        let mut out = vec![0; 32];
        plan.apply(&src, &mut out, u64::MAX);
        assert_eq!(&out[..4], &[101, 100, 103, 102]);
        assert_eq!(out[31], 130);
    }

    #[test]
    fn undefined_lanes_stay_unfilled() {
        let step = OpRequest {
            dialect: "ascend".into(),
            op: "asc_shfl_down".into(),
            active: "0x0000ffff".into(),
            params: [("delta".to_string(), "4".to_string())]
                .into_iter()
                .collect(),
            ..Default::default()
        }
        .run()
        .unwrap();
        let plan = Plan::from_step(&step);
        // Lane 12 reads lane 16, which is inactive: undefined.
        assert_eq!(plan.moves[12], Move::None);
        assert_eq!(plan.moves[11], Move::Lane(15));
        assert_eq!(plan.moves[20], Move::None);
    }
}
