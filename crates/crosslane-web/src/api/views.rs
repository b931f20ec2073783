//! What the web components draw: the page's display lists ([`crate::render::scene`] for lanes,
//! [`crate::views::sort::diagram`] / [`crate::views::sort::plot`] for the network) through the
//! SVG back end ([`crate::render::svg::to_svg`]), plus the text an element shows beside them (a
//! lane table for screen readers, a caption). Nothing here decides a lane's value.

use crosslane_core::{InputError, Step};
use crosslane_kernel::KernelTrace;
use serde::Serialize;
use serde_json::Value;

use super::{js_safe, kernel_trace, ApiOpRequest, Clock, Launch, Surface, MAIN_THREAD_SORT_KEYS};
use crate::kit::Html;
use crate::labels::{input_text, result_text, source_text, DisplayOptions};
use crate::render::{scene, svg};
use crate::views::sort::model::{SortRun, DRAW_LIMIT};
use crate::views::sort::{diagram, plot};

/// Width in CSS pixels when an element has not been laid out yet (the embed's static width).
pub const DEFAULT_WIDTH: f64 = crate::embed::STATIC_WIDTH;
/// Narrowest and widest drawing in CSS pixels: below the narrowest no label fits; above the
/// widest the SVG text grows with no gain.
pub const WIDTH_RANGE: (f64, f64) = (120.0, 4096.0);

/// A requested width, clamped into [`WIDTH_RANGE`] (a non-finite one becomes [`DEFAULT_WIDTH`]).
pub fn clamp_width(width: f64) -> f64 {
    if width.is_finite() {
        width.clamp(WIDTH_RANGE.0, WIDTH_RANGE.1)
    } else {
        DEFAULT_WIDTH
    }
}

/// One operation drawn: `runOp`'s object plus the drawing and the lane table.
#[derive(Clone, Debug, Serialize)]
pub struct OpView {
    /// The `crosslane op --json` object (as [`super::run_op`] returns it).
    pub result: Value,
    /// The page's lane drawing as a standalone SVG document.
    pub svg: String,
    /// The drawing's height in CSS pixels.
    pub height: f64,
    /// The lane table (an HTML `<table>`): lane, input, result, source and reason per lane.
    pub table: String,
    /// One line: dialect, op, lanes, active mask, type.
    pub summary: String,
}

/// Runs `request` and draws it `width` CSS pixels wide.
///
/// # Errors
/// The core's [`InputError`], as [`super::run_op`].
pub fn op_view(request: &ApiOpRequest, width: f64) -> Result<OpView, InputError> {
    let step = request.to_core()?.run()?;
    let scene = scene::build(&step, clamp_width(width));
    Ok(OpView {
        result: js_safe(step.contract_json()),
        svg: svg::to_svg_themed(&scene),
        height: scene.height,
        table: lane_table(&step),
        summary: summary(&step),
    })
}

/// `dialect op · N lanes · active 0x… · type`, as the CLI's table heads a step.
pub fn summary(step: &Step) -> String {
    format!(
        "{} {} · {} lanes · active {} · {}",
        step.dialect.name(),
        step.op,
        step.lanes,
        step.active.to_hex(step.lanes),
        step.ty.name()
    )
}

/// The step as an HTML table: one row per result lane (`tr[data-lane]`) with input, result,
/// source and reason, in the page's words ([`crate::labels`]).
pub fn lane_table(step: &Step) -> String {
    let display = DisplayOptions::default();
    let mut html = Html::with_capacity(step.results.len() * 96 + 256);
    html.el("table").attr("class", "lanes").with(|h| {
        h.leaf("caption", summary(step));
        h.el("thead").with(|h| {
            h.el("tr").with(|h| {
                for col in ["lane", "input", "result", "source", "why"] {
                    h.el("th").attr("scope", "col").text(col);
                }
            });
        });
        h.el("tbody").with(|h| {
            for (lane, r) in step.results.iter().enumerate() {
                let input = step.inputs.get(lane).copied().flatten();
                h.el("tr").attr("data-lane", lane).with(|h| {
                    h.el("th").attr("scope", "row").text(lane);
                    h.el("td")
                        .attr("class", "input")
                        .text(input_text(input, display));
                    h.el("td")
                        .attr("class", "result")
                        .text(result_text(r, display));
                    h.el("td").attr("class", "source").text(source_text(r));
                    h.el("td")
                        .attr("class", "why")
                        .text(r.why.as_deref().unwrap_or(""));
                });
            }
        });
    });
    html.to_string()
}

/// One picture of a stepped view.
#[derive(Clone, Debug, Serialize)]
pub struct Frame {
    /// The drawing as a standalone SVG document; `None` when there is nothing to draw yet.
    pub svg: Option<String>,
    /// The drawing's height in CSS pixels (0 without one).
    pub height: f64,
    /// What the picture shows, in one sentence (also the drawing's accessible name).
    pub caption: String,
    /// Text lines for screen readers and the element's detail line (keys, changed variables,
    /// diagnostics).
    pub lines: Vec<String>,
    /// The source line of a kernel step (1-based), `None` elsewhere.
    pub line: Option<u32>,
}

/// The Batcher network walked over one input, for `<crosslane-sort>`: every stage's comparators
/// and keys, drawn at any position.
pub struct SortView {
    run: SortRun,
}

impl SortView {
    /// Walks the network over `n` keys drawn from `seed` (as `crosslane sort --len N --seed S`)
    /// or over `values` (a comma list). Wires are drawn up to [`DRAW_LIMIT`] keys; above it the
    /// page's sortedness plot is drawn instead.
    ///
    /// # Errors
    /// The core's [`InputError`] (`len` outside `1..=2^20`, a value that is not an integer);
    /// `n` above [`MAIN_THREAD_SORT_KEYS`]: the walk is one task of the host page.
    pub fn new(n: Option<usize>, seed: u64, values: Option<&str>) -> Result<SortView, InputError> {
        let keys = n.or_else(|| values.map(|v| v.split(',').count()));
        if let Some(k) = keys.filter(|&k| k > MAIN_THREAD_SORT_KEYS) {
            return Err(InputError::new(
                "n",
                format!("at most {MAIN_THREAD_SORT_KEYS} keys in an element, got {k}"),
            ));
        }
        Ok(SortView {
            run: SortRun::new(n, seed, values, DRAW_LIMIT)?,
        })
    }

    /// Number of stages: positions run from 0 (the input) to this (sorted).
    pub fn stages(&self) -> usize {
        self.run.positions()
    }

    /// The picture at position `at` (clamped to the stages), `width` CSS pixels wide.
    pub fn frame(&self, at: usize, width: f64) -> Frame {
        let at = at.min(self.stages());
        let width = clamp_width(width);
        let scene = if self.run.drawn {
            diagram::build(&self.run, at, width)
        } else {
            plot::build(&self.run, at, width)
        };
        let caption = match self.run.stage_at(at) {
            Some(s) => format!(
                "odd-even merge sort of {} keys, stage {at} of {} (p = {}, k = {}): {} comparators, {} swaps",
                self.run.len(),
                self.stages(),
                s.p,
                s.k,
                s.comparators,
                s.swaps
            ),
            None => format!(
                "odd-even merge sort of {} keys, the input: {} stages to run",
                self.run.len(),
                self.stages()
            ),
        };
        let keys: Vec<String> = self
            .run
            .keys_at(at)
            .iter()
            .map(ToString::to_string)
            .collect();
        Frame {
            svg: Some(svg::to_svg_themed(&scene)),
            height: scene.height,
            caption,
            lines: vec![format!("keys: {}", keys.join(" "))],
            line: None,
        }
    }
}

/// A kernel run to its end, for `<crosslane-kernel>`: shown statement by statement.
pub struct KernelView {
    trace: KernelTrace,
}

impl KernelView {
    /// Runs `source` with `launch` ([`super::kernel_trace`]) under the caller's-thread ceilings
    /// ([`Surface::Caller`]; `clock` as there): an element's run is one task of the host page.
    ///
    /// # Errors
    /// [`InputError`] on field `source` (line:column and message) when the kernel does not parse
    /// or the launch is invalid.
    pub fn new(
        source: &str,
        launch: &Launch,
        clock: Option<Clock>,
    ) -> Result<KernelView, InputError> {
        Ok(KernelView {
            trace: kernel_trace(source, launch, Surface::Caller, clock)?,
        })
    }

    /// Statements executed: positions run from 0 (before the first) to this (after the last).
    pub fn steps(&self) -> usize {
        self.trace.steps.len()
    }

    /// The picture after `pos` statements (clamped): the statement, its active mask, what it
    /// changed, and the cross-lane call it ran — or the last one before it — drawn by the lane
    /// renderer, as the page's kernel view does.
    pub fn frame(&self, pos: usize, width: f64) -> Frame {
        let pos = pos.min(self.steps());
        let Some(current) = pos.checked_sub(1).and_then(|i| self.trace.steps.get(i)) else {
            return Frame {
                svg: None,
                height: 0.0,
                caption: format!("before the first statement · {} to run", self.steps()),
                lines: self.trace.diagnostics.iter().map(diagnostic_text).collect(),
                line: None,
            };
        };
        let mut lines = vec![format!(
            "line {}: {} · block {} warp {} · active {}",
            current.line,
            current.text,
            current.block,
            current.warp,
            current.active.to_hex(current.lanes)
        )];
        for c in self.trace.changes(current) {
            lines.push(change_text(&c));
        }
        lines.extend(current.diagnostics.iter().map(diagnostic_text));
        let found = self
            .trace
            .steps
            .iter()
            .take(pos)
            .rev()
            .find_map(|s| s.ops.last().map(|op| (s, op)));
        let (svg, height, caption) = match found {
            Some((s, op)) => {
                let scene = scene::build(op, clamp_width(width));
                let when = if s.index == current.index {
                    String::new()
                } else {
                    format!(" · the last call before step {pos}")
                };
                (
                    Some(svg::to_svg_themed(&scene)),
                    scene.height,
                    format!(
                        "step {pos} of {}: {} at line {} (active {}){when}",
                        self.steps(),
                        op.op,
                        s.line,
                        op.active.to_hex(op.lanes)
                    ),
                )
            }
            None => (
                None,
                0.0,
                format!(
                    "step {pos} of {}: line {}, no cross-lane call yet",
                    self.steps(),
                    current.line
                ),
            ),
        };
        Frame {
            svg,
            height,
            caption,
            lines,
            line: Some(current.line),
        }
    }
}

/// `line L:C: message` of a kernel diagnostic.
fn diagnostic_text(d: &crosslane_kernel::KernelDiagnostic) -> String {
    format!("line {}:{}: {}", d.line, d.col, d.message)
}

/// `name = v0 v1 …` for a variable a statement changed (its value in each lane, the kernel
/// view's words), at most 64 lanes shown.
fn change_text(c: &crosslane_kernel::VarChange) -> String {
    let json = serde_json::to_value(c).unwrap_or(Value::Null);
    let name = json.get("name").and_then(Value::as_str).unwrap_or("?");
    let values = json
        .get("values")
        .and_then(Value::as_array)
        .map(|vs| {
            vs.iter()
                .take(64)
                .map(|v| match v {
                    Value::Null => "undefined".to_string(),
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_default();
    format!("{name} = {values}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn op_view_draws_every_lane_and_tabulates_them() {
        let r: ApiOpRequest = serde_json::from_str(
            r#"{"dialect":"cuda","op":"__shfl_down_sync","params":{"delta":1}}"#,
        )
        .unwrap();
        let v = op_view(&r, 760.0).unwrap();
        assert!(v.svg.starts_with("<svg"));
        assert!(v.height > 0.0);
        // __shfl_down_sync (CUDA Programming Guide, warp shuffle functions): lane i reads
        // lane i + delta; lane 31 has no source within the warp and keeps its own value.
        assert_eq!(v.table.matches("<tr data-lane=").count(), 32);
        assert!(v.table.contains("<tr data-lane=\"3\"><th scope=\"row\">3</th><td class=\"input\">3</td><td class=\"result\">4</td><td class=\"source\">lane 4</td>"), "{}", v.table);
        assert_eq!(v.result["results"][31]["value"], 31);
    }

    #[test]
    fn sort_view_steps_from_input_to_sorted() {
        let v = SortView::new(None, 1, Some("3,1,2,0")).unwrap();
        // Four keys: stages (p, k) = (1,1), (2,2), (2,1): three stages (Batcher 1968).
        assert_eq!(v.stages(), 3);
        assert!(v.frame(0, 600.0).caption.contains("the input"));
        let last = v.frame(99, 600.0);
        assert_eq!(last.lines, vec!["keys: 0 1 2 3".to_string()]);
        assert!(last.svg.unwrap().starts_with("<svg"));
    }

    #[test]
    fn kernel_view_draws_the_last_cross_lane_call() {
        let src = "__global__ void k(int *out) {\n  int v = threadIdx.x;\n  v = __shfl_xor_sync(0xffffffff, v, 1);\n  out[threadIdx.x] = v;\n}\n";
        let v = KernelView::new(src, &Launch::default(), None).unwrap();
        assert!(v.steps() >= 3);
        assert!(v.frame(0, 600.0).svg.is_none());
        let end = v.frame(v.steps(), 600.0);
        assert!(end.svg.is_some(), "{}", end.caption);
        assert!(
            end.caption.contains("__shfl_xor_sync at line 3"),
            "{}",
            end.caption
        );
    }
}
