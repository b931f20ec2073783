//! The lane table: the accessible, copyable twin of the canvas (page contract, DESIGN.md):
//! `<table id="lanes">`, one `<tr data-lane="i">` per lane with `td.input`, `td.result`,
//! `td.source` (and `td.why`). A result reads `undefined` for an undefined lane and `inactive` for
//! an inactive one. Each row has a checkbox that switches the lane on or off; a click anywhere on
//! the row does the same (the click handler lives in `app`).
//!
//! Values are written by [`crate::labels`]; the `#show-hex` checkbox ([`install_hex_toggle`])
//! switches them, here and on the canvas, to raw bits in hex.

use std::fmt::Write;

use crosslane_core::Step;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{Document, Element, HtmlInputElement};

use crate::dom::{append, el, el_as, Js};
use crate::labels::{self, escape, input_text, result_text, source_text};

/// Appends a "display" fieldset with the `input#show-hex` checkbox ("values in hex") to the
/// control form `form`.
///
/// The checkbox sits inside the form on purpose: the form's `change` listener (in `app`)
/// re-renders the op view, and this checkbox's own listener, which sets [`labels::set_hex`], runs
/// before it (an event reaches its target before it bubbles to the form).
pub fn install_hex_toggle(doc: &Document, form: &Element) -> Js<()> {
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
    input.set_checked(labels::hex());
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
    let target = input.clone();
    let listener = Closure::<dyn Fn(web_sys::Event)>::new(move |_e: web_sys::Event| {
        labels::set_hex(target.checked());
    });
    input.add_event_listener_with_callback("change", listener.as_ref().unchecked_ref())?;
    listener.forget();
    Ok(())
}

/// Replaces the body of `tbody` with one row per lane of `step`.
pub fn render(tbody: &Element, step: &Step) {
    let rows = step.inputs.len().max(step.results.len());
    let mut html = String::with_capacity(rows * 320);
    for lane in 0..rows {
        let active = step.active.contains(lane);
        let input = step
            .inputs
            .get(lane)
            .map(|v| input_text(*v))
            .unwrap_or_default();
        let (result, source, why, class) = match step.results.get(lane) {
            Some(r) => (
                result_text(r),
                source_text(r),
                r.why.clone().unwrap_or_default(),
                r.source.name(),
            ),
            None => Default::default(),
        };
        let _ = write!(
            html,
            r#"<tr data-lane="{lane}" class="src-{class}{off}"><th scope="row">{lane}</th><td class="on"><input type="checkbox" aria-label="lane {lane} active"{checked}></td><td class="input">{input}</td><td class="result">{result}</td><td class="source">{source}</td><td class="why">{why}</td></tr>"#,
            off = if active { "" } else { " off" },
            checked = if active { " checked" } else { "" },
            input = escape(&input),
            result = escape(&result),
            source = escape(&source),
            why = escape(&why),
        );
    }
    // The rows are rebuilt, so the checkbox that had focus (Space on it toggled its lane) is
    // gone: give focus to the same lane's new checkbox, or keyboard users land on <body>.
    let focused = focused_lane(tbody);
    tbody.set_inner_html(&html);
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
