//! Exports of the scenario on screen: PNG of the canvas (`png`), SVG of the same drawing
//! ([`svg`]: the SVG back end of the one renderer, not a second drawing), JSON of the trace
//! ([`json`]), CSV of the lane table ([`csv`]) and the operation as a compilable snippet in each
//! dialect ([`code`], from `crosslane_core::codegen`).
//!
//! Every export but PNG is a pure function of core types and is tested natively; the page only
//! turns the text into a download link (`set_download`).

pub mod code;
pub mod csv;
pub mod json;
#[cfg(target_arch = "wasm32")]
pub mod png;
pub mod svg;

/// `data:` URI of `text` with media type `mime` (UTF-8), for a download link.
pub fn data_uri(mime: &str, text: &str) -> String {
    format!(
        "data:{mime};charset=utf-8,{}",
        crate::embed::data_uri_escape(text)
    )
}

/// Points download link `a` at `href` under file name `file` (called from the click handler,
/// before the browser follows the link).
#[cfg(target_arch = "wasm32")]
pub fn set_download(a: &web_sys::Element, file: &str, href: &str) -> crate::dom::Js<()> {
    a.set_attribute("download", file)?;
    a.set_attribute("href", href)
}
