//! The network for n ≤ lanes keys run inside one warp as cross-lane shuffles, through the same
//! emulator as single ops (`OpRequest::run`), so the page can draw every shuffle of the sort.
//!
//! Lane `i` holds key `i`. In a stage, the low end `lo` of a comparator needs its partner
//! `hi = lo + k` and keeps `min`; the high end keeps `max`; lanes in no comparator keep their key
//! (that includes lanes `≥ n`, the padding). How the partner is fetched:
//! * **xor**: in a stage `k = p` every comparator is `(x, x + p)` with `x mod 2p < p`, so
//!   `x + p = x ^ p` and `x = (x + p) ^ p`: one xor shuffle with mask `k` serves both ends
//!   (`asc_shfl_xor`, `__shfl_xor_sync`, `subgroupShuffleXor`).
//! * **index**: when the dialect's index shuffle takes its source lane per thread (its argument
//!   is [`Thread::PerThread`] in the op's typed argument list: CUDA's `srcLane`, HIP's
//!   `src_lane`, Ascend's `srcLane`, WGSL's `id`), one index shuffle with each lane's partner (or
//!   itself).
//! * **down + up**: otherwise (`k < p`, where `x mod 2k ≥ k` so `x ^ k = x − k` is not the partner),
//!   the low ends read `lane + k` and the high ends `lane − k`: one down shuffle and one up shuffle
//!   by `k`, each lane taking the one that names its partner. Both shuffles stay inside the
//!   warp (`lo + k = hi < n ≤ lanes`, `hi − k = lo ≥ 0`), so no segment rule or fallback applies.
//!
//! The compare-exchange after the shuffles is lane-local arithmetic, not a cross-lane op, so it is
//! not a [`Step`]: each [`WarpStage`] records the keys before and after instead.

use serde::Serialize;

use super::{check_network_len, closed_form, Comparator};
use crate::args::Thread;
use crate::error::InputError;
use crate::op::{find_op, Dialect};
use crate::request::OpRequest;
use crate::trace::{Step, Trace};

/// One shuffle op of a dialect and the vendor name of its lane parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ShuffleOp {
    /// The vendor op name (`asc_shfl_down`).
    pub op: &'static str,
    /// The parameter that names the lane or offset (`delta`, `lane_mask`, `src_lane`, `id`).
    pub param: &'static str,
}

/// The shuffles of one dialect that the warp sort uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct WarpShuffles {
    /// Dialect CLI name (`ascend`, `cuda`, `hip`, `wgsl`).
    pub dialect: &'static str,
    /// Reads lane `i ^ param`.
    pub xor: Option<ShuffleOp>,
    /// Reads lane `i + param`.
    pub down: ShuffleOp,
    /// Reads lane `i − param`.
    pub up: ShuffleOp,
    /// Reads lane `param` (used only if the parameter is per-lane in the registry).
    pub index: Option<ShuffleOp>,
}

impl WarpShuffles {
    /// Ascend C: `asc_shfl_xor(lane_mask)`, `asc_shfl_down(delta)`, `asc_shfl_up(delta)`,
    /// `asc_shfl(srcLane)` (srcLane per thread, cann asc-devkit SIMT).
    pub const ASCEND: WarpShuffles = WarpShuffles {
        dialect: "ascend",
        xor: Some(ShuffleOp {
            op: "asc_shfl_xor",
            param: "lane_mask",
        }),
        down: ShuffleOp {
            op: "asc_shfl_down",
            param: "delta",
        },
        up: ShuffleOp {
            op: "asc_shfl_up",
            param: "delta",
        },
        index: Some(ShuffleOp {
            op: "asc_shfl",
            param: "src_lane",
        }),
    };

    /// CUDA: `__shfl_xor_sync(laneMask)`, `__shfl_down_sync(delta)`, `__shfl_up_sync(delta)`,
    /// `__shfl_sync(srcLane)` (CUDA Programming Guide, "Warp Shuffle Functions").
    pub const CUDA: WarpShuffles = WarpShuffles {
        dialect: "cuda",
        xor: Some(ShuffleOp {
            op: "__shfl_xor_sync",
            param: "lane_mask",
        }),
        down: ShuffleOp {
            op: "__shfl_down_sync",
            param: "delta",
        },
        up: ShuffleOp {
            op: "__shfl_up_sync",
            param: "delta",
        },
        index: Some(ShuffleOp {
            op: "__shfl_sync",
            param: "src_lane",
        }),
    };

    /// HIP: `__shfl_xor(lane_mask)`, `__shfl_down(delta)`, `__shfl_up(delta)`, `__shfl(src_lane)`.
    pub const HIP: WarpShuffles = WarpShuffles {
        dialect: "hip",
        xor: Some(ShuffleOp {
            op: "__shfl_xor",
            param: "lane_mask",
        }),
        down: ShuffleOp {
            op: "__shfl_down",
            param: "delta",
        },
        up: ShuffleOp {
            op: "__shfl_up",
            param: "delta",
        },
        index: Some(ShuffleOp {
            op: "__shfl",
            param: "src_lane",
        }),
    };

    /// WGSL: `subgroupShuffleXor(mask)`, `subgroupShuffleDown(delta)`, `subgroupShuffleUp(delta)`,
    /// `subgroupShuffle(id)`.
    pub const WGSL: WarpShuffles = WarpShuffles {
        dialect: "wgsl",
        xor: Some(ShuffleOp {
            op: "subgroupShuffleXor",
            param: "mask",
        }),
        down: ShuffleOp {
            op: "subgroupShuffleDown",
            param: "delta",
        },
        up: ShuffleOp {
            op: "subgroupShuffleUp",
            param: "delta",
        },
        index: Some(ShuffleOp {
            op: "subgroupShuffle",
            param: "id",
        }),
    };

    /// The preset for a dialect name.
    ///
    /// # Errors
    /// [`InputError`] on field `dialect` for a dialect without a preset (amdgcn and maca have no
    /// plain up/down shuffle pair).
    pub fn for_dialect(name: &str) -> Result<WarpShuffles, InputError> {
        [Self::ASCEND, Self::CUDA, Self::HIP, Self::WGSL]
            .into_iter()
            .find(|s| s.dialect.eq_ignore_ascii_case(name.trim()))
            .ok_or_else(|| {
                InputError::new(
                    "dialect",
                    format!("the warp sort runs on ascend, cuda, hip or wgsl, got `{name}`"),
                )
            })
    }

    /// The index shuffle if its typed argument list takes the source lane per thread.
    fn per_lane_index(&self, dialect: Dialect) -> Option<ShuffleOp> {
        let index = self.index?;
        let spec = find_op(dialect, index.op).ok()?;
        let per_thread = spec
            .arg_of(index.param)
            .is_some_and(|a| matches!(a.thread, Thread::PerThread(_)));
        per_thread.then_some(index)
    }
}

/// How a stage fetched partners.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Fetch {
    /// One xor shuffle by `k`.
    Xor,
    /// One index shuffle with per-lane source lanes.
    Index,
    /// A down shuffle and an up shuffle by `k`.
    DownUp,
}

/// One stage of the warp sort.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WarpStage {
    /// Block half-size of the stage.
    pub p: usize,
    /// Comparator distance in lanes.
    pub k: usize,
    /// The stage's comparators (lane pairs).
    pub comparators: Vec<Comparator>,
    /// How partners were fetched.
    pub fetch: Fetch,
    /// Indices into [`WarpSort::trace`] of this stage's shuffles, in order.
    pub steps: Vec<usize>,
    /// Every lane's key before the stage.
    pub keys_before: Vec<i32>,
    /// Every lane's key after the compare-exchange.
    pub keys_after: Vec<i32>,
}

/// A warp sort as executed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WarpSort {
    /// The dialect's shuffles used.
    pub shuffles: WarpShuffles,
    /// Lanes in the warp (the dialect's default).
    pub lanes: usize,
    /// Keys sorted (lanes `0..len`).
    pub len: usize,
    /// The stages, in order.
    pub stages: Vec<WarpStage>,
    /// Every shuffle as an emulator step (i32 operands), labelled with its stage.
    pub trace: Trace,
    /// The keys of lanes `0..len` at the end, ascending.
    pub sorted: Vec<i32>,
}

/// Sorts `keys` (lane `i` holds `keys[i]`; lanes past `keys.len()` hold 0 and take part in no
/// comparator) inside one warp of `shuffles.dialect`, every partner fetched by a shuffle run
/// through the emulator.
///
/// # Errors
/// [`InputError`] on `dialect` if the dialect or one of its ops is not in the registry; on `len`
/// unless `1 ≤ keys.len() ≤` the dialect's lane count; and any error the emulator reports.
pub fn warp_sort(shuffles: &WarpShuffles, keys: &[i32]) -> Result<WarpSort, InputError> {
    let dialect = Dialect::parse(shuffles.dialect)?;
    let lanes = dialect.default_lanes();
    let n = keys.len();
    check_network_len(n)?;
    if n > lanes {
        return Err(InputError::out_of_range("len", n as i64, 1, lanes as i64));
    }
    let index = shuffles.per_lane_index(dialect);
    let mut row: Vec<i32> = keys.to_vec();
    row.resize(lanes, 0);
    let mut trace = Trace::default();
    let mut stages = Vec::new();
    for (s, stage) in closed_form::network(n).stages.into_iter().enumerate() {
        let k = stage.k;
        // partner[i] = (partner lane, whether lane i is the low end).
        let mut partner: Vec<Option<(usize, bool)>> = vec![None; lanes];
        for c in &stage.comparators {
            partner[c.lo] = Some((c.hi, true));
            partner[c.hi] = Some((c.lo, false));
        }
        let xor_ok = stage.comparators.iter().all(|c| c.lo ^ k == c.hi);
        let label = |what: &str| format!("stage {} (p={}, k={k}): {what}", s + 1, stage.p);
        let first_step = trace.steps.len();
        // fetched[i]: lane i's copy of its partner's key (None for lanes in no comparator).
        let (fetch, fetched) = match (shuffles.xor.filter(|_| xor_ok), index) {
            (Some(xor), _) => {
                let step = shuffle(
                    dialect,
                    xor,
                    &k.to_string(),
                    &row,
                    label(&format!("partner = lane ^ {k}")),
                )?;
                let got = read_partners(&step, &partner)?;
                trace.steps.push(step);
                (Fetch::Xor, got)
            }
            (None, Some(idx)) => {
                let src: Vec<String> = (0..lanes)
                    .map(|i| partner[i].map_or(i, |(j, _)| j).to_string())
                    .collect();
                let step = shuffle(
                    dialect,
                    idx,
                    &src.join(","),
                    &row,
                    label("partner by index"),
                )?;
                let got = read_partners(&step, &partner)?;
                trace.steps.push(step);
                (Fetch::Index, got)
            }
            (None, None) => {
                let down = shuffle(
                    dialect,
                    shuffles.down,
                    &k.to_string(),
                    &row,
                    label(&format!("low ends read lane + {k}")),
                )?;
                let up = shuffle(
                    dialect,
                    shuffles.up,
                    &k.to_string(),
                    &row,
                    label(&format!("high ends read lane − {k}")),
                )?;
                let lows: Vec<Option<(usize, bool)>> =
                    partner.iter().map(|p| p.filter(|&(_, low)| low)).collect();
                let highs: Vec<Option<(usize, bool)>> =
                    partner.iter().map(|p| p.filter(|&(_, low)| !low)).collect();
                let from_down = read_partners(&down, &lows)?;
                let from_up = read_partners(&up, &highs)?;
                trace.steps.push(down);
                trace.steps.push(up);
                let got = from_down
                    .into_iter()
                    .zip(from_up)
                    .map(|(d, u)| d.or(u))
                    .collect();
                (Fetch::DownUp, got)
            }
        };
        let keys_before = row.clone();
        for (i, key) in row.iter_mut().enumerate() {
            if let (Some((_, low)), Some(other)) = (partner[i], fetched[i]) {
                *key = if low {
                    (*key).min(other)
                } else {
                    (*key).max(other)
                };
            }
        }
        stages.push(WarpStage {
            p: stage.p,
            k,
            comparators: stage.comparators,
            fetch,
            steps: (first_step..trace.steps.len()).collect(),
            keys_before,
            keys_after: row.clone(),
        });
    }
    row.truncate(n);
    Ok(WarpSort {
        shuffles: *shuffles,
        lanes,
        len: n,
        stages,
        trace,
        sorted: row,
    })
}

/// Runs one shuffle of the whole warp on `row` as i32, through the request path.
fn shuffle(
    dialect: Dialect,
    op: ShuffleOp,
    param: &str,
    row: &[i32],
    label: String,
) -> Result<Step, InputError> {
    let values: Vec<String> = row.iter().map(i32::to_string).collect();
    let request = OpRequest {
        dialect: dialect.name().to_string(),
        op: op.op.to_string(),
        lanes: row.len().to_string(),
        active: String::new(),
        exited: String::new(),
        values: values.join(","),
        ty: "i32".to_string(),
        params: [(op.param.to_string(), param.to_string())]
            .into_iter()
            .collect(),
    };
    let mut step = request.run()?;
    step.label = Some(label);
    Ok(step)
}

/// For each lane with a partner in `want`, the value the step delivered to it, which must have
/// come from that partner.
fn read_partners(
    step: &Step,
    want: &[Option<(usize, bool)>],
) -> Result<Vec<Option<i32>>, InputError> {
    want.iter()
        .enumerate()
        .map(|(i, w)| {
            let Some((j, _)) = *w else { return Ok(None) };
            let r = step.results.get(i);
            match r
                .and_then(|r| r.value.filter(|_| r.from == Some(j)))
                .and_then(|v| v.as_i64())
            {
                Some(v) => i32::try_from(v).map(Some).map_err(|_| {
                    InputError::new("values", format!("lane {i}: {v} does not fit i32"))
                }),
                None => Err(InputError::new(
                    "dialect",
                    format!(
                        "{} did not deliver lane {j} to lane {i}: {}",
                        step.op,
                        r.and_then(|r| r.why.clone()).unwrap_or_default()
                    ),
                )),
            }
        })
        .collect()
}
