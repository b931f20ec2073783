//! The page's link to the kernel engine module (`crosslane-kernel-*.wasm`, the `engine`
//! feature), for what the first module leaves out and loads on demand: "Run on this GPU" of
//! the kernel view, "Export as code" (`crosslane_core::codegen`) and the op view's GPU check
//! (`crosslane_gpu`). The engine's glue and wasm names are
//! `section#view-kernel[data-engine-glue, data-engine-wasm]` and its gzipped size
//! `[data-engine-kb]`, all written by `scripts/build-web`. The module is imported once (the
//! promise is shared; the worker's download of the same file is in the HTTP cache); its
//! exported functions are then called by name ([`call`]).
//!
//! Only a build without the `engine` feature has this module: a build with it calls the same
//! code directly.

use std::cell::RefCell;

use wasm_bindgen::{JsCast, JsValue};
use web_sys::HtmlElement;

use crate::dom::{by_id, document};

thread_local! {
    /// The engine module's namespace, once initialized.
    static LOADED: RefCell<Option<JsValue>> = const { RefCell::new(None) };
}

/// The import itself, shared by every caller (a failed import may be tried again).
mod import {
    use wasm_bindgen::prelude::*;

    #[wasm_bindgen(inline_js = r#"
let p = null;
export function load_engine(glue, wasm) {
  if (!p) {
    const base = document.baseURI;
    p = import(new URL(glue, base).href).then(async (m) => {
      await m.default({ module_or_path: new URL(wasm, base) });
      return m;
    });
    p.catch(() => { p = null; });
  }
  return p;
}
"#)]
    extern "C" {
        /// The engine module's namespace, initialized.
        pub fn load_engine(glue: &str, wasm: &str) -> js_sys::Promise;
    }
}

/// The engine module when it is already loaded (no wait).
pub fn loaded() -> Option<JsValue> {
    LOADED.with(|l| l.borrow().clone())
}

/// "loading WHAT (the kernel engine, N KB)…": the status while the module arrives; N is its
/// gzipped size from `data-engine-kb` (a build without it shows no number).
pub fn loading_text(what: &str) -> String {
    let kb = document()
        .ok()
        .and_then(|d| by_id::<HtmlElement>(&d, "view-kernel").ok())
        .and_then(|s| s.get_attribute("data-engine-kb"))
        .filter(|kb| !kb.is_empty() && kb.bytes().all(|b| b.is_ascii_digit()));
    match kb {
        Some(kb) => format!("loading {what} (the kernel engine, {kb} KB)…"),
        None => format!("loading {what} (the kernel engine)…"),
    }
}

/// The engine module, imported and initialized on the first call.
///
/// # Errors
/// The build has no engine module, or it did not load (the text says which).
pub async fn load() -> Result<JsValue, String> {
    if let Some(m) = loaded() {
        return Ok(m);
    }
    let doc = document().map_err(|e| format!("{e:?}"))?;
    let section: HtmlElement = by_id(&doc, "view-kernel").map_err(|e| format!("{e:?}"))?;
    let glue = section
        .get_attribute("data-engine-glue")
        .unwrap_or_default();
    let wasm = section
        .get_attribute("data-engine-wasm")
        .unwrap_or_default();
    if !glue.ends_with(".js") || !wasm.ends_with(".wasm") {
        return Err("this build has no kernel engine module (scripts/build-web builds it)".into());
    }
    let module = wasm_bindgen_futures::JsFuture::from(import::load_engine(&glue, &wasm))
        .await
        .map_err(|e| format!("the kernel engine did not load: {e:?}"))?;
    LOADED.with(|l| *l.borrow_mut() = Some(module.clone()));
    Ok(module)
}

/// Calls the engine module's export `name` with `args`.
///
/// # Errors
/// The module has no such export, or the call threw (its message as text).
pub fn call(module: &JsValue, name: &str, args: &[JsValue]) -> Result<JsValue, String> {
    let f = js_sys::Reflect::get(module, &name.into())
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .ok_or_else(|| format!("the kernel engine module has no {name}"))?;
    let list: js_sys::Array = args.iter().collect();
    f.apply(module, &list)
        .map_err(|e| e.as_string().unwrap_or_else(|| format!("{e:?}")))
}
