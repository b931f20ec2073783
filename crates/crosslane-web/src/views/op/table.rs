//! The lane table: the accessible, copyable twin of the canvas (page contract, docs/embedding.md):
//! `<table id="lanes">`, one `<tr data-lane="i">` per lane with `td.input`, `td.result`,
//! `td.source` (and `td.why`). A result reads `undefined` for an undefined lane and `inactive` for
//! an inactive one. Each row has a checkbox that switches the lane on or off; a click anywhere on
//! the row does the same (the click handler lives in `app`).
//!
//! Values are written by [`crate::labels`] as the view's [`DisplayOptions`] say; the
//! `#show-hex` checkbox ([`install_hex_toggle`]) is where the operation view reads them.

use crosslane_core::Step;
use wasm_bindgen::JsCast;
use web_sys::{Document, Element, HtmlInputElement};

use crate::dom::{append, el, el_as, Js};
use crate::kit::{self, Html};
use crate::labels::{input_text, result_text, source_text, DisplayOptions};

/// Appends a "display" fieldset with the `input#show-hex` checkbox ("values in hex") to the
/// control form `form` and returns the checkbox.
///
/// The checkbox has no listener of its own: the form's `change` listener re-renders the op
/// view, which reads the checkbox as it renders (its display options are derived, so no
/// listener has to run before another).
pub fn install_hex_toggle(doc: &Document, form: &Element) -> Js<HtmlInputElement> {
    let fieldset = el(doc, "fieldset", &[("id", "display-fields")], None)?;
    append(&fieldset, &el(doc, "legend", &[], Some("display"))?)?;
    let div = el(
        doc,
        "div",
        &[("class", "field inline"), ("data-field", "show-hex")],
        None,
    )?;
    let input: HtmlInputElement = el_as(
        doc,
        "input",
        &[
            ("id", "show-hex"),
            ("type", "checkbox"),
            ("name", "show-hex"),
        ],
    )?;
    div.append_child(&input)?;
    let label = el(doc, "label", &[("for", "show-hex")], Some("values in hex"))?;
    div.append_child(&label)?;
    append(
        &div,
        &el(
            doc,
            "small",
            &[("class", "hint")],
            Some("raw bits; packed pairs per half (lo:hi)"),
        )?,
    )?;
    fieldset.append_child(&div)?;
    form.append_child(&fieldset)?;
    Ok(input)
}

/// Replaces the body of `tbody` with one row per lane of `step`, values as `display` says.
pub fn render(tbody: &Element, step: &Step, display: DisplayOptions) {
    let rows = step.inputs.len().max(step.results.len());
    let mut html = Html::with_capacity(rows * 320);
    for lane in 0..rows {
        let active = step.active.contains(lane);
        let input = step
            .inputs
            .get(lane)
            .map(|v| input_text(*v, display))
            .unwrap_or_default();
        let (result, source, why, class) = match step.results.get(lane) {
            Some(r) => (
                result_text(r, display),
                source_text(r),
                r.why.clone().unwrap_or_default(),
                r.source.name(),
            ),
            None => Default::default(),
        };
        let off = if active { "" } else { " off" };
        html.el("tr")
            .attr("data-lane", lane)
            .attr("class", format_args!("src-{class}{off}"))
            .with(|h| {
                h.el("th").attr("scope", "row").text(lane);
                h.el("td").attr("class", "on").with(|h| {
                    h.el("input")
                        .attr("type", "checkbox")
                        .attr("aria-label", format_args!("lane {lane} active"))
                        .flag("checked", active)
                        .void();
                });
                h.el("td").attr("class", "input").text(&input);
                h.el("td").attr("class", "result").text(&result);
                h.el("td").attr("class", "source").text(&source);
                h.el("td").attr("class", "why").text(&why);
            });
    }
    // The rows are rebuilt, so the checkbox that had focus (Space on it toggled its lane) is
    // gone: give focus to the same lane's new checkbox, or keyboard users land on <body>.
    let focused = focused_lane(tbody);
    kit::set_html(tbody, &html);
    if let Some(lane) = focused {
        if let Ok(Some(cb)) =
            tbody.query_selector(&format!("tr[data-lane=\"{lane}\"] input[type=checkbox]"))
        {
            if let Ok(cb) = cb.dyn_into::<web_sys::HtmlElement>() {
                let _ = cb.focus();
            }
        }
    }
}

/// The lane whose checkbox in `tbody` has focus, if one has.
fn focused_lane(tbody: &Element) -> Option<usize> {
    let active = tbody.owner_document()?.active_element()?;
    if !tbody.contains(Some(&active)) {
        return None;
    }
    active
        .closest("tr[data-lane]")
        .ok()
        .flatten()?
        .get_attribute("data-lane")?
        .parse()
        .ok()
}
