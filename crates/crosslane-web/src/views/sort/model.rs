//! The sort view's model: the keys (typed or drawn from a seed), the network's figures and checks
//! (the same [`SortReport`] the CLI's `crosslane sort` prints), and a stage-by-stage walk of the
//! network that records, per stage, which comparators fired and swapped and how sorted the keys
//! are afterwards. Target-independent; the page (`super::page`) and the drawings
//! ([`super::diagram`], [`super::plot`]) only read it.
//!
//! The walk uses the core's per-thread closed form ([`closed_form::thread_comparator`], seed 004),
//! so it never materializes the network and works up to [`MAX_REPORT_LEN`] = 2^20 keys; the final
//! keys of the walk are checked against the core's executor ([`SortReport::output`]), except for
//! random inputs above [`MAX_NETWORK_LEN`] keys, walked once (`SortRun::walk_random`).

use crosslane_core::network::report::KeysFrom;
use crosslane_core::network::warp::{warp_sort, WarpShuffles, WarpSort};
use crosslane_core::network::{
    closed_form, figures, keys, report, stage_params, Comparator, SortReport, MAX_NETWORK_LEN,
};
use crosslane_core::{Dialect, InputError};
use serde::{Deserialize, Serialize};

use crosslane_exchange::Key;

pub use crosslane_core::network::report::MAX_REPORT_LEN;

/// Up to this many keys the Knuth diagram draws every wire; above it the page shows per-stage
/// counters and a sortedness plot instead (the default of the view's threshold).
pub const DRAW_LIMIT: usize = 256;

/// Keys kept per stage snapshot when wires are not drawn (what `#sort-keys` shows).
pub const KEYS_SHOWN: usize = 64;

/// The dialects whose warp shuffles can run the in-warp variant (the core's presets).
pub const WARP_DIALECTS: [&str; 4] = ["ascend", "cuda", "hip", "wgsl"];

/// One comparator as it ran in the walk.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fired {
    /// The comparator (positions `lo < hi`).
    pub comparator: Comparator,
    /// Whether it exchanged its keys (`key[hi] < key[lo]` before it).
    pub swapped: bool,
}

/// What one stage `(p, k)` did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StageRun {
    /// Block half-size.
    pub p: usize,
    /// Comparator distance.
    pub k: usize,
    /// Comparators in the stage.
    pub comparators: u64,
    /// Comparators that exchanged their keys.
    pub swaps: u64,
    /// Fraction of adjacent pairs `key[i] ≤ key[i+1]` after the stage, in `0..=1`.
    pub in_order: f64,
    /// Every comparator with its outcome, when the wires are drawn (`None` above the threshold).
    pub fired: Option<Vec<Fired>>,
    /// The keys after the stage: all of them when wires are drawn, else the first
    /// [`KEYS_SHOWN`].
    pub keys: Vec<i64>,
}

/// A whole walk of the network over one input.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SortRun {
    /// The core's report: input, figures, output of the executor, verification.
    pub report: SortReport,
    /// Whether every wire is drawn (`len ≤` the threshold).
    pub drawn: bool,
    /// Fraction of adjacent pairs in order before the first stage.
    pub initial_in_order: f64,
    /// The stages in execution order.
    pub stages: Vec<StageRun>,
    /// Whether the walk's final keys equal the executor's output (they must).
    pub walk_matches_exec: bool,
    /// Smallest and largest input key (the colour scale), `(0, 0)` for no keys.
    pub key_range: (i64, i64),
}

impl SortRun {
    /// Builds the input (the typed `values`, a comma list, or `len` keys from `seed` as the CLI
    /// draws them) and walks the network over it. Wires are recorded when `len ≤ draw_limit`.
    /// Random keys above [`MAX_NETWORK_LEN`] are walked once and the walk is the report's output
    /// (`SortRun::walk_random`); other inputs get the core's report and the walk beside it.
    ///
    /// # Errors
    /// The core's [`report`](fn@report) errors: `len` outside `1..=`[`MAX_REPORT_LEN`] or disagreeing with
    /// the values; `values[i]` for an item that is not an integer.
    pub fn new(
        len: Option<usize>,
        seed: u64,
        values: Option<&str>,
        draw_limit: usize,
    ) -> Result<SortRun, InputError> {
        let values = values.filter(|v| !v.trim().is_empty());
        match len {
            Some(n) if values.is_none() && n > MAX_NETWORK_LEN && n <= MAX_REPORT_LEN => {
                Ok(Self::walk_random(n, seed, draw_limit, false))
            }
            _ => Ok(Self::walk_report(report(len, seed, values)?, draw_limit)),
        }
    }

    /// `len` random keys from `seed` walked as [`SortRun::new`] walks them, as the page shows
    /// the run ([`SortRun::shown`]): what the sort worker sends.
    ///
    /// # Errors
    /// As [`SortRun::new`]: `len` outside `1..=`[`MAX_REPORT_LEN`].
    pub fn new_shown(len: usize, seed: u64, draw_limit: usize) -> Result<SortRun, InputError> {
        if len > MAX_NETWORK_LEN && len <= MAX_REPORT_LEN {
            Ok(Self::walk_random(len, seed, draw_limit, true))
        } else {
            SortRun::new(Some(len), seed, None, draw_limit).map(SortRun::shown)
        }
    }

    /// Walks the network over the input of `report` and compares the walk's final keys with
    /// the report's output (the core's executor).
    fn walk_report(report: SortReport, draw_limit: usize) -> SortRun {
        let mut keys = report.input.clone();
        let (initial_in_order, stages) = walk(&mut keys, draw_limit);
        SortRun {
            walk_matches_exec: keys == report.output,
            key_range: key_range(&report.input),
            drawn: report.input.len() <= draw_limit,
            report,
            initial_in_order,
            stages,
        }
    }

    /// `n` random keys from `seed` (above [`MAX_NETWORK_LEN`], where the report has no
    /// verification), walked once: the walk's final keys are the report's output, so the
    /// network does not run twice (2^20 keys in the sort worker: the executor
    /// took as long again). The keys are the core's `u32` draws ([`keys`](fn@keys)), walked as
    /// `u32` (half the memory of `i64`, the same order). The check of the core's report,
    /// `matches_sort_unstable`, holds when the output is the input sorted ([`is_input_sorted`]:
    /// ascending, each key as often as in the input, what `sort_unstable` gives); the output
    /// then equals the executor's (a sort's output is unique), which is what
    /// `walk_matches_exec` says here; the walk and the executor are compared key by key on
    /// every shorter input and in this module's tests.
    ///
    /// `shown_only` keeps only what [`SortRun::shown`] keeps of the input and the output (the
    /// worker's run: 2^20 keys of each are not widened to `i64` only to be dropped).
    fn walk_random(n: usize, seed: u64, draw_limit: usize, shown_only: bool) -> SortRun {
        let drawn_keys = keys(n, seed);
        let mut walked = drawn_keys.clone();
        let (initial_in_order, stages) = walk(&mut walked, draw_limit);
        let sorted = is_input_sorted(&drawn_keys, &walked);
        let drawn = n <= draw_limit;
        let kept = if shown_only && !drawn { KEYS_SHOWN } else { n };
        let wide = |k: &[u32]| {
            k.iter()
                .take(kept)
                .map(|&v| i64::from(v))
                .collect::<Vec<i64>>()
        };
        let lo = drawn_keys.iter().copied().min().map_or(0, i64::from);
        let hi = drawn_keys.iter().copied().max().map_or(0, i64::from);
        let input = wide(&drawn_keys);
        SortRun {
            walk_matches_exec: sorted,
            key_range: (lo, hi),
            drawn,
            report: SortReport {
                len: n,
                seed,
                keys_from: KeysFrom::Random,
                figures: figures(n),
                stages: None,
                matches_sort_unstable: sorted,
                input,
                output: wide(&walked),
                verify: None,
            },
            initial_in_order,
            stages,
        }
    }

    /// Number of keys.
    pub fn len(&self) -> usize {
        self.report.len
    }

    /// Whether there are no keys (never: the report refuses `len = 0`).
    pub fn is_empty(&self) -> bool {
        self.report.len == 0
    }

    /// The run as the page shows it, for the trip from the sort worker: without drawn wires
    /// the page shows only the first [`KEYS_SHOWN`] keys of any position, so the report's input
    /// and output keep only those (2^20 keys of each made the page parse 2 million numbers in
    /// one long task). Figures, checks, counters, fractions and the key range
    /// were computed from every key before, and stay.
    pub fn shown(mut self) -> SortRun {
        if !self.drawn {
            self.report.input.truncate(KEYS_SHOWN);
            self.report.output.truncate(KEYS_SHOWN);
        }
        self
    }

    /// Positions on the step control: 0 (the input) to the number of stages (all fired).
    pub fn positions(&self) -> usize {
        self.stages.len()
    }

    /// The keys at position `at` (after `at` stages; clamped): all keys when wires are drawn,
    /// else the first [`KEYS_SHOWN`].
    pub fn keys_at(&self, at: usize) -> &[i64] {
        match at.checked_sub(1).and_then(|s| self.stages.get(s)) {
            Some(stage) => &stage.keys,
            None if at > 0 => self
                .stages
                .last()
                .map_or(&self.report.input[..], |s| &s.keys),
            None => {
                let shown = if self.drawn {
                    self.len()
                } else {
                    self.len().min(KEYS_SHOWN)
                };
                self.report.input.get(..shown).unwrap_or(&self.report.input)
            }
        }
    }

    /// The stage that fired last at position `at` (`None` at position 0).
    pub fn stage_at(&self, at: usize) -> Option<&StageRun> {
        at.checked_sub(1).and_then(|s| self.stages.get(s))
    }

    /// Fraction of adjacent pairs in order at position `at`.
    pub fn in_order_at(&self, at: usize) -> f64 {
        self.stage_at(at)
            .map_or(self.initial_in_order, |s| s.in_order)
    }

    /// The network as shuffles inside one warp of `dialect` (lane i holds key i).
    ///
    /// # Errors
    /// On `dialect` for a dialect without a warp-sort preset; on `len` when the keys do not fit
    /// the dialect's warp; on `values` for a key outside i32 (the warp sort's operand type).
    pub fn warp(&self, dialect: &str) -> Result<WarpSort, InputError> {
        let shuffles = WarpShuffles::for_dialect(dialect)?;
        let lanes = Dialect::parse(shuffles.dialect)?.default_lanes();
        if self.len() > lanes {
            return Err(InputError::new(
                "len",
                format!(
                    "the in-warp variant holds one key per lane: n ≤ {lanes} on {}, got {}",
                    shuffles.dialect,
                    self.len()
                ),
            ));
        }
        let keys = self
            .report
            .input
            .iter()
            .enumerate()
            .map(|(i, &v)| {
                i32::try_from(v).map_err(|_| {
                    InputError::new(
                        format!("values[{i}]"),
                        format!("{v} does not fit the warp sort's i32 lanes"),
                    )
                })
            })
            .collect::<Result<Vec<i32>, _>>()?;
        warp_sort(&shuffles, &keys)
    }
}

/// Walks the network over `keys` stage by stage: the fraction of adjacent pairs in order before
/// the first stage, and each stage's [`StageRun`] (wires recorded when `keys.len() ≤
/// draw_limit`).
fn walk<T: Key + Into<i64>>(keys: &mut [T], draw_limit: usize) -> (f64, Vec<StageRun>) {
    let n = keys.len();
    let drawn = n <= draw_limit;
    let initial_in_order = in_order(keys);
    let shown = if drawn { n } else { n.min(KEYS_SHOWN) };
    let stages = stage_params(n)
        .map(|(p, k)| {
            let mut fired = drawn.then(Vec::new);
            let (comparators, swaps, in_order) = match fired.as_mut() {
                Some(f) => {
                    let (comparators, swaps) = walk_listed(keys, p, k, f);
                    (comparators, swaps, in_order(keys))
                }
                None => {
                    let pass = walk_runs(keys, p, k);
                    (pass.comparators, pass.swaps, fraction(pass.ordered, n))
                }
            };
            StageRun {
                p,
                k,
                comparators,
                swaps,
                in_order,
                fired,
                keys: keys.iter().take(shown).map(|&v| v.into()).collect(),
            }
        })
        .collect();
    (initial_in_order, stages)
}

/// Whether `output` is `input` sorted (what `sort_unstable` gives, the one ascending order of
/// those keys): ascending, and every key as often as in `input`. Counted in `O(n)` for keys below
/// 2^16 (the report's random keys lie in `0..1000`, `crosslane_core::network::KEY_RANGE`),
/// else compared with `input` sorted by `sort_unstable`.
fn is_input_sorted(input: &[u32], output: &[u32]) -> bool {
    if input.len() != output.len() || u32::ordered_pairs(output) + 1 < output.len() as u64 {
        return false;
    }
    match input.iter().max() {
        Some(&max) if max < 1 << 16 => {
            let mut count = vec![0i64; max as usize + 1];
            for &key in input {
                count[key as usize] += 1;
            }
            for &key in output {
                match count.get_mut(key as usize) {
                    Some(c) => *c -= 1,
                    None => return false,
                }
            }
            count.iter().all(|&c| c == 0)
        }
        _ => {
            let mut expected = input.to_vec();
            expected.sort_unstable();
            expected == output
        }
    }
}

/// `ordered` adjacent pairs of `n` keys as the fraction [`in_order`] gives.
fn fraction(ordered: u64, n: usize) -> f64 {
    if n < 2 {
        1.0
    } else {
        ordered as f64 / (n - 1) as f64
    }
}

/// Smallest and largest key, `(0, 0)` for no keys.
fn key_range(keys: &[i64]) -> (i64, i64) {
    let lo = keys.iter().copied().min();
    let hi = keys.iter().copied().max();
    lo.zip(hi).unwrap_or((0, 0))
}

/// Stage `(p, k)` comparator by comparator ([`closed_form::thread_comparator`], seed 004), each
/// recorded in `fired`, for the drawn wires. Returns (comparators, swaps).
fn walk_listed<T: Ord + Copy>(
    keys: &mut [T],
    p: usize,
    k: usize,
    fired: &mut Vec<Fired>,
) -> (u64, u64) {
    let n = keys.len();
    let (mut comparators, mut swaps) = (0u64, 0u64);
    for t in 0..closed_form::threads_per_stage(n) {
        let Some(c) = closed_form::thread_comparator(n, p, k, t) else {
            continue;
        };
        let (Some(&a), Some(&b)) = (keys.get(c.lo), keys.get(c.hi)) else {
            continue;
        };
        let swapped = b < a;
        if swapped {
            keys.swap(c.lo, c.hi);
            swaps += 1;
        }
        comparators += 1;
        fired.push(Fired {
            comparator: c,
            swapped,
        });
    }
    (comparators, swaps)
}

/// Keys a stage pass compare-exchanges before it counts the ordered pairs over them, while they
/// are still in cache (16 KiB of `u32`).
const SEGMENT: usize = 4096;

/// What one stage did over all keys: comparators, swaps, and adjacent pairs `key[i] ≤
/// key[i+1]` after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct StagePass {
    comparators: u64,
    swaps: u64,
    ordered: u64,
}

/// Stage `(p, k)` run by run, for walks without drawn wires (up to 2^20 keys in the sort
/// worker). The same comparators as [`closed_form::thread_comparator`]: in
/// each `2p` block, `k = p` pairs the block's two halves; `k < p` pairs each run
/// `[k + 2km, 2k + 2km)` with the `k` positions after it; a pair whose upper position falls
/// outside the block or the keys is not a comparator. A stage's comparators are disjoint, so
/// their order does not matter, and each lies inside one `2k` chunk of its block (from offset
/// `k` when `k < p`): the pass walks a segment of whole chunks, then counts the ordered pairs up
/// to the segment's end (every position before it is final for this stage), so that counting
/// needs no second sweep over the keys.
fn walk_runs<T: Key>(keys: &mut [T], p: usize, k: usize) -> StagePass {
    let n = keys.len();
    let first = if k < p { k } else { 0 };
    let segment = k.saturating_mul(2).max(SEGMENT);
    let mut pass = StagePass {
        comparators: 0,
        swaps: 0,
        ordered: 0,
    };
    // Positions before `counted` are final and the pairs among them counted.
    let mut counted: usize = 0;
    let mut block = 0;
    while block < n {
        let end = n.min(block.saturating_add(p.saturating_mul(2)));
        let mut x = n.min(block + first);
        while x < end {
            let to = end.min(x.saturating_add(segment));
            let (comparators, swaps) = T::compare_exchange(&mut keys[x..to], k);
            pass.comparators += comparators;
            pass.swaps += swaps;
            pass.ordered += T::ordered_pairs(&keys[counted.saturating_sub(1)..to]);
            counted = to;
            x = to;
        }
        block = block.saturating_add(p.saturating_mul(2));
    }
    pass.ordered += T::ordered_pairs(&keys[counted.saturating_sub(1)..]);
    pass
}

/// Fraction of adjacent pairs `keys[i] ≤ keys[i+1]` (1 for fewer than two keys): 1 exactly when
/// the keys are sorted, about 1/2 for random distinct keys.
pub fn in_order<T: Key>(keys: &[T]) -> f64 {
    fraction(T::ordered_pairs(keys), keys.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sort worker sends a run to the page as JSON (`worker::sort`): what arrives must be the
    /// run that was walked, keys, counters, fractions and wires included. 2^15 keys: a plot run
    /// with [`KEYS_SHOWN`] keys per stage (m = 15: 120 stages, (m² − m + 4)·2^(m−2) − 1 =
    /// 1 753 087 comparators, Knuth 5.3.4), and 16 keys with every wire.
    #[test]
    fn a_run_survives_the_trip_from_the_worker() {
        for (len, limit) in [(1usize << 15, DRAW_LIMIT), (16, DRAW_LIMIT)] {
            let run = SortRun::new(Some(len), 99, None, limit).unwrap();
            let text = serde_json::to_string(&Ok::<_, InputError>(run.clone())).unwrap();
            // Read as the page reads it (`wire`: field by field, no derived deserializer).
            let mut back: SortRun = super::super::wire::read_answer(&text).unwrap();
            // serde_json reads a float back to within an ulp (it does not promise the exact
            // bits without its `float_roundtrip` feature): the fractions, shown to 0.01 %, are
            // compared as such, everything else exactly.
            let close = |a: f64, b: f64| (a - b).abs() <= 1e-12;
            assert!(close(back.initial_in_order, run.initial_in_order));
            back.initial_in_order = run.initial_in_order;
            for (b, r) in back.stages.iter_mut().zip(&run.stages) {
                assert!(close(b.in_order, r.in_order));
                b.in_order = r.in_order;
            }
            assert_eq!(back, run);
            if len == 1 << 15 {
                assert_eq!(run.stages.len(), 120);
                assert_eq!(run.report.figures.comparators, 1_753_087);
                assert!(!run.drawn);
            } else {
                assert!(run.stages.iter().all(|s| s.fired.is_some()));
            }
        }
        // What the worker sends (`shown`): the same positions, counters and shown keys, and
        // without the 2^15 keys of input and output.
        let run = SortRun::new(Some(1 << 15), 99, None, DRAW_LIMIT).unwrap();
        let sent = run.clone().shown();
        assert_eq!(sent.len(), 1 << 15);
        assert_eq!(sent.positions(), run.positions());
        for at in [0, 1, 60, 120] {
            assert_eq!(sent.keys_at(at), run.keys_at(at), "position {at}");
            assert_eq!(sent.keys_at(at).len(), KEYS_SHOWN);
        }
        assert_eq!(sent.report.input.len(), KEYS_SHOWN);
        assert!(sent.report.ok() && sent.walk_matches_exec);
        assert_eq!(sent.key_range, run.key_range);
        let full = serde_json::to_string(&run).unwrap().len();
        let small = serde_json::to_string(&sent).unwrap().len();
        assert!(small * 4 < full, "{small} bytes sent of {full}");
        // The worker's own walk keeps only those keys from the start, and is the same run.
        for (len, limit) in [
            (1usize << 15, DRAW_LIMIT),
            ((1 << 15) + 3, DRAW_LIMIT),
            (300, 8),
        ] {
            let full = SortRun::new(Some(len), 99, None, limit).unwrap();
            assert_eq!(
                SortRun::new_shown(len, 99, limit).unwrap(),
                full.shown(),
                "{len}"
            );
        }
        assert_eq!(SortRun::new_shown(0, 1, 8).unwrap_err().field, "len");
        // A drawn run keeps every key (the diagram shows them all).
        let drawn = SortRun::new(Some(16), 99, None, DRAW_LIMIT).unwrap();
        assert_eq!(drawn.clone().shown(), drawn);

        let refused: Result<SortRun, InputError> = SortRun::new(Some(0), 1, None, DRAW_LIMIT);
        let text = serde_json::to_string(&refused).unwrap();
        let back = super::super::wire::read_answer(&text);
        assert_eq!(back.unwrap_err(), refused.unwrap_err());
        // Typed keys (`keys_from` values), every wire drawn: the same run back, field by field.
        let typed = SortRun::new(None, 1, Some("9,-3,7,7,0,12,5,1,8,2"), DRAW_LIMIT).unwrap();
        let text = serde_json::to_string(&Ok::<_, InputError>(typed.clone())).unwrap();
        let back = super::super::wire::read_answer(&text).unwrap();
        assert_eq!(back.report, typed.report);
        assert_eq!(back.key_range, (-3, 12));
        assert_eq!(back.stages.len(), typed.stages.len());
        // An answer that is not a run says so on field `sort`, never panics.
        for bad in ["", "{}", "{\"Ok\": {}}", "{\"Err\": 3}", "[1]"] {
            assert_eq!(
                super::super::wire::read_answer(bad).unwrap_err().field,
                "sort",
                "{bad}"
            );
        }
    }

    #[test]
    fn ten_given_keys_walk_32_comparators_in_10_stages_to_sorted() {
        let run = SortRun::new(None, 1, Some("9,-3,7,7,0,12,5,1,8,2"), DRAW_LIMIT).unwrap();
        assert_eq!(run.stages.len(), 10);
        assert_eq!(run.stages.iter().map(|s| s.comparators).sum::<u64>(), 32);
        assert_eq!(run.report.figures.comparators, 32);
        assert_eq!(run.keys_at(10), &[-3, 0, 1, 2, 5, 7, 7, 8, 9, 12]);
        assert_eq!(run.keys_at(0), &[9, -3, 7, 7, 0, 12, 5, 1, 8, 2]);
        assert!(run.walk_matches_exec);
        assert_eq!(run.in_order_at(10), 1.0);
        assert_eq!(run.key_range, (-3, 12));
        // Stage 1 (p = 1, k = 1) pairs (0,1), (2,3), …: (9,−3), (5,1) and (8,2) are out of order.
        let first = run.stages[0].fired.as_ref().unwrap();
        let swapped: Vec<usize> = first
            .iter()
            .filter(|f| f.swapped)
            .map(|f| f.comparator.lo)
            .collect();
        assert_eq!(swapped, vec![0, 6, 8]);
        assert_eq!(run.stages[0].swaps, 3);
        assert_eq!(run.keys_at(1), &[-3, 9, 7, 7, 0, 12, 1, 5, 2, 8]);
    }

    #[test]
    fn the_ten_keys_naive_bitonic_code_gets_wrong_sort() {
        let run = SortRun::new(None, 0, Some("9,8,7,6,5,4,3,2,1,0"), DRAW_LIMIT).unwrap();
        assert_eq!(
            run.keys_at(run.positions()),
            &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
        );
        assert!(run.report.ok());
    }

    #[test]
    fn large_runs_keep_counters_not_wires() {
        let run = SortRun::new(Some(5000), 7, None, DRAW_LIMIT).unwrap();
        assert!(!run.drawn);
        assert!(run.walk_matches_exec);
        assert_eq!(run.stages.len(), run.report.figures.stages);
        assert_eq!(
            run.stages.iter().map(|s| s.comparators).sum::<u64>(),
            run.report.figures.comparators
        );
        assert!(run.stages.iter().all(|s| s.fired.is_none()));
        assert!(run.stages.iter().all(|s| s.keys.len() == KEYS_SHOWN));
        assert!(run.initial_in_order < 0.6, "{}", run.initial_in_order);
        assert_eq!(run.in_order_at(run.positions()), 1.0);
        // Every swap is a comparator that fired.
        assert!(run.stages.iter().all(|s| s.swaps <= s.comparators));
    }

    /// The run-by-run walk fires the same comparators as the closed form, thread by thread
    /// (seed 004), with the same swaps and keys after every stage: lengths around powers of two
    /// (cut blocks, runs that are not a multiple of four keys) and duplicate-heavy keys; as
    /// `i64` (the scalar loops) and as `u32` (four keys at a time, `crosslane-exchange`).
    #[test]
    fn the_run_walk_is_the_closed_form_walk() {
        for n in [
            2usize, 3, 5, 6, 7, 8, 9, 13, 16, 31, 33, 100, 255, 256, 257, 1000, 1023, 4097, 5000,
        ] {
            // Keys with many duplicates, from a small LCG (not the walk's own code).
            let mut x: u64 = 12345 + n as u64;
            let input: Vec<i64> = (0..n)
                .map(|_| {
                    x = x
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    ((x >> 33) % 17) as i64 - 8
                })
                .collect();
            let (mut a, mut b) = (input.clone(), input.clone());
            let mut c: Vec<u32> = input.iter().map(|&v| (v + 8) as u32).collect();
            for (p, k) in stage_params(n) {
                let mut fired = Vec::new();
                let listed = walk_listed(&mut a, p, k, &mut fired);
                let runs = walk_runs(&mut b, p, k);
                let quads = walk_runs(&mut c, p, k);
                assert_eq!(
                    (quads.comparators, quads.swaps, quads.ordered),
                    (runs.comparators, runs.swaps, runs.ordered),
                    "u32, n {n} stage ({p}, {k})"
                );
                assert!(
                    c.iter().zip(&b).all(|(&u, &i)| i64::from(u) - 8 == i),
                    "u32 keys, n {n} stage ({p}, {k})"
                );
                assert_eq!(
                    listed,
                    (runs.comparators, runs.swaps),
                    "n {n} stage ({p}, {k})"
                );
                // The ordered pairs counted during the pass are those of the keys after it,
                // counted here by an independent loop over every adjacent pair.
                let ordered = (1..n).filter(|&i| b[i - 1] <= b[i]).count() as u64;
                assert_eq!(runs.ordered, ordered, "n {n} stage ({p}, {k})");
                assert_eq!(
                    listed.0,
                    crosslane_core::network::stage_comparator_count(n, p, k)
                );
                assert_eq!(a, b, "n {n} stage ({p}, {k})");
            }
            let mut sorted = input;
            sorted.sort_unstable();
            assert_eq!(a, sorted, "n {n}");
        }
    }

    /// Above [`MAX_NETWORK_LEN`] random keys are walked once, as `u32`, and the walk is the
    /// report's output: the run must be the one walked over the core's report (its executor's
    /// output, `i64` keys), figure for figure and key for key, on a cut and a whole power of two.
    #[test]
    fn a_random_run_walked_once_is_the_run_over_the_report() {
        for (len, seed) in [((1usize << 15) + 3, 5u64), (1 << 15, 99)] {
            let once = SortRun::new(Some(len), seed, None, DRAW_LIMIT).unwrap();
            let over_report =
                SortRun::walk_report(report(Some(len), seed, None).unwrap(), DRAW_LIMIT);
            assert!(over_report.walk_matches_exec && over_report.report.ok());
            assert_eq!(once, over_report, "len {len}");
        }
    }

    /// The check of a run walked once: sorted and the same keys as often, against inputs
    /// sorted by hand, with small keys (counted) and wide ones (compared with `sort_unstable`).
    #[test]
    fn a_sorted_output_is_checked_against_its_input() {
        assert!(is_input_sorted(&[3, 1, 2, 1], &[1, 1, 2, 3]));
        assert!(!is_input_sorted(&[3, 1, 2, 1], &[1, 2, 2, 3]), "a key lost");
        assert!(
            !is_input_sorted(&[3, 1, 2, 1], &[1, 1, 3, 2]),
            "not ascending"
        );
        assert!(
            !is_input_sorted(&[3, 1, 2, 1], &[1, 1, 2, 4]),
            "a key above the input's"
        );
        assert!(!is_input_sorted(&[3, 1], &[1, 1, 3]), "a key added");
        assert!(is_input_sorted(&[], &[]));
        let wide = [u32::MAX, 70_000, 5];
        assert!(is_input_sorted(&wide, &[5, 70_000, u32::MAX]));
        assert!(!is_input_sorted(&wide, &[5, 70_000, 70_000]));
    }

    #[test]
    fn in_order_counts_adjacent_pairs() {
        assert_eq!(in_order::<i64>(&[]), 1.0);
        assert_eq!(in_order(&[3i64, 1, 2]), 0.5);
        assert_eq!(in_order(&[1i64, 1, 2]), 1.0);
        // Four at a time (u32), with a scalar tail: 11 keys, 10 adjacent pairs, all in order
        // but 3-0 and 9-1.
        assert_eq!(in_order(&[1u32, 2, 3, 0, 5, 5, 6, 7, 8, 9, 1]), 0.8);
    }

    #[test]
    fn warp_variant_sorts_on_every_preset_and_refuses_wide_keys() {
        let run = SortRun::new(Some(16), 3, None, DRAW_LIMIT).unwrap();
        for d in WARP_DIALECTS {
            let w = run.warp(d).unwrap();
            assert_eq!(w.stages.len(), run.stages.len(), "{d}");
            let expect: Vec<i32> = run
                .keys_at(run.positions())
                .iter()
                .map(|&v| v as i32)
                .collect();
            assert_eq!(w.sorted, expect, "{d}");
        }
        let wide = SortRun::new(None, 0, Some("1,4294967296"), DRAW_LIMIT).unwrap();
        assert_eq!(wide.warp("cuda").unwrap_err().field, "values[1]");
        let long = SortRun::new(Some(40), 0, None, DRAW_LIMIT).unwrap();
        assert_eq!(long.warp("cuda").unwrap_err().field, "len");
        assert_eq!(run.warp("maca").unwrap_err().field, "dialect");
    }

    #[test]
    fn bad_input_names_the_field() {
        assert_eq!(SortRun::new(Some(0), 0, None, 8).unwrap_err().field, "len");
        assert_eq!(
            SortRun::new(None, 0, Some("1,x"), 8).unwrap_err().field,
            "values[1]"
        );
        assert_eq!(
            SortRun::new(Some(MAX_REPORT_LEN + 1), 0, None, 8)
                .unwrap_err()
                .field,
            "len"
        );
    }
}
