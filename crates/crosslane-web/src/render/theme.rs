//! The drawings' colours under the page theme (issue 17, item 3: "the canvas and SVG drawings
//! too, using the theme's colours (CSS custom properties read by the renderer)").
//!
//! The scene keeps the light palette it was built with ([`crate::render::style`] and the views'
//! own constants: one place per colour). A back end asks a `Palette` (wasm32 only) for the
//! colour to paint, by the part it paints ([`Role`]) and the scene's colour; the palette reads the
//! answer from the CSS custom properties of the element drawn into (so an embed, a page and a
//! host page each get their own theme):
//!
//! - `--draw-bg`: the drawing's background (the scene's is white);
//! - `--draw-ROLE-HEX`, then `--draw-HEX`: the colour that replaces `#HEX` (lower case, as the
//!   scene writes it) for that role, or for every role;
//! - nothing set: the scene's own colour. The light theme sets none, so a light drawing is
//!   exactly the scene, and `web/style.css` `:root[data-theme="dark"]` holds the dark palette.
//!
//! A box's label keeps its colour unless the box's fill was replaced, so a label written for a
//! fixed-colour fill (the sort diagram's viridis keys) keeps its contrast in either theme.

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

/// The colours of one drawing, read from the computed style of the element it is drawn into.
#[cfg(target_arch = "wasm32")]
pub struct Palette {
    style: Option<web_sys::CssStyleDeclaration>,
    cache: std::cell::RefCell<std::collections::HashMap<(Role, String), String>>,
}

#[cfg(target_arch = "wasm32")]
impl Palette {
    /// The palette in force for `element` (its computed style); with no style (a detached
    /// element, no window) every colour is the scene's own.
    pub fn of(element: &web_sys::Element) -> Self {
        let style = web_sys::window().and_then(|w| w.get_computed_style(element).ok().flatten());
        Palette {
            style,
            cache: Default::default(),
        }
    }

    fn read(&self, property: &str) -> Option<String> {
        let v = self.style.as_ref()?.get_property_value(property).ok()?;
        let v = v.trim();
        (!v.is_empty()).then(|| v.to_string())
    }

    /// The drawing's background: `--draw-bg`, else white.
    pub fn background(&self) -> String {
        self.read("--draw-bg").unwrap_or_else(|| "#ffffff".into())
    }

    /// The colour to paint for `role` where the scene says `colour`.
    pub fn get(&self, role: Role, colour: &str) -> String {
        let key = (role, colour.to_string());
        if let Some(hit) = self.cache.borrow().get(&key) {
            return hit.clone();
        }
        let found = properties(role, colour)
            .iter()
            .find_map(|p| self.read(p))
            .unwrap_or_else(|| colour.to_string());
        self.cache.borrow_mut().insert(key, found.clone());
        found
    }

    /// A box's label colour: themed only where the box's fill was (see the module doc).
    pub fn ink(&self, fill: &str, ink: &str) -> String {
        if self.get(Role::Fill, fill) == fill {
            ink.to_string()
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
