//! The panic hook: a panic in wasm would leave a dead page, so it is reported twice — on the
//! console (console_error_panic_hook, with the Rust message) and as a visible red banner that
//! tells the user what happened. Errors from DOM calls use the same banner.

use crate::dom;

/// Installs the hook. Call first thing.
pub fn install() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        banner(&format!(
            "crosslane stopped with an internal error: {info}. Reload the page; please report this."
        ));
    }));
}

/// Shows (or replaces) the red banner at the top of the page. Does nothing if even the document
/// is unreachable.
pub fn banner(message: &str) {
    let Ok(doc) = dom::document() else { return };
    let existing = doc.get_element_by_id("panic-banner");
    let node = match existing {
        Some(e) => e,
        None => {
            let Ok(e) = dom::el(
                &doc,
                "div",
                &[("id", "panic-banner"), ("role", "alert")],
                None,
            ) else {
                return;
            };
            if let Some(body) = doc.body() {
                let _ = body.prepend_with_node_1(&e);
            }
            e
        }
    };
    node.set_text_content(Some(message));
}
