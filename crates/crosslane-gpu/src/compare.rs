//! The lane-by-lane comparison of a GPU run with the emulator's step, and the record of where it
//! ran (adapter, subgroup sizes, lowering, timing).
//!
//! Verdicts (semantics.md "WGSL subgroup built-ins": results from inactive or out-of-range lanes are
//! indeterminate; the vendor pages call reads of inactive lanes undefined):
//! * the emulator has a value → the GPU's bits must equal it: [`Verdict::Match`] or
//!   [`Verdict::Mismatch`]; for a vendor formula ([`Lowering::SubgroupShuffle`],
//!   [`Lowering::WorkgroupMemory`]) the kind the device's formula computed (lane, own, zero, old)
//!   and, for a lane read, the source lane must equal the emulator's too;
//! * the emulator says undefined → any GPU value is allowed: [`Verdict::Indeterminate`], and the GPU's
//!   value is shown;
//! * the lane is inactive → [`Verdict::Inactive`], nothing to compare (a formula that gives the
//!   lane something is a [`Verdict::Mismatch`]).
//!
//! A ballot is compared on its low 64 bits (the emulator's value holds 64 bits).

use std::fmt::Write as _;

use crosslane_core::{Source, Step, Value};
use serde::Serialize;

use crate::wgsl::{GpuLane, LaneKind, Lowering};

/// Facts about the device a run used, shown next to the comparison.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct DeviceFacts {
    /// Adapter name (`llvmpipe (LLVM …)` for lavapipe, `SwiftShader …` in headless Chromium).
    pub adapter: String,
    /// Backend (`vulkan`, `webgpu`).
    pub backend: String,
    /// Whether this is a fallback / software adapter (natively: a CPU device type; in a browser:
    /// `GPUAdapterInfo.isFallbackAdapter`).
    pub is_fallback: bool,
    /// Whether the device has the subgroups feature.
    pub subgroups: bool,
    /// Smallest subgroup size the adapter reports (0 when unknown).
    pub subgroup_min_size: u32,
    /// Largest subgroup size the adapter reports (0 when unknown).
    pub subgroup_max_size: u32,
    /// Whether GPU timestamps were available.
    pub timestamps: bool,
}

/// Where a duration came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TimingSource {
    /// GPU timestamp queries around the compute passes.
    GpuTimestamps,
    /// Wall time around submit and wait, on the host (includes submission and synchronisation).
    WallClock,
}

impl TimingSource {
    /// `gpu timestamps` or `wall clock`.
    pub fn label(self) -> &'static str {
        match self {
            TimingSource::GpuTimestamps => "gpu timestamps",
            TimingSource::WallClock => "wall clock",
        }
    }
}

/// A measured duration, labelled with how it was measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Timing {
    /// Nanoseconds.
    pub nanos: u64,
    /// How.
    pub source: TimingSource,
}

/// The GPU's side of one cross-lane run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GpuRun {
    /// One entry per lane, in lane order.
    pub lanes: Vec<GpuLane>,
    /// The subgroup size the dispatch observed (`None` without subgroup support).
    pub observed_subgroup_size: Option<u32>,
    /// The lowering that ran.
    pub lowering: Lowering,
    /// The time of the dispatch.
    pub timing: Timing,
    /// What ran as hardware subgroup operations ([`crate::CrossLaneKernel::hardware_part`]).
    pub hardware_part: String,
    /// What ran as a formula written in WGSL ([`crate::CrossLaneKernel::formula_part`]).
    pub formula_part: String,
    /// The WGSL that ran.
    pub wgsl: String,
}

/// The verdict for one lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// GPU and emulator agree bit for bit.
    Match,
    /// They differ.
    Mismatch,
    /// The emulator calls the lane undefined: any GPU value is allowed.
    Indeterminate,
    /// The lane is not active: nothing was computed.
    Inactive,
}

impl Verdict {
    /// `match`, `mismatch`, `indeterminate`, `inactive`.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Match => "match",
            Verdict::Mismatch => "mismatch",
            Verdict::Indeterminate => "indeterminate",
            Verdict::Inactive => "inactive",
        }
    }
}

/// One lane of the comparison.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LaneDiff {
    /// Lane number.
    pub lane: usize,
    /// Verdict.
    pub verdict: Verdict,
    /// The emulator's value (`None` when undefined or inactive).
    pub emulator: Option<Value>,
    /// The GPU's value, read as the emulator's type (`None` for an inactive lane).
    pub gpu: Option<Value>,
    /// The emulator's provenance.
    pub source: Source,
    /// What the device's formula gave the lane (`None` for a built-in, which has no formula).
    pub gpu_source: Option<Source>,
    /// The source lane the device's formula computed (`None` for a built-in).
    pub gpu_from: Option<usize>,
    /// Why the emulator's lane is undefined / a fallback, if it says.
    pub why: Option<String>,
}

/// The whole comparison with the record of the run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Comparison {
    /// Dialect and op, e.g. `ascend asc_shfl_xor`.
    pub op: String,
    /// The device.
    pub device: DeviceFacts,
    /// The lowering that ran.
    pub lowering: Lowering,
    /// The subgroup size observed in the dispatch.
    pub observed_subgroup_size: Option<u32>,
    /// Dispatch time.
    pub timing: Timing,
    /// What ran as hardware subgroup operations.
    pub hardware_part: String,
    /// What ran as a formula written in WGSL.
    pub formula_part: String,
    /// One entry per lane.
    pub lanes: Vec<LaneDiff>,
    /// Notes (e.g. a WGSL step whose lane count differs from the observed subgroup size).
    pub notes: Vec<String>,
}

impl Comparison {
    /// Lanes with the given verdict.
    pub fn count(&self, verdict: Verdict) -> usize {
        self.lanes.iter().filter(|l| l.verdict == verdict).count()
    }

    /// Whether no lane mismatches.
    pub fn agrees(&self) -> bool {
        self.count(Verdict::Mismatch) == 0
    }

    /// The comparison as JSON in the style of the CLI contract: values as `Value::to_json` (numbers,
    /// or strings for non-finite floats) and raw bits as hex strings, so 64-bit values survive
    /// JavaScript's doubles. Lanes: `{"lane", "verdict", "emulator", "emulator_bits", "gpu",
    /// "gpu_bits", "source", "gpu_source", "gpu_from", "why"}`; plus `op`, `device`, `lowering`,
    /// `hardware` and `formula` (which part ran as hardware subgroup operations, which as a
    /// formula), `observed_subgroup_size`, `timing` `{nanos, source}` and `notes`.
    pub fn to_json(&self) -> serde_json::Value {
        let lanes: Vec<serde_json::Value> = self
            .lanes
            .iter()
            .map(|l| {
                serde_json::json!({
                    "lane": l.lane,
                    "verdict": l.verdict.name(),
                    "emulator": l.emulator.map_or(serde_json::Value::Null, Value::to_json),
                    "emulator_bits": l.emulator.map(Value::bits_hex),
                    "gpu": l.gpu.map_or(serde_json::Value::Null, Value::to_json),
                    "gpu_bits": l.gpu.map(Value::bits_hex),
                    "source": l.source.name(),
                    "gpu_source": l.gpu_source.map(Source::name),
                    "gpu_from": l.gpu_from,
                    "why": l.why,
                })
            })
            .collect();
        serde_json::json!({
            "op": self.op,
            "device": self.device,
            "lowering": self.lowering.name(),
            "hardware": self.hardware_part,
            "formula": self.formula_part,
            "observed_subgroup_size": self.observed_subgroup_size,
            "timing": { "nanos": self.timing.nanos, "source": self.timing.source.label() },
            "notes": self.notes,
            "lanes": lanes,
            "summary": {
                "match": self.count(Verdict::Match),
                "mismatch": self.count(Verdict::Mismatch),
                "indeterminate": self.count(Verdict::Indeterminate),
                "inactive": self.count(Verdict::Inactive),
            },
        })
    }

    /// A plain-text table: a header with the run's record, then one row per lane
    /// (`lane  emulator  gpu  verdict  source`), then a summary line.
    pub fn to_table(&self) -> String {
        let mut s = String::new();
        let d = &self.device;
        let _ = writeln!(s, "op: {}", self.op);
        let _ = writeln!(
            s,
            "adapter: {} ({}{}), subgroups: {}, subgroup size min {} max {}, observed {}",
            d.adapter,
            d.backend,
            if d.is_fallback { ", fallback" } else { "" },
            if d.subgroups { "yes" } else { "no" },
            d.subgroup_min_size,
            d.subgroup_max_size,
            self.observed_subgroup_size
                .map_or("n/a".to_string(), |n| n.to_string())
        );
        let _ = writeln!(
            s,
            "lowering: {}, time: {:.3} ms ({})",
            self.lowering.name(),
            self.timing.nanos as f64 / 1e6,
            self.timing.source.label()
        );
        let _ = writeln!(s, "hardware subgroup operations: {}", self.hardware_part);
        let _ = writeln!(s, "formula (WGSL): {}", self.formula_part);
        for n in &self.notes {
            let _ = writeln!(s, "note: {n}");
        }
        let _ = writeln!(
            s,
            "{:>4}  {:>14}  {:>14}  {:<13}  {:<9}  gpu formula",
            "lane", "emulator", "gpu", "verdict", "source"
        );
        for l in &self.lanes {
            let show = |v: Option<Value>, undefined: &str| match v {
                Some(v) => v.to_json().to_string().trim_matches('"').to_string(),
                None => undefined.to_string(),
            };
            let emu = match l.verdict {
                Verdict::Inactive => "inactive".to_string(),
                _ => show(l.emulator, "undefined"),
            };
            let gpu = match l.verdict {
                Verdict::Inactive => "-".to_string(),
                _ => show(l.gpu, "-"),
            };
            let formula = match (l.gpu_source, l.gpu_from) {
                (Some(Source::Lane), Some(j)) => format!("lane {j}"),
                (Some(Source::Undefined), Some(j)) => format!("undefined (reads {j})"),
                (Some(src), _) => src.name().to_string(),
                (None, _) => "-".to_string(),
            };
            let _ = writeln!(
                s,
                "{:>4}  {:>14}  {:>14}  {:<13}  {:<9}  {}",
                l.lane,
                emu,
                gpu,
                l.verdict.name(),
                l.source.name(),
                formula
            );
        }
        let _ = writeln!(
            s,
            "{} match, {} mismatch, {} indeterminate, {} inactive",
            self.count(Verdict::Match),
            self.count(Verdict::Mismatch),
            self.count(Verdict::Indeterminate),
            self.count(Verdict::Inactive)
        );
        s
    }
}

/// Compares a GPU run with the emulator's `step`, lane by lane.
pub fn compare(step: &Step, device: &DeviceFacts, run: &GpuRun) -> Comparison {
    let formula = run.lowering != Lowering::Builtin;
    let lanes = step
        .results
        .iter()
        .enumerate()
        .map(|(lane, r)| {
            let gpu_lane = run.lanes.get(lane);
            let ty = r.value.map_or(step.ty, |v| v.ty);
            let gpu = gpu_lane.map(|g| Value::from_bits(ty, g.bits()));
            let (gpu_source, gpu_from) = match (formula, gpu_lane) {
                (true, Some(g)) => (
                    Some(kind_source(g.kind)),
                    Some(g.from as usize).filter(|_| g.kind != LaneKind::Inactive as u32),
                ),
                _ => (None, None),
            };
            let verdict = match (r.source, r.value) {
                (Source::Inactive, _) => {
                    if formula && gpu_source != Some(Source::Inactive) {
                        Verdict::Mismatch
                    } else {
                        Verdict::Inactive
                    }
                }
                (_, None) => Verdict::Indeterminate,
                (_, Some(v)) => {
                    let bits = gpu.is_some_and(|g| g.bits == v.bits);
                    // A formula must also give the lane the emulator's kind and, for a read, its
                    // source lane (the own value's lane is the lane itself on both sides).
                    let rule = !formula
                        || (gpu_source == Some(r.source)
                            && (r.source != Source::Lane || gpu_from == r.from));
                    if bits && rule {
                        Verdict::Match
                    } else {
                        Verdict::Mismatch
                    }
                }
            };
            LaneDiff {
                lane,
                verdict,
                emulator: r.value,
                gpu: if verdict == Verdict::Inactive {
                    None
                } else {
                    gpu
                },
                source: r.source,
                gpu_source,
                gpu_from,
                why: r.why.clone(),
            }
        })
        .collect();
    let mut notes = Vec::new();
    if run.lowering == Lowering::Builtin && run.observed_subgroup_size != Some(step.lanes as u32) {
        notes.push(format!(
            "the step has {} lanes but the dispatch ran on subgroups of {}: built-in results follow the device's subgroup",
            step.lanes,
            run.observed_subgroup_size
                .map_or("unknown size".to_string(), |n| n.to_string())
        ));
    }
    Comparison {
        op: format!("{} {}", step.dialect.name(), step.op),
        device: device.clone(),
        lowering: run.lowering,
        observed_subgroup_size: run.observed_subgroup_size,
        timing: run.timing,
        hardware_part: run.hardware_part.clone(),
        formula_part: run.formula_part.clone(),
        lanes,
        notes,
    }
}

/// The provenance a formula's kind word stands for (an unknown word reads as undefined, so it can
/// never match a defined lane).
fn kind_source(word: u32) -> Source {
    match LaneKind::from_word(word) {
        Some(LaneKind::Inactive) => Source::Inactive,
        Some(LaneKind::Lane) => Source::Lane,
        Some(LaneKind::Own) => Source::Own,
        Some(LaneKind::Zero) => Source::Zero,
        Some(LaneKind::Old) => Source::Old,
        Some(LaneKind::Undefined) | None => Source::Undefined,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crosslane_core::OpRequest;

    #[test]
    fn verdicts_match_mismatch_indeterminate_inactive() {
        // asc_shfl_up by 1 with lane 0 inactive: lane 1 reads inactive lane 0 (undefined).
        let step = OpRequest {
            dialect: "ascend".into(),
            op: "asc_shfl_up".into(),
            active: "0xfffffffe".into(),
            params: [("delta".to_string(), "1".to_string())].into(),
            ..Default::default()
        }
        .run()
        .unwrap();
        // The device's formula as a test model: lane i reads lane i − 1; lane 0 is inactive; lane 1
        // reads inactive lane 0 (undefined).
        let mut lanes: Vec<GpuLane> = (0..32u32)
            .map(|i| GpuLane {
                words: [i.saturating_sub(1), 0, 0, 0],
                subgroup_size: 8,
                subgroup_invocation_id: i % 8,
                kind: match i {
                    0 => LaneKind::Inactive as u32,
                    1 => LaneKind::Undefined as u32,
                    _ => LaneKind::Lane as u32,
                },
                from: i.saturating_sub(1),
            })
            .collect();
        lanes[1].words[0] = 999; // any value is allowed where the emulator says undefined
        lanes[7].words[0] = 42; // a wrong value
                                // A wrong rule with the right bits: lane 10 claims its own value (kind own, from itself)
                                // although the emulator reads lane 9; only the formula's classification differs.
        lanes[10].kind = LaneKind::Own as u32;
        lanes[10].from = 10;
        let run = GpuRun {
            lanes,
            observed_subgroup_size: Some(8),
            lowering: Lowering::WorkgroupMemory,
            timing: Timing {
                nanos: 1,
                source: TimingSource::WallClock,
            },
            hardware_part: String::new(),
            formula_part: String::new(),
            wgsl: String::new(),
        };
        let cmp = compare(&step, &DeviceFacts::default(), &run);
        assert_eq!(cmp.lanes[0].verdict, Verdict::Inactive);
        assert_eq!(cmp.lanes[1].verdict, Verdict::Indeterminate);
        assert_eq!(cmp.lanes[1].gpu.map(|v| v.bits), Some(999));
        assert_eq!(cmp.lanes[7].verdict, Verdict::Mismatch);
        assert_eq!(cmp.lanes[8].verdict, Verdict::Match);
        assert_eq!(cmp.lanes[8].gpu_from, Some(7));
        assert_eq!(cmp.lanes[10].gpu.map(|v| v.bits), Some(9));
        assert_eq!(cmp.lanes[10].verdict, Verdict::Mismatch);
        assert_eq!(cmp.lanes[10].gpu_source, Some(Source::Own));
        assert_eq!(cmp.count(Verdict::Match), 28);
        assert!(!cmp.agrees());
        let table = cmp.to_table();
        assert!(
            table.contains("28 match, 2 mismatch, 1 indeterminate, 1 inactive"),
            "{table}"
        );
        // The same lanes from a built-in are judged on the bits alone (a built-in has no formula).
        let builtin = GpuRun {
            lowering: Lowering::Builtin,
            ..run
        };
        let cmp = compare(&step, &DeviceFacts::default(), &builtin);
        assert_eq!(cmp.lanes[10].verdict, Verdict::Match);
        assert_eq!(cmp.lanes[10].gpu_source, None);
    }
}
