//! PNG export: the canvas as it is drawn (backing store at devicePixelRatio resolution).

use web_sys::HtmlCanvasElement;

use crate::dom::Js;

/// File name of the PNG export.
pub const FILE: &str = "crosslane.png";

/// The canvas as a `data:image/png;base64,…` URI.
///
/// # Errors
/// When the canvas is tainted or too large for the browser to encode.
pub fn data_url(canvas: &HtmlCanvasElement) -> Js<String> {
    canvas.to_data_url_with_type("image/png")
}
