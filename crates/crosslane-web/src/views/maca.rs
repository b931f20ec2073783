//! The MetaX MACA view: one builtin of seed 002 at a time, with the panels the
//! single-op view lacks:
//! * the simulated global memory as an editable word table (`ldg`/`stg`/`ldg_*_predicator(_ret)`/
//!   `ldg_*_bsm`, seed 002 §3.1): loads show what each lane read in the lane drawing and table,
//!   stores (and the bsm copies) show the buffer after the call, changed words marked;
//! * the 64-bit lane mask of the compare builtins (§3.2) drawn as 64 bits;
//! * the warp MMA (§3.6): A, B, C and D as matrices coloured by the lane that holds each element
//!   (the core's layout table, which follows AMD MFMA: an inference the panel states), with D's
//!   values;
//! * the target architecture (`arch`, `--offload-arch`): chosen here and enforced by the core, whose
//!   error names the requirement.
//!
//! Element ids: `#maca-op`, `#maca-arch`, `#maca-values`, `input[data-maca-param=NAME]`,
//! `#maca-error`, `#maca-summary`, `#maca-canvas`, `#maca-lanes` (the lane table, same rows as
//! `#lanes`), `#maca-memory-edit input[data-word=W]`, `#maca-memory-after td[data-word=W]`,
//! `#maca-bits span.bit[data-bit=N]`, `#maca-mma figure.maca-matrix[data-matrix=A|B|C|D]`.

mod panels;

use std::collections::BTreeMap;

use crosslane_core::dialect::maca::{arch, memory, mma, mma_layout};
use crosslane_core::scenario::View;
use crosslane_core::{dialect_ops, find_op, Dialect, OpRequest, OpSpec, Step};
use std::cell::Cell;

use wasm_bindgen::{JsCast, JsValue};
use web_sys::{
    Document, Element, Event, HtmlCanvasElement, HtmlElement, HtmlInputElement, HtmlSelectElement,
};

use crate::dom::{append, document, el, el_as, mark_ready, window, Js};
use crate::form::param_initial;
use crate::kit::{self, Html, Owned, State, WeakState};
use crate::labels::{escape, DisplayOptions};
use crate::panic;
use crate::render::{canvas, scene};
use crate::views::op::table;
use crate::views::router;

/// The op the view opens with: a predicated load, so the memory table shows at once.
const FIRST_OP: &str = "__builtin_mxc_ldg_b32_predicator";

/// Params with their own panel (not a plain text field).
const OWN_PANEL: &[&str] = &["memory", "arch"];

struct Maca {
    doc: Document,
    op: HtmlSelectElement,
    arch: HtmlSelectElement,
    arch_note: Element,
    params: Element,
    values: HtmlInputElement,
    error: HtmlElement,
    summary: Element,
    rule: Element,
    canvas: HtmlCanvasElement,
    tbody: Element,
    memory: HtmlElement,
    memory_edit: Element,
    memory_after: Element,
    bits: HtmlElement,
    mma: HtmlElement,
    /// The simulated global memory as the user edited it (words).
    words: Vec<u32>,
    step: Option<Step>,
    /// The canvas's width as last measured (0: measure again), kept between renders: measuring
    /// it after the panels changed forced a layout inside every builtin switch (each task under 50 ms).
    /// Measured again when the view is shown or the window resized.
    width: Cell<f64>,
    /// The view itself, for the later parts of a render ([`Maca::finish_render`]).
    me: WeakState<Maca>,
    /// Bumped by every render, so that only the latest one's later parts run.
    renders: u64,
    /// The last event changed the view: [`Owned::settled`] reports it to the router.
    changed: bool,
    /// The builtin and input of the step shown, for the later parts of its render.
    shown: Option<(&'static OpSpec, crosslane_core::OpInput)>,
    /// The MMA grids not yet on the page ([`Maca::add_figure`] adds one per frame).
    figures: std::collections::VecDeque<Html>,
}

impl Owned for Maca {
    const WHAT: &'static str = "the MACA view";

    /// Told after the state is released, so the router's save hook can read the view (the
    /// address follows memory edits); an unchanged link adds no history.
    /// Nothing to report after an event the view ignored: choosing a builtin fires `input`
    /// and then `change`, and each report costs the link's encoding (each task under 50 ms).
    fn settled(view: &State<Maca>, _kind: &str) {
        if view.update(|m| std::mem::take(&mut m.changed)) == Some(true) {
            view.reporting(|| router::changed("maca"));
        }
    }
}

/// Builds the view inside `section#view-maca` and registers it with the router.
pub fn mount() -> Js<()> {
    let doc = document()?;
    let Some(root) = doc.get_element_by_id("view-maca") else {
        return Ok(());
    };
    let view = build(&doc, &root)?;
    let view = State::new(view);
    let me = view.downgrade();
    view.update(|m| m.me = me);
    for kind in ["input", "change"] {
        view.listen(&root, kind, move |m, e| m.on_event(&e, kind))?;
    }
    // The canvas is drawn at its on-screen width, which is 0 while the view is hidden: draw
    // again when the view is shown.
    let shown = view.clone();
    router::on_change(move |name| {
        if name != "maca" || shown.is_reporting() {
            return;
        }
        if let Some(m) = shown.get() {
            m.width.set(0.0);
            if let Some(step) = &m.step {
                if m.draw(step).and_then(|()| mark_ready()).is_err() {
                    panic::banner("crosslane could not draw the MACA view");
                }
            }
        }
    });
    let resized = view.clone();
    kit::listen(&window()?, "resize", move |_| {
        if let Some(m) = resized.get() {
            m.width.set(0.0);
        }
    })?;
    let saved = view.clone();
    let restored = view.clone();
    router::register(router::ViewHooks {
        name: "maca",
        save: Box::new(move || {
            let m = saved.get()?;
            Some(View::Op(m.request()))
        }),
        restore: Box::new(move |v| {
            let View::Op(req) = v else { return false };
            if Dialect::parse(&req.dialect) != Ok(Dialect::Maca) {
                return false;
            }
            let Some(mut m) = restored.get_mut() else {
                return false;
            };
            m.apply(req).is_ok()
        }),
    });
    let mut m = view.get_mut().ok_or_else(|| JsValue::from_str("busy"))?;
    m.select_op(FIRST_OP)?;
    m.render()
}

fn build(doc: &Document, root: &Element) -> Js<Maca> {
    let controls = el(doc, "div", &[("class", "maca-controls")], None)?;
    let op_label = el(doc, "label", &[("for", "maca-op")], Some("builtin"))?;
    let op: HtmlSelectElement = el_as(doc, "select", &[("id", "maca-op")])?;
    for spec in dialect_ops(Dialect::Maca) {
        let o = el(doc, "option", &[("value", spec.name)], Some(spec.name))?;
        append(&op, &o)?;
    }
    let arch_label = el(
        doc,
        "label",
        &[("for", "maca-arch")],
        Some("target (--offload-arch)"),
    )?;
    let arch: HtmlSelectElement = el_as(doc, "select", &[("id", "maca-arch")])?;
    for n in arch::KNOWN {
        let name = format!("xcore{n}");
        append(&arch, &el(doc, "option", &[("value", &name)], Some(&name))?)?;
    }
    let arch_note = el(
        doc,
        "span",
        &[("id", "maca-arch-note"), ("class", "hint")],
        None,
    )?;
    let values_label = el(doc, "label", &[("for", "maca-values")], Some("operand row"))?;
    let values: HtmlInputElement = el_as(
        doc,
        "input",
        &[
            ("id", "maca-values"),
            ("placeholder", "lane"),
            ("spellcheck", "false"),
        ],
    )?;
    for part in [
        &op_label,
        &op,
        &arch_label,
        &arch,
        &arch_note,
        &values_label,
        &values,
    ] {
        append(&controls, part)?;
    }
    let params = el(
        doc,
        "div",
        &[("id", "maca-params"), ("class", "maca-params")],
        None,
    )?;
    let error: HtmlElement = el_as(doc, "p", &[("id", "maca-error"), ("role", "alert")])?;
    error.set_hidden(true);
    let rule = el(
        doc,
        "p",
        &[("id", "maca-rule"), ("class", "maca-rule")],
        None,
    )?;
    let summary = el(doc, "p", &[("id", "maca-summary")], None)?;
    let canvas: HtmlCanvasElement = el_as(
        doc,
        "canvas",
        &[
            ("id", "maca-canvas"),
            ("role", "img"),
            ("aria-label", "lane diagram"),
            ("aria-describedby", "maca-lanes"),
        ],
    )?;
    let memory: HtmlElement = el_as(
        doc,
        "section",
        &[("id", "maca-memory"), ("class", "maca-panel")],
    )?;
    append(
        &memory,
        &el(
            doc,
            "h2",
            &[],
            Some("global memory (32-bit little-endian words; edit any word)"),
        )?,
    )?;
    let memory_edit = el(doc, "div", &[("class", "maca-scroll")], None)?;
    let memory_after = el(
        doc,
        "div",
        &[("class", "maca-scroll"), ("id", "maca-after")],
        None,
    )?;
    append(&memory, &memory_edit)?;
    append(&memory, &memory_after)?;
    let bits: HtmlElement = el_as(
        doc,
        "section",
        &[("id", "maca-mask"), ("class", "maca-panel")],
    )?;
    let mma: HtmlElement = el_as(
        doc,
        "section",
        &[("id", "maca-mma-panel"), ("class", "maca-panel")],
    )?;
    let table = el(
        doc,
        "table",
        &[("id", "maca-lanes"), ("class", "maca-lanes")],
        None,
    )?;
    let mut head = Html::new();
    head.el("thead").with(|h| {
        h.el("tr").with(|h| {
            for col in ["lane", "active", "input", "result", "source", "why"] {
                h.el("th").attr("scope", "col").text(col);
            }
        });
    });
    kit::set_html(&table, &head);
    let tbody = el(doc, "tbody", &[], None)?;
    append(&table, &tbody)?;
    let table_wrap = el(doc, "div", &[("class", "table-wrap maca-table")], None)?;
    append(&table_wrap, &table)?;
    for part in [
        &controls, &params, &error, &rule, &memory, &bits, &mma, &summary,
    ] {
        append(root, part)?;
    }
    append(root, &canvas)?;
    append(root, &table_wrap)?;
    Ok(Maca {
        doc: doc.clone(),
        op,
        arch,
        arch_note,
        params,
        values,
        error,
        summary,
        rule,
        canvas,
        tbody,
        memory,
        memory_edit,
        memory_after,
        bits,
        mma,
        words: Vec::new(),
        step: None,
        width: Cell::new(0.0),
        me: WeakState::default(),
        renders: 0,
        shown: None,
        changed: false,
        figures: Default::default(),
    })
}

impl Maca {
    fn spec(&self) -> Option<&'static OpSpec> {
        find_op(Dialect::Maca, &self.op.value()).ok()
    }

    fn on_event(&mut self, e: &Event, kind: &str) -> Js<()> {
        let Some(target) = e.target().and_then(|t| t.dyn_into::<Element>().ok()) else {
            return Ok(());
        };
        let is_select = target.tag_name().eq_ignore_ascii_case("select");
        if is_select != (kind == "change") {
            return Ok(());
        }
        self.changed = true;
        if target.id() == "maca-op" {
            self.select_op(&self.op.value())?;
        } else if let Some(w) = target.get_attribute("data-word") {
            let Ok(input) = target.dyn_into::<HtmlInputElement>() else {
                return Ok(());
            };
            let text = input.value();
            let parsed = memory::parse_memory(&text, &format!("memory[{w}]"));
            match (w.parse::<usize>(), parsed.as_deref()) {
                (Ok(i), Ok([word])) => {
                    input.remove_attribute("aria-invalid")?;
                    if let Some(slot) = self.words.get_mut(i) {
                        *slot = *word;
                    }
                }
                _ => {
                    input.set_attribute("aria-invalid", "true")?;
                    self.show_error(&format!(
                        "memory[{w}]: `{text}` is not a 32-bit word (decimal or 0x hex); the table keeps the last valid word"
                    ));
                    return mark_ready();
                }
            }
        }
        self.render()
    }

    /// Switches to builtin `name`: parameter fields at their defaults, the memory reset to the
    /// op's default buffer.
    fn select_op(&mut self, name: &str) -> Js<()> {
        let Some(spec) = find_op(Dialect::Maca, name).ok() else {
            return Ok(());
        };
        self.op.set_value(spec.name);
        kit::clear(&self.params);
        for p in spec.params().filter(|p| !OWN_PANEL.contains(&p.name)) {
            let id = format!("maca-param-{}", p.name);
            let wrap = el(&self.doc, "span", &[("class", "maca-param")], None)?;
            let label = el(
                &self.doc,
                "label",
                &[("for", &id), ("title", p.doc)],
                Some(p.name),
            )?;
            let input: HtmlInputElement = el_as(
                &self.doc,
                "input",
                &[
                    ("id", &id),
                    ("data-maca-param", p.name),
                    ("title", p.doc),
                    ("spellcheck", "false"),
                ],
            )?;
            input.set_value(&param_initial(p));
            append(&wrap, &label)?;
            append(&wrap, &input)?;
            append(&self.params, &wrap)?;
        }
        let arch_param = spec.params().find(|p| p.name == "arch");
        self.arch.set_disabled(arch_param.is_none());
        match arch_param {
            Some(p) => {
                self.arch.set_value(&param_initial(p));
                self.arch_note.set_text_content(None);
            }
            None => self
                .arch_note
                .set_text_content(Some("this builtin runs on every target")),
        }
        let memory_param = spec.params().find(|p| p.name == "memory");
        self.memory.set_hidden(memory_param.is_none());
        let words = memory_param
            .and_then(|p| memory::parse_memory(&param_initial(p), "memory").ok())
            .unwrap_or_default();
        // The editor always shows `self.words` (an edit updates both), so when the next builtin
        // starts from the same buffer and no field holds refused text, the table stays: building
        // its 256 inputs again made every switch between memory builtins a long task
        // (each task under 50 ms).
        let refused = self.memory_edit.query_selector("[aria-invalid]")?.is_some();
        let empty = self.memory_edit.first_element_child().is_none();
        if words != self.words || refused || empty {
            self.words = words;
            kit::set_html(&self.memory_edit, &panels::memory_editor(&self.words));
        }
        self.rule.set_text_content(Some(spec.rule));
        Ok(())
    }

    /// The request as the fields say.
    fn request(&self) -> OpRequest {
        let mut params = BTreeMap::new();
        if let Ok(found) = self.params.query_selector_all("input[data-maca-param]") {
            for i in 0..found.length() {
                if let Some(input) = found
                    .item(i)
                    .and_then(|n| n.dyn_into::<HtmlInputElement>().ok())
                {
                    if let Some(name) = input.get_attribute("data-maca-param") {
                        params.insert(name, input.value());
                    }
                }
            }
        }
        if let Some(spec) = self.spec() {
            if spec.params().any(|p| p.name == "memory") {
                let words: Vec<String> = self.words.iter().map(|w| format!("0x{w:x}")).collect();
                params.insert("memory".into(), words.join(","));
            }
            if spec.params().any(|p| p.name == "arch") {
                params.insert("arch".into(), self.arch.value());
            }
        }
        OpRequest {
            dialect: "maca".into(),
            op: self.op.value(),
            values: self.values.value(),
            params,
            ..Default::default()
        }
    }

    /// Puts a saved request into the fields and renders it.
    fn apply(&mut self, req: &OpRequest) -> Js<()> {
        self.select_op(&req.op)?;
        self.values.set_value(&req.values);
        for (k, v) in &req.params {
            match k.as_str() {
                "arch" => self.arch.set_value(v),
                "memory" => {
                    if let Ok(w) = memory::parse_memory(v, "memory") {
                        self.words = w;
                        kit::set_html(&self.memory_edit, &panels::memory_editor(&self.words));
                    }
                }
                _ => {
                    if let Ok(Some(e)) = self
                        .params
                        .query_selector(&format!("input[data-maca-param=\"{}\"]", escape(k)))
                    {
                        if let Ok(input) = e.dyn_into::<HtmlInputElement>() {
                            input.set_value(v);
                        }
                    }
                }
            }
        }
        self.render()
    }

    fn show_error(&self, text: &str) {
        self.error.set_text_content(Some(text));
        self.error.set_hidden(false);
    }

    /// Runs the request and shows its summary, then, in a task of its own
    /// ([`Maca::finish_render`]), the lane table and the drawing, and in a third
    /// ([`Maca::finish_panels`]) the panels of this builtin: a builtin switch in one task ran
    /// over 50 ms, the MMA panels alone taking 10–30 ms, and the address
    /// update at the end of the first task makes the browser lay out what that task changed.
    /// An input error keeps the last drawing and says which field is wrong.
    fn render(&mut self) -> Js<()> {
        let req = self.request();
        let resolved = req.resolve();
        let ran = req.run();
        match (resolved, ran) {
            (Ok((spec, input)), Ok(step)) => {
                self.error.set_hidden(true);
                self.error.set_text_content(None);
                self.summary.set_text_content(Some(&format!(
                    "{} · {} lanes · active {}",
                    step.op,
                    step.lanes,
                    step.active.to_hex(step.lanes)
                )));
                self.step = Some(step);
                self.shown = Some((spec, input));
                self.renders += 1;
                let render = self.renders;
                self.me.after_frame(move |m| m.finish_render(render));
                // `body[data-ready]` counts this render when its last part is done.
                return Ok(());
            }
            (Err(err), _) | (_, Err(err)) => {
                let kept = if self.step.is_some() {
                    " (the drawing shows the last valid input)"
                } else {
                    ""
                };
                self.show_error(&format!("{}: {}{kept}", err.field, err.message));
            }
        }
        mark_ready()
    }

    /// The second part of render `render` ([`Maca::render`]): the lane table and the drawing,
    /// then the third part in a task of its own. Nothing when a newer render came first (its
    /// own parts follow).
    fn finish_render(&mut self, render: u64) -> Js<()> {
        if render != self.renders {
            return Ok(());
        }
        if let Some(step) = &self.step {
            table::render(&self.tbody, step, DisplayOptions::default());
            self.draw(step)?;
        }
        self.me.after_frame(move |m| m.finish_panels(render));
        Ok(())
    }

    /// The third part of render `render`: the builtin's panels. An MMA's grids follow one per
    /// frame ([`Maca::add_figure`]), from the next frame on; then the render counts as done
    /// (`body[data-ready]`). Nothing when a newer render came first.
    fn finish_panels(&mut self, render: u64) -> Js<()> {
        if render != self.renders {
            return Ok(());
        }
        self.figures.clear();
        if let (Some((spec, input)), Some(step)) = (&self.shown, &self.step) {
            self.figures = self.show_panels(spec, input, step)?.into();
        }
        if self.figures.is_empty() {
            return mark_ready();
        }
        self.me.after_frame(move |m| m.add_figure(render));
        Ok(())
    }

    /// Puts the next MMA grid of render `render` on the page and asks for the next frame; the
    /// render counts as done after the last. Four grids are up to 1 536 table cells, and laid
    /// out in one frame they were a 65–80 ms task (each task under 50 ms).
    fn add_figure(&mut self, render: u64) -> Js<()> {
        if render != self.renders {
            return Ok(());
        }
        let Some(figure) = self.figures.pop_front() else {
            return mark_ready();
        };
        if let Some(grids) = self.mma.query_selector("#maca-mma")? {
            kit::append_html(&grids, &figure)?;
        }
        self.me.after_frame(move |m| m.add_figure(render));
        Ok(())
    }

    /// Shows the memory, bit and MMA panels of `spec`; an MMA panel gets its heading and an
    /// empty `#maca-mma`, and its grids are returned for the caller to add.
    fn show_panels(
        &self,
        spec: &'static OpSpec,
        input: &crosslane_core::OpInput,
        step: &Step,
    ) -> Js<Vec<Html>> {
        match memory::memory_effect(spec.name, input) {
            Ok(Some((buffer, before, after))) => kit::set_html(
                &self.memory_after,
                &panels::memory_after(buffer, &before, &after),
            ),
            _ => kit::clear(&self.memory_after),
        }
        let is_cmp = spec.name.contains("cmp");
        self.bits.set_hidden(!is_cmp);
        kit::set_html(
            &self.bits,
            &if is_cmp {
                panels::bit_strip(step).unwrap_or_default()
            } else {
                Html::new()
            },
        );
        let mma_parts = mma::spec_of(spec.name).zip(mma_layout::layout_of(spec.name));
        self.mma.set_hidden(mma_parts.is_none());
        match mma_parts {
            Some((ms, layout)) => {
                let figures = panels::mma_figures(ms, layout, input).unwrap_or_default();
                // The layout's provenance, from the op's own rule text.
                let note = spec
                    .rule
                    .split_once("Lane layout (")
                    .and_then(|(_, rest)| rest.split_once(')'))
                    .map_or_else(
                        || spec.rule.to_string(),
                        |(why, _)| format!("Lane layout: {why}."),
                    );
                let mut html = Html::new();
                html.el("h2").with(|h| {
                    h.push_text(
                        "warp MMA: D = A·B + C, each element coloured by the lane that holds it ",
                    );
                    h.el("span")
                        .attr("class", "hint")
                        .text("(hover a cell: lane and register)");
                });
                html.el("p")
                    .attr("class", "maca-mma-note")
                    .attr("id", "maca-mma-note")
                    .text(&note);
                html.el("div")
                    .attr("class", "maca-mma")
                    .attr("id", "maca-mma")
                    .empty();
                kit::set_html(&self.mma, &html);
                Ok(figures)
            }
            None => {
                kit::clear(&self.mma);
                Ok(Vec::new())
            }
        }
    }

    fn draw(&self, step: &Step) -> Js<()> {
        let mut width = self.width.get();
        if width < 50.0 {
            width = canvas::available_width(&self.canvas);
            self.width.set(width);
        }
        let measured = (width >= 50.0).then_some(width);
        if width < 50.0 {
            width = 960.0;
        }
        let scene = scene::build(step, width);
        canvas::draw_in(
            &self.canvas,
            &scene,
            window()?.device_pixel_ratio(),
            measured,
        )
    }
}
