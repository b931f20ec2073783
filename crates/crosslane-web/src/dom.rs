//! Tiny element-building helpers over web-sys. Every DOM call that can fail returns
//! `Result<_, JsValue>`; nothing here unwraps (a panic in wasm kills the page).

use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Document, Element, HtmlElement, Window};

/// `Result` of a DOM call.
pub type Js<T> = Result<T, JsValue>;

/// The window.
pub fn window() -> Js<Window> {
    web_sys::window().ok_or_else(|| JsValue::from_str("no window"))
}

/// The document.
pub fn document() -> Js<Document> {
    window()?
        .document()
        .ok_or_else(|| JsValue::from_str("no document"))
}

/// The element with id `id`, as type `T`.
///
/// # Errors
/// When it is missing from index.html or of another type.
pub fn by_id<T: JsCast>(doc: &Document, id: &str) -> Js<T> {
    doc.get_element_by_id(id)
        .ok_or_else(|| JsValue::from_str(&format!("index.html lacks #{id}")))?
        .dyn_into::<T>()
        .map_err(|_| JsValue::from_str(&format!("#{id} has the wrong element type")))
}

/// A new `<tag>` with attributes and optional text.
pub fn el(doc: &Document, tag: &str, attrs: &[(&str, &str)], text: Option<&str>) -> Js<Element> {
    let e = doc.create_element(tag)?;
    for (k, v) in attrs {
        e.set_attribute(k, v)?;
    }
    if let Some(t) = text {
        e.set_text_content(Some(t));
    }
    Ok(e)
}

/// A new element of type `T` (`HtmlInputElement`, `HtmlSelectElement`, …).
pub fn el_as<T: JsCast>(doc: &Document, tag: &str, attrs: &[(&str, &str)]) -> Js<T> {
    el(doc, tag, attrs, None)?
        .dyn_into::<T>()
        .map_err(|_| JsValue::from_str(&format!("<{tag}> has an unexpected type")))
}

/// Sets `data-<key>` on an element (`key` in camelCase, as `dataset` wants it).
pub fn set_data(e: &HtmlElement, key: &str, value: &str) -> Js<()> {
    e.dataset().set(key, value)
}

/// Removes every element matching `selector` under `root`.
pub fn remove_all(root: &Element, selector: &str) -> Js<()> {
    let found = root.query_selector_all(selector)?;
    for i in 0..found.length() {
        if let Some(node) = found.item(i) {
            if let Ok(e) = node.dyn_into::<Element>() {
                e.remove();
            }
        }
    }
    Ok(())
}

/// Appends `child` to `parent`.
pub fn append(parent: &Element, child: &Element) -> Js<()> {
    parent.append_child(child).map(|_| ())
}

/// Bumps `document.body.dataset.ready`, the page contract's render counter (docs/embedding.md), after a
/// render of any view: one shared counter, so that it only ever grows whichever view rendered.
pub fn mark_ready() -> Js<()> {
    let Some(body) = document()?.body() else {
        return Ok(());
    };
    let n = body
        .dataset()
        .get("ready")
        .and_then(|v| v.parse::<u64>().ok())
        .unwrap_or(0);
    set_data(&body, "ready", &(n + 1).to_string())
}
