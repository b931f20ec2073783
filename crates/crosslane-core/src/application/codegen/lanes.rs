//! What an exported shuffle does per lane, beside what the scenario does: the notes that say,
//! lane by lane, where the exported code's result differs from the playground's, and which of
//! the scenario's lanes are themselves undefined.
//!
//! Both sides come from the emulator, never from a second copy of a rule: the scenario is its
//! op's own run; the exported call is the target dialect's op (the shuffle of the same family,
//! [`ShuffleFamily::op_in`]) run with the arguments the snippet passes, on the target's warps —
//! a 64-lane scenario on a 32-lane platform is two warps, scenario lane `i` being lane `i mod 32`
//! of warp `i / 32` (CUDA Programming Guide, "Thread Hierarchy": warps are consecutive threads).

use crate::op::{Dialect, OpInput, OpSpec};
use crate::portability::ShuffleFamily;
use crate::request::OpRequest;
use crate::result::{LaneResult, Source};

use super::Target;

/// What one lane ends with, as far as where its value comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Got {
    /// Reads lane `n` (itself included).
    Lane(usize),
    /// Zero written by the rule.
    Zero,
    /// The old / fill value kept.
    Old,
    /// Undefined, with the vendor's reason.
    Undefined(String),
}

fn got(r: &LaneResult, offset: usize) -> Option<Got> {
    match (r.source, r.from) {
        (Source::Lane | Source::Own, Some(j)) => Some(Got::Lane(j + offset)),
        (Source::Zero, _) => Some(Got::Zero),
        (Source::Old, _) => Some(Got::Old),
        (Source::Undefined, _) => Some(Got::Undefined(r.why.clone().unwrap_or_default())),
        _ => None,
    }
}

/// Notes for a shuffle of `family` that `target` is called with as `(amount, width)` (`width`
/// as the snippet writes it, after any clamp): one note naming the scenario's undefined lanes
/// and what the snippet gives them instead, and one listing, per run of lanes, what the
/// exported code gives where it differs from the scenario. Empty where they agree on every
/// active lane, or where either side cannot be run (a refused type, an uneven warp split).
pub(super) fn shuffle_notes(
    spec: &OpSpec,
    input: &OpInput,
    target: Target,
    family: ShuffleFamily,
    amount: &str,
    width: i64,
) -> Vec<String> {
    let Ok(scenario) = (spec.run)(input) else {
        return Vec::new();
    };
    let Some((exported, said)) = target_run(input, target, family, amount, width) else {
        return Vec::new();
    };
    let lanes = input.lanes.min(scenario.results.len()).min(exported.len());
    let mut undefined = Vec::new();
    let mut differ = Vec::new();
    let mut agree = 0;
    for (i, (res, t)) in scenario
        .results
        .iter()
        .zip(&exported)
        .take(lanes)
        .enumerate()
    {
        let (Some(s), Some(t)) = (got(res, 0), t.clone()) else {
            continue;
        };
        match s {
            Got::Undefined(why) => undefined.push((i, why, t)),
            s if s != t => differ.push((i, s, t)),
            _ => agree += 1,
        }
    }
    let mut notes = Vec::new();
    if let Some((_, why, _)) = undefined.first() {
        let runs = runs(undefined.iter().map(|(i, _, t)| (*i, t.clone(), None)));
        notes.push(format!(
            "UNDEFINED: the scenario itself is undefined on {} ({}); it has no result to reproduce. The snippet calls the closest legal form, where {}.",
            lane_set(undefined.iter().map(|u| u.0), input.lanes),
            why.trim_end_matches('.'),
            runs.join("; ")
        ));
    }
    if !differ.is_empty() {
        let runs = runs(
            differ
                .iter()
                .map(|(i, s, t)| (*i, t.clone(), Some(s.clone()))),
        );
        notes.push(format!(
            "NOT EXACT, per lane: {}{}.{}",
            runs.join("; "),
            if agree > 0 {
                " (every other active lane matches the scenario)"
            } else {
                ""
            },
            said.iter()
                .map(|d| format!(" {}: {}", target.title(), d.trim_end_matches('.')))
                .collect::<Vec<_>>()
                .join(".")
                + if said.is_empty() { "" } else { "." }
        ));
    }
    notes
}

/// The target's shuffle run on its own warps with the snippet's arguments: per scenario lane,
/// what it gets (`None` for an inactive lane), and the target's own warnings about the call (at
/// most two, each once: "only delta & 31 is used"). `None` when the target refuses the call.
fn target_run(
    input: &OpInput,
    target: Target,
    family: ShuffleFamily,
    amount: &str,
    width: i64,
) -> Option<(Vec<Option<Got>>, Vec<String>)> {
    let dialect = target.dialect();
    let (op, param) = family.op_in(dialect)?;
    let counts = target.lane_counts();
    let warp = if counts.contains(&input.lanes) {
        input.lanes
    } else {
        *counts.iter().filter(|&&n| n <= input.lanes).max()?
    };
    if warp == 0 || !input.lanes.is_multiple_of(warp) || dialect == Dialect::Wgsl {
        return None;
    }
    let mut out = Vec::with_capacity(input.lanes);
    let mut said: Vec<String> = Vec::new();
    // An amount past the warp is read as the target's parameter says (CUDA: "only delta & 31
    // is used"): its documented rule explains the lanes below.
    let past = crate::number::parse_int(amount).is_some_and(|a| a < 0 || a >= warp as i64);
    if let Some(p) = crate::op::find_op(dialect, op)
        .ok()
        .and_then(|s| s.param(param))
        .filter(|_| past)
    {
        said.push(format!("{} — {}", p.name, p.doc));
    }
    for w in 0..input.lanes / warp {
        let bits = (input.active.0 >> (w * warp)) & crate::lanes::LaneMask::all(warp).0;
        let mut params = std::collections::BTreeMap::new();
        params.insert(param.to_string(), amount.to_string());
        params.insert("width".to_string(), width.to_string());
        let req = OpRequest {
            dialect: dialect.name().to_string(),
            op: op.to_string(),
            lanes: warp.to_string(),
            active: format!("{bits:#x}"),
            exited: String::new(),
            values: String::new(),
            ty: input.ty.name().to_string(),
            params,
        };
        let step = req.run().ok()?;
        if step.results.len() != warp {
            return None;
        }
        out.extend(step.results.iter().map(|r| got(r, w * warp)));
        for d in step.diagnostics {
            if said.len() < 2 && !said.contains(&d.message) {
                said.push(d.message);
            }
        }
    }
    Some((out, said))
}

/// How a run of lanes is described: what the exported code gives, and (where it differs) what
/// the scenario gives.
type Entry = (usize, Got, Option<Got>);

/// Consecutive lanes with the same kind of result, each run written as one phrase with a lane
/// formula (`lane i ^ 33`, `lane i + 40`, `lane 8`, their own value) where one fits the run.
fn runs(entries: impl Iterator<Item = Entry>) -> Vec<String> {
    let entries: Vec<Entry> = entries.collect();
    let mut out = Vec::new();
    let mut start = 0;
    while start < entries.len() {
        let kind = |e: &Entry| (class(e.0, &e.1), e.2.as_ref().map(|s| class(e.0, s)));
        let k = kind(&entries[start]);
        let mut end = start + 1;
        // A run grows while its lanes are consecutive and either keep one kind or still fit
        // one formula on both sides (lane 8 reading itself belongs to "read lane 8").
        while end < entries.len()
            && entries[end].0 == entries[end - 1].0 + 1
            && (kind(&entries[end]) == k || fits(&entries[start..=end]))
        {
            end += 1;
        }
        let run = &entries[start..end];
        let lanes = range(run[0].0, run[end - start - 1].0);
        let here = phrase(run.iter().map(|e| (e.0, &e.1)));
        out.push(match run[0].2 {
            Some(_) => format!(
                "{lanes} {here} (the scenario: {})",
                phrase(run.iter().filter_map(|e| e.2.as_ref().map(|s| (e.0, s))))
            ),
            None => format!("{lanes} {here}"),
        });
        start = end;
    }
    out
}

/// Whether both sides of `run` read other lanes by one formula (not a list of pairs).
fn fits(run: &[Entry]) -> bool {
    let side = |f: &dyn Fn(&Entry) -> Option<usize>| {
        let src: Option<Vec<(usize, usize)>> = run.iter().map(|e| f(e).map(|j| (e.0, j))).collect();
        src.is_some_and(|src| !formula(&src).starts_with("lanes "))
    };
    let lane = |g: &Got| match g {
        Got::Lane(j) => Some(*j),
        _ => None,
    };
    side(&|e: &Entry| lane(&e.1)) && side(&|e: &Entry| e.2.as_ref().and_then(lane))
}

/// A coarse kind, so that a run never mixes "own value" with "another lane".
fn class(i: usize, g: &Got) -> u8 {
    match g {
        Got::Lane(j) if *j == i => 0,
        Got::Lane(_) => 1,
        Got::Zero => 2,
        Got::Old => 3,
        Got::Undefined(_) => 4,
    }
}

/// What lanes `(i, got)` of one run get, as one phrase.
fn phrase<'a>(run: impl Iterator<Item = (usize, &'a Got)>) -> String {
    let run: Vec<(usize, &Got)> = run.collect();
    let Some(&(_, first)) = run.first() else {
        return String::new();
    };
    let own = run.iter().all(|(i, g)| **g == Got::Lane(*i));
    match first {
        Got::Lane(_) if own => "keep their own value".to_string(),
        Got::Lane(_) => {
            let src: Vec<(usize, usize)> = run
                .iter()
                .filter_map(|(i, g)| match g {
                    Got::Lane(j) => Some((*i, *j)),
                    _ => None,
                })
                .collect();
            format!("read {}", formula(&src))
        }
        Got::Zero => "get 0".to_string(),
        Got::Old => "keep the old value".to_string(),
        Got::Undefined(why) => format!("are undefined ({})", why.trim_end_matches('.')),
    }
}

/// The source lanes of `(lane, source)` pairs as a formula in the lane `i`.
fn formula(src: &[(usize, usize)]) -> String {
    let (i0, j0) = src[0];
    if src.iter().all(|&(_, j)| j == j0) {
        return format!("lane {j0}");
    }
    let d = j0 as i64 - i0 as i64;
    if src.iter().all(|&(i, j)| j as i64 - i as i64 == d) {
        return if d < 0 {
            format!("lane i − {}", -d)
        } else {
            format!("lane i + {d}")
        };
    }
    let x = i0 ^ j0;
    if src.iter().all(|&(i, j)| i ^ j == x) {
        return format!("lane i ^ {x}");
    }
    let shown: Vec<String> = src
        .iter()
        .take(8)
        .map(|(i, j)| format!("{i}←{j}"))
        .collect();
    format!(
        "lanes {}{}",
        shown.join(", "),
        if src.len() > 8 { ", …" } else { "" }
    )
}

fn range(a: usize, b: usize) -> String {
    if a == b {
        format!("lane {a}")
    } else {
        format!("lanes {a}–{b}")
    }
}

/// A set of lanes as ranges (`lanes 0–23, 32–55`), or "every lane".
fn lane_set(lanes: impl Iterator<Item = usize>, of: usize) -> String {
    let lanes: Vec<usize> = lanes.collect();
    if lanes.len() == of {
        return format!("every lane (0–{})", of.saturating_sub(1));
    }
    let mut parts = Vec::new();
    let mut k = 0;
    while k < lanes.len() {
        let mut e = k;
        while e + 1 < lanes.len() && lanes[e + 1] == lanes[e] + 1 {
            e += 1;
        }
        parts.push(if k == e {
            lanes[k].to_string()
        } else {
            format!("{}–{}", lanes[k], lanes[e])
        });
        k = e + 1;
    }
    format!(
        "lane{} {}",
        if lanes.len() == 1 { "" } else { "s" },
        parts.join(", ")
    )
}

/// The note for a scenario whose op itself leaves lanes undefined (an inactive source lane, a
/// width the vendor does not allow), for any op and target: which lanes and the vendor's
/// reason, so that no export reads as a reproduction of an undefined result. `None` when every
/// lane is defined.
pub(super) fn undefined_note(spec: &OpSpec, input: &OpInput, target: Target) -> Option<String> {
    let out = (spec.run)(input).ok()?;
    let lanes: Vec<(usize, &str)> = out
        .results
        .iter()
        .enumerate()
        .filter(|(_, r)| r.source == Source::Undefined)
        .map(|(i, r)| (i, r.why.as_deref().unwrap_or("")))
        .collect();
    let (_, why) = lanes.first()?;
    Some(format!(
        "UNDEFINED: the scenario itself is undefined on {} ({}); what {} returns there is its own and reproduces nothing.",
        lane_set(lanes.iter().map(|l| l.0), out.results.len()),
        why.trim_end_matches('.'),
        target.title()
    ))
}
