//! Keyboard for the view tabs (`nav#views`, `role=tablist`): the WAI-ARIA Authoring Practices
//! "Tabs" pattern with automatic activation. Left / Right move to the previous / next tab
//! (wrapping), Home / End to the first / last; the tab that gets focus is selected at once
//! (the router's `show`, passed in as `select`), which also keeps it the only tab stop (`tabindex` 0, the others -1).
//! `web/index.html` carries the static half of the pattern: `role=tab`, `aria-controls` naming
//! each `section[role=tabpanel]`, and the panels' `aria-labelledby`.
//!
//! Source: WAI-ARIA Authoring Practices Guide 1.2, "Tabs Pattern", keyboard interaction.

use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement, KeyboardEvent};

use crate::dom::Js;

/// Where a key moves focus among `count` tabs from tab `from`; `None` for any other key.
pub fn target(key: &str, from: usize, count: usize) -> Option<usize> {
    if count == 0 {
        return None;
    }
    match key {
        "ArrowRight" => Some((from + 1) % count),
        "ArrowLeft" => Some((from + count - 1) % count),
        "Home" => Some(0),
        "End" => Some(count - 1),
        _ => None,
    }
}

/// Puts every table scroller (`.table-wrap`) of `panel` in the Tab order, so a keyboard user can
/// scroll a table that has no control of its own (WCAG 2.1.1; axe `scrollable-region-focusable`).
/// Each is labelled by its table's caption or the heading of its card.
pub fn focusable_scrollers(panel: &Element) -> Js<()> {
    let wraps = panel.query_selector_all(".table-wrap:not([tabindex])")?;
    for i in 0..wraps.length() {
        let Some(w) = wraps.item(i).and_then(|n| n.dyn_into::<Element>().ok()) else {
            continue;
        };
        w.set_attribute("tabindex", "0")?;
        if !w.has_attribute("aria-label") {
            let table = w
                .query_selector("table[id]")?
                .and_then(|t| t.get_attribute("id"))
                .unwrap_or_else(|| "table".into());
            w.set_attribute("role", "region")?;
            w.set_attribute(
                "aria-label",
                &format!("{} (scrolls)", table.replace('-', " ")),
            )?;
        }
    }
    Ok(())
}

/// Listens for the tab keys on `nav` (the tablist).
pub fn install_keys(nav: &Element, select: fn(&str) -> Js<()>) -> Js<()> {
    let list = nav.clone();
    crate::kit::listen(nav, "keydown", move |e| {
        let Some(e) = e.dyn_ref::<KeyboardEvent>() else {
            return;
        };
        let Ok(tabs) = list.query_selector_all("[role=tab][data-view]") else {
            return;
        };
        let tabs: Vec<HtmlElement> = (0..tabs.length())
            .filter_map(|i| tabs.item(i).and_then(|n| n.dyn_into::<HtmlElement>().ok()))
            .collect();
        let Some(from) = e
            .target()
            .and_then(|t| t.dyn_into::<Element>().ok())
            .and_then(|t| t.closest("[role=tab]").ok().flatten())
            .and_then(|t| tabs.iter().position(|x| **x == t))
        else {
            return;
        };
        let Some(to) = target(&e.key(), from, tabs.len()) else {
            return;
        };
        e.prevent_default();
        let tab = &tabs[to];
        if let Some(name) = tab.get_attribute("data-view") {
            if let Err(err) = select(&name) {
                crate::panic::banner(&format!("crosslane could not switch views: {err:?}"));
                return;
            }
        }
        let _ = tab.focus();
    })
}
