//! PNG export: the drawing redrawn for print ([`crate::render::print`]: a title line with the
//! operation and its parameters, no hover hints) on a canvas of its own, at a device pixel ratio
//! of at least [`MIN_DPR`], so the file stays sharp when zoomed or printed.
//! The canvas is not in the page, so the drawing has the light palette whatever the theme.

use wasm_bindgen::JsCast;
use web_sys::HtmlCanvasElement;

use crate::dom::{document, Js};
use crate::render::{canvas, print, scene::Scene};

/// File name of the PNG export.
pub const FILE: &str = "crosslane.png";

/// The lowest pixel ratio of the export (backing pixels per CSS pixel).
pub const MIN_DPR: f64 = 2.0;

/// `scene` under the title `title`, as a `data:image/png;base64,…` URI, at `dpr` backing pixels
/// per CSS pixel (at least [`MIN_DPR`]).
///
/// # Errors
/// When no canvas can be made, or the browser cannot encode one that large.
pub fn data_url(scene: &Scene, title: &str, dpr: f64) -> Js<String> {
    let printed = print::for_print(scene, title);
    let c: HtmlCanvasElement = document()?.create_element("canvas")?.dyn_into()?;
    let dpr = if dpr.is_finite() {
        dpr.max(MIN_DPR)
    } else {
        MIN_DPR
    };
    canvas::draw(&c, &printed, dpr)?;
    c.to_data_url_with_type("image/png")
}
