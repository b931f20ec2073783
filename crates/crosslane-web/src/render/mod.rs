//! Drawing a step: one display list ([`scene`]), two back ends ([`svg`] for text, `canvas` for
//! the page). The scene and SVG code are target-independent and tested natively.

#[cfg(target_arch = "wasm32")]
pub mod canvas;
pub mod print;
pub mod scene;
pub mod stack;
pub mod style;
pub mod svg;
pub mod theme;
