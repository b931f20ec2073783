//! SVG export: the scene through the SVG back end ([`crate::render::svg::to_svg`]), the same
//! display list the canvas draws, so the export is the drawing on screen.

use crate::render::scene::Scene;

/// File name of the SVG export.
pub const FILE: &str = "crosslane.svg";

/// The scene as a standalone SVG document.
pub fn export(scene: &Scene) -> String {
    crate::render::svg::to_svg(scene)
}
