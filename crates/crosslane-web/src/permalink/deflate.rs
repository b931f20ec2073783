//! The browser's deflater: a scenario's JSON as a zlib stream, through `CompressionStream`.
//!
//! Why the browser's: the page's first module is what a visitor downloads before the first lanes
//! are drawn (its budget is 450 KB gzipped, docs/benchmarks.md), and miniz_oxide's deflater was
//! about 7 KB of its gzipped bytes. The Compression Streams standard's `"deflate"` format is the
//! ZLIB format (RFC 1950), the one a `v1.` link holds, so
//! [`crosslane_core::permalink::link_from_zlib`] makes the link and every reader
//! ([`crosslane_core::permalink::decode`], the CLI, the JS library) reads it.
//! Reading a link is the browser's too ([`super::inflate`], `DecompressionStream`).
//!
//! The browser's zlib level is its own (not level 9), so a link made by the page may be a few
//! bytes longer than the CLI's link of the same scenario; both decode to the same scenario.

use js_sys::{Array, Uint8Array};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen]
extern "C" {
    /// `CompressionStream` (Compression Streams standard). web-sys declares it only behind
    /// `--cfg web_sys_unstable_apis`; the constructor is all this module needs.
    type CompressionStream;

    #[wasm_bindgen(constructor, catch)]
    fn new(format: &str) -> Result<CompressionStream, JsValue>;
}

/// `text`'s UTF-8 bytes deflated into one zlib stream (RFC 1950).
///
/// # Errors
/// One line naming what failed: a browser without `CompressionStream` (before Chromium 80,
/// Firefox 113, Safari 16.4), or the stream's own error.
pub async fn zlib(text: &str) -> Result<Vec<u8>, String> {
    let compressor = CompressionStream::new("deflate")
        .map_err(|e| why("this browser has no CompressionStream", &e))?;
    let blob = web_sys::Blob::new_with_str_sequence(&Array::of1(&JsValue::from_str(text)))
        .map_err(|e| why("Blob", &e))?;
    let deflated = blob.stream().pipe_through(compressor.unchecked_ref());
    let response = web_sys::Response::new_with_opt_readable_stream(Some(&deflated))
        .map_err(|e| why("Response", &e))?;
    let promise = response
        .array_buffer()
        .map_err(|e| why("arrayBuffer", &e))?;
    let bytes = JsFuture::from(promise)
        .await
        .map_err(|e| why("deflate", &e))?;
    Ok(Uint8Array::new(&bytes).to_vec())
}

/// `what: the JS error's message` (or its debug form when it has none).
fn why(what: &str, error: &JsValue) -> String {
    let message = js_sys::Reflect::get(error, &JsValue::from_str("message"))
        .ok()
        .and_then(|m| m.as_string())
        .unwrap_or_else(|| format!("{error:?}"));
    format!("the link could not be made ({what}: {message})")
}
