//! A plain-text rendering of a kernel trace, for `crosslane run FILE` and test failures: the
//! merged diagnostics (each distinct one once, with its count), then one block per step (position, statement, active mask, changed variables per lane, cross-lane ops,
//! diagnostics), then how the run ended and the final global memory.

use std::fmt::Write;

use super::memory::Space;
use super::trace::{KernelTrace, LaneVal, Outcome};
use super::types::KVal;
use crosslane_core::result::Level;

fn lane_text(v: &LaneVal) -> String {
    match v {
        Ok(k) => k.to_string(),
        Err(_) => "?".into(),
    }
}

fn level(l: Level) -> &'static str {
    match l {
        Level::Warning => "warning",
        Level::Error => "error",
        Level::Info => "note",
    }
}

/// Renders the trace as text. `?` marks an undefined lane value; undefined reasons are in the
/// diagnostics. At most `max_steps` steps are listed (the rest are counted).
pub fn render_text(t: &KernelTrace, max_steps: usize) -> String {
    let mut out = String::new();
    let l = &t.launch;
    let _ = writeln!(
        out,
        "kernel {} ({}{}, {} lanes per warp, block {}x{}x{} from {}, grid {}x{}x{})",
        l.entry,
        l.dialect.name(),
        l.target
            .as_deref()
            .map(|t| format!(" as {t}"))
            .unwrap_or_default(),
        l.lanes,
        l.block_dim[0],
        l.block_dim[1],
        l.block_dim[2],
        l.geometry_from,
        l.grid_dim[0],
        l.grid_dim[1],
        l.grid_dim[2]
    );
    // The contraction mode, its first clause (the JSON's `launch.fp_contract` has the rest).
    if let Some(mode) = l.fp_contract.split(": ").next().filter(|m| !m.is_empty()) {
        let _ = writeln!(out, "{mode}");
    }
    // The AMD target the AMD operations ran as, and why (a default is stated, never silent).
    if let (Some(target), Some(from)) = (&l.target, &l.target_from) {
        let _ = writeln!(out, "AMD target {target} ({from})");
    }
    // Which branch each preprocessor conditional took, and the lines it skipped.
    for c in &t.preprocess.conditionals {
        let branches: Vec<String> = c
            .branches
            .iter()
            .map(|b| {
                let what = match (b.taken, b.skipped) {
                    (true, _) => "taken".to_string(),
                    (false, Some(r)) if r.first == r.last => format!("skipped line {}", r.first),
                    (false, Some(r)) => format!("skipped lines {}-{}", r.first, r.last),
                    (false, None) => "not taken".to_string(),
                };
                format!("{}: {} ({what})", b.line, b.directive)
            })
            .collect();
        let _ = writeln!(out, "preprocessor: {}", branches.join("; "));
    }
    // Every diagnostic of the parse, the launch and the run, merged across lanes, warps and
    // steps: the same list as the JSON's top-level `diagnostics`, in either trace mode.
    for d in &t.merged_diagnostics {
        let times = if d.count > 1 {
            format!(" ({} times)", d.count)
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "{}:{}: {}: {}{times}",
            d.line,
            d.col,
            level(d.level),
            d.message
        );
    }
    if t.merged_diagnostics.is_empty() {
        for d in &t.diagnostics {
            let _ = writeln!(
                out,
                "{}:{}: {}: {}",
                d.line,
                d.col,
                level(d.level),
                d.message
            );
        }
    }
    for s in t.steps.iter().take(max_steps) {
        let _ = writeln!(
            out,
            "step {} block {} warp {} line {}: {}   [active {}]",
            s.index,
            s.block,
            s.warp,
            s.line,
            s.text,
            s.active.to_hex(s.lanes)
        );
        // The kernel's own variables, not the front end's (`__rf0`, `__sb0`).
        for c in s
            .changes
            .iter()
            .filter(|c| !t.is_synthesized(t.var_name(c.slot)))
        {
            let lanes: Vec<String> = (0..c.row.lanes())
                .map(|i| match c.row.get(i, &t.reasons) {
                    Some(v) if s.active.contains(i) => lane_text(&v),
                    _ => "-".into(),
                })
                .collect();
            let _ = writeln!(out, "    {} = {}", t.var_name(c.slot), lanes.join(" "));
            let vals: Vec<Option<LaneVal>> = (0..c.row.lanes())
                .map(|i| c.row.get(i, &t.reasons).filter(|_| s.active.contains(i)))
                .collect();
            let notes = super::mathlib::note_lines(
                "lanes",
                vals.iter()
                    .enumerate()
                    .map(|(i, v)| (i, v.as_ref().and_then(|v| v.as_ref().ok()))),
            );
            for n in notes {
                let _ = writeln!(out, "      {n}");
            }
        }
        for op in &s.ops {
            let _ = writeln!(
                out,
                "    {} ({}, {})",
                op.op,
                op.dialect.name(),
                op.ty.name()
            );
        }
        for d in &s.diagnostics {
            let _ = writeln!(
                out,
                "    {}:{}: {}: {}",
                d.line,
                d.col,
                level(d.level),
                d.message
            );
        }
    }
    if t.steps.len() > max_steps {
        let _ = writeln!(out, "… {} more steps", t.steps.len() - max_steps);
    }
    let ending = match &t.outcome {
        Some(Outcome::Finished) => "finished".to_string(),
        Some(Outcome::Limit(hit)) => format!("stopped: {}", hit.message()),
        Some(Outcome::Error(e)) => format!("stopped: {e}"),
        None => "still running".to_string(),
    };
    let _ = writeln!(
        out,
        "{ending} after {} steps ({} lane-statements)",
        t.stats.steps, t.stats.lane_statements
    );
    for p in &t.printf {
        let _ = write!(
            out,
            "printf block {} thread {} (line {}): {}",
            p.block, p.thread, p.line, p.text
        );
        if !p.text.ends_with('\n') {
            out.push('\n');
        }
    }
    let text = |cells: &[Option<KVal>]| -> String {
        cells
            .iter()
            .map(|c| c.as_ref().map_or("?".to_string(), |v| v.to_string()))
            .collect::<Vec<_>>()
            .join(" ")
    };
    for (k, b) in t.memory.buffers.iter().enumerate() {
        if b.space != Space::Global {
            continue;
        }
        // Buffers start filled (the launch's argument fill, `index` by default): say so, and how
        // many cells the kernel changed, so a final row equal to its fill is not read as output.
        if let Some(before) = t.initial_memory.buffers.get(k) {
            let changed = before
                .cells
                .iter()
                .zip(&b.cells)
                .filter(|(x, y)| !same_cell(x.as_ref(), y.as_ref()))
                .count();
            let _ = writeln!(
                out,
                "{} at launch ({} x {}; the kernel changed {changed} of {} cells): {}",
                b.name,
                before.cells.len(),
                before.elem.name(),
                b.cells.len(),
                text(&before.cells)
            );
        }
        let _ = writeln!(
            out,
            "{} ({} x {}): {}",
            b.name,
            b.cells.len(),
            b.elem.name(),
            text(&b.cells)
        );
        for n in super::mathlib::note_lines("cells", b.cells.iter().map(Option::as_ref).enumerate())
        {
            let _ = writeln!(out, "  {n}");
        }
    }
    out
}

/// Whether a buffer cell holds the same value at launch and at the end: `==`, except that a
/// NaN is the same NaN (IEEE 754 makes NaN unequal to itself, so a NaN cell nobody wrote was
/// counted as changed).
fn same_cell(before: Option<&KVal>, after: Option<&KVal>) -> bool {
    match (before, after) {
        (Some(KVal::Float { ty: a, x: xa, .. }), Some(KVal::Float { ty: b, x: xb, .. }))
            if xa.is_nan() && xb.is_nan() =>
        {
            a == b
        }
        _ => before == after,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_nan_cell_nobody_wrote_is_not_counted_as_changed() {
        use crate::types::Scalar;
        let nan = |ty| KVal::Float {
            ty,
            x: f64::NAN,
            approx: None,
        };
        assert!(super::same_cell(
            Some(&nan(Scalar::F32)),
            Some(&nan(Scalar::F32))
        ));
        assert!(!super::same_cell(
            Some(&nan(Scalar::F32)),
            Some(&nan(Scalar::F64))
        ));
        let one = KVal::Float {
            ty: Scalar::F32,
            x: 1.0,
            approx: None,
        };
        assert!(!super::same_cell(Some(&nan(Scalar::F32)), Some(&one)));
        assert!(super::same_cell(Some(&one), Some(&one.clone())));
    }

    use super::*;
    use crate::{run_kernel, LaunchConfig};

    #[test]
    fn text_shows_steps_values_and_memory() {
        let t = run_kernel(
            "__global__ void k(int* dst) {\n  int v = asc_shfl_xor((int)threadIdx.x, 1, 32);\n  dst[threadIdx.x] = v;\n}",
            LaunchConfig::default(),
        )
        .unwrap();
        let text = render_text(&t, 10);
        assert!(
            text.contains("line 2: int v = asc_shfl_xor((int)threadIdx.x, 1, 32);"),
            "{text}"
        );
        assert!(text.contains("    v = 1 0 3 2 "), "{text}");
        assert!(text.contains("dst (32 x int): 1 0 3 2 "), "{text}");
        assert!(text.contains("finished after 2 steps"), "{text}");
    }
}
