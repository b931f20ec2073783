//! Portability view: one shuffle request (family, parameter, width, operand row, active mask) run
//! under CUDA, HIP wave32, HIP wave64, Ascend C and WGSL, with a per-lane verdict on whether the
//! dialects agree and, where they do not, which rule makes them differ.
//!
//! What it is for: showing that "the same" shuffle is not the same across vendors. The rules
//! themselves live in the dialect files; this module only maps the family onto each dialect's
//! op and parameter names, runs the ordinary [`OpRequest`] path, and compares results.
//!
//! Mapping (family → op, parameter):
//! | family | CUDA | HIP | Ascend C | WGSL |
//! |---|---|---|---|---|
//! | idx  | `__shfl_sync` src_lane | `__shfl` src_lane | `asc_shfl` src_lane | `subgroupShuffle` id |
//! | up   | `__shfl_up_sync` delta | `__shfl_up` delta | `asc_shfl_up` delta | `subgroupShuffleUp` delta |
//! | down | `__shfl_down_sync` delta | `__shfl_down` delta | `asc_shfl_down` delta | `subgroupShuffleDown` delta |
//! | xor  | `__shfl_xor_sync` lane_mask | `__shfl_xor` lane_mask | `asc_shfl_xor` lane_mask | `subgroupShuffleXor` mask |
//!
//! CUDA's sync `mask` is left at its default (the active mask: a well-formed call). `width`, when
//! given, is passed to CUDA, HIP and Ascend; when omitted each uses its default (warpSize: 32, or
//! 64 on HIP wave64).
//!
//! WGSL has no width. Choice made here: a width-`w` segmented shuffle is compared with WGSL
//! subgroups of size `w`, one subgroup per segment (lane `i` is invocation `i mod w` of subgroup
//! `i / w`), which is what a segment means; without a width the subgroup size is 32. The WGSL
//! row therefore covers `max(32, w)` lanes. A width WGSL cannot have as a subgroup size (not a
//! power of two in 4..=128) leaves WGSL out, with a note.

use serde::Serialize;

use crate::args::{Role, Thread};
use crate::dialect::{hip, wgsl};
use crate::error::InputError;
use crate::lane_expr::LaneExpr;
use crate::lanes::{is_power_of_two, LaneMask};
use crate::op::Dialect;
use crate::params::parse_int;
use crate::request::OpRequest;
use crate::result::{LaneResult, Source};
use crate::trace::Step;
use crate::value::{ValueType, ValuesSpec};

/// The shuffle family compared across dialects.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ShuffleFamily {
    /// Read a given lane of the segment (`__shfl_sync`, `__shfl`, `asc_shfl`, `subgroupShuffle`).
    Idx,
    /// Read `delta` lanes below.
    Up,
    /// Read `delta` lanes above.
    Down,
    /// Read lane `i ^ lane_mask`.
    Xor,
}

impl ShuffleFamily {
    /// Parses `idx` (or `shfl`), `up`, `down`, `xor`.
    ///
    /// # Errors
    /// [`InputError`] on field `family`.
    pub fn parse(text: &str) -> Result<Self, InputError> {
        match text.trim().to_ascii_lowercase().as_str() {
            "idx" | "shfl" | "shuffle" => Ok(ShuffleFamily::Idx),
            "up" => Ok(ShuffleFamily::Up),
            "down" => Ok(ShuffleFamily::Down),
            "xor" | "bfly" => Ok(ShuffleFamily::Xor),
            _ => Err(InputError::new(
                "family",
                format!("`{text}` is not a shuffle family; allowed: idx, up, down, xor"),
            )),
        }
    }

    /// The family's name: `idx`, `up`, `down`, `xor`.
    pub fn name(self) -> &'static str {
        match self {
            ShuffleFamily::Idx => "idx",
            ShuffleFamily::Up => "up",
            ShuffleFamily::Down => "down",
            ShuffleFamily::Xor => "xor",
        }
    }

    /// The op name and parameter name of this family in `dialect` (CUDA, HIP, Ascend, WGSL);
    /// `None` for dialects without the family here. Derived from the typed argument lists: the
    /// first op of the dialect with an argument of the family's role (source lane, delta up,
    /// delta down, lane mask) that is not a const-expression (WGSL's broadcasts are not
    /// shuffles).
    pub fn op_in(self, dialect: Dialect) -> Option<(&'static str, &'static str)> {
        if !matches!(
            dialect,
            Dialect::Cuda | Dialect::Hip | Dialect::Ascend | Dialect::Wgsl
        ) {
            return None;
        }
        let role = match self {
            ShuffleFamily::Idx => Role::SourceLane,
            ShuffleFamily::Up => Role::DeltaUp,
            ShuffleFamily::Down => Role::DeltaDown,
            ShuffleFamily::Xor => Role::LaneMask,
        };
        crate::op::dialect_ops(dialect).find_map(|op| {
            let arg = op
                .args
                .iter()
                .find(|a| a.role == role && !matches!(a.thread, Thread::ConstExpr(_)))?;
            Some((op.name, arg.param?.name))
        })
    }

    fn hip_mode(self) -> hip::Mode {
        match self {
            ShuffleFamily::Idx => hip::Mode::Idx,
            ShuffleFamily::Up => hip::Mode::Up,
            ShuffleFamily::Down => hip::Mode::Down,
            ShuffleFamily::Xor => hip::Mode::Xor,
        }
    }
}

/// One dialect's run of the request.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DialectRun {
    /// `CUDA`, `HIP wave32`, `HIP wave64`, `Ascend C`, `WGSL`.
    pub label: String,
    /// The dialect.
    pub dialect: Dialect,
    /// The executed step; for WGSL with a width, the stitched subgroups (see the module doc and
    /// the step's `label`). `Err` when this dialect refuses the input (e.g. a negative delta is
    /// not an `unsigned int`, or a 32-item list on a 64-lane wave).
    #[serde(serialize_with = "step_or_error")]
    pub step: Result<Step, InputError>,
}

/// A run in JSON: the step in the CLI's `--json` contract (docs/cli.md), or `{"error": {field,
/// message}}` where the dialect refused the request.
fn step_or_error<S: serde::Serializer>(
    step: &Result<Step, InputError>,
    out: S,
) -> Result<S::Ok, S::Error> {
    match step {
        Ok(step) => step.contract_json().serialize(out),
        Err(e) => serde_json::json!({ "error": e }).serialize(out),
    }
}

/// The verdict for one lane.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LaneVerdict {
    /// Lane id.
    pub lane: usize,
    /// Whether every dialect that has this lane gives the same result (same bits, or all
    /// undefined / inactive).
    pub agree: bool,
    /// Per dialect that has this lane: label and a short outcome (`lane 17`, `own`, `undefined`,
    /// `inactive`).
    pub outcomes: Vec<(String, String)>,
    /// Where they differ: the rules that make them differ, named.
    pub explanation: Option<String>,
}

/// The result of [`compare`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Comparison {
    /// The family compared.
    pub family: ShuffleFamily,
    /// The parameter (src_lane / delta / lane_mask / WGSL id, delta, mask); for a lane
    /// expression, its value in lane 0.
    pub param: i64,
    /// The parameter as given: a number, or a lane expression (`(lane+1)%32`) that each
    /// dialect evaluates in every lane (semantics.md "Per-thread and uniform operands").
    pub param_text: String,
    /// The width passed, if any.
    pub width: Option<i64>,
    /// One run per dialect, in the order CUDA, HIP wave32, HIP wave64, Ascend C, WGSL.
    pub runs: Vec<DialectRun>,
    /// One verdict per lane, for lanes 0..(the widest run).
    pub lanes: Vec<LaneVerdict>,
    /// Notes that apply to the whole comparison (dialects left out, default widths).
    pub notes: Vec<String>,
}

impl Comparison {
    /// Lanes where the dialects disagree.
    pub fn disagreeing(&self) -> impl Iterator<Item = &LaneVerdict> {
        self.lanes.iter().filter(|l| !l.agree)
    }
}

/// The family parameter of a comparison: one value for every lane, or a lane expression that
/// each lane evaluates for itself (CUDA, HIP and Ascend C take it per thread; WGSL's
/// ShuffleUp/Down/Xor require it uniform, so a varying one is indeterminate there).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LaneParam {
    /// The same value in every lane.
    One(i64),
    /// A lane expression.
    Expr(LaneExpr),
}

impl LaneParam {
    /// Parses a number (decimal, `0x`, negative) or a lane expression.
    ///
    /// # Errors
    /// [`InputError`] on field `param`.
    pub fn parse(text: &str) -> Result<LaneParam, InputError> {
        if let Some(n) = parse_int(text) {
            return Ok(LaneParam::One(n));
        }
        if crate::lane_expr::looks_like_expr(text) {
            return LaneExpr::parse(text, "param").map(LaneParam::Expr);
        }
        parse_param(text).map(LaneParam::One)
    }

    /// The value in warp lane `lane` (0 where the expression divides by zero: such input is
    /// refused by every dialect's request first).
    pub fn at(&self, lane: usize) -> i64 {
        match self {
            LaneParam::One(n) => *n,
            LaneParam::Expr(e) => e.eval(lane as i64, "param").unwrap_or(0),
        }
    }

    /// The text each dialect's request receives.
    pub fn text(&self) -> String {
        match self {
            LaneParam::One(n) => n.to_string(),
            LaneParam::Expr(e) => e.text().to_string(),
        }
    }
}

/// Runs `family` with `param` (and `width`, if given) under CUDA, HIP wave32, HIP wave64,
/// Ascend C and WGSL on the operand row `values` (`lane`, `lane+K`, `lane*K` or a list) and the
/// active mask `active` (hex; empty = all lanes), and compares lane by lane.
///
/// # Errors
/// [`InputError`] when `values` does not parse, when `width` ≤ 0, or when no dialect accepts the
/// input (the first dialect's error). A dialect that alone refuses the input is kept in
/// [`Comparison::runs`] with its error.
pub fn compare(
    family: ShuffleFamily,
    param: i64,
    width: Option<i64>,
    values: &str,
    active: &str,
) -> Result<Comparison, InputError> {
    compare_lanes(family, &LaneParam::One(param), width, values, active)
}

/// [`compare`] with a parameter that may differ per lane ([`LaneParam`]).
///
/// # Errors
/// As [`compare`].
pub fn compare_lanes(
    family: ShuffleFamily,
    param: &LaneParam,
    width: Option<i64>,
    values: &str,
    active: &str,
) -> Result<Comparison, InputError> {
    ValuesSpec::parse(values)?;
    if let Some(w) = width {
        if w <= 0 {
            return Err(InputError::out_of_range("width", w, 1, i32::MAX as i64));
        }
    }
    let mut notes = Vec::new();
    let mut runs = Vec::new();
    for (label, dialect, lanes) in [
        ("CUDA", Dialect::Cuda, 32usize),
        ("HIP wave32", Dialect::Hip, 32),
        ("HIP wave64", Dialect::Hip, 64),
        ("Ascend C", Dialect::Ascend, 32),
    ] {
        let step = vendor_request(family, dialect, lanes, &param.text(), width, values, active)
            .and_then(|r| r.run());
        runs.push(DialectRun {
            label: label.to_string(),
            dialect,
            step,
        });
    }
    let size = width.unwrap_or(32);
    if is_power_of_two(size) && (4..=128).contains(&size) {
        runs.push(DialectRun {
            label: "WGSL".to_string(),
            dialect: Dialect::Wgsl,
            step: wgsl_stitched(family, param, size as usize, values, active),
        });
        notes.push(format!(
            "WGSL has no width: each width-{size} segment runs as one subgroup of {size} \
             invocations (lane i = invocation i mod {size})"
        ));
    } else {
        notes.push(format!(
            "WGSL left out: a subgroup cannot have {size} invocations (a power of two in 4..=128, \
             WGSL spec)"
        ));
    }
    if width.is_none() {
        notes.push(
            "no width given: each dialect uses its default, warpSize = 32 (CUDA, Ascend C, HIP \
             wave32) or 64 (HIP wave64)"
                .to_string(),
        );
    }
    if runs.iter().all(|r| r.step.is_err()) {
        if let Some(DialectRun { step: Err(e), .. }) = runs.into_iter().next() {
            return Err(e);
        }
        return Err(InputError::new("values", "no dialect accepts this input"));
    }
    for r in &runs {
        if let Err(e) = &r.step {
            notes.push(format!("{} refuses the input: {e}", r.label));
        }
    }
    let widest = runs
        .iter()
        .filter_map(|r| r.step.as_ref().ok().map(|s| s.results.len()))
        .max()
        .unwrap_or(0);
    let lanes = (0..widest)
        .map(|i| verdict(family, param.at(i), width, &runs, i))
        .collect();
    Ok(Comparison {
        family,
        param: param.at(0),
        param_text: param.text(),
        width,
        runs,
        lanes,
        notes,
    })
}

fn vendor_request(
    family: ShuffleFamily,
    dialect: Dialect,
    lanes: usize,
    param: &str,
    width: Option<i64>,
    values: &str,
    active: &str,
) -> Result<OpRequest, InputError> {
    let (op, param_name) = family
        .op_in(dialect)
        .ok_or_else(|| InputError::new("dialect", "no shuffle of this family"))?;
    let mut params = std::collections::BTreeMap::new();
    params.insert(param_name.to_string(), param.to_string());
    if let Some(w) = width {
        params.insert("width".to_string(), w.to_string());
    }
    Ok(OpRequest {
        dialect: dialect.name().to_string(),
        op: op.to_string(),
        lanes: lanes.to_string(),
        active: active.to_string(),
        exited: String::new(),
        values: values.to_string(),
        ty: String::new(),
        params,
    })
}

/// Runs the WGSL shuffle once per width-segment and stitches the subgroups into one row of
/// `max(32, size)` lanes (`from` shifted back to warp lane numbers).
fn wgsl_stitched(
    family: ShuffleFamily,
    param: &LaneParam,
    size: usize,
    values: &str,
    active: &str,
) -> Result<Step, InputError> {
    let total = size.max(32);
    let spec = ValuesSpec::parse(values)?;
    let row = spec.materialize(ValueType::I32, total)?;
    let active_mask = LaneMask::parse(active, total, "active")?;
    let (op, param_name) = family
        .op_in(Dialect::Wgsl)
        .ok_or_else(|| InputError::new("dialect", "no shuffle of this family"))?;
    let mut stitched: Option<Step> = None;
    for start in (0..total).step_by(size) {
        let seg_values: Vec<String> = row
            .get(start..start + size)
            .unwrap_or_default()
            .iter()
            .map(|v| v.bits_hex())
            .collect();
        let seg_active = LaneMask(active_mask.0 >> start).truncate(size);
        let step = OpRequest {
            dialect: "wgsl".into(),
            op: op.into(),
            lanes: size.to_string(),
            active: seg_active.to_hex(size),
            exited: String::new(),
            values: seg_values.join(","),
            ty: String::new(),
            // Each invocation's own value, evaluated at its warp lane.
            params: [(
                param_name.to_string(),
                (start..start + size)
                    .map(|l| param.at(l).to_string())
                    .collect::<Vec<_>>()
                    .join(","),
            )]
            .into_iter()
            .collect(),
        }
        .run()?;
        let shifted: Vec<LaneResult> = step
            .results
            .into_iter()
            .map(|mut r| {
                r.from = r.from.map(|f| f + start);
                r
            })
            .collect();
        match &mut stitched {
            None => {
                let mut first = Step {
                    results: shifted,
                    ..step
                };
                first.label = Some(format!(
                    "{} subgroup(s) of {size} invocations, one per width-segment",
                    total / size
                ));
                stitched = Some(first);
            }
            Some(s) => {
                s.results.extend(shifted);
                s.inputs.extend(step.inputs);
                for d in step.diagnostics {
                    if !s.diagnostics.contains(&d) {
                        s.diagnostics.push(d);
                    }
                }
            }
        }
    }
    let mut step = stitched.ok_or_else(|| InputError::new("width", "no subgroup to run"))?;
    step.lanes = total;
    step.active = active_mask;
    Ok(step)
}

fn outcome(r: &LaneResult) -> String {
    match (r.source, r.from) {
        (Source::Lane, Some(j)) => format!("lane {j}"),
        (Source::Own, _) => "own".to_string(),
        (Source::Inactive, _) => "inactive".to_string(),
        (Source::Undefined, Some(j)) => format!("undefined (would read lane {j})"),
        (Source::Undefined, None) => "undefined".to_string(),
        (other, _) => other.name().to_string(),
    }
}

fn verdict(
    family: ShuffleFamily,
    param: i64,
    width: Option<i64>,
    runs: &[DialectRun],
    lane: usize,
) -> LaneVerdict {
    let present: Vec<(&DialectRun, &LaneResult)> = runs
        .iter()
        .filter_map(|r| {
            let s = r.step.as_ref().ok()?;
            Some((r, s.results.get(lane)?))
        })
        .collect();
    let bits: Vec<Option<u64>> = present
        .iter()
        .map(|(_, r)| r.value.map(|v| v.bits))
        .collect();
    let agree = bits.windows(2).all(|w| w[0] == w[1]);
    let outcomes = present
        .iter()
        .map(|(run, r)| (run.label.clone(), outcome(r)))
        .collect();
    let explanation = (!agree).then(|| explain(family, param, width, &present, lane));
    LaneVerdict {
        lane,
        agree,
        outcomes,
        explanation,
    }
}

/// The rules behind a disagreement at `lane`, most specific first.
fn explain(
    family: ShuffleFamily,
    param: i64,
    width: Option<i64>,
    present: &[(&DialectRun, &LaneResult)],
    lane: usize,
) -> String {
    let get = |label: &str| {
        present
            .iter()
            .find(|(r, _)| r.label == label)
            .map(|(_, res)| *res)
    };
    let mut rules: Vec<String> = Vec::new();
    let low = param & 31;
    let cuda = get("CUDA");
    let hips = [get("HIP wave32"), get("HIP wave64")];
    let bits = |r: Option<&LaneResult>| r.map(|r| r.value.map(|v| v.bits));
    let differs = |a: Option<&LaneResult>, b: Option<&LaneResult>| {
        a.is_some() && b.is_some() && bits(a) != bits(b)
    };
    if low != param && hips.iter().any(|h| differs(cuda, *h)) {
        rules.push(format!(
            "CUDA uses only param & 31 = {low} (PTX shfl.sync); HIP uses {param} whole \
             (amd_warp_functions.h)"
        ));
    }
    for (res, lanes) in [(hips[0], 32usize), (hips[1], 64)] {
        let Some(res) = res else { continue };
        let w = width.unwrap_or(lanes as i64);
        let (index, fell_back) = hip::hip_index(family.hip_mode(), lane, param, w);
        if res.source == Source::Lane && !fell_back && !(0..lanes as i64).contains(&(index as i64))
        {
            rules.push(format!(
                "HIP wave{lanes} wraps index {index} mod {lanes} through ds_bpermute"
            ));
        }
    }
    if matches!(family, ShuffleFamily::Up | ShuffleFamily::Down) {
        let w = width.unwrap_or(32);
        let ascend = get("Ascend C");
        if param >= w && ascend.is_some_and(|r| r.source == Source::Own) && differs(ascend, cuda) {
            rules.push(format!(
                "Ascend C returns the own value for delta ≥ width ({param} ≥ {w}; seed 001 \
                 约束说明)"
            ));
        }
    }
    if let Some(w) = get("WGSL") {
        if w.value.is_none() && w.source == Source::Undefined {
            let size = width.unwrap_or(32);
            let j = wgsl::shuffle_source(wgsl_rule(family), lane % size as usize, param);
            rules.push(if (0..size).contains(&j) {
                "WGSL makes reading an inactive invocation indeterminate".to_string()
            } else {
                format!(
                    "WGSL makes invocation {j} (outside the subgroup of {size}) indeterminate: no \
                     own-value fallback, no wrap"
                )
            });
        }
    }
    if width.is_none() && (differs(hips[1], hips[0]) || differs(hips[1], cuda)) {
        rules.push(
            "default widths differ: warpSize is 32 for CUDA, Ascend C and HIP wave32, 64 for HIP \
             wave64"
                .to_string(),
        );
    }
    // Any remaining undefined lane carries its own rule (invalid width, negative lane, …).
    for (run, res) in present {
        if res.source == Source::Undefined && run.label != "WGSL" {
            if let Some(why) = &res.why {
                rules.push(format!("{}: {why}", run.label));
            }
        }
    }
    if rules.is_empty() {
        rules.push("the dialects' formulas select different lanes here".to_string());
    }
    rules.dedup();
    rules.join("; ")
}

fn wgsl_rule(family: ShuffleFamily) -> wgsl::Shuffle {
    match family {
        ShuffleFamily::Idx => wgsl::Shuffle::Idx,
        ShuffleFamily::Up => wgsl::Shuffle::Up,
        ShuffleFamily::Down => wgsl::Shuffle::Down,
        ShuffleFamily::Xor => wgsl::Shuffle::Xor,
    }
}

/// Parses the width of a comparison as typed, for the CLI (`--width`) and the page's width
/// field: decimal, `0x` hex or negative; blank is `None` (the warp's own width). Whether it is a
/// valid width (1..=2^31−1) is [`compare_lanes`]'s check.
///
/// # Errors
/// [`InputError`] on field `width`: text that is not an integer, or an integer too large for an
/// `i64` (then "out of range", with the allowed widths).
pub fn parse_width(text: &str) -> Result<Option<i64>, InputError> {
    if text.trim().is_empty() {
        return Ok(None);
    }
    typed_int("width", text, (1, i64::from(i32::MAX))).map(Some)
}

/// Parses the `--param` text of a comparison (decimal, `0x`, negative) for the CLI and page.
///
/// # Errors
/// [`InputError`] on field `param`.
pub fn parse_param(text: &str) -> Result<i64, InputError> {
    typed_int("param", text, (i64::MIN, i64::MAX))
}

/// An integer typed in field `field` (decimal, `0x` hex, or negative). One too large for an
/// `i64` is "out of range" with the `allowed` range named; anything else that does not parse is
/// "not an integer".
fn typed_int(field: &str, text: &str, allowed: (i64, i64)) -> Result<i64, InputError> {
    parse_int(text).ok_or_else(|| {
        if crate::number::is_int_text(text) {
            return InputError::too_large(field, text, allowed.0, allowed.1);
        }
        InputError::new(
            field,
            format!("`{text}` is not an integer (decimal, 0x hex, or negative)"),
        )
    })
}
