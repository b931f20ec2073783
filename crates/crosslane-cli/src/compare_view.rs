//! `crosslane op DIALECT OP … --compare`: the portability view in the terminal. The op names a
//! shuffle family (idx / up / down / xor) and its parameter; [`crosslane_core::compare`] runs the
//! family under CUDA, HIP wave32, HIP wave64, Ascend C and WGSL, and this module prints one
//! column per dialect run, a `≠` on each lane where they disagree and the rule that makes them
//! differ (or, with `--json`, the [`Comparison`] itself).
//!
//! The rules, the family mapping and the explanations are the core's (`portability.rs`); this
//! module only finds the family of the op that was typed and lays out the result.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crosslane_core::{
    compare_lanes, parse_width, Comparison, Dialect, InputError, LaneParam, OpSpec, ParamDefault,
    ShuffleFamily, Source,
};

use crate::error::CliError;
use crate::flags::Common;
use crate::print_out;

const FAMILIES: [ShuffleFamily; 4] = [
    ShuffleFamily::Idx,
    ShuffleFamily::Up,
    ShuffleFamily::Down,
    ShuffleFamily::Xor,
];

/// The dialects that have the shuffle family, in the order the comparison runs them.
const DIALECTS: [Dialect; 4] = [Dialect::Cuda, Dialect::Hip, Dialect::Ascend, Dialect::Wgsl];

/// The family `spec` belongs to and the name of its family parameter (`src_lane`, `delta`,
/// `lane_mask`; WGSL `id`, `delta`, `mask`), or `None` for an op outside the shuffle family.
pub fn family_of(spec: &OpSpec) -> Option<(ShuffleFamily, &'static str)> {
    FAMILIES.into_iter().find_map(|f| {
        f.op_in(spec.dialect)
            .filter(|(op, _)| *op == spec.name)
            .map(|(_, param)| (f, param))
    })
}

/// [`family_of`], or the usage error for `--compare` on an op outside the family.
///
/// # Errors
/// [`CliError::Usage`] (exit 2) naming `--compare` and every op that supports it.
pub fn family(spec: &OpSpec) -> Result<(ShuffleFamily, &'static str), CliError> {
    family_of(spec).ok_or_else(|| unsupported(spec))
}

/// The usage error for `--compare` on an op outside the family: names the flag and every op that
/// supports it.
fn unsupported(spec: &OpSpec) -> CliError {
    let lists: Vec<String> = DIALECTS
        .into_iter()
        .map(|d| {
            let ops: Vec<&str> = FAMILIES
                .into_iter()
                .filter_map(|f| f.op_in(d).map(|(op, _)| op))
                .collect();
            format!("{} {}", d.name(), ops.join(", "))
        })
        .collect();
    CliError::Usage(format!(
        "--compare: {} {} is not a shuffle-family op; --compare supports {}",
        spec.dialect.name(),
        spec.name,
        lists.join("; ")
    ))
}

/// Runs the comparison for `spec` with the parsed `params` (vendor names) and prints it.
///
/// # Errors
/// [`CliError::Usage`] (exit 2) for an op outside the shuffle family, for `--lanes` or `--type`
/// (each dialect runs at its own lane count, on i32), or for a parameter other than the family
/// parameter and `width`; [`CliError::Input`] when the parameter, width or operand row does not
/// parse or no dialect accepts them; [`CliError::Io`] when stdout fails.
pub fn run(
    spec: &OpSpec,
    params: &BTreeMap<String, String>,
    common: &Common,
) -> Result<(), CliError> {
    let (family, param_name) = family(spec)?;
    for (flag, given) in [("lanes", &common.lanes), ("type", &common.ty)] {
        if given.is_some() {
            return Err(CliError::Usage(format!(
                "--{flag} does not apply with --compare: each dialect runs at its own lane count \
                 (CUDA 32, HIP 32 and 64, Ascend C 32, WGSL one subgroup per segment) on i32"
            )));
        }
    }
    if let Some(other) = params.keys().find(|k| *k != param_name && *k != "width") {
        return Err(CliError::Usage(format!(
            "--{}: --compare takes only --{} and --width; every other parameter stays at each \
             dialect's default",
            other.replace('_', "-"),
            param_name.replace('_', "-")
        )));
    }
    let param = match params.get(param_name) {
        // One value, or a lane expression each lane evaluates for itself.
        Some(text) => LaneParam::parse(text)
            .map_err(|e| CliError::Input(InputError::new(param_name, e.message)))?,
        None => match spec.param(param_name).map(|p| p.default) {
            Some(ParamDefault::Int(v)) => LaneParam::One(v),
            _ => {
                return Err(CliError::Usage(format!(
                    "--compare needs --{}",
                    param_name.replace('_', "-")
                )))
            }
        },
    };
    let width = match params.get("width") {
        Some(text) => parse_width(text)?,
        None => None,
    };
    let comparison = compare_lanes(
        family,
        &param,
        width,
        common.values.as_deref().unwrap_or(""),
        common.active.as_deref().unwrap_or(""),
    )?;
    if common.json {
        let text = serde_json::to_string(&comparison)
            .map_err(|e| CliError::Io(format!("comparison as JSON: {e}")))?;
        print_out(&format!("{text}\n"))
    } else {
        print_out(&table(&comparison, param_name))
    }
}

/// The comparison as text: a header naming each dialect's op, one row per lane (lane, input, one
/// cell per dialect run, `≠`, the rule), then the notes and each run's diagnostics.
pub fn table(c: &Comparison, param_name: &str) -> String {
    let mut out = String::new();
    let width = c
        .width
        .map_or_else(|| "default".to_string(), |w| w.to_string());
    let _ = writeln!(
        out,
        "compare {}: {param_name}={} width={width}",
        c.family.name(),
        c.param_text
    );
    let ops: Vec<String> = c
        .runs
        .iter()
        .map(|r| {
            let op = c.family.op_in(r.dialect).map_or("?", |(op, _)| op);
            format!("{} {op}", r.label)
        })
        .collect();
    let _ = writeln!(out, "runs: {}", ops.join(" · "));
    let mut header = vec!["lane".to_string(), "input".to_string()];
    header.extend(c.runs.iter().map(|r| r.label.clone()));
    header.push("≠".to_string());
    let mut rows = vec![header];
    for v in &c.lanes {
        let input = c
            .runs
            .iter()
            .filter_map(|r| r.step.as_ref().ok())
            .find_map(|s| s.inputs.get(v.lane).copied())
            .flatten()
            .map_or_else(String::new, |x| x.to_string());
        let mut row = vec![v.lane.to_string(), input];
        row.extend(c.runs.iter().map(|r| match &r.step {
            Err(_) => "refused".to_string(),
            Ok(s) => s.results.get(v.lane).map_or_else(String::new, |res| {
                let value = res.value.map(|x| x.to_string()).unwrap_or_default();
                match (res.source, res.from) {
                    (Source::Lane, Some(j)) => format!("{value}←{j}"),
                    (Source::Own, _) => format!("{value} own"),
                    (Source::Undefined, _) => "undefined".to_string(),
                    (Source::Inactive, _) => "-".to_string(),
                    (other, _) => format!("{value} {}", other.name()),
                }
            }),
        }));
        row.push(if v.agree {
            String::new()
        } else {
            "≠".to_string()
        });
        rows.push(row);
    }
    let columns = rows.first().map_or(0, Vec::len);
    let mut widths = vec![0usize; columns];
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    for (i, row) in rows.iter().enumerate() {
        let mut line = String::new();
        for (w, cell) in widths.iter().zip(row) {
            let _ = write!(line, "{cell:>w$}  ");
        }
        let why = i
            .checked_sub(1)
            .and_then(|k| c.lanes.get(k))
            .and_then(|v| v.explanation.as_deref())
            .unwrap_or(if i == 0 { "why" } else { "" });
        line.push_str(why);
        let _ = writeln!(out, "{}", line.trim_end());
    }
    let _ = writeln!(
        out,
        "{} of {} lanes disagree",
        c.disagreeing().count(),
        c.lanes.len()
    );
    for note in &c.notes {
        let _ = writeln!(out, "note: {note}");
    }
    for r in &c.runs {
        if let Ok(s) = &r.step {
            for d in &s.diagnostics {
                let _ = writeln!(out, "{}: {} [{}]", r.label, d.message, d.rule);
            }
        }
    }
    out
}
