//! View switching and the registry of view state hooks.
//!
//! Tabs (`nav#views button[data-view]`) show one `section[data-view]` at a time and set
//! `document.body.dataset.view`. Each view registers [`ViewHooks`]: `save` returns the view's
//! state as a [`crosslane_core::scenario::View`] (what a permalink stores), `restore` applies one.
//! A view calls [`changed`] after a meaningful change of its state (a parameter edited, a step
//! taken); whoever listens ([`on_change`], e.g. the permalink module keeping the URL fragment up
//! to date) is told.

use std::cell::RefCell;

use crosslane_core::scenario::{KernelInputs, View};
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};

use crate::dom::{document, Js};

/// How a view saves and restores its state.
pub struct ViewHooks {
    /// The view's name: `op`, `compare`, `reference`, `kernel`, `sort`.
    pub name: &'static str,
    /// The view's state for a permalink; `None` when it has nothing to save.
    pub save: Box<dyn Fn() -> Option<View>>,
    /// Applies a scenario view; returns false when the view is not this view's kind.
    pub restore: Box<dyn Fn(&View) -> bool>,
}

/// A function told about every state change (see [`on_change`]).
type Listener = Box<dyn Fn(&str)>;

/// How the kernel view saves and restores its launch inputs ([`KernelInputs`]: arguments,
/// buffer lengths and fills, memory edits, dialect, entry), which a scenario keeps beside its
/// [`View`] rather than in it (so that links made before the inputs existed decode as they did).
pub struct InputHooks {
    /// The inputs on screen.
    pub save: Box<dyn Fn() -> KernelInputs>,
    /// Applies a link's inputs; called before the view's own `restore`, which launches with them.
    pub restore: Box<dyn Fn(&KernelInputs)>,
}

thread_local! {
    static INPUTS: RefCell<Option<InputHooks>> = const { RefCell::new(None) };
    static VIEWS: RefCell<Vec<ViewHooks>> = const { RefCell::new(Vec::new()) };
    static LISTENERS: RefCell<Vec<Listener>> = const { RefCell::new(Vec::new()) };
}

/// Registers a view's hooks (once, when the view mounts).
pub fn register(hooks: ViewHooks) {
    VIEWS.with(|v| v.borrow_mut().push(hooks));
}

/// Registers the kernel view's input hooks (once, when it mounts).
pub fn register_inputs(hooks: InputHooks) {
    INPUTS.with(|i| *i.borrow_mut() = Some(hooks));
}

/// The kernel inputs on screen (empty when no view registered [`InputHooks`]).
pub fn save_inputs() -> KernelInputs {
    INPUTS.with(|i| {
        i.try_borrow()
            .ok()
            .and_then(|h| h.as_ref().map(|h| (h.save)()))
            .unwrap_or_default()
    })
}

/// Hands a link's kernel inputs to the view that registered [`InputHooks`].
pub fn restore_inputs(inputs: &KernelInputs) {
    let _ = super::ensure_mounted(Some("kernel"));
    INPUTS.with(|i| {
        if let Some(h) = i.try_borrow().ok().as_ref().and_then(|h| h.as_ref()) {
            (h.restore)(inputs);
        }
    });
}

/// Calls `f` with the view name after every [`changed`] and every view switch.
pub fn on_change(f: impl Fn(&str) + 'static) {
    LISTENERS.with(|l| l.borrow_mut().push(Box::new(f)));
}

/// A view's state changed in a way worth a history entry / permalink update.
pub fn changed(view: &str) {
    if super::mounting() {
        return;
    }
    LISTENERS.with(|l| {
        if let Ok(listeners) = l.try_borrow() {
            for f in listeners.iter() {
                f(view);
            }
        }
    });
}

/// The state of the view on screen, if it has any to save.
pub fn save_current() -> Option<View> {
    let name = current();
    VIEWS.with(|v| {
        v.try_borrow()
            .ok()?
            .iter()
            .find(|h| h.name == name)
            .and_then(|h| (h.save)())
    })
}

/// Hands a scenario view to the view that takes it, and shows that view. Returns whether a
/// registered view took it.
pub fn restore(view: &View) -> bool {
    restore_in(view, None)
}

/// [`restore`], offering the view to tab `tab` first (the tab a permalink recorded, where two
/// views take the same kind: a MetaX op in the operation view or the MACA view).
pub fn restore_in(view: &View, tab: Option<&str>) -> bool {
    // The recorded tab's view first; the other views only when it does not take the scenario.
    if let Some(t) = tab {
        let _ = super::ensure_mounted(Some(t));
    }
    if let Some(name) = offer(view, tab) {
        let _ = show(name);
        return true;
    }
    let _ = super::ensure_mounted(None);
    match offer(view, tab) {
        Some(name) => {
            let _ = show(name);
            true
        }
        None => false,
    }
}

/// The name of the registered view that takes `view`, offered to tab `tab` first.
fn offer(view: &View, tab: Option<&str>) -> Option<&'static str> {
    VIEWS.with(|v| {
        let Ok(views) = v.try_borrow() else {
            return None;
        };
        let first = tab.and_then(|t| views.iter().find(|h| h.name == t));
        if let Some(h) = first.filter(|h| (h.restore)(view)) {
            return Some(h.name);
        }
        views.iter().find(|h| (h.restore)(view)).map(|h| h.name)
    })
}

/// The name of the view on screen (`op` before any switch).
pub fn current() -> String {
    document()
        .ok()
        .and_then(|d| d.body())
        .and_then(|b| b.dataset().get("view"))
        .unwrap_or_else(|| "op".to_string())
}

/// Shows view `name` ([`switch`]) and tells the views and the address at once ([`changed`]): for
/// a restored scenario, whose views have already been given their state.
pub fn show(name: &str) -> Js<()> {
    switch(name)?;
    changed(name);
    Ok(())
}

/// Shows view `name` as the reader chose it (a tab click, an arrow key). The shown view is laid
/// out in this task (a hidden view has no layout to keep), the next frame only paints it, and
/// what follows from showing it (its render, the address) runs after that frame
/// ([`crate::kit::after_frame`]), unless another view was chosen meanwhile. With the render in
/// the click's task, a view's first show was a 50–80 ms task; with the layout left to the
/// frame, that frame's style, layout and paint of the 11 000-element reference view came to
/// 50–57 ms (each task under 50 ms).
pub fn select(name: &str) -> Js<()> {
    if let Some(section) = switch(name)? {
        // Read for its side effect: the browser brings style and layout up to date.
        let _ = section.get_bounding_client_rect();
    }
    let name = name.to_string();
    crate::kit::after_frame(move || {
        if current() == name {
            changed(&name);
        }
    });
    Ok(())
}

/// Makes view `name` the one on screen: its section (`role=tabpanel`) visible, the others
/// hidden, its tab selected and the only tab in the Tab order. Returns its section.
fn switch(name: &str) -> Js<Option<HtmlElement>> {
    super::ensure_mounted(Some(name))?;
    let doc = document()?;
    let sections = doc.query_selector_all("section[data-view]")?;
    let mut shown = None;
    for i in 0..sections.length() {
        if let Some(s) = sections
            .item(i)
            .and_then(|n| n.dyn_into::<HtmlElement>().ok())
        {
            let mine = s.get_attribute("data-view").as_deref() == Some(name);
            s.set_hidden(!mine);
            if mine {
                super::tabs::focusable_scrollers(&s)?;
                shown = Some(s);
            }
        }
    }
    let tabs = doc.query_selector_all("nav#views [data-view]")?;
    for i in 0..tabs.length() {
        if let Some(t) = tabs.item(i).and_then(|n| n.dyn_into::<Element>().ok()) {
            let mine = t.get_attribute("data-view").as_deref() == Some(name);
            t.set_attribute("aria-selected", if mine { "true" } else { "false" })?;
            // One tab stop: only the selected tab is in the Tab order (WAI-ARIA APG, Tabs).
            t.set_attribute("tabindex", if mine { "0" } else { "-1" })?;
        }
    }
    if let Some(body) = doc.body() {
        body.dataset().set("view", name)?;
    }
    Ok(shown)
}

/// Wires the tab buttons: a click, and the arrow keys of [`super::tabs`].
pub fn install() -> Js<()> {
    let doc = document()?;
    let Some(nav) = doc.get_element_by_id("views") else {
        return Ok(());
    };
    crate::kit::listen(&nav, "click", move |e| {
        let Some(tab) = e
            .target()
            .and_then(|t| t.dyn_into::<Element>().ok())
            .and_then(|t| t.closest("[data-view]").ok().flatten())
        else {
            return;
        };
        if let Some(name) = tab.get_attribute("data-view") {
            if let Err(err) = select(&name) {
                crate::panic::banner(&format!("crosslane could not switch views: {err:?}"));
            }
        }
    })?;
    super::tabs::install_keys(&nav, select)
}
