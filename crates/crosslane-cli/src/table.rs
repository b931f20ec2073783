//! The readable form of a step: a header line, the parameters, one row per lane (lane, input,
//! result, source, from, why) and the diagnostics, each with the rule it cites.

use std::fmt::Write as _;

use crosslane_core::{Level, ParamValue, Source, Step, Value};

/// The step as a table. An undefined result reads `undefined`, an inactive lane `-`.
pub fn step(step: &Step) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} {} · {} lanes · active {} · {}",
        step.dialect.name(),
        step.op,
        step.lanes,
        step.active.to_hex(step.lanes),
        step.ty.name()
    );
    if !step.params.0.is_empty() {
        let params: Vec<String> = step
            .params
            .0
            .iter()
            .map(|(k, v)| format!("{k}={}", param_text(v, step.lanes)))
            .collect();
        let _ = writeln!(out, "{}", params.join(" "));
    }
    let mut rows = vec![[
        "lane".to_string(),
        "input".to_string(),
        "result".to_string(),
        "source".to_string(),
        "from".to_string(),
        "why".to_string(),
    ]];
    for (lane, r) in step.results.iter().enumerate() {
        let input = if step.scalar {
            "-".to_string()
        } else {
            step.inputs
                .get(lane)
                .copied()
                .flatten()
                .map_or_else(|| "undefined".to_string(), |v| v.to_string())
        };
        let result = match (r.value, r.source) {
            (Some(v), _) => v.to_string(),
            (None, Source::Inactive) => "-".to_string(),
            (None, _) => "undefined".to_string(),
        };
        rows.push([
            lane.to_string(),
            input,
            result,
            r.source.name().to_string(),
            r.from.map(|f| f.to_string()).unwrap_or_default(),
            r.why.clone().unwrap_or_default(),
        ]);
    }
    let mut widths = [0usize; 5];
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row.iter()) {
            *w = (*w).max(cell.chars().count());
        }
    }
    for row in &rows {
        let mut line = String::new();
        for (i, (w, cell)) in widths.iter().zip(row.iter()).enumerate() {
            // Numbers right-aligned, words left-aligned.
            if i == 3 {
                let _ = write!(line, "{cell:<w$}  ");
            } else {
                let _ = write!(line, "{cell:>w$}  ");
            }
        }
        line.push_str(&row[5]);
        let _ = writeln!(out, "{}", line.trim_end());
    }
    for d in &step.diagnostics {
        let level = match d.level {
            Level::Warning => "warning",
            Level::Error => "error",
            Level::Info => "note",
        };
        let _ = writeln!(out, "{level}: {} [{}]", d.message, d.rule);
    }
    out
}

/// A parsed parameter as the user would type it; a per-lane list that is one repeated value
/// prints once.
fn param_text(v: &ParamValue, lanes: usize) -> String {
    fn list<T: PartialEq + ToString>(items: &[T]) -> String {
        match items.first() {
            Some(first) if items.iter().all(|x| x == first) => first.to_string(),
            _ => items
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(","),
        }
    }
    match v {
        ParamValue::Int(n) => n.to_string(),
        ParamValue::Ints(ns) => list(ns),
        ParamValue::Values(vs) => list::<Value>(vs),
        ParamValue::Mask(m) => m.to_hex(lanes),
        ParamValue::Flag(b) => b.to_string(),
        ParamValue::Text(t) => t.clone(),
    }
}
