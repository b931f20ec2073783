//! Listeners that live as long as the page.

use std::cell::Cell;
use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Element, Event, EventTarget};

use super::Html;
use crate::dom::Js;

/// Attaches `f` to the `kind` events of `target` for the page's life (the closure is handed to
/// the browser and never dropped). `f` is `Fn`: see the module notes of [`super`].
///
/// # Errors
/// When the browser refuses the listener.
pub fn listen(target: &impl AsRef<EventTarget>, kind: &str, f: impl Fn(Event) + 'static) -> Js<()> {
    listen_all(target, &[kind], f)
}

/// [`listen`] for several event kinds sharing one handler.
///
/// # Errors
/// When the browser refuses the listener.
pub fn listen_all(
    target: &impl AsRef<EventTarget>,
    kinds: &[&str],
    f: impl Fn(Event) + 'static,
) -> Js<()> {
    let c = Closure::<dyn Fn(Event)>::new(f);
    for kind in kinds {
        target
            .as_ref()
            .add_event_listener_with_callback(kind, c.as_ref().unchecked_ref())?;
    }
    c.forget();
    Ok(())
}

/// A JavaScript function calling `f` for the page's life (observers, worker messages, timers):
/// the same ownership as [`listen`] where the browser wants a function rather than a listener.
pub fn callback(f: impl FnMut(JsValue) + 'static) -> js_sys::Function {
    Closure::<dyn FnMut(JsValue)>::new(f)
        .into_js_value()
        .unchecked_into()
}

/// Runs `f` once, after every listener of the event being handled has run (a zero timeout):
/// for work that reads what another listener of the same event writes, so that the order in
/// which the listeners were added does not matter.
pub fn after_event(f: impl FnOnce() + 'static) {
    let f = Closure::once_into_js(f);
    if let Ok(w) = crate::dom::window() {
        let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(f.unchecked_ref(), 0);
    }
}

/// Work that whichever of two callbacks comes first runs, once.
type Once = Rc<Cell<Option<Box<dyn FnOnce()>>>>;

/// How long [`after_frame`] waits for a frame before it runs its work anyway (milliseconds).
pub const FRAME_FALLBACK_MS: i32 = 100;

/// Runs `f` once, in a task of its own after the next frame (an animation frame callback that
/// sets a zero timeout), or after [`FRAME_FALLBACK_MS`] if no frame comes first (a hidden tab
/// draws none). A render split into parts this way has each part's style and layout done by
/// the frame after it, apart from the script of the next part; parts split by zero timeouts
/// alone ([`after_event`]) usually all run before the same frame, whose layout then takes them
/// all at once, and work done in the frame callback itself adds its script to that frame's
/// task (each task under 50 ms: an MMA builtin's four grids were one 65–80 ms frame).
pub fn after_frame(f: impl FnOnce() + 'static) {
    let Ok(w) = crate::dom::window() else {
        return;
    };
    let once: Once = Rc::new(Cell::new(Some(Box::new(f))));
    let take = once.clone();
    let in_frame = Closure::once_into_js(move || {
        after_event(move || {
            if let Some(f) = take.take() {
                f();
            }
        });
    });
    let _ = w.request_animation_frame(in_frame.unchecked_ref());
    let fallback = Closure::once_into_js(move || {
        if let Some(f) = once.take() {
            f();
        }
    });
    let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(
        fallback.unchecked_ref(),
        FRAME_FALLBACK_MS,
    );
}

/// Removes every child of `target`.
pub fn clear(target: &Element) {
    target.set_text_content(None);
}

/// Replaces the children of `target` with the renderer's SVG text (`render::svg::to_svg`, which
/// escapes every text and attribute it writes): the one kind of markup the page takes that is
/// not an [`Html`], since the SVG back end also serves exports and the JavaScript library.
pub fn set_svg(target: &Element, svg: &str) {
    target.set_inner_html(svg);
}

/// Replaces the children of `target` with `html` (the one way the page writes HTML: built by
/// type, so every piece of text in it was escaped).
pub fn set_html(target: &Element, html: &Html) {
    target.set_inner_html(html.as_str());
}

/// Appends `html` after the last child of `target` (a view built in chunks adds each chunk's
/// markup this way; built by type like [`set_html`]'s).
pub fn append_html(target: &Element, html: &Html) -> Js<()> {
    target.insert_adjacent_html("beforeend", html.as_str())
}
