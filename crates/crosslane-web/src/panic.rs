//! Fatal errors: a panic in wasm would leave a dead page, and a JS exception or a rejected promise
//! could leave a view half-updated. All three end here ([`halt`]): the message goes to the console
//! and to a visible red banner, every view that says it is running is marked `error`, and the page
//! is marked halted so that no run loop or frame callback schedules itself again (a panic inside a
//! borrow leaves that borrow held forever; a loop that retried it would spin at 100 % CPU).
//! Errors from DOM calls use the same banner ([`banner`]) without halting.

use std::cell::Cell;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

use crate::dom;

thread_local! {
    static HALTED: Cell<bool> = const { Cell::new(false) };
}

/// Whether a fatal error stopped the page: run loops and frame callbacks check it before
/// scheduling themselves again.
pub fn halted() -> bool {
    HALTED.with(Cell::get)
}

/// Installs the panic hook and the window's `error` / `unhandledrejection` handlers. Call first
/// thing.
pub fn install() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        halt(&format!(
            "crosslane stopped with an internal error: {info}. Reload the page; please report this."
        ));
    }));
    let Ok(win) = dom::window() else { return };
    let on_error = Closure::<dyn Fn(web_sys::Event)>::new(|e: web_sys::Event| {
        let message = field(&e, "message")
            .or_else(|| field(&e, "error"))
            .unwrap_or_else(|| "unknown error".into());
        halt(&format!(
            "crosslane stopped after a script error: {message}. Reload the page; please report this."
        ));
    });
    let on_rejection = Closure::<dyn Fn(web_sys::Event)>::new(|e: web_sys::Event| {
        let reason = field(&e, "reason").unwrap_or_else(|| "unknown reason".into());
        halt(&format!(
            "crosslane stopped after an unhandled promise rejection: {reason}. Reload the page; please report this."
        ));
    });
    let _ = win.add_event_listener_with_callback("error", on_error.as_ref().unchecked_ref());
    let _ = win.add_event_listener_with_callback(
        "unhandledrejection",
        on_rejection.as_ref().unchecked_ref(),
    );
    // The handlers live as long as the page.
    on_error.forget();
    on_rejection.forget();
}

/// A property of an event as text (`ErrorEvent.message`, `PromiseRejectionEvent.reason`).
fn field(e: &web_sys::Event, name: &str) -> Option<String> {
    let v = js_sys::Reflect::get(e, &JsValue::from_str(name)).ok()?;
    if v.is_undefined() || v.is_null() {
        return None;
    }
    let text = v
        .as_string()
        .or_else(|| js_sys::JSON::stringify(&v).ok().and_then(|s| s.as_string()))
        .or_else(|| {
            v.dyn_ref::<js_sys::Error>()
                .map(|err| String::from(err.message()))
        })
        .unwrap_or_else(|| format!("{v:?}"));
    // A few hundred characters are enough to act on; a huge message must not grow the banner.
    Some(text.chars().take(400).collect())
}

/// Stops the page after a fatal error: banner, views marked `error`, run loops halted. The
/// first message is kept (a panic is followed by the JS `RuntimeError` it becomes).
pub fn halt(message: &str) {
    if HALTED.with(|h| h.replace(true)) {
        return;
    }
    banner(message);
    let Ok(doc) = dom::document() else { return };
    // Reset the state flags the views and tests read: nothing is running any more.
    if let Ok(list) = doc.query_selector_all("[data-state=\"running\"]") {
        for k in 0..list.length() {
            if let Some(el) = list
                .item(k)
                .and_then(|n| n.dyn_into::<web_sys::HtmlElement>().ok())
            {
                let _ = dom::set_data(&el, "state", "error");
            }
        }
    }
    if let Some(root) = doc.document_element() {
        let _ = root.set_attribute("data-halted", "true");
    }
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
