//! The examples menu's choice: the chosen kernel's text is fetched (it is not in the page's
//! first module, [`super::examples`]), then it replaces the editor's text as a new kernel.
//!
//! While the text arrives the status says "loading the example FILE…"; an edit, another
//! choice or a restored link made meanwhile wins (the view's `generation` moves on, and the
//! late text is dropped). A fetch that fails leaves the editor as it was and says why.

use wasm_bindgen_futures::JsFuture;

use super::examples::{self, Example};
use super::{act, kit, Html, KernelView, Shared};
use crate::dom::Js;

mod fetch {
    use wasm_bindgen::prelude::*;

    #[wasm_bindgen(inline_js = r#"
export function fetch_text(url) {
  return fetch(new URL(url, document.baseURI)).then((r) =>
    r.ok ? r.text() : Promise.reject(new Error(`HTTP ${r.status} ${r.statusText}`.trim())));
}
"#)]
    extern "C" {
        /// The text at `url` (relative to the page), or a rejection naming the HTTP status.
        pub fn fetch_text(url: &str) -> js_sys::Promise;
    }
}

/// The `change` of `#kernel-examples`: starts the fetch of the chosen example (the menu's
/// empty choice does nothing).
///
/// # Errors
/// A DOM call that fails.
pub(super) fn choose(state: &Shared) -> Js<()> {
    let (example, generation) = {
        let Some(mut v) = state.get_mut() else {
            return Ok(());
        };
        let Some(e) = examples::find(&v.examples.value()) else {
            return Ok(());
        };
        // An edit still waiting for its parse is dropped: the example replaces it.
        v.edit_pending.set(false);
        v.generation += 1;
        v.status
            .set_text_content(Some(&format!("loading the example {}…", e.file)));
        (e, v.generation)
    };
    let state = state.clone();
    wasm_bindgen_futures::spawn_local(async move {
        let text = JsFuture::from(fetch::fetch_text(&examples::url(example))).await;
        let result = act(&state, |v| {
            if v.generation != generation {
                return Ok(false);
            }
            match text {
                Ok(t) => match t.as_string() {
                    Some(t) => put(v, &t),
                    None => failed(v, example, "the answer is not text"),
                },
                Err(e) => {
                    let why = js_sys::Error::from(e)
                        .message()
                        .as_string()
                        .unwrap_or_else(|| "the request failed".into());
                    failed(v, example, &why)
                }
            }
        });
        if let Err(err) = result {
            crate::panic::banner(&format!("crosslane kernel view hit a page error: {err:?}"));
        }
    });
    Ok(())
}

/// The example's text as a new kernel: its launch fields, edits, arguments and dialect reset,
/// the old kernel's entries gone, then loaded.
fn put(v: &mut KernelView, text: &str) -> Js<bool> {
    v.source_el.set_value(text);
    v.source_el.set_scroll_top(0.0);
    for input in [&v.blocks, &v.threads, &v.lanes] {
        input.set_value("");
    }
    v.edits.clear();
    v.args.clear();
    v.lens.clear();
    v.bad_lens.clear();
    v.dialect.set_value("");
    // The old kernel's entries go: a source without a listed kernel (a WGSL shader) answers
    // with none, which would leave them in the menu.
    v.entries.clear();
    kit::set_html(
        &v.entry,
        &Html::from_static(r#"<option value="">—</option>"#),
    );
    v.render_source();
    v.load()?;
    Ok(true)
}

/// The fetch failed: the editor keeps its kernel (the menu says so again), the status says why.
fn failed(v: &mut KernelView, example: &Example, why: &str) -> Js<bool> {
    let shown = examples::find_by_source(&v.source_el.value()).map_or("", |e| e.file);
    v.examples.set_value(shown);
    v.status.set_text_content(Some(&format!(
        "could not load the example {} ({why}); the editor keeps its kernel",
        example.file
    )));
    Ok(false)
}
