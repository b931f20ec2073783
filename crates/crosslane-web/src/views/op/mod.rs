//! The operation view: one vendor operation on one warp (`section#view-op`), with its parts:
//! the control form (`controls`), the lane table (`table`) and the GPU panel (`gpu`).
//!
//! The view's state and event wiring. Every `input` / `change` of a control re-runs the request
//! and re-renders; a click on a lane (canvas or table) switches it on or off in the active mask.
//! After every render `document.body.dataset.ready` is set to an incrementing counter (page
//! contract, docs/embedding.md) so tests and embeds can wait for the page.
//!
//! An [`crosslane_core::InputError`] never clears the page: the previous drawing, table and
//! diagnostics stay, the typed text stays, and the error shows in `#input-error` and beside its
//! field.

use crosslane_core::scenario::View;
use crosslane_core::{Level, Source, Step};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Element, Event, HtmlCanvasElement, HtmlElement, HtmlInputElement, MouseEvent};

use crate::dom::{by_id, document, window, Js};
use crate::kit::{self, Html, Owned, State};
use crate::labels::DisplayOptions;
use crate::panic;
use crate::render::scene::{self, LaneRef, Scene};
use crate::render::{canvas, svg};

mod controls;
// The GPU check: here where this module has `crosslane_gpu` (the `engine` feature); the page's
// first module has only its toggle and loads the panel from the kernel engine module.
#[cfg(feature = "engine")]
pub mod gpu;
#[cfg(not(feature = "engine"))]
#[path = "gpu_link.rs"]
pub mod gpu;
mod gpu_toggle;
pub mod table;

use controls::Controls;

/// The page.
struct App {
    controls: Controls,
    canvas: HtmlCanvasElement,
    tooltip: HtmlElement,
    tbody: Element,
    diagnostics: Element,
    diagnostics_empty: HtmlElement,
    input_error: HtmlElement,
    signature: Element,
    rule: Element,
    source: Element,
    summary: Element,
    export: Element,
    exports: Exports,
    /// `input#show-hex`: the display options are read from it at each render (derived state,
    /// so no listener has to run before another).
    hex: HtmlInputElement,
    /// The GPU panel, this view's part: handed every rendered step.
    gpu: State<gpu::Panel>,
    step: Option<Step>,
    /// The last request that ran without an error: a field in error shows its message and the
    /// drawing keeps this request's text for that field while the other fields apply
    /// ([`crosslane_core::fields::check_fields`]).
    last_ok: Option<crosslane_core::OpRequest>,
    scene: Option<Scene>,
    /// A user edit happened during the current event: tell the router once the app is no longer
    /// borrowed (the permalink module then asks the op view's `save` hook).
    dirty: bool,
}

/// The export links of the drawing header (`#export-png`, `#export-json`, `#export-csv`,
/// `#export-code` with `select#export-dialect`) and the code panel they fill.
struct Exports {
    png: Element,
    json: Element,
    csv: Element,
    code: Element,
    dialect: web_sys::HtmlSelectElement,
    code_view: HtmlElement,
}

/// Mounts the GPU panel (the view's part, handed each step), then builds the view and renders
/// the first op. Errors building the view go to the red banner (the other views still mount).
pub fn mount() -> Js<()> {
    let gpu = gpu::mount()?;
    if let Err(e) = try_start(gpu) {
        panic::banner(&format!("crosslane could not start: {e:?}"));
    }
    Ok(())
}

fn try_start(gpu: State<gpu::Panel>) -> Js<()> {
    let doc = document()?;
    let form: Element = by_id(&doc, "controls")?;
    let controls = Controls::build(&doc, form.clone())?;
    let hex = table::install_hex_toggle(&doc, &form)?;
    let table: Element = by_id::<web_sys::HtmlTableElement>(&doc, "lanes")?.into();
    let tbody = match table.query_selector("tbody")? {
        Some(t) => t,
        None => {
            let t = doc.create_element("tbody")?;
            table.append_child(&t)?;
            t
        }
    };
    let app = App {
        canvas: by_id(&doc, "lane-canvas")?,
        tooltip: by_id(&doc, "lane-tooltip")?,
        tbody,
        diagnostics: by_id(&doc, "diagnostics")?,
        diagnostics_empty: by_id(&doc, "diagnostics-empty")?,
        input_error: by_id(&doc, "input-error")?,
        signature: by_id(&doc, "op-signature")?,
        rule: by_id(&doc, "op-rule")?,
        source: by_id(&doc, "op-source")?,
        summary: by_id(&doc, "step-summary")?,
        export: by_id(&doc, "export-svg")?,
        exports: Exports {
            png: by_id(&doc, "export-png")?,
            json: by_id(&doc, "export-json")?,
            csv: by_id(&doc, "export-csv")?,
            code: by_id(&doc, "export-code")?,
            dialect: by_id(&doc, "export-dialect")?,
            code_view: by_id(&doc, "code-view")?,
        },
        controls,
        hex,
        gpu,
        step: None,
        last_ok: None,
        scene: None,
        dirty: false,
    };
    let canvas = app.canvas.clone();
    let export = app.export.clone();
    let app = State::new(app);

    for kind in ["input", "change"] {
        app.listen(&form, kind, move |a, e| a.on_form_event(&e, kind))?;
    }
    kit::listen(&form, "submit", |e| e.prevent_default())?;
    app.listen(&table, "click", |a, e| a.on_table_click(&e))?;
    app.listen(&canvas, "click", |a, e| a.on_canvas_click(&e))?;
    app.listen(&canvas, "mousemove", |a, e| a.on_canvas_hover(&e))?;
    app.listen(&canvas, "mouseleave", |a, _| a.hide_tooltip())?;
    app.listen(&export, "click", |a, _| a.on_export())?;
    let links = {
        let a = app.get().ok_or_else(|| JsValue::from_str("busy"))?;
        [
            ("png", a.exports.png.clone()),
            ("json", a.exports.json.clone()),
            ("csv", a.exports.csv.clone()),
            ("code", a.exports.code.clone()),
            ("code", a.exports.dialect.clone().into()),
        ]
    };
    for (kind, target) in links {
        let event = if target.tag_name().eq_ignore_ascii_case("select") {
            "change"
        } else {
            "click"
        };
        app.listen(&target, event, move |a, e| a.on_export_kind(kind, &e))?;
    }
    app.listen(&window()?, "resize", |a, _| a.redraw())?;

    let saved = app.clone();
    let restoring = app.clone();
    crate::views::router::register(crate::views::router::ViewHooks {
        name: "op",
        save: Box::new(move || {
            let a = saved.get()?;
            a.controls.request().ok().map(View::Op)
        }),
        // An op scenario (a permalink, the reference's "open in playground") fills the form
        // exactly as it was typed and re-renders.
        restore: Box::new(move |view| {
            let View::Op(request) = view else {
                return false;
            };
            let Some(mut a) = restoring.get_mut() else {
                return false;
            };
            if let Err(err) = a.controls.set_request(request).and_then(|()| a.render()) {
                panic::banner(&format!("crosslane could not open the operation: {err:?}"));
            }
            true
        }),
    });
    let drawn = app.clone();
    crate::embed::register_drawing(
        "op",
        Box::new(move || {
            let a = drawn.get()?;
            // Drawn for a documentation column, not for the width of this window.
            let scene =
                scene::build_with(a.step.as_ref()?, crate::embed::STATIC_WIDTH, a.display());
            Some((svg::to_svg(&scene), scene.height))
        }),
    );

    let mut a = app.get_mut().ok_or_else(|| JsValue::from_str("busy"))?;
    a.render()
}

impl Owned for App {
    const WHAT: &'static str = "the operation view";

    /// A user edit happened during the event: the router is told once the app is released (the
    /// permalink module then asks the op view's `save` hook).
    fn settled(app: &State<App>, _kind: &str) {
        if app.update(|a| std::mem::take(&mut a.dirty)) == Some(true) {
            crate::views::router::changed("op");
        }
    }
}

impl App {
    /// How values are written now: `#show-hex` as it stands.
    fn display(&self) -> DisplayOptions {
        DisplayOptions {
            hex: self.hex.checked(),
        }
    }

    fn on_form_event(&mut self, e: &Event, kind: &str) -> Js<()> {
        let Some(target) = e.target().and_then(|t| t.dyn_into::<Element>().ok()) else {
            return Ok(());
        };
        // Text fields re-render on `input` (every keystroke); menus and checkboxes on `change`.
        // Each event is taken once so one edit gives one render.
        let discrete = target.tag_name().eq_ignore_ascii_case("select")
            || target.get_attribute("type").as_deref() == Some("checkbox");
        if discrete != (kind == "change") {
            return Ok(());
        }
        match target.id().as_str() {
            "dialect" => self.controls.select_dialect()?,
            "op" => self.controls.select_op()?,
            _ => {}
        }
        self.dirty = true;
        self.render()
    }

    fn lanes(&self) -> usize {
        self.step.as_ref().map_or(0, |s| s.lanes)
    }

    fn on_table_click(&mut self, e: &Event) -> Js<()> {
        let Some(target) = e.target().and_then(|t| t.dyn_into::<Element>().ok()) else {
            return Ok(());
        };
        let Some(row) = target.closest("tr[data-lane]")? else {
            return Ok(());
        };
        let Some(lane) = row
            .get_attribute("data-lane")
            .and_then(|l| l.parse::<usize>().ok())
        else {
            return Ok(());
        };
        if shift_held(e) {
            self.controls.toggle_exited(lane, self.lanes());
        } else {
            self.controls.toggle_lane(lane, self.lanes());
        }
        self.dirty = true;
        self.render()
    }

    fn canvas_point(&self, e: &Event) -> Option<(f64, f64)> {
        let m = e.dyn_ref::<MouseEvent>()?;
        Some((m.offset_x(), m.offset_y()))
    }

    fn on_canvas_click(&mut self, e: &Event) -> Js<()> {
        // A static embed edits nothing (`?embed=static`, embed.rs).
        if crate::query::is_static_embed() {
            return Ok(());
        }
        let Some((x, y)) = self.canvas_point(e) else {
            return Ok(());
        };
        let Some((lane, _)) = self.scene.as_ref().and_then(|s| s.hit(x, y)) else {
            return Ok(());
        };
        if shift_held(e) {
            self.controls.toggle_exited(lane.lane, self.lanes());
        } else {
            self.controls.toggle_lane(lane.lane, self.lanes());
        }
        self.dirty = true;
        self.render()
    }

    fn on_canvas_hover(&mut self, e: &Event) -> Js<()> {
        let Some((x, y)) = self.canvas_point(e) else {
            return Ok(());
        };
        let Some((lane, tip)) = self.scene.as_ref().and_then(|s| s.hit(x, y)) else {
            self.canvas.style().set_property("cursor", "default")?;
            return self.hide_tooltip();
        };
        // A static embed edits nothing: its tips leave out "click to switch the lane".
        let tip = if crate::query::is_static_embed() {
            tip.split("\nclick").next().unwrap_or(tip)
        } else {
            tip
        };
        self.tooltip.set_text_content(Some(tip));
        self.mark_contributors(Some(lane))?;
        let style = self.tooltip.style();
        let width = f64::from(self.canvas.client_width());
        let left = if x + 340.0 > width {
            x - 334.0
        } else {
            x + 14.0
        };
        let left = left.max(0.0) + f64::from(self.canvas.offset_left());
        let top = y + 16.0 + f64::from(self.canvas.offset_top());
        style.set_property("left", &format!("{left}px"))?;
        style.set_property("top", &format!("{top}px"))?;
        self.tooltip.set_hidden(false);
        let cursor = if crate::query::is_static_embed() {
            "default"
        } else {
            "pointer"
        };
        self.canvas.style().set_property("cursor", cursor)
    }

    fn hide_tooltip(&mut self) -> Js<()> {
        self.tooltip.set_hidden(true);
        self.mark_contributors(None)
    }

    /// Outlines the lanes that fed a hovered computed result (none for `None`).
    fn mark_contributors(&self, hovered: Option<LaneRef>) -> Js<()> {
        match (&self.scene, &self.step) {
            (Some(scene), Some(step)) => canvas::mark_contributors(
                &self.canvas,
                scene,
                step,
                hovered,
                window()?.device_pixel_ratio(),
            ),
            _ => Ok(()),
        }
    }

    /// Fills the SVG export link just before the browser follows it.
    fn on_export(&mut self) -> Js<()> {
        if let Some(scene) = &self.scene {
            let text = crate::export::svg::export(scene);
            let uri: String = js_sys::encode_uri_component(&text).into();
            self.export
                .set_attribute("href", &format!("data:image/svg+xml;charset=utf-8,{uri}"))?;
        }
        Ok(())
    }

    /// Fills export link `kind` (`png`, `json`, `csv`, `code`) just before the browser follows
    /// it (`e`: the click, or the dialect's `change`); `code` also shows the snippet in
    /// `#code-view` (as text).
    fn on_export_kind(&mut self, kind: &str, e: &Event) -> Js<()> {
        use crate::export;
        let Some(step) = &self.step else {
            return Ok(());
        };
        match kind {
            "png" => {
                let Some(scene) = &self.scene else {
                    return Ok(());
                };
                let params = self.controls.request()?.params;
                let title = crate::render::print::title(step, &params);
                export::set_download(
                    &self.exports.png,
                    export::png::FILE,
                    &export::png::data_url(scene, &title, window()?.device_pixel_ratio())?,
                )
            }
            "json" => export::set_download(
                &self.exports.json,
                export::json::FILE,
                &export::data_uri("application/json", &export::json::export(&[step])),
            ),
            "csv" => export::set_download(
                &self.exports.csv,
                export::csv::FILE,
                &export::data_uri("text/csv", &export::csv::export(step, self.display())),
            ),
            _ => {
                let req = self.controls.request()?;
                let text = match code_snippet(&req, &self.exports.dialect.value()) {
                    Some(Ok((code, file))) => {
                        export::set_download(
                            &self.exports.code,
                            &file,
                            &export::data_uri("text/plain", &code),
                        )?;
                        code
                    }
                    Some(Err(e)) => format!("// cannot export: {e}"),
                    // The code generator is in the kernel engine module: the link's default
                    // action waits for it, and the same event comes again once it is loaded.
                    None => {
                        e.prevent_default();
                        load_code_exporter(&self.exports, &e.type_())
                    }
                };
                self.exports.code_view.set_text_content(Some(&text));
                self.exports.code_view.set_hidden(false);
                Ok(())
            }
        }
    }

    /// Runs the request as typed and shows the step; every field in error gets its own line
    /// beside it, and the fields that are right still apply (a field in error keeps its last
    /// valid text, or its default, in the drawing).
    fn render(&mut self) -> Js<()> {
        self.controls.clear_errors()?;
        self.show_op_info();
        let request = self.controls.request()?;
        let check = crosslane_core::fields::check_fields(&request, self.last_ok.as_ref());
        for err in &check.errors {
            self.controls.show_error(err)?;
        }
        let shown = check.step.is_some() || self.step.is_some();
        if let Some(step) = check.step {
            self.show_step(step)?;
        }
        if check.errors.is_empty() {
            self.last_ok = Some(request);
            self.input_error.set_text_content(None);
            self.input_error.set_hidden(true);
        } else {
            let kept = if shown {
                " (the drawing uses the last valid value, or the default, of each field in error)"
            } else {
                ""
            };
            let all: Vec<String> = check
                .errors
                .iter()
                .map(|e| format!("{}: {}", e.field, e.message))
                .collect();
            self.input_error
                .set_text_content(Some(&format!("{}{kept}", all.join("; "))));
            self.input_error.set_hidden(false);
        }
        self.mark_ready()
    }

    fn redraw(&mut self) -> Js<()> {
        if let Some(step) = self.step.take() {
            self.draw(&step)?;
            self.step = Some(step);
        }
        self.mark_ready()
    }

    fn mark_ready(&mut self) -> Js<()> {
        crate::embed::report_height();
        crate::dom::mark_ready()
    }

    fn show_op_info(&self) {
        let Some(spec) = self.controls.current_op() else {
            return;
        };
        self.signature
            .set_text_content(Some(&spec.signature_line()));
        self.rule.set_text_content(Some(spec.rule));
        self.source.set_text_content(Some(spec.source));
    }

    fn draw(&mut self, step: &Step) -> Js<()> {
        let mut width = canvas::available_width(&self.canvas);
        if width < 50.0 {
            width = 960.0;
        }
        let scene = scene::build_with(step, width, self.display());
        canvas::draw(&self.canvas, &scene, window()?.device_pixel_ratio())?;
        self.scene = Some(scene);
        Ok(())
    }

    fn show_step(&mut self, step: Step) -> Js<()> {
        self.draw(&step)?;
        let display = self.display();
        table::render(&self.tbody, &step, display);
        let mut html = Html::new();
        for d in &step.diagnostics {
            let level = match d.level {
                Level::Warning => "warning",
                Level::Error => "error",
                Level::Info => "info",
            };
            html.el("li").attr("data-level", level).with(|h| {
                h.el("span").attr("class", "level").text(level);
                h.push_text(" ");
                h.el("span").attr("class", "message").text(&d.message);
                h.push_text(" ");
                h.leaf("cite", &d.rule);
            });
        }
        kit::set_html(&self.diagnostics, &html);
        self.diagnostics_empty
            .set_hidden(!step.diagnostics.is_empty());
        let summary = summarize(&step);
        self.summary.set_text_content(Some(&summary));
        self.canvas.set_attribute("aria-label", &summary)?;
        gpu::step_rendered(&self.gpu, &step, display);
        self.step = Some(step);
        Ok(())
    }
}

/// "Export as code": the snippet of `req` for `target` and its file name, or the error's text
/// (`field: message`); here, in a build with the code generator (`engine`).
#[cfg(feature = "engine")]
fn code_snippet(
    req: &crosslane_core::OpRequest,
    target: &str,
) -> Option<Result<(String, String), String>> {
    Some(
        crate::export::code::export(req, target).map_err(|e| format!("{}: {}", e.field, e.message)),
    )
}

/// "Export as code" in the page's first module: the snippet comes from the kernel engine
/// module's `op_export_code` (`crosslane_core::codegen` lives there); `None` while that module
/// is not loaded yet.
#[cfg(not(feature = "engine"))]
fn code_snippet(
    req: &crosslane_core::OpRequest,
    target: &str,
) -> Option<Result<(String, String), String>> {
    let module = crate::engine_link::loaded()?;
    let json = match serde_json::to_string(req) {
        Ok(j) => j,
        Err(e) => return Some(Err(format!("request: {e}"))),
    };
    let reply = crate::engine_link::call(&module, "op_export_code", &[json.into(), target.into()]);
    Some(reply.and_then(|v| {
        let pair: js_sys::Array = v
            .dyn_into()
            .map_err(|_| "op_export_code: not a pair".to_string())?;
        match (pair.get(0).as_string(), pair.get(1).as_string()) {
            (Some(code), Some(file)) => Ok((code, file)),
            _ => Err("op_export_code: not a pair of texts".to_string()),
        }
    }))
}

/// Never called where the code generator is in this module.
#[cfg(feature = "engine")]
fn load_code_exporter(_: &Exports, _: &str) -> String {
    String::new()
}

/// Loads the kernel engine module for "Export as code" (once; further events while it loads
/// only say so), then sends the event again so that the link is filled (and followed, where a
/// click on `#export-code` was held back: `kind` is `click`, or the dialect's `change`) as if
/// the generator had been there. Returns the line `#code-view` shows meanwhile.
#[cfg(not(feature = "engine"))]
fn load_code_exporter(exports: &Exports, kind: &str) -> String {
    use std::cell::Cell;
    thread_local! {
        static LOADING: Cell<bool> = const { Cell::new(false) };
        /// A click on the link was held back while the module loads: follow it afterwards.
        static CLICKED: Cell<bool> = const { Cell::new(false) };
    }
    let text = crate::engine_link::loading_text("the code exporter");
    if kind == "click" {
        CLICKED.with(|c| c.set(true));
    }
    if LOADING.with(|l| l.replace(true)) {
        return text;
    }
    let link: Option<HtmlElement> = exports.code.clone().dyn_into().ok();
    let select = exports.dialect.clone();
    let view = exports.code_view.clone();
    wasm_bindgen_futures::spawn_local(async move {
        let loaded = crate::engine_link::load().await;
        LOADING.with(|l| l.set(false));
        let click = CLICKED.with(|c| c.replace(false));
        match loaded {
            Ok(_) if click => {
                if let Some(link) = link {
                    link.click();
                }
            }
            Ok(_) => {
                if let Ok(ev) = Event::new("change") {
                    let _ = select.dispatch_event(&ev);
                }
            }
            Err(e) => view.set_text_content(Some(&format!("// cannot export: {e}"))),
        }
    });
    text
}

/// One line: op, lane count, active lanes and how many lanes have each provenance.
fn summarize(step: &Step) -> String {
    let mut parts = Vec::new();
    for (source, words) in [
        (Source::Lane, "read another lane"),
        (Source::Own, "kept their own value"),
        (Source::Zero, "got zero"),
        (Source::Old, "kept the old value"),
        (Source::Computed, "computed"),
        (Source::Undefined, "UNDEFINED"),
        (Source::Inactive, "inactive"),
    ] {
        let n = step.results.iter().filter(|r| r.source == source).count();
        if n > 0 {
            parts.push(format!("{n} {words}"));
        }
    }
    format!(
        "{} · {} lanes · active {} · {}",
        step.op,
        step.lanes,
        step.active.to_hex(step.lanes),
        parts.join(", ")
    )
}

/// Whether a click came with Shift held (marks a CUDA lane exited instead of inactive).
fn shift_held(e: &Event) -> bool {
    e.dyn_ref::<MouseEvent>().is_some_and(MouseEvent::shift_key)
}
