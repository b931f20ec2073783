//! The browser's inflater: a link's zlib stream back into its scenario, through
//! `DecompressionStream`.
//!
//! Why the browser's: the page's first module is what a visitor downloads before the first lanes
//! are drawn (its budget is 450 KB gzipped, docs/benchmarks.md), and it carried miniz_oxide's
//! inflater only to read the link at load. The Compression Streams standard's `"deflate"` format
//! is the ZLIB format (RFC 1950), the one a `v1.` link holds ([`super::deflate`] writes it the
//! same way). The core's other steps stay the core's: [`crosslane_core::permalink::unpack`]
//! (length, prefix, base64url) before, [`crosslane_core::permalink::scenario_of_json`] after, so
//! a link is refused for the same reasons and with the same words as by
//! [`crosslane_core::permalink::decode`] (the CLI, the JS library).
//!
//! The inflated JSON is read chunk by chunk and the reading stops past
//! [`MAX_JSON_LEN`] bytes: a compression bomb is refused as too large, as miniz's inflater with
//! its limit refuses it. What the browser inflates ahead of the reader is bounded by the link's
//! own cap ([`crosslane_core::permalink::MAX_LINK_LEN`]: 16 KiB of base64 is at most 12 KiB of
//! deflate data, and deflate expands at most about 1032 : 1, a 258-byte match in two bits at
//! best, RFC 1951 §3.2.5), about 12 MB.
//!
//! Decoding is asynchronous: the page awaits it before its first render (`start` in lib.rs), and
//! Back / Forward apply the entry's scenario once it is decoded (see the module above).

use crosslane_core::permalink::{scenario_of_json, unpack, PermalinkError, MAX_JSON_LEN};
use crosslane_core::scenario::Scenario;
use js_sys::{Array, Uint8Array};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen]
extern "C" {
    /// `DecompressionStream` (Compression Streams standard). web-sys declares it only behind
    /// `--cfg web_sys_unstable_apis`; the constructor is all this module needs.
    type DecompressionStream;

    #[wasm_bindgen(constructor, catch)]
    fn new(format: &str) -> Result<DecompressionStream, JsValue>;
}

/// Why a link was not opened: the core's error, or a browser that cannot inflate at all.
#[derive(Debug)]
pub enum DecodeError {
    /// The link itself: its size, prefix, base64url, zlib stream or scenario
    /// ([`PermalinkError`], worded as everywhere else).
    Link(PermalinkError),
    /// This browser has no `DecompressionStream` (before Chromium 80, Firefox 113,
    /// Safari 16.4), or the stream could not be set up.
    Browser(String),
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Link(e) => e.fmt(f),
            Self::Browser(why) => f.write_str(why),
        }
    }
}

impl From<PermalinkError> for DecodeError {
    fn from(e: PermalinkError) -> Self {
        Self::Link(e)
    }
}

/// Decodes a permalink (`v1.…`, surrounding whitespace ignored) as
/// [`crosslane_core::permalink::decode`] does, inflating with the browser.
///
/// # Errors
/// [`DecodeError::Link`]: what `decode` would say of the same link (a stream with bytes after
/// its end is refused here, where miniz ignores them: no deflater writes such a link);
/// [`DecodeError::Browser`]: no `DecompressionStream`.
pub async fn decode(link: &str) -> Result<Scenario, DecodeError> {
    let packed = unpack(link)?;
    let json = inflate(&packed).await?;
    Ok(scenario_of_json(&json)?)
}

/// `packed` (a zlib stream, RFC 1950) inflated, at most [`MAX_JSON_LEN`] bytes of it.
///
/// # Errors
/// [`PermalinkError::TooLarge`] past the cap (reading stops there),
/// [`PermalinkError::Truncated`] when the stream ends early, [`PermalinkError::Corrupt`] for a
/// bad header or block (the browser's words) or an Adler-32 mismatch (`checksum mismatch`);
/// [`DecodeError::Browser`] when the browser cannot inflate.
async fn inflate(packed: &[u8]) -> Result<Vec<u8>, DecodeError> {
    let inflater = DecompressionStream::new("deflate").map_err(|e| {
        DecodeError::Browser(format!(
            "this browser cannot open links (no DecompressionStream: {})",
            message(&e)
        ))
    })?;
    let bytes = Uint8Array::from(packed);
    let blob = web_sys::Blob::new_with_u8_array_sequence(&Array::of1(&bytes))
        .map_err(|e| DecodeError::Browser(format!("Blob: {}", message(&e))))?;
    let reader: web_sys::ReadableStreamDefaultReader = blob
        .stream()
        .pipe_through(inflater.unchecked_ref())
        .get_reader()
        .unchecked_into();
    let mut json = Vec::new();
    loop {
        let chunk = JsFuture::from(reader.read())
            .await
            .map_err(|e| DecodeError::Link(stream_error(&message(&e))))?;
        if field(&chunk, "done").is_truthy() {
            return Ok(json);
        }
        let chunk: Uint8Array = field(&chunk, "value").unchecked_into();
        let start = json.len();
        let len = chunk.length() as usize;
        if start + len > MAX_JSON_LEN {
            // Stop reading: the rest of a bomb is never asked for.
            let _ = reader.cancel();
            return Err(DecodeError::Link(PermalinkError::TooLarge {
                what: "inflated scenario",
                limit: MAX_JSON_LEN,
            }));
        }
        json.resize(start + len, 0);
        chunk.copy_to(&mut json[start..]);
    }
}

/// The core's error for the inflater's `message`. Chromium says "Compressed input was
/// truncated." for a stream that ends early and passes zlib's own `msg` for bad data ("The
/// compressed data was not valid: incorrect data check." for an Adler-32 mismatch: zlib's
/// inflate.c); Firefox's words for an early end contain "end" of the input. Anything else is
/// corrupt, in the browser's words.
fn stream_error(message: &str) -> PermalinkError {
    let lower = message.to_ascii_lowercase();
    if lower.contains("truncated") || lower.contains("unexpected end") {
        PermalinkError::Truncated
    } else if lower.contains("incorrect data check") || lower.contains("checksum") {
        PermalinkError::Corrupt("checksum mismatch".into())
    } else {
        PermalinkError::Corrupt(message.trim_end_matches('.').to_string())
    }
}

/// `value[name]`, `undefined` when absent.
fn field(value: &JsValue, name: &str) -> JsValue {
    js_sys::Reflect::get(value, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED)
}

/// A JS error's `message` (or its debug form when it has none).
fn message(error: &JsValue) -> String {
    field(error, "message")
        .as_string()
        .unwrap_or_else(|| format!("{error:?}"))
}
