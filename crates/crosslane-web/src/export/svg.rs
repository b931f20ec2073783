//! SVG export: the scene through the SVG back end ([`crate::render::svg::to_svg`]), the same
//! display list the canvas draws, so the export is the drawing on screen.

use crate::render::scene::Scene;

/// File name of the SVG export.
pub const FILE: &str = "crosslane.svg";

/// The scene as a standalone SVG document, in the light palette (a file has no page theme) and
/// without hover hints (a file is not hovered; each box's `<title>` keeps its value and reason).
pub fn export(scene: &Scene) -> String {
    crate::render::svg::to_svg(&crate::render::print::without_hover_hints(scene))
}
