//! The portability view: one shuffle request (family idx / up / down / xor, its parameter, width,
//! operand row, active mask) run under CUDA, HIP wave32, HIP wave64, Ascend C and WGSL side by
//! side ([`crosslane_core::compare`]), drawn as one lane drawing per run, stacked with lanes lined
//! up ([`crate::render::stack`]), with the lanes where the dialects disagree banded across every
//! row. Hovering over a lane or a band, and the table `table#compare-lanes`, give the rule that
//! makes them differ (the core's explanation; nothing is decided here).
//!
//! Page contract (tests rely on it): the form `#compare-controls` with `select#compare-family`,
//! `input#compare-param`, `input#compare-width`, `input#compare-values`, `input#compare-active`;
//! `canvas#compare-canvas` (`data-runs` = the number of runs drawn); `#compare-error`;
//! `ul#compare-notes`; `table#compare-lanes` with one `tr[data-lane]` per lane
//! (`data-agree="true|false"`), a `td.run[data-run=LABEL]` per dialect run (`.value`,
//! `.outcome`), `td.agree` and `td.why`.

mod lanes;

use crosslane_core::scenario::View;
use crosslane_core::{
    compare_lanes, parse_width, Comparison, InputError, LaneParam, ShuffleFamily,
};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{
    Document, Element, Event, HtmlCanvasElement, HtmlElement, HtmlInputElement, HtmlSelectElement,
    MouseEvent,
};

use crate::dom::{append, document, el, el_as, mark_ready, remove_all, window, Js};
use crate::form::field_control;
use crate::kit::{self, Owned, State};
use crate::panic;
use crate::render::canvas;
use crate::render::stack::{self, Part, Stacked};
use crate::views::router;

/// The view's name (tab, section, router).
const NAME: &str = "compare";

/// The example the view opens with: CUDA reads lane + (33 & 31) = lane + 1, HIP and Ascend C keep
/// their own value (delta ≥ width), WGSL is indeterminate (outside the subgroup).
const DEFAULT: [(&str, &str); 5] = [
    ("family", "down"),
    ("param", "33"),
    ("width", "16"),
    ("values", "lane"),
    ("active", ""),
];

struct Compare {
    family: HtmlSelectElement,
    param: HtmlInputElement,
    param_label: Element,
    width: HtmlInputElement,
    values: HtmlInputElement,
    active: HtmlInputElement,
    form: Element,
    error: HtmlElement,
    summary: Element,
    notes: Element,
    tbody: Element,
    canvas: HtmlCanvasElement,
    tooltip: HtmlElement,
    comparison: Option<Comparison>,
    stacked: Option<Stacked>,
}

/// Builds the view inside `section#view-compare`, wires it and renders the default example.
pub fn mount() -> Js<()> {
    let doc = document()?;
    let Some(section) = doc.get_element_by_id("view-compare") else {
        return Ok(());
    };
    let view = State::new(build(&doc, &section)?);
    let (form, canvas) = {
        let v = view.get().ok_or_else(|| JsValue::from_str("busy"))?;
        (v.form.clone(), v.canvas.clone())
    };
    view.listen(&form, "input", |v, _| v.render())?;
    view.listen(&form, "change", |v, e| {
        // Text fields already re-rendered on `input`; the menu renders on `change`.
        let is_select = e
            .target()
            .and_then(|t| t.dyn_into::<HtmlSelectElement>().ok())
            .is_some();
        if is_select {
            v.render()
        } else {
            Ok(())
        }
    })?;
    kit::listen(&form, "submit", |e| e.prevent_default())?;
    view.listen(&canvas, "mousemove", |v, e| v.hover(&e))?;
    view.listen(&canvas, "mouseleave", |v, _| {
        v.tooltip.set_hidden(true);
        Ok(())
    })?;
    view.listen(&window()?, "resize", |v, _| v.redraw_if_shown())?;

    let shown = view.clone();
    router::on_change(move |name| {
        if name != NAME || router::current() != NAME {
            return;
        }
        // Drawn at mount while hidden (no width): draw again at the real width when shown. The
        // comparison itself is kept (running it again made the first show a long task).
        if let Some(mut v) = shown.get_mut() {
            let done = if v.comparison.is_some() {
                v.redraw()
            } else {
                v.render()
            };
            if let Err(err) = done {
                panic::banner(&format!("crosslane could not draw the comparison: {err:?}"));
            }
        }
    });
    let restored = view.clone();
    router::register(router::ViewHooks {
        name: NAME,
        // Read from the fields themselves, not the view's state: `render` reports the change
        // while it holds that state.
        save: Box::new(saved),
        restore: Box::new(move |scenario| {
            let View::Compare {
                family,
                param,
                width,
                values,
                active,
            } = scenario
            else {
                return false;
            };
            let Some(mut v) = restored.get_mut() else {
                return false;
            };
            v.family.set_value(family);
            v.param.set_value(param);
            v.width.set_value(width);
            v.values.set_value(values);
            v.active.set_value(active);
            if let Err(err) = v.render() {
                panic::banner(&format!(
                    "crosslane could not restore the comparison: {err:?}"
                ));
            }
            true
        }),
    });
    let mut v = view.get_mut().ok_or_else(|| JsValue::from_str("busy"))?;
    v.render()
}

impl Owned for Compare {
    const WHAT: &'static str = "the portability view";
}

/// The view's fields as typed, as a scenario view (the portability view is a link).
fn saved() -> Option<View> {
    let doc = document().ok()?;
    let value = |id: &str| -> Option<String> {
        let e = doc.get_element_by_id(id)?;
        if let Some(i) = e.dyn_ref::<HtmlInputElement>() {
            return Some(i.value());
        }
        e.dyn_ref::<HtmlSelectElement>()
            .map(HtmlSelectElement::value)
    };
    Some(View::Compare {
        family: value("compare-family")?,
        param: value("compare-param")?,
        width: value("compare-width")?,
        values: value("compare-values")?,
        active: value("compare-active")?,
    })
}

/// `<div class="field" data-field=key><label for=id><code>label</code></label>control<small>hint</small></div>`;
/// returns the label's `<code>` (its text changes with the family).
fn field(
    doc: &Document,
    parent: &Element,
    key: &str,
    label: &str,
    control: &Element,
    hint: &str,
) -> Js<Element> {
    let div = el(doc, "div", &[("class", "field"), ("data-field", key)], None)?;
    let lab = el(doc, "label", &[("for", &control.id())], None)?;
    let code = el(doc, "code", &[], Some(label))?;
    append(&lab, &code)?;
    append(&div, &lab)?;
    append(&div, control)?;
    if !hint.is_empty() {
        append(&div, &el(doc, "small", &[("class", "hint")], Some(hint))?)?;
    }
    append(parent, &div)?;
    Ok(code)
}

fn text_input(doc: &Document, key: &str, placeholder: &str) -> Js<HtmlInputElement> {
    let id = format!("compare-{key}");
    let input: HtmlInputElement = el_as(
        doc,
        "input",
        &[
            ("id", &id),
            ("name", key),
            ("type", "text"),
            ("autocomplete", "off"),
            ("spellcheck", "false"),
            ("placeholder", placeholder),
        ],
    )?;
    let initial = DEFAULT
        .iter()
        .find(|(k, _)| *k == key)
        .map_or("", |(_, v)| v);
    input.set_value(initial);
    Ok(input)
}

fn build(doc: &Document, section: &Element) -> Js<Compare> {
    kit::clear(section);
    let layout = el(doc, "div", &[("class", "layout compare-layout")], None)?;
    let panel = el(
        doc,
        "aside",
        &[
            ("class", "compare-panel"),
            ("aria-label", "comparison controls"),
        ],
        None,
    )?;
    let form = el(
        doc,
        "form",
        &[
            ("id", "compare-controls"),
            ("autocomplete", "off"),
            ("novalidate", ""),
        ],
        None,
    )?;
    let fs = el(doc, "fieldset", &[], None)?;
    append(&fs, &el(doc, "legend", &[], Some("shuffle family"))?)?;
    let family: HtmlSelectElement = el_as(
        doc,
        "select",
        &[("id", "compare-family"), ("name", "family")],
    )?;
    for (value, text) in [
        ("idx", "idx: read lane src_lane"),
        ("up", "up: read lane − delta"),
        ("down", "down: read lane + delta"),
        ("xor", "xor: read lane ^ lane_mask"),
    ] {
        append(
            &family,
            &el(doc, "option", &[("value", value)], Some(text))?,
        )?;
    }
    family.set_value("down");
    field(
        doc,
        &fs,
        "family",
        "family",
        &family,
        "CUDA __shfl_*_sync · HIP __shfl_* · Ascend C asc_shfl_* · WGSL subgroupShuffle*",
    )?;
    let param = text_input(doc, "param", "required")?;
    let param_label = field(
        doc,
        &fs,
        "param",
        "delta",
        &param,
        "decimal, 0x hex, negative, or a lane expression such as (lane+1)%32 (each lane its own); passed to every dialect as typed",
    )?;
    let width = text_input(doc, "width", "default: warpSize")?;
    field(
        doc,
        &fs,
        "width",
        "width",
        &width,
        "segment width (CUDA, HIP, Ascend C); WGSL runs one subgroup per segment",
    )?;
    append(&form, &fs)?;
    let warp = el(doc, "fieldset", &[], None)?;
    append(&warp, &el(doc, "legend", &[], Some("warp"))?)?;
    let values = text_input(doc, "values", "lane")?;
    field(
        doc,
        &warp,
        "values",
        "values",
        &values,
        "lane, a lane expression such as lane^1, or a comma list",
    )?;
    let active = text_input(doc, "active", "all lanes")?;
    field(
        doc,
        &warp,
        "active",
        "active",
        &active,
        "active (exec) mask, hex",
    )?;
    append(&form, &warp)?;
    append(&panel, &form)?;
    append(&layout, &panel)?;

    let main = el(doc, "div", &[("class", "compare-main")], None)?;
    let drawing = el(doc, "section", &[("class", "card")], None)?;
    let head = el(doc, "div", &[("class", "section-head")], None)?;
    append(&head, &el(doc, "h2", &[], Some("portability"))?)?;
    let summary = el(doc, "p", &[("id", "compare-summary")], None)?;
    append(&head, &summary)?;
    append(&drawing, &head)?;
    let error: HtmlElement = el_as(
        doc,
        "p",
        &[
            ("id", "compare-error"),
            ("role", "alert"),
            ("class", "view-error"),
        ],
    )?;
    error.set_hidden(true);
    append(&drawing, &error)?;
    // Its own scroller (wide drawings scroll sideways): in the Tab order, named (axe
    // `scrollable-region-focusable`).
    let stage = el(
        doc,
        "div",
        &[
            ("class", "compare-stage"),
            ("tabindex", "0"),
            ("role", "region"),
            ("aria-label", "portability drawing (scrolls sideways)"),
        ],
        None,
    )?;
    let canvas: HtmlCanvasElement = el_as(
        doc,
        "canvas",
        &[
            ("id", "compare-canvas"),
            ("role", "img"),
            ("aria-label", "one lane drawing per dialect"),
            ("aria-describedby", "compare-lanes"),
        ],
    )?;
    let tooltip: HtmlElement = el_as(
        doc,
        "div",
        &[
            ("id", "compare-tooltip"),
            ("role", "tooltip"),
            ("class", "tooltip"),
        ],
    )?;
    tooltip.set_hidden(true);
    append(&stage, &canvas)?;
    append(&stage, &tooltip)?;
    append(&drawing, &stage)?;
    let notes = el(doc, "ul", &[("id", "compare-notes")], None)?;
    append(&drawing, &notes)?;
    append(&main, &drawing)?;

    let lanes_card = el(doc, "section", &[("class", "card")], None)?;
    let head = el(doc, "div", &[("class", "section-head")], None)?;
    append(&head, &el(doc, "h2", &[], Some("lanes by dialect"))?)?;
    append(
        &head,
        &el(
            doc,
            "p",
            &[("class", "hint")],
            Some("≠ marks a lane where the dialects disagree; why names the rules"),
        )?,
    )?;
    append(&lanes_card, &head)?;
    let wrap = el(doc, "div", &[("class", "table-wrap")], None)?;
    let table = el(doc, "table", &[("id", "compare-lanes")], None)?;
    let tbody = doc.create_element("tbody")?;
    append(&table, &el(doc, "thead", &[], None)?)?;
    append(&table, &tbody)?;
    append(&wrap, &table)?;
    append(&lanes_card, &wrap)?;
    append(&main, &lanes_card)?;
    append(&layout, &main)?;
    append(section, &layout)?;

    Ok(Compare {
        family,
        param,
        param_label,
        width,
        values,
        active,
        form,
        error,
        summary,
        notes,
        tbody,
        canvas,
        tooltip,
        comparison: None,
        stacked: None,
    })
}

/// The name of the family parameter as the dialects spell it.
fn param_name(family: ShuffleFamily) -> &'static str {
    match family {
        ShuffleFamily::Idx => "src_lane (WGSL id)",
        ShuffleFamily::Up | ShuffleFamily::Down => "delta",
        ShuffleFamily::Xor => "lane_mask (WGSL mask)",
    }
}

impl Compare {
    /// The request as typed, or the first field that does not parse.
    fn read(&self) -> Result<(ShuffleFamily, LaneParam, Option<i64>), InputError> {
        let family = ShuffleFamily::parse(&self.family.value())?;
        // One value, or a lane expression each lane evaluates for itself.
        let param = LaneParam::parse(&self.param.value())?;
        let width = parse_width(&self.width.value())?;
        Ok((family, param, width))
    }

    /// Runs the comparison as typed and shows it; an input error keeps the last drawing.
    fn render(&mut self) -> Js<()> {
        self.clear_errors()?;
        let result = self.read().and_then(|(family, param, width)| {
            self.param_label.set_text_content(Some(param_name(family)));
            compare_lanes(
                family,
                &param,
                width,
                &self.values.value(),
                &self.active.value(),
            )
        });
        match result {
            Ok(comparison) => {
                self.error.set_hidden(true);
                lanes::render(&self.tbody, &comparison)?;
                self.show_notes(&comparison)?;
                self.comparison = Some(comparison);
                self.draw()?;
            }
            Err(err) => self.show_error(&err)?,
        }
        router::changed(NAME);
        mark_ready()
    }

    fn doc_of(&self) -> Js<Document> {
        self.tbody
            .owner_document()
            .ok_or_else(|| JsValue::from_str("no document"))
    }

    fn clear_errors(&self) -> Js<()> {
        remove_all(&self.form, ".field-error")?;
        for input in [&self.param, &self.width, &self.values, &self.active] {
            input.remove_attribute("aria-invalid")?;
        }
        self.family.remove_attribute("aria-invalid")
    }

    fn show_error(&self, err: &InputError) -> Js<()> {
        let kept = if self.comparison.is_some() {
            " (the drawing shows the last valid input)"
        } else {
            ""
        };
        self.error
            .set_text_content(Some(&format!("{}: {}{kept}", err.field, err.message)));
        self.error.set_hidden(false);
        // The core names the vendor parameter (`delta`, `lane_mask`, …) or `param`; both are
        // this view's parameter field.
        let key = match field_control(&err.field) {
            "family" | "width" | "values" | "active" => field_control(&err.field),
            _ => "param",
        };
        let Some(div) = self
            .form
            .query_selector(&format!(".field[data-field=\"{key}\"]"))?
        else {
            return Ok(());
        };
        if let Some(control) = div.query_selector("input, select")? {
            control.set_attribute("aria-invalid", "true")?;
        }
        let line = el(
            &self.doc_of()?,
            "p",
            &[("class", "field-error"), ("role", "alert")],
            // The field's label names it; the line says only what is wrong.
            Some(&err.message),
        )?;
        append(&div, &line)
    }

    fn show_notes(&self, c: &Comparison) -> Js<()> {
        let doc = self.doc_of()?;
        kit::clear(&self.notes);
        for note in &c.notes {
            append(&self.notes, &el(&doc, "li", &[], Some(note))?)?;
        }
        let differ = c.disagreeing().count();
        let runs = c.runs.iter().filter(|r| r.step.is_ok()).count();
        let width = c.width.map_or("default".to_string(), |w| w.to_string());
        self.summary.set_text_content(Some(&format!(
            "{} by {} · width {width} · {runs} runs · {differ} of {} lanes disagree",
            c.family.name(),
            c.param_text,
            c.lanes.len()
        )));
        Ok(())
    }

    fn redraw_if_shown(&mut self) -> Js<()> {
        if router::current() == NAME {
            self.redraw()?;
        }
        Ok(())
    }

    fn redraw(&mut self) -> Js<()> {
        self.draw()?;
        mark_ready()
    }

    /// Draws the runs stacked, at the canvas's width (960 px while the view is hidden).
    fn draw(&mut self) -> Js<()> {
        let Some(c) = &self.comparison else {
            return Ok(());
        };
        let mut width = self.canvas.get_bounding_client_rect().width();
        if width < 50.0 {
            width = 960.0;
        }
        let parts: Vec<Part<'_>> = c
            .runs
            .iter()
            .map(|run| {
                let op = c.family.op_in(run.dialect).map_or("", |(op, _)| op);
                match &run.step {
                    Ok(step) => Part::Step {
                        title: match &step.label {
                            Some(label) => {
                                format!("{} · {op} · {} lanes · {label}", run.label, step.lanes)
                            }
                            None => format!("{} · {op} · {} lanes", run.label, step.lanes),
                        },
                        step,
                    },
                    Err(e) => Part::Note {
                        title: format!("{} · {op}", run.label),
                        text: format!("refuses the input: {}: {}", e.field, e.message),
                    },
                }
            })
            .collect();
        let marks: Vec<(usize, String)> = c
            .disagreeing()
            .map(|v| {
                (
                    v.lane,
                    v.explanation
                        .clone()
                        .unwrap_or_else(|| "the dialects disagree".to_string()),
                )
            })
            .collect();
        let stacked = stack::stack(&parts, width, &marks);
        canvas::draw(&self.canvas, &stacked.scene, window()?.device_pixel_ratio())?;
        self.canvas
            .set_attribute("data-runs", &parts.len().to_string())?;
        self.canvas.set_attribute(
            "data-disagree",
            &marks
                .iter()
                .map(|(l, _)| l.to_string())
                .collect::<Vec<_>>()
                .join(","),
        )?;
        self.stacked = Some(stacked);
        Ok(())
    }

    fn hover(&mut self, e: &Event) -> Js<()> {
        let Some(m) = e.dyn_ref::<MouseEvent>() else {
            return Ok(());
        };
        let (x, y) = (m.offset_x(), m.offset_y());
        let Some(stacked) = &self.stacked else {
            return Ok(());
        };
        let tip = match stacked.scene.hit(x, y) {
            Some((_, tip)) => tip.to_string(),
            None => match stacked.band_at(x, y) {
                Some(band) => format!("lane {}: the dialects disagree\n{}", band.lane, band.tip),
                None => {
                    self.tooltip.set_hidden(true);
                    return Ok(());
                }
            },
        };
        self.tooltip.set_text_content(Some(&tip));
        let width = f64::from(self.canvas.client_width());
        let left = if x + 380.0 > width {
            x - 374.0
        } else {
            x + 14.0
        };
        let style = self.tooltip.style();
        style.set_property(
            "left",
            &format!("{}px", left.max(0.0) + f64::from(self.canvas.offset_left())),
        )?;
        style.set_property(
            "top",
            &format!("{}px", y + 16.0 + f64::from(self.canvas.offset_top())),
        )?;
        self.tooltip.set_hidden(false);
        Ok(())
    }
}
