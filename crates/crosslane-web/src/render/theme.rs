//! The drawings' colours under the page theme ("the canvas and SVG drawings
//! too, using the theme's colours (CSS custom properties read by the renderer)").
//!
//! The scene keeps the light palette it was built with ([`crate::render::style`] and the views'
//! own constants: one place per colour). A back end asks a `Palette` (wasm32 only) for the
//! colour to paint, by the part it paints ([`Role`]) and the scene's colour; the palette reads the
//! answer from the CSS custom properties of the document's root element (an embed is its own
//! document, so it gets its own theme):
//!
//! - `--draw-bg`: the drawing's background (the scene's is white);
//! - `--draw-ROLE-HEX`, then `--draw-HEX`: the colour that replaces `#HEX` (lower case, as the
//!   scene writes it) for that role, or for every role;
//! - nothing set: the scene's own colour. The light theme sets none, so a light drawing is
//!   exactly the scene, and `web/style.css` `:root[data-theme="dark"]` holds the dark palette.
//!
//! A box's label keeps its colour unless the box's fill was replaced, so a label written for a
//! fixed-colour fill (the sort diagram's viridis keys) keeps its contrast in either theme.
//!
//! The stylesheet sets those properties on `:root` for each `data-theme` only, so the colours read
//! are kept for as long as the root's `data-theme` stays: reading a custom property makes the
//! browser bring the whole page's style up to date, and doing that in the middle of a render made
//! a MACA builtin switch a long task (each task under 50 ms).

#[cfg(target_arch = "wasm32")]
use std::{
    cell::{OnceCell, RefCell},
    collections::HashMap,
    rc::Rc,
};

/// The part of the drawing a colour paints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// A box's fill.
    Fill,
    /// A box's outline, its pattern marks and its arrow.
    Stroke,
    /// A box's label.
    Ink,
    /// Free text (legends, captions, row labels).
    Text,
    /// Lines (wires, separators, axes).
    Line,
    /// Arrows.
    Arrow,
}

impl Role {
    /// The role's word in the custom property names.
    pub fn word(self) -> &'static str {
        match self {
            Role::Fill => "fill",
            Role::Stroke => "stroke",
            Role::Ink => "ink",
            Role::Text => "text",
            Role::Line => "line",
            Role::Arrow => "arrow",
        }
    }
}

/// The custom properties that may replace `colour` for `role`, most specific first; empty for a
/// colour that is not `#` + hex digits (a named colour is never themed).
pub fn properties(role: Role, colour: &str) -> Vec<String> {
    let Some(hex) = colour.strip_prefix('#') else {
        return Vec::new();
    };
    if hex.is_empty() || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Vec::new();
    }
    let hex = hex.to_ascii_lowercase();
    vec![
        format!("--draw-{}-{hex}", role.word()),
        format!("--draw-{hex}"),
    ]
}

/// The colours of the drawings under the document's current theme (see the module doc), read
/// from the root element's computed style on first use and kept per theme.
#[cfg(target_arch = "wasm32")]
#[derive(Clone)]
pub struct Palette(Rc<Colours>);

/// One theme's colours: the computed style they are read from and every answer given so far,
/// by [`Role`] (its index) and scene colour.
#[cfg(target_arch = "wasm32")]
struct Colours {
    theme: String,
    style: Option<web_sys::CssStyleDeclaration>,
    background: OnceCell<Rc<str>>,
    by_role: RefCell<[HashMap<String, Rc<str>>; 6]>,
}

#[cfg(target_arch = "wasm32")]
thread_local! {
    /// The palette of the theme last drawn in.
    static CURRENT: RefCell<Option<Palette>> = const { RefCell::new(None) };
}

#[cfg(target_arch = "wasm32")]
impl Palette {
    /// The palette in force for drawings in this document: the one kept for the root's current
    /// `data-theme`, or a fresh one that reads the root's computed style. With no document every
    /// colour is the scene's own.
    pub fn current() -> Self {
        let root = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.document_element());
        let theme = root
            .as_ref()
            .and_then(|r| r.get_attribute("data-theme"))
            .unwrap_or_default();
        CURRENT.with(|current| {
            let mut current = current.borrow_mut();
            if let Some(p) = current.as_ref().filter(|p| p.0.theme == theme) {
                return p.clone();
            }
            let style = root.and_then(|r| {
                web_sys::window().and_then(|w| w.get_computed_style(&r).ok().flatten())
            });
            let p = Palette(Rc::new(Colours {
                theme,
                style,
                background: Default::default(),
                by_role: Default::default(),
            }));
            *current = Some(p.clone());
            p
        })
    }

    fn read(&self, property: &str) -> Option<String> {
        let v = self.0.style.as_ref()?.get_property_value(property).ok()?;
        let v = v.trim();
        (!v.is_empty()).then(|| v.to_string())
    }

    /// The drawing's background: `--draw-bg`, else white.
    pub fn background(&self) -> Rc<str> {
        self.0
            .background
            .get_or_init(|| {
                self.read("--draw-bg")
                    .unwrap_or_else(|| "#ffffff".into())
                    .into()
            })
            .clone()
    }

    /// The colour to paint for `role` where the scene says `colour`.
    pub fn get(&self, role: Role, colour: &str) -> Rc<str> {
        let slot = role as usize;
        if let Some(hit) = self.0.by_role.borrow()[slot].get(colour) {
            return hit.clone();
        }
        let found: Rc<str> = properties(role, colour)
            .iter()
            .find_map(|p| self.read(p))
            .unwrap_or_else(|| colour.to_string())
            .into();
        self.0.by_role.borrow_mut()[slot].insert(colour.to_string(), found.clone());
        found
    }

    /// A box's label colour: themed only where the box's fill was (see the module doc).
    pub fn ink(&self, fill: &str, ink: &str) -> Rc<str> {
        if *self.get(Role::Fill, fill) == *fill {
            ink.into()
        } else {
            self.get(Role::Ink, ink)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hex_colour_is_looked_up_by_role_then_for_every_role() {
        assert_eq!(
            properties(Role::Fill, "#FFFFFF"),
            ["--draw-fill-ffffff", "--draw-ffffff"]
        );
        assert_eq!(
            properties(Role::Text, "#0f172a"),
            ["--draw-text-0f172a", "--draw-0f172a"]
        );
    }

    #[test]
    fn names_and_malformed_colours_are_never_themed() {
        assert!(properties(Role::Line, "red").is_empty());
        assert!(properties(Role::Line, "#").is_empty());
        assert!(properties(Role::Line, "#12zz45").is_empty());
        assert!(properties(Role::Line, "#12 45;").is_empty());
    }
}
