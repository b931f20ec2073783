//! The GPU panel of the op view: runs the op view's current [`Step`] on the page's
//! WebGPU device (`crosslane_gpu::web::WebGpu`) and shows the GPU's row under the emulator's,
//! lane by lane (`match`, `mismatch`, `indeterminate` where the emulator says the value is
//! undefined, `inactive`), with the adapter's record, the timing and its kind, and the WGSL that
//! ran. A second button sorts 1024 keys with the odd-even merge network on the GPU and compares
//! them with the emulator's network (`crosslane_core::network::Network::apply_pairs`).
//!
//! Page contract: `button#gpu-toggle` in the drawing's header, `section#gpu-panel` under the
//! canvas (`data-state` = `idle | running | done | error`, `data-verdict` = `match | mismatch`
//! after a comparison), `#gpu-status` (one line: running…, the verdict, or why the page stays in
//! emulator mode), `#gpu-adapter` (its `data-subgroup-size` = the size observed in the dispatch),
//! `canvas#gpu-canvas`, `table#gpu-lanes` (`tr[data-lane]` with `td.emulator`, `td.gpu`,
//! `td.verdict`), `pre#gpu-wgsl` + `button#gpu-copy`, `button#gpu-sort` + `#gpu-sort-status`
//! (`data-verdict`).
//!
//! Failure never leaves emulator mode: no WebGPU, no adapter, `subgroups` missing, a validation
//! error, a lost device or a failed map shows in `#gpu-status` and the op view is untouched. A
//! failed device is dropped, so the next attempt opens a new one.

use std::fmt::Write;
use std::rc::Rc;

use crosslane_core::network::Network;
use crosslane_core::{Dialect, Source, Step};
use crosslane_gpu::web::WebGpu;
use crosslane_gpu::{
    lower_step, Comparison, GpuError, LoweringChoice, ShaderTarget, SubgroupCaps, Verdict,
};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Document, Element, Event, HtmlCanvasElement, HtmlElement};

use crate::dom::{by_id, document, el_as, mark_ready, set_data, window, Js};
use crate::kit::{self, Html, Owned, State};
use crate::labels::{input_text, result_text, DisplayOptions};
use crate::render::canvas;
use crate::render::scene::{Anchor, BoxItem, Item, LaneRef, Rect, Row, Scene};
use crate::render::style::{paint, Paint, Pattern};

/// What the GPU check proves, shown in the panel as written there.
const HONESTY: &str = "What this check proves: it verifies the WGSL built-ins on this device; for a \
vendor op the device computes every lane's source lane again from the vendor's formula written in \
WGSL (the emulator's routes are not uploaded), so a match says two implementations of the rule agree \
lane by lane; a vendor's own rule is checked against that vendor's hardware results where the \
project's reference vectors have them. A match here is not a run on CUDA, HIP, Ascend, AMD or MetaX \
hardware.";

/// Keys in the "sort on GPU" check.
const SORT_LEN: usize = 1024;

/// The panel's elements.
struct Els {
    doc: Document,
    toggle: HtmlElement,
    panel: HtmlElement,
    status: HtmlElement,
    adapter: HtmlElement,
    /// Which part ran as hardware subgroup operations, which as a formula in WGSL.
    parts: HtmlElement,
    note: HtmlElement,
    canvas: HtmlCanvasElement,
    tbody: Element,
    wgsl: HtmlElement,
    wgsl_title: HtmlElement,
    table_wrap: HtmlElement,
    sort_status: HtmlElement,
}

/// The panel's state: the op view's latest step, the open device and a generation counter so
/// that a slow result never overwrites a newer one.
#[derive(Default)]
pub struct Panel {
    els: Option<Rc<Els>>,
    step: Option<Step>,
    /// The op view's display options when it handed over `step`.
    display: DisplayOptions,
    open: bool,
    gpu: Option<Rc<WebGpu>>,
    generation: u64,
    /// Whether the user has clicked the toggle or "run again" in this page: a permalink or an
    /// embed may open the panel, but GPU work starts only after a user gesture.
    armed: bool,
}

impl Owned for Panel {
    const WHAT: &'static str = "the GPU panel";
}

/// Records a user gesture that allows GPU work.
fn arm(st: &State<Panel>) {
    st.update(|s| s.armed = true);
}

/// The op view hands every rendered step here, with its display options; when the panel is
/// open, the step is run on the GPU again.
pub fn step_rendered(st: &State<Panel>, step: &Step, display: DisplayOptions) {
    let open = st
        .update(|s| {
            s.step = Some(step.clone());
            s.display = display;
            s.open
        })
        .unwrap_or(false);
    if open {
        run_compare(st);
    }
}

/// Builds the toggle and the panel inside the op view and wires their events; the op view keeps
/// the returned state to hand over its steps ([`step_rendered`]).
pub fn mount() -> Js<State<Panel>> {
    let st = State::new(Panel::default());
    let toggle = super::gpu_toggle::create()?;
    build(&st, toggle)?;
    if let Some(e) = els(&st) {
        let s = st.clone();
        kit::listen(&e.toggle, "click", move |_| toggle_panel(&s))?;
    }
    // A permalink with the panel open opens it (and Back / Forward follow the link's state).
    let s = st.clone();
    crate::permalink::on_gpu_panel(move |open| set_panel_open(&s, open));
    Ok(st)
}

/// Builds the panel under the drawing for the toggle `toggle` (which opens and closes it) and
/// wires the panel's own buttons.
fn build(st: &State<Panel>, toggle: HtmlElement) -> Js<()> {
    let doc = document()?;
    let panel: HtmlElement = el_as(
        &doc,
        "section",
        &[
            ("id", "gpu-panel"),
            ("aria-labelledby", "gpu-title"),
            ("data-state", "idle"),
        ],
    )?;
    panel.set_hidden(true);
    let mut html = Html::new();
    html.el("div").attr("class", "section-head").with(|h| {
        h.el("h3")
            .attr("id", "gpu-title")
            .text("on this GPU (WebGPU)");
        h.push_text("\n");
        button(h, "gpu-rerun", "run again");
    });
    html.push_text("\n");
    for id in ["gpu-status", "gpu-adapter", "gpu-parts", "gpu-note"] {
        html.el("p")
            .attr("id", id)
            .attr_opt("role", (id == "gpu-status").then_some("status"))
            .flag("hidden", id == "gpu-note")
            .empty();
        html.push_text("\n");
    }
    html.el("canvas")
        .attr("id", "gpu-canvas")
        .flag("hidden", true)
        .attr("role", "img")
        .attr("aria-label", "emulator row and GPU row")
        .empty();
    html.push_text("\n");
    html.el("div")
        .attr("class", "table-wrap")
        .attr("id", "gpu-table-wrap")
        .flag("hidden", true)
        .with(|h| {
            h.el("table").attr("id", "gpu-lanes").with(|h| {
                h.el("thead").with(|h| {
                    h.el("tr").with(|h| {
                        for col in [
                            "lane",
                            "emulator",
                            "GPU",
                            "verdict",
                            "emulator source",
                            "GPU formula",
                        ] {
                            h.el("th").attr("scope", "col").text(col);
                        }
                    });
                });
                h.el("tbody").empty();
            });
        });
    html.push_text("\n");
    html.el("div").attr("class", "gpu-wgsl-head").with(|h| {
        h.el("h3").attr("id", "gpu-wgsl-title").text("WGSL");
        button(h, "gpu-copy", "copy");
    });
    html.push_text("\n");
    html.el("pre").attr("id", "gpu-wgsl").empty();
    html.push_text("\n");
    html.el("div").attr("class", "gpu-sort").with(|h| {
        button(h, "gpu-sort", &format!("sort on GPU (n = {SORT_LEN})"));
        h.push_text("\n");
        h.el("p")
            .attr("id", "gpu-sort-status")
            .attr("role", "status")
            .empty();
    });
    html.push_text("\n");
    html.el("p").attr("class", "gpu-honesty").text(HONESTY);
    kit::set_html(&panel, &html);
    let stage: Element = by_id(&doc, "stage")?;
    stage.after_with_node_1(&panel)?;
    // The toggle names the panel it controls only once the panel exists (in the first module
    // the toggle comes before the engine that builds the panel; an `aria-controls` naming no
    // element is invalid, WAI-ARIA 1.2 §6.6).
    toggle.set_attribute("aria-controls", "gpu-panel")?;

    let els = Rc::new(Els {
        status: by_id(&doc, "gpu-status")?,
        adapter: by_id(&doc, "gpu-adapter")?,
        parts: by_id(&doc, "gpu-parts")?,
        note: by_id(&doc, "gpu-note")?,
        canvas: by_id(&doc, "gpu-canvas")?,
        tbody: doc
            .query_selector("#gpu-lanes tbody")?
            .ok_or_else(|| JsValue::from_str("#gpu-lanes lacks its tbody"))?,
        wgsl: by_id(&doc, "gpu-wgsl")?,
        wgsl_title: by_id(&doc, "gpu-wgsl-title")?,
        table_wrap: by_id(&doc, "gpu-table-wrap")?,
        sort_status: by_id(&doc, "gpu-sort-status")?,
        toggle,
        panel,
        doc,
    });
    st.update(|s| s.els = Some(els.clone()));

    let s = st.clone();
    kit::listen(
        &by_id::<HtmlElement>(&els.doc, "gpu-rerun")?,
        "click",
        move |_| {
            arm(&s);
            run_compare(&s);
        },
    )?;
    let s = st.clone();
    kit::listen(
        &by_id::<HtmlElement>(&els.doc, "gpu-copy")?,
        "click",
        move |_| copy_wgsl(&s),
    )?;
    let s = st.clone();
    kit::listen(
        &by_id::<HtmlElement>(&els.doc, "gpu-sort")?,
        "click",
        move |_| run_sort(&s),
    )?;
    kit::listen(&els.note, "click", |e| {
        let lanes = e
            .target()
            .and_then(|t| t.dyn_into::<Element>().ok())
            .and_then(|t| t.get_attribute("data-lanes"));
        if let Some(lanes) = lanes {
            set_lanes(&lanes);
        }
    })?;
    Ok(())
}

/// `<button type="button" id=ID class="button">TEXT</button>`.
fn button(h: &mut Html, id: &'static str, text: &str) {
    h.el("button")
        .attr("type", "button")
        .attr("id", id)
        .attr("class", "button")
        .text(text);
}

fn els(st: &State<Panel>) -> Option<Rc<Els>> {
    st.get().and_then(|s| s.els.clone())
}

/// The toggle button: flips the panel and tells the permalink (`Scenario.gpu_panel`).
fn toggle_panel(st: &State<Panel>) {
    arm(st);
    let open = !st.get().is_some_and(|s| s.open);
    set_panel_open(st, open);
    crate::permalink::set_gpu_panel(open);
}

/// Opens or closes the panel (from the toggle, or from a permalink being applied); opening runs
/// the comparison of the step on screen.
fn set_panel_open(st: &State<Panel>, open: bool) {
    let changed = st
        .update(|s| {
            let changed = s.open != open;
            s.open = open;
            changed
        })
        .unwrap_or(false);
    if let Some(e) = els(st) {
        e.panel.set_hidden(!open);
        let _ = e
            .toggle
            .set_attribute("aria-pressed", if open { "true" } else { "false" });
    }
    if open && changed {
        run_compare(st);
    }
}

/// Sets the op view's lane count and lets the op view re-render (it listens to `input` on its
/// form), which hands the new step back here.
fn set_lanes(lanes: &str) {
    let Ok(doc) = document() else { return };
    let Ok(input) = by_id::<web_sys::HtmlInputElement>(&doc, "lane-count") else {
        return;
    };
    input.set_value(lanes);
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    if let Ok(ev) = Event::new_with_event_init_dict("input", &init) {
        let _ = input.dispatch_event(&ev);
    }
}

/// The open device, or a new one. Only a device with `subgroups` is kept: the panel's WGSL
/// needs it (`enable subgroups;`).
async fn device(st: &State<Panel>) -> Result<Rc<WebGpu>, GpuError> {
    if let Some(gpu) = st.get().and_then(|s| s.gpu.clone()) {
        return Ok(gpu);
    }
    let gpu = Rc::new(WebGpu::open().await?);
    if !gpu.facts().subgroups {
        return Err(GpuError::SubgroupsMissing {
            adapter: gpu.facts().adapter.clone(),
            needed_by: "the GPU check (WGSL `enable subgroups;`)".into(),
        });
    }
    st.update(|s| s.gpu = Some(gpu.clone()));
    Ok(gpu)
}

/// Drops the device after a device-level failure so that the next attempt starts afresh.
fn forget_device(st: &State<Panel>, e: &GpuError) {
    if !matches!(e, GpuError::Unsupported { .. } | GpuError::Input(_)) {
        st.update(|s| s.gpu = None);
    }
}

fn next_generation(st: &State<Panel>) -> Option<(u64, Step, DisplayOptions)> {
    let mut s = st.get_mut()?;
    s.generation += 1;
    Some((s.generation, s.step.clone()?, s.display))
}

fn current(st: &State<Panel>, generation: u64) -> bool {
    st.get().is_some_and(|s| s.generation == generation)
}

fn set_state(e: &Els, state: &str) {
    let _ = set_data(&e.panel, "state", state);
}

/// Runs the current step on the GPU (asynchronously) and shows the comparison.
fn run_compare(st: &State<Panel>) {
    let armed = st.get().is_some_and(|s| s.armed);
    if !armed {
        if let Some(e) = els(st) {
            set_state(&e, "idle");
            e.status.set_text_content(Some(
                "opened by a link: press “run again” to run this step on the GPU (GPU work starts only on a click)",
            ));
        }
        return;
    }
    let (Some(e), Some((generation, step, display))) = (els(st), next_generation(st)) else {
        return;
    };
    set_state(&e, "running");
    let _ = e.panel.remove_attribute("data-verdict");
    e.status.set_text_content(Some("running…"));
    e.note.set_hidden(true);
    let st = st.clone();
    wasm_bindgen_futures::spawn_local(async move {
        let outcome = compare_on_device(&st, &step).await;
        if !current(&st, generation) {
            return;
        }
        let shown = match outcome {
            Ok((cmp, wgsl)) => show_comparison(&e, &step, &cmp, &wgsl, display),
            Err(err) => {
                forget_device(&st, &err);
                show_failure(&st, &e, &step, &err)
            }
        };
        if let Err(js) = shown {
            e.status
                .set_text_content(Some(&format!("GPU panel error: {js:?}")));
            set_state(&e, "error");
        }
        let _ = mark_ready();
    });
}

async fn compare_on_device(
    st: &State<Panel>,
    step: &Step,
) -> Result<(Comparison, String), GpuError> {
    let gpu = device(st).await?;
    if step.dialect == Dialect::Wgsl {
        let caps = gpu.caps();
        if caps.min_size == caps.max_size && step.lanes != caps.min_size as usize {
            return Err(GpuError::unsupported(
                "lanes",
                format!(
                    "WGSL built-ins run on one whole subgroup: this device's subgroups have {} \
                     invocations, the step has {} lanes",
                    caps.min_size, step.lanes
                ),
            ));
        }
    }
    let (cmp, run) = gpu.compare_step(step, LoweringChoice::Auto).await?;
    Ok((cmp, run.wgsl))
}

/// One line of the device record: adapter, fallback, subgroup sizes, lowering, timing and kind.
fn adapter_line(cmp: &Comparison) -> String {
    let d = &cmp.device;
    let observed = cmp
        .observed_subgroup_size
        .map_or_else(|| "none".to_string(), |n| n.to_string());
    format!(
        "adapter: {} ({}{}) · subgroup size min {} max {}, observed {} · lowering: {} · {:.3} ms ({})",
        d.adapter,
        d.backend,
        if d.is_fallback { ", fallback adapter" } else { "" },
        d.subgroup_min_size,
        d.subgroup_max_size,
        observed,
        cmp.lowering.name(),
        cmp.timing.nanos as f64 / 1e6,
        cmp.timing.source.label()
    )
}

fn show_comparison(
    e: &Els,
    step: &Step,
    cmp: &Comparison,
    wgsl: &str,
    display: DisplayOptions,
) -> Js<()> {
    let mismatches = cmp.count(Verdict::Mismatch);
    let verdict = if cmp.agrees() { "match" } else { "mismatch" };
    // Name the scenario that ran (the form may hold an edit that does not run yet), and do not
    // call a run with no defined lane an agreement.
    let headline = if !cmp.agrees() {
        "the GPU DIFFERS from the emulator"
    } else if cmp.count(Verdict::Match) == 0 {
        "nothing to compare: the emulator defines no lane of this call"
    } else {
        "the GPU agrees with the emulator"
    };
    let mut line = format!(
        "{} {} · {} lanes — {headline}: {} match, {} mismatch, {} indeterminate, {} inactive",
        step.dialect.name(),
        step.op,
        step.lanes,
        cmp.count(Verdict::Match),
        mismatches,
        cmp.count(Verdict::Indeterminate),
        cmp.count(Verdict::Inactive),
    );
    for n in &cmp.notes {
        let _ = write!(line, " · {n}");
    }
    e.status.set_text_content(Some(&line));
    e.adapter.set_text_content(Some(&adapter_line(cmp)));
    e.parts.set_text_content(Some(&format!(
        "hardware subgroup operations: {} · formula (WGSL): {}",
        cmp.hardware_part, cmp.formula_part
    )));
    let observed = cmp
        .observed_subgroup_size
        .map_or_else(String::new, |n| n.to_string());
    set_data(&e.adapter, "subgroupSize", &observed)?;
    set_data(&e.adapter, "fallback", &cmp.device.is_fallback.to_string())?;
    e.wgsl.set_text_content(Some(wgsl));
    e.wgsl_title.set_text_content(Some("WGSL that ran"));
    e.table_wrap.set_hidden(false);
    let mut html = Html::new();
    for l in &cmp.lanes {
        let emulator = step.results.get(l.lane).map_or_else(
            || input_text(l.emulator, display),
            |r| {
                if r.source == Source::Inactive {
                    "inactive".into()
                } else {
                    result_text(r, display)
                }
            },
        );
        let gpu = match (l.verdict, l.gpu) {
            (Verdict::Inactive, _) | (_, None) => "–".to_string(),
            (_, Some(v)) => v.to_string(),
        };
        let why = l.why.as_deref().unwrap_or("");
        let formula = match (l.gpu_source, l.gpu_from) {
            (Some(Source::Lane), Some(j)) => format!("lane {j}"),
            (Some(src), _) => src.name().to_string(),
            (None, _) => "–".to_string(),
        };
        let v = l.verdict.name();
        html.el("tr")
            .attr("data-lane", l.lane)
            .attr("data-verdict", v)
            .with(|h| {
                h.el("td").attr("class", "lane").text(l.lane);
                h.el("td").attr("class", "emulator").text(&emulator);
                h.el("td").attr("class", "gpu").text(&gpu);
                h.el("td").attr("class", "verdict").text(v);
                h.el("td")
                    .attr("class", "source")
                    .attr("title", why)
                    .text(l.source.name());
                h.el("td").attr("class", "formula").text(&formula);
            });
    }
    kit::set_html(&e.tbody, &html);
    e.canvas.set_hidden(false);
    draw_rows(e, step, cmp, display)?;
    set_data(&e.panel, "verdict", verdict)?;
    set_state(e, "done");
    Ok(())
}

/// Shows why the page stays in emulator mode, in one line, with the WGSL the step lowers to on
/// a device without subgroups where there is one.
fn show_failure(st: &State<Panel>, e: &Els, step: &Step, err: &GpuError) -> Js<()> {
    e.status.set_text_content(Some(&format!(
        "emulator mode — the GPU check did not run: {err}"
    )));
    e.adapter.set_text_content(None);
    e.parts.set_text_content(None);
    kit::set_html(&e.tbody, &Html::new());
    e.table_wrap.set_hidden(true);
    e.canvas.set_hidden(true);
    let wgsl = lower_step(
        step,
        &SubgroupCaps::default(),
        LoweringChoice::Auto,
        ShaderTarget::Browser,
        "",
    )
    .map_or_else(|_| String::new(), |k| k.wgsl);
    e.wgsl_title.set_text_content(Some(if wgsl.is_empty() {
        "WGSL: none (the step has no GPU lowering)"
    } else {
        "WGSL this step lowers to on a device without subgroups (not run)"
    }));
    e.wgsl.set_text_content(Some(&wgsl));
    // A WGSL step whose lane count is not the device's subgroup size can be rerun at that size.
    if let (GpuError::Unsupported { field, .. }, Dialect::Wgsl) = (err, step.dialect) {
        let size = st
            .get()
            .and_then(|s| s.gpu.as_ref().map(|g| g.caps().min_size));
        if let (true, Some(size)) = (field == "lanes", size) {
            let mut html = Html::new();
            html.el("button")
                .attr("type", "button")
                .attr("id", "gpu-use-subgroup")
                .attr("class", "button")
                .attr("data-lanes", size)
                .text(format_args!(
                    "rerun with lanes = {size} (this device's subgroup size)"
                ));
            kit::set_html(&e.note, &html);
            e.note.set_hidden(false);
        }
    }
    set_state(e, "error");
    Ok(())
}

const MATCH: Paint = Paint {
    fill: "#dcfce7",
    stroke: "#15803d",
    ink: "#0f172a",
    pattern: Pattern::Solid,
    dashed: false,
};

const MISMATCH: Paint = Paint {
    fill: "#fecaca",
    stroke: "#b91c1c",
    ink: "#7f1d1d",
    pattern: Pattern::Grid,
    dashed: false,
};

/// Two rows of lane boxes through the shared canvas back end: the emulator's results (painted by
/// provenance, as in the main drawing) and, under them, the GPU's values (green = match, red grid
/// = mismatch, hatched = indeterminate by spec, dashed = inactive).
fn draw_rows(e: &Els, step: &Step, cmp: &Comparison, display: DisplayOptions) -> Js<()> {
    let mut width = e.canvas.get_bounding_client_rect().width();
    if width < 50.0 {
        width = 960.0;
    }
    let lanes = cmp.lanes.len().max(1);
    let left = 72.0;
    let pitch = ((width - left - 12.0) / lanes as f64).max(2.0);
    let gap = (pitch * 0.14).clamp(1.0, 4.0);
    let bw = pitch - gap;
    let h = 30.0;
    let font = [12.0, 10.0, 8.0]
        .into_iter()
        .find(|&s| {
            cmp.lanes.iter().all(|l| {
                let n = l.gpu.map_or(1, |v| v.to_string().chars().count()) as f64;
                n * s * 0.62 <= bw - 2.0
            })
        })
        .unwrap_or(0.0);
    let mut items = Vec::new();
    for (row, y, name) in [(Row::Input, 8.0, "emulator"), (Row::Result, 46.0, "GPU")] {
        items.push(Item::Text {
            x: left - 8.0,
            y: y + h / 2.0 + 4.0,
            text: name.into(),
            size: 12.0,
            color: "#0f172a",
            anchor: Anchor::End,
            bold: true,
        });
        for l in &cmp.lanes {
            let r = step.results.get(l.lane);
            let (p, label, tip) = if row == Row::Input {
                let src = r.map_or(Source::Inactive, |r| r.source);
                let text = r.map_or_else(String::new, |r| result_text(r, display));
                (
                    paint(src),
                    text.clone(),
                    format!("lane {}: emulator {text}", l.lane),
                )
            } else {
                let gpu = l.gpu.map_or_else(|| "–".to_string(), |v| v.to_string());
                let p = match l.verdict {
                    Verdict::Match => MATCH,
                    Verdict::Mismatch => MISMATCH,
                    Verdict::Indeterminate => paint(Source::Undefined),
                    Verdict::Inactive => paint(Source::Inactive),
                };
                let tip = format!("lane {}: GPU {gpu} — {}", l.lane, l.verdict.name());
                (p, gpu, tip)
            };
            items.push(Item::Box(BoxItem {
                rect: Rect {
                    x: left + l.lane as f64 * pitch + gap / 2.0,
                    y,
                    w: bw,
                    h,
                },
                paint: p,
                label: (font > 0.0 && label.chars().count() as f64 * font * 0.62 <= bw - 2.0)
                    .then_some(label),
                font,
                lane: Some(LaneRef { row, lane: l.lane }),
                source: None,
                tip: Some(tip),
            }));
        }
    }
    let scene = Scene {
        width,
        height: 84.0,
        items,
    };
    canvas::draw(&e.canvas, &scene, window()?.device_pixel_ratio())
}

fn copy_wgsl(st: &State<Panel>) {
    let Some(e) = els(st) else { return };
    let text = e.wgsl.text_content().unwrap_or_default();
    if let Ok(w) = window() {
        // The promise's outcome is not awaited: a refused clipboard leaves the text selectable.
        let _ = w.navigator().clipboard().write_text(&text);
    }
}

/// Sorts 1024 key/value pairs on the GPU and with the emulator's network; both must agree.
fn run_sort(st: &State<Panel>) {
    let Some(e) = els(st) else { return };
    let _ = e.sort_status.remove_attribute("data-verdict");
    e.sort_status.set_text_content(Some("running…"));
    let st = st.clone();
    wasm_bindgen_futures::spawn_local(async move {
        let line = match sort_on_device(&st).await {
            Ok((agrees, line)) => {
                let _ = set_data(
                    &e.sort_status,
                    "verdict",
                    if agrees { "match" } else { "mismatch" },
                );
                line
            }
            Err(err) => {
                forget_device(&st, &err);
                let _ = set_data(&e.sort_status, "verdict", "error");
                format!("emulator mode — the GPU sort did not run: {err}")
            }
        };
        e.sort_status.set_text_content(Some(&line));
        let _ = mark_ready();
    });
}

async fn sort_on_device(st: &State<Panel>) -> Result<(bool, String), GpuError> {
    let gpu = device(st).await?;
    let k = crosslane_core::network::keys(SORT_LEN, 1);
    let v: Vec<u32> = (0..SORT_LEN as u32).collect();
    let (gk, gv, timing) = gpu.sort(&k, &v).await?;
    let (mut ek, mut ev) = (k, v);
    Network::new(SORT_LEN)?.apply_pairs(&mut ek, &mut ev)?;
    let agrees = gk == ek && gv == ev;
    let line = format!(
        "odd-even merge sort of {SORT_LEN} u32 keys (with values) on {}: {} the emulator's network, {:.3} ms ({})",
        gpu.facts().adapter,
        if agrees { "matches" } else { "DIFFERS from" },
        timing.nanos as f64 / 1e6,
        timing.source.label()
    );
    Ok((agrees, line))
}

/// The panel as the kernel engine module shows it for the page's first module (which has only
/// the toggle, `views/op/gpu_link.rs`, and loads this module when the panel first opens).
#[cfg(all(feature = "engine", not(feature = "page")))]
mod linked {
    use std::cell::RefCell;

    use crosslane_core::Step;
    use wasm_bindgen::prelude::wasm_bindgen;
    use wasm_bindgen::JsValue;
    use web_sys::HtmlElement;

    use super::{arm, build, set_panel_open, step_rendered, Panel};
    use crate::dom::{by_id, document};
    use crate::kit::State;
    use crate::labels::DisplayOptions;

    thread_local! {
        /// The panel, once built.
        static PANEL: RefCell<Option<State<Panel>>> = const { RefCell::new(None) };
    }

    fn panel() -> Option<State<Panel>> {
        PANEL.with(|p| p.borrow().clone())
    }

    /// Builds the panel under the page's drawing, for the page's `button#gpu-toggle` (once).
    ///
    /// # Errors
    /// The page lacks the toggle or the drawing, or a DOM call failed.
    #[wasm_bindgen]
    pub fn op_gpu_mount() -> Result<(), JsValue> {
        if panel().is_some() {
            return Ok(());
        }
        let st = State::new(Panel::default());
        let toggle: HtmlElement = by_id(&document()?, "gpu-toggle")?;
        build(&st, toggle)?;
        PANEL.with(|p| *p.borrow_mut() = Some(st));
        Ok(())
    }

    /// Opens or closes the panel; `armed`: the visitor has clicked the toggle (GPU work
    /// starts only after a click).
    #[wasm_bindgen]
    pub fn op_gpu_open(open: bool, armed: bool) {
        if let Some(st) = panel() {
            if armed {
                arm(&st);
            }
            set_panel_open(&st, open);
        }
    }

    /// The op view's step on screen (a [`Step`] as JSON) and its "values in hex" option.
    ///
    /// # Errors
    /// The step's JSON does not read back.
    #[wasm_bindgen]
    pub fn op_gpu_step(step_json: &str, hex: bool) -> Result<(), JsValue> {
        let step: Step = serde_json::from_str(step_json)
            .map_err(|e| JsValue::from_str(&format!("step: {e}")))?;
        if let Some(st) = panel() {
            step_rendered(&st, &step, DisplayOptions { hex });
        }
        Ok(())
    }
}
