//! Page-wide keyboard shortcuts, Compiler-Explorer habits: Ctrl+Enter (⌘+Enter
//! on macOS) in the kernel view runs the kernel, exactly as pressing `#kernel-run` does — the
//! shortcut clicks that button, so it runs through the view's own handler and nothing about a
//! run is written twice.

use wasm_bindgen::JsCast;
use web_sys::{HtmlElement, KeyboardEvent};

use super::router;
use crate::dom::{document, Js};
use crate::kit;

/// Whether a key press is the run shortcut: Enter with Ctrl or Meta, without Alt or Shift.
pub fn is_run(key: &str, ctrl: bool, meta: bool, alt: bool, shift: bool) -> bool {
    key == "Enter" && (ctrl || meta) && !alt && !shift
}

/// Listens on the document for the shortcuts, and names the shortcut on `#kernel-run` (its
/// `aria-keyshortcuts` and tooltip).
pub fn install() -> Js<()> {
    let doc = document()?;
    if let Some(run) = doc.get_element_by_id("kernel-run") {
        run.set_attribute("aria-keyshortcuts", "Control+Enter Meta+Enter")?;
        let title = run.get_attribute("title").unwrap_or_default();
        if !title.contains("Ctrl+Enter") {
            let title = if title.is_empty() {
                "Ctrl+Enter".to_string()
            } else {
                format!("{title} (Ctrl+Enter)")
            };
            run.set_attribute("title", &title)?;
        }
    }
    kit::listen(&doc, "keydown", move |e| {
        let Some(e) = e.dyn_ref::<KeyboardEvent>() else {
            return;
        };
        if !is_run(
            &e.key(),
            e.ctrl_key(),
            e.meta_key(),
            e.alt_key(),
            e.shift_key(),
        ) || router::current() != "kernel"
        {
            return;
        }
        let Some(run) = document()
            .ok()
            .and_then(|d| d.get_element_by_id("kernel-run"))
            .and_then(|b| b.dyn_into::<HtmlElement>().ok())
        else {
            return;
        };
        // No newline in the editor: the keys were a command.
        e.prevent_default();
        run.click();
    })
}
