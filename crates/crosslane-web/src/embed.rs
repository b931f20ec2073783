//! Embed mode, for documentation iframes: `?embed` (optionally `&theme=dark`) shows only the
//! drawing and a compact control strip that edits every field of the operation (dialect, op,
//! every parameter, lanes, active mask — also by clicking a lane —, values, type; styled in
//! `web/embed.css`); `?embed=static` shows the drawing alone and edits nothing. Both carry an
//! "open in crosslane" link to the same scenario on the full page (`#embed-open`). The embed
//! fits its container, and posts `{type: "crosslane-height", height}` (CSS pixels) to the parent
//! page after every render and resize so the host can size the iframe.
//!
//! "Copy embed code" ([`snippet`]) gives an iframe and, under it, a link to the same scenario
//! on the full page: the static fallback, a few hundred bytes (the inline SVG it
//! replaced made the snippet 50-70 KB). The embed page stays transparent and empty until its wasm has rendered
//! (`web/embed.css`, `:root.embed body:not([data-ready])`). The snippet's few lines of script
//! resize the iframe from the height messages; without that script the iframe keeps the
//! drawing's height.

use crate::kit::Html;

/// Width in CSS pixels of the static drawing in the embed code: a documentation column, so the
/// drawing keeps its lane labels when the host shows it at that width.
pub const STATIC_WIDTH: f64 = 760.0;

/// The message type the embed posts to its parent.
pub const HEIGHT_MESSAGE: &str = "crosslane-height";

/// Percent-encodes `text` for a `data:` URI: every byte but RFC 3986 unreserved characters
/// (`A-Z a-z 0-9 - _ . ~`) becomes `%XX`.
pub fn data_uri_escape(text: &str) -> String {
    use std::fmt::Write;
    let mut out = String::with_capacity(text.len() * 3 / 2);
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// The HTML to paste into a documentation page: an iframe on `url` (the page with `?embed` and
/// the permalink), `height` CSS pixels tall until the live page reports its own height, titled
/// `title` for assistive technology, and under it a link to the same scenario on the full page
/// (`page`) — the static fallback where the iframe or its wasm cannot run, kept small on purpose
/// (kept small: the inline SVG it replaces made the snippet 50-70 KB). Every interpolated
/// text is escaped for its attribute or element (built as [`Html`]).
pub fn snippet(url: &str, page: &str, height: f64, title: &str) -> String {
    let height = if height.is_finite() && height >= 40.0 {
        height.ceil() as u64
    } else {
        320
    };
    let title = format!("crosslane: {title}");
    let mut h = Html::new();
    h.markup("<div class=\"crosslane-embed\" style=\"max-width:100%\">\n  ");
    h.el("iframe")
        .attr(
            "style",
            format_args!(
                "display:block;width:100%;height:{height}px;border:0;background:transparent"
            ),
        )
        .attr("src", url)
        .attr("title", &title)
        .attr("loading", "lazy")
        .empty();
    h.markup("\n  ");
    h.el("a")
        .attr("class", "crosslane-static")
        .attr("href", page)
        .text(format_args!("{title} — open it on the full page"));
    h.markup(
        "\n</div>\n<script>addEventListener(\"message\",function(e){if(!e.data||e.data.type!==\"",
    );
    h.push_text(HEIGHT_MESSAGE);
    h.markup("\")return;document.querySelectorAll(\".crosslane-embed iframe\").forEach(function(f){if(f.contentWindow===e.source)f.style.height=Math.ceil(e.data.height)+\"px\";});});</script>\n");
    h.to_string()
}

#[cfg(target_arch = "wasm32")]
pub use page::*;

#[cfg(target_arch = "wasm32")]
mod page {
    use std::cell::RefCell;
    use std::collections::HashMap;

    use wasm_bindgen::JsCast;
    use web_sys::{HtmlElement, HtmlTextAreaElement, ResizeObserver};

    use super::{snippet, HEIGHT_MESSAGE};
    use crate::dom::{document, window, Js};
    use crate::kit;
    use crate::permalink::{self, Opening};
    use crate::views::router;

    /// A view's static drawing: its scene as SVG text and the drawing's height in CSS pixels.
    pub type Drawing = Box<dyn Fn() -> Option<(String, f64)>>;

    thread_local! {
        static DRAWINGS: RefCell<HashMap<&'static str, Drawing>> = RefCell::new(HashMap::new());
    }

    /// Registers how view `view` draws itself as SVG, for the static fallback of the embed code.
    /// A view without one is embedded without a fallback drawing.
    pub fn register_drawing(view: &'static str, f: Drawing) {
        DRAWINGS.with(|d| {
            d.borrow_mut().insert(view, f);
        });
    }

    /// Embed mode and theme come from the page's query ([`crate::query`]).
    pub use crate::query::{is_dark, is_embed, is_static_embed};

    /// Embed mode: marks `<html>` (`class="embed"`, `data-theme`), reports the height to the
    /// parent on every size change of the body, and wires the share buttons (in every mode).
    pub fn install() -> Js<()> {
        wire_share_buttons()?;
        if !is_embed() {
            return Ok(());
        }
        let doc = document()?;
        if let Some(root) = doc.document_element() {
            root.class_list().add_1("embed")?;
            // `data-theme` is set by index.html's inline script (the query, else
            // prefers-color-scheme); only fill it in where that script did not run.
            if !root.has_attribute("data-theme") {
                root.set_attribute("data-theme", if is_dark() { "dark" } else { "light" })?;
            }
            if is_static_embed() {
                root.class_list().add_1("embed-static")?;
            }
        }
        add_open_link(&doc)?;
        let ro = ResizeObserver::new(&kit::callback(|_| report_height()))?;
        if let Some(body) = doc.body() {
            ro.observe(&body);
        }
        kit::listen(&window()?, "resize", |_| report_height())?;
        report_height();
        Ok(())
    }

    /// The embed's "open in crosslane" link (`a#embed-open`, a new tab): its address is the
    /// full page with the scenario on screen, refreshed whenever the pointer or focus reaches it
    /// (the scenario changes with every edit; the link is read only when followed or copied).
    fn add_open_link(doc: &web_sys::Document) -> Js<()> {
        let Some(body) = doc.body() else {
            return Ok(());
        };
        let a = doc.create_element("a")?;
        a.set_id("embed-open");
        a.set_attribute("target", "_blank")?;
        a.set_attribute("rel", "noopener")?;
        a.set_attribute(
            "title",
            "this scenario on the full crosslane page (new tab)",
        )?;
        a.set_text_content(Some("open in crosslane ↗"));
        let refresh = {
            let a = a.clone();
            move || {
                // At once, the link in the address (an embed replaces it at every change);
                // then the scenario on screen's, once the browser has deflated it.
                let now = permalink::committed_link()
                    .and_then(|link| permalink::page_url(&link, Opening::Page).ok())
                    .or_else(|| {
                        let loc = window().ok()?.location();
                        Some(format!(
                            "{}{}{}",
                            loc.origin().ok()?,
                            loc.pathname().ok()?,
                            loc.hash().ok()?
                        ))
                    });
                if let Some(url) = now {
                    let _ = a.set_attribute("href", &url);
                }
                let a = a.clone();
                wasm_bindgen_futures::spawn_local(async move {
                    let url = permalink::current_link()
                        .await
                        .and_then(|link| permalink::page_url(&link, Opening::Page).ok());
                    if let Some(url) = url {
                        let _ = a.set_attribute("href", &url);
                    }
                });
            }
        };
        refresh();
        kit::listen_all(
            &a,
            &[
                "pointerenter",
                "focus",
                "pointerdown",
                "click",
                "contextmenu",
            ],
            move |_| refresh(),
        )?;
        body.append_child(&a)?;
        Ok(())
    }

    /// Posts `{type: "crosslane-height", height}` to the parent page (embed mode only; the
    /// height of the body in CSS pixels, rounded up).
    pub fn report_height() {
        if !is_embed() {
            return;
        }
        let Ok(win) = window() else { return };
        let Ok(Some(parent)) = win.parent() else {
            return;
        };
        let Some(body) = win.document().and_then(|d| d.body()) else {
            return;
        };
        // The body, not the root: the root is never shorter than the iframe's viewport, so it
        // could only ever grow the iframe.
        let height = body.get_bounding_client_rect().height().ceil();
        let msg = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&msg, &"type".into(), &HEIGHT_MESSAGE.into());
        let _ = js_sys::Reflect::set(&msg, &"height".into(), &height.into());
        let _ = parent.post_message(&msg, "*");
    }

    /// The embed code of the scenario on screen: an editable embed, or with `read_only` one
    /// that shows the drawing alone (`?embed=static`).
    pub async fn embed_code(read_only: bool) -> Js<Option<String>> {
        let Some(link) = permalink::current_link().await else {
            return Ok(None);
        };
        let url = permalink::page_url(
            &link,
            Opening::Embed {
                dark: is_dark(),
                read_only,
            },
        )?;
        let page = permalink::page_url(&link, Opening::Page)?;
        let view = router::current();
        // Only the drawing's height is used: the first height of the iframe, before the live
        // embed reports its own.
        let height = DRAWINGS
            .with(|d| d.borrow().get(view.as_str()).and_then(|f| f()))
            .map_or(360.0, |(_, h)| h + 60.0);
        Ok(Some(snippet(&url, &page, height, &view)))
    }

    /// `#copy-link` and `#copy-embed`: put the text in `#share-text` (selected, for a manual
    /// copy) and on the clipboard when the browser allows it; `#share-status` says which. With
    /// the embed code of the operation view, `#share-read-only` (shown then) switches it between
    /// an editable embed and one that edits nothing, and copies it again.
    fn wire_share_buttons() -> Js<()> {
        let doc = document()?;
        for (id, kind) in [("copy-link", "link"), ("copy-embed", "embed code")] {
            let Some(button) = doc.get_element_by_id(id) else {
                continue;
            };
            kit::listen(&button, "click", move |_| {
                mark_share("pending");
                wasm_bindgen_futures::spawn_local(async move {
                    if let Err(e) = share(kind).await {
                        crate::panic::banner(&format!(
                            "crosslane could not copy the {kind}: {e:?}"
                        ));
                    }
                });
            })?;
        }
        if let Some(read_only) = doc.get_element_by_id("share-read-only") {
            kit::listen(&read_only, "change", |_| {
                mark_share("pending");
                wasm_bindgen_futures::spawn_local(async {
                    if let Err(e) = share("embed code").await {
                        crate::panic::banner(&format!(
                            "crosslane could not copy the embed code: {e:?}"
                        ));
                    }
                });
            })?;
        }
        Ok(())
    }

    /// `body[data-share]`: `pending` from a share button's click until what it shares is shown,
    /// `settled` after (tests read `#share-text` then).
    fn mark_share(state: &str) {
        if let Some(body) = document().ok().and_then(|d| d.body()) {
            let _ = body.dataset().set("share", state);
        }
    }

    /// Shows and copies the link or embed code (`kind`), then marks the share `settled`.
    async fn share(kind: &str) -> Js<()> {
        let shown = show_and_copy(kind).await;
        mark_share("settled");
        shown
    }

    /// What [`share`] does: shows and copies the link or embed code (`kind`). Asynchronous: the link is deflated by
    /// the browser ([`permalink::current_link`]); the clipboard write still counts as the
    /// click's (user activation lasts beyond the click's task, HTML Standard "transient
    /// activation").
    async fn show_and_copy(kind: &str) -> Js<()> {
        let doc = document()?;
        // A read-only embed is the operation view's (`?embed=static` hides its fields).
        let offer_read_only = kind == "embed code" && router::current() == "op";
        if let Some(field) = doc
            .get_element_by_id("share-read-only-field")
            .and_then(|e| e.dyn_into::<HtmlElement>().ok())
        {
            field.set_hidden(!offer_read_only);
        }
        let read_only = offer_read_only
            && doc
                .get_element_by_id("share-read-only")
                .and_then(|e| e.dyn_into::<web_sys::HtmlInputElement>().ok())
                .is_some_and(|c| c.checked());
        // Why there is no link (no state, or over the size limit), said as such.
        let text = match permalink::current_link_or_why().await {
            Err(why) => Err(why),
            Ok(link) if kind == "link" => Ok(permalink::page_url(&link, Opening::Page)?),
            Ok(_) => embed_code(read_only)
                .await?
                .ok_or_else(|| "this view has nothing to link to".to_string()),
        };
        let status = doc.get_element_by_id("share-status");
        let say = |msg: &str| {
            if let Some(s) = &status {
                s.set_text_content(Some(msg));
            }
        };
        let text = match text {
            Ok(text) => text,
            Err(why) => {
                say(&why);
                if let Some(box_) = doc
                    .get_element_by_id("share")
                    .and_then(|e| e.dyn_into::<HtmlElement>().ok())
                {
                    // The status line is inside the share box: shown, with no stale text below.
                    box_.set_hidden(false);
                    if let Some(area) = doc
                        .get_element_by_id("share-text")
                        .and_then(|e| e.dyn_into::<HtmlTextAreaElement>().ok())
                    {
                        area.set_value("");
                        area.set_hidden(true);
                    }
                }
                return Ok(());
            }
        };
        if let Some(area) = doc
            .get_element_by_id("share-text")
            .and_then(|e| e.dyn_into::<HtmlTextAreaElement>().ok())
        {
            area.set_value(&text);
            area.set_hidden(false);
            area.select();
        }
        if let Some(box_) = doc
            .get_element_by_id("share")
            .and_then(|e| e.dyn_into::<HtmlElement>().ok())
        {
            box_.set_hidden(false);
        }
        let clipboard = window()?.navigator().clipboard();
        let _ = clipboard.write_text(&text);
        say(&format!("{kind} copied (also selected below)"));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snippet_escapes_and_falls_back_to_a_link() {
        let s = snippet(
            "https://x.test/?embed#v1.abc",
            "https://x.test/#v1.abc&\"",
            212.2,
            "op <b>",
        );
        assert!(s.contains("src=\"https://x.test/?embed#v1.abc\""), "{s}");
        assert!(s.contains("height:213px"), "{s}");
        assert!(s.contains("title=\"crosslane: op &lt;b&gt;\""), "{s}");
        assert!(
            s.contains("<a class=\"crosslane-static\" href=\"https://x.test/#v1.abc&amp;&quot;\">"),
            "{s}"
        );
        assert!(!s.contains("<img"), "no inline drawing: {s}");
        assert!(s.contains(HEIGHT_MESSAGE));
        assert!(s.len() < 1024, "a small snippet, got {} bytes", s.len());
    }

    #[test]
    fn snippet_height_is_sane_without_a_drawing() {
        let s = snippet("u", "p", f64::NAN, "sort");
        assert!(s.contains("height:320px"));
    }

    #[test]
    fn data_uri_escape_keeps_unreserved_only() {
        assert_eq!(
            data_uri_escape("a-b_c.d~e f<#>%"),
            "a-b_c.d~e%20f%3C%23%3E%25"
        );
        assert_eq!(data_uri_escape("é"), "%C3%A9");
    }
}
