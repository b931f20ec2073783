//! HTML built by type: an [`Html`] value can only be made from text (escaped on the way in),
//! from elements whose tag and attribute names are compile-time literals and whose attribute
//! values are escaped, or from other `Html`. So no user text (a lane's `why`, a kernel variable's
//! name, a diagnostic) can become markup, and no call site writes `escape` by hand.
//!
//! Target-independent (tested natively); the DOM side is `kit::set_html`.

use std::fmt::{self, Display, Write};

/// A piece of HTML whose text was escaped (see the module notes). `Display` writes the markup.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct Html(String);

/// Writes into a string, escaping the five characters HTML gives a meaning
/// (`&`, `<`, `>`, `"`, `'`), so the text is safe in character data and in quoted attributes.
struct Escaped<'a>(&'a mut String);

impl Write for Escaped<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        for c in s.chars() {
            match c {
                '&' => self.0.push_str("&amp;"),
                '<' => self.0.push_str("&lt;"),
                '>' => self.0.push_str("&gt;"),
                '"' => self.0.push_str("&quot;"),
                '\'' => self.0.push_str("&#39;"),
                _ => self.0.push(c),
            }
        }
        Ok(())
    }
}

impl Html {
    /// Empty HTML.
    pub fn new() -> Html {
        Html(String::new())
    }

    /// Empty HTML with room for `bytes` of markup.
    pub fn with_capacity(bytes: usize) -> Html {
        Html(String::with_capacity(bytes))
    }

    /// `text`, escaped.
    pub fn text(text: impl Display) -> Html {
        let mut h = Html::new();
        h.push_text(text);
        h
    }

    /// Appends `text`, escaped.
    pub fn push_text(&mut self, text: impl Display) -> &mut Html {
        let _ = write!(Escaped(&mut self.0), "{text}");
        self
    }

    /// Markup written in this program's source (a string literal: a page skeleton, a fixed
    /// button), never text that came from input or from the core; text goes through
    /// [`Html::push_text`] or the [`Tag`] methods.
    pub fn markup(&mut self, literal: &'static str) -> &mut Html {
        self.0.push_str(literal);
        self
    }

    /// [`Html::markup`] as a new value.
    pub fn from_static(literal: &'static str) -> Html {
        Html(literal.to_string())
    }

    /// Appends other HTML.
    pub fn push(&mut self, html: &Html) -> &mut Html {
        self.0.push_str(&html.0);
        self
    }

    /// Opens element `<tag …>`; add attributes, then close it with content
    /// ([`Tag::text`], [`Tag::html`], [`Tag::with`]), as a void element ([`Tag::void`]) or
    /// empty ([`Tag::empty`]).
    pub fn el(&mut self, tag: &'static str) -> Tag<'_> {
        self.0.push('<');
        self.0.push_str(tag);
        Tag {
            out: self,
            tag,
            open: true,
        }
    }

    /// `<tag>text</tag>`, the common case of a leaf element without attributes.
    pub fn leaf(&mut self, tag: &'static str, text: impl Display) -> &mut Html {
        self.el(tag).text(text);
        self
    }

    /// The markup.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether nothing was written.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl Display for Html {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// An element being written (see [`Html::el`]); its start tag is open until it gets content.
#[must_use = "a Tag writes its content and end tag when closed or dropped"]
pub struct Tag<'a> {
    out: &'a mut Html,
    tag: &'static str,
    open: bool,
}

impl Tag<'_> {
    /// Adds attribute `name="value"` (`value` escaped).
    pub fn attr(self, name: &'static str, value: impl Display) -> Self {
        let s = &mut self.out.0;
        s.push(' ');
        s.push_str(name);
        s.push_str("=\"");
        let _ = write!(Escaped(s), "{value}");
        s.push('"');
        self
    }

    /// Adds attribute `name="value"` when `value` is `Some`.
    pub fn attr_opt(self, name: &'static str, value: Option<impl Display>) -> Self {
        match value {
            Some(v) => self.attr(name, v),
            None => self,
        }
    }

    /// Adds boolean attribute `name` (`checked`, `hidden`, `disabled`) when `on`.
    pub fn flag(self, name: &'static str, on: bool) -> Self {
        if on {
            self.out.0.push(' ');
            self.out.0.push_str(name);
        }
        self
    }

    /// Closes the start tag, writes `text` escaped and the end tag.
    pub fn text(mut self, text: impl Display) {
        self.start();
        self.out.push_text(text);
    }

    /// Closes the start tag, writes `html` and the end tag.
    pub fn html(mut self, html: &Html) {
        self.start();
        self.out.push(html);
    }

    /// Closes the start tag, lets `f` write the content, then writes the end tag.
    pub fn with(mut self, f: impl FnOnce(&mut Html)) {
        self.start();
        f(self.out);
    }

    /// Closes the element with no content: `<tag …></tag>`.
    pub fn empty(self) {}

    /// Closes a void element (`<input …>`, `<br>`): no content, no end tag.
    pub fn void(mut self) {
        self.out.0.push('>');
        self.open = false;
        self.tag = "";
    }

    fn start(&mut self) {
        if self.open {
            self.out.0.push('>');
            self.open = false;
        }
    }
}

impl Drop for Tag<'_> {
    fn drop(&mut self) {
        if self.tag.is_empty() {
            return;
        }
        self.start();
        self.out.0.push_str("</");
        self.out.0.push_str(self.tag);
        self.out.0.push('>');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_attribute_values_are_escaped() {
        let mut h = Html::new();
        h.el("td")
            .attr("title", "a \"quoted\" <b> & 'x'")
            .text("<script>alert(1)</script>");
        assert_eq!(
            h.as_str(),
            "<td title=\"a &quot;quoted&quot; &lt;b&gt; &amp; &#39;x&#39;\">&lt;script&gt;alert(1)&lt;/script&gt;</td>"
        );
    }

    #[test]
    fn nesting_flags_void_and_empty_elements() {
        let mut h = Html::new();
        h.el("tr").attr("data-lane", 3).with(|h| {
            h.el("input")
                .attr("type", "checkbox")
                .flag("checked", true)
                .flag("disabled", false)
                .void();
            h.el("td").attr_opt("class", None::<&str>).empty();
            h.leaf("th", 3);
        });
        assert_eq!(
            h.as_str(),
            "<tr data-lane=\"3\"><input type=\"checkbox\" checked><td></td><th>3</th></tr>"
        );
        let mut outer = Html::text("a<b");
        outer.push(&h);
        assert!(outer.as_str().starts_with("a&lt;b<tr"));
    }
}
