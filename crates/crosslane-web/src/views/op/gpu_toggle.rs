//! The GPU check's toggle, `button#gpu-toggle` in the drawing's header (before the export
//! buttons): the same button whether the panel's code is in this module (`gpu.rs`) or in the
//! kernel engine module (`gpu_link.rs`).

use wasm_bindgen::JsValue;
use web_sys::{Element, HtmlElement};

use crate::dom::{by_id, document, el_as, Js};

/// Creates the toggle and puts it before the export buttons, wherever the header groups them;
/// its `aria-controls` is set when the panel is built (`gpu.rs`).
///
/// # Errors
/// `index.html` lacks `#drawing .section-head` or the export buttons, or a DOM call failed.
pub fn create() -> Js<HtmlElement> {
    let doc = document()?;
    let head = doc
        .query_selector("#drawing .section-head")?
        .ok_or_else(|| JsValue::from_str("index.html lacks #drawing .section-head"))?;
    let toggle: HtmlElement = el_as(
        &doc,
        "button",
        &[
            ("type", "button"),
            ("id", "gpu-toggle"),
            ("class", "button"),
            ("aria-pressed", "false"),
        ],
    )?;
    toggle.set_text_content(Some("GPU check"));
    let first_export: Element = head
        .query_selector(".exports")?
        .map_or_else(|| by_id(&doc, "export-svg"), Ok)?;
    let parent = first_export
        .parent_node()
        .ok_or_else(|| JsValue::from_str("the export buttons have no parent"))?;
    parent.insert_before(&toggle, Some(&first_export))?;
    Ok(toggle)
}
