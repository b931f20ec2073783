//! The reference view: every operation of the registry, grouped by dialect, each with its
//! signature, rule, source, parameter ranges, types and a live example
//! ([`crosslane_core::reference::entries`], built from the same `OpSpec`s and runs as the op view,
//! so it cannot drift), a search box, and "open in playground", which loads an example into the
//! op view through the router (the op view's restore hook fills the form).
//!
//! The entries (every op run once, every example drawn) are built the first time the view is
//! shown, not at page load, so the op view starts as fast as before; and they are built in
//! chunks of about [`CHUNK_MS`] each, one task per chunk, so that no task of the page runs over
//! 50 ms (each task under 50 ms: all 171 at once took one 100–240 ms task). While the chunks run,
//! `#reference` has `aria-busy="true"` and no `data-count`; the last chunk sets `data-count`,
//! wires the search and drawings, and counts a render.
//!
//! Page contract (tests rely on it): `input#reference-search`, `#reference-count`, `#reference`
//! (`data-count` = the number of operations, set once every article is in; `data-shown` = how
//! many the search leaves), one
//! `section.ref-dialect[data-dialect]` per dialect with one `article[data-op=NAME]` per op (see
//! [`article`]), `button.open-playground` in each article, `select#reference-arch` (the AMD target
//! the AMD examples run for; each amdgcn and HIP article shows it in `p.target`).
//!
//! The view's state is in the link ([`View::Reference`]): the search text, the
//! AMD target and the place jumped to — a dialect group picked in the contents list, or the
//! article whose "open in playground" was clicked (so Back from the operation view returns to
//! it). A contents link scrolls in the page instead of replacing the URL fragment, which holds
//! the permalink. A restored state is applied when the view is built (or at once when it is).

mod article;

use crosslane_core::dialect::amdgcn::arch;
use crosslane_core::reference::entry;
use crosslane_core::{all_ops, example_for_arch, find_op, Dialect, OpSpec, RefEntry, View};
use std::cell::RefCell;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{
    Document, Element, Event, EventTarget, HtmlElement, HtmlInputElement, HtmlSelectElement,
    IntersectionObserver, IntersectionObserverEntry, IntersectionObserverInit,
};

use crate::dom::{append, document, el, el_as, mark_ready, window, Js};
use crate::kit::{self, Html, Owned, State};
use crate::panic;
use crate::views::router;

/// The view's name (tab, section, router).
const NAME: &str = "reference";

/// How long one chunk of the first build may run, in ms: well under the 50 ms of a long task,
/// leaving room for the browser's parse and layout of the chunk's articles.
const CHUNK_MS: f64 = 12.0;

/// The view's link state ([`View::Reference`]'s fields): what a restore asked for before the
/// view was built, and the place jumped to since.
#[derive(Clone, Default)]
struct Wanted {
    search: String,
    target: Option<String>,
    article: Option<String>,
}

thread_local! {
    /// The place jumped to (`View::Reference::article`): kept outside the view's state so the
    /// save hook can read it while a handler holds the view.
    static ARTICLE: RefCell<Option<String>> = const { RefCell::new(None) };
}

struct Reference {
    section: Element,
    /// A restored state not yet applied: the search and target before the first build (set in
    /// [`Reference::start`]), the place to scroll to once the view is built and shown.
    wanted: Option<Wanted>,
    /// Started on first show: the articles still to build.
    pending: Option<Pending>,
    /// Filled when the last chunk is in.
    built: Option<Built>,
}

/// The first build between its chunks.
struct Pending {
    /// Every op, in registry order (an entry's index is its place here).
    specs: Vec<&'static OpSpec>,
    /// The registry indexes in display order: grouped by dialect ([`Dialect::ALL`]).
    order: Vec<usize>,
    /// How much of `order` is built.
    next: usize,
    /// The entries built so far, by registry index.
    entries: Vec<Option<RefEntry>>,
    /// One `section.ref-dialect` per dialect with ops, for the articles of that dialect.
    sections: Vec<(Dialect, Element)>,
    list: HtmlElement,
    search: HtmlInputElement,
    count: Element,
    arch_pick: HtmlSelectElement,
}

struct Built {
    entries: Vec<RefEntry>,
    /// One per entry: its article and its search text.
    articles: Vec<(HtmlElement, String)>,
    groups: Vec<HtmlElement>,
    list: HtmlElement,
    search: HtmlInputElement,
    count: Element,
}

/// Registers the view; its content is built when it is first shown.
pub fn mount() -> Js<()> {
    let doc = document()?;
    let Some(section) = doc.get_element_by_id("view-reference") else {
        return Ok(());
    };
    let view = State::new(Reference {
        section,
        wanted: None,
        pending: None,
        built: None,
    });
    let shown = view.clone();
    router::on_change(move |name| {
        if name != NAME || router::current() != NAME {
            return;
        }
        let Some(mut v) = shown.get_mut() else {
            return;
        };
        if v.built.is_some() {
            // Shown again (a restore, Back): scroll to the place the link asked for.
            v.scroll_to_wanted();
            return;
        }
        if v.pending.is_some() {
            return;
        }
        if let Err(err) = v.start(&shown) {
            panic::banner(&format!("crosslane could not build the reference: {err:?}"));
        }
    });
    let restored = view.clone();
    router::register(router::ViewHooks {
        name: NAME,
        // Read from the fields themselves (and ARTICLE), not the view's state: a change is
        // reported while a handler may still hold it.
        save: Box::new(save),
        restore: Box::new(move |link| {
            let View::Reference {
                search,
                target,
                article,
            } = link
            else {
                return false;
            };
            let wanted = Wanted {
                search: search.clone(),
                target: target.clone(),
                article: article.clone(),
            };
            ARTICLE.with(|a| a.borrow_mut().clone_from(article));
            match restored.get_mut() {
                Some(mut v) => {
                    if let Err(err) = v.restore(wanted) {
                        panic::banner(&format!(
                            "crosslane could not restore the reference: {err:?}"
                        ));
                    }
                    true
                }
                None => false,
            }
        }),
    });
    Ok(())
}

/// The view's state for its link: the search box, the AMD target (`None` = the default), the
/// place jumped to. Before the first build (no fields yet), the default state.
fn save() -> Option<View> {
    let doc = document().ok()?;
    let search = doc
        .get_element_by_id("reference-search")
        .and_then(|e| e.dyn_into::<HtmlInputElement>().ok())
        .map(|e| e.value())
        .unwrap_or_default();
    let target = doc
        .get_element_by_id("reference-arch")
        .and_then(|e| e.dyn_into::<HtmlSelectElement>().ok())
        .map(|e| e.value())
        .filter(|t| !t.is_empty() && t != arch::DEFAULT);
    Some(View::Reference {
        search,
        target,
        article: ARTICLE.with(|a| a.borrow().clone()),
    })
}

/// Sets the place jumped to (a contents link, "open in playground").
fn jumped_to(anchor: Option<String>) {
    ARTICLE.with(|a| *a.borrow_mut() = anchor);
}

impl Owned for Reference {
    const WHAT: &'static str = "the reference view";

    /// The search and the target picker changed: the link follows (the state is released by
    /// now, as the router's save hook needs).
    fn settled(_state: &State<Reference>, kind: &str) {
        if kind == "input" || kind == "change" {
            router::changed(NAME);
        }
    }
}

impl Reference {
    /// The first show: the search side and one empty group per dialect at once, then the
    /// articles in chunks ([`Reference::step`]).
    fn start(&mut self, me: &State<Reference>) -> Js<()> {
        let doc = document()?;
        let specs: Vec<&'static OpSpec> = all_ops().collect();
        kit::clear(&self.section);
        let layout = el(&doc, "div", &[("class", "reference-layout")], None)?;
        let side = el(
            &doc,
            "aside",
            &[
                ("class", "reference-side"),
                ("aria-label", "find an operation"),
            ],
            None,
        )?;
        let label = el(&doc, "label", &[("for", "reference-search")], None)?;
        append(&label, &el(&doc, "code", &[], Some("search"))?)?;
        append(&side, &label)?;
        let search: HtmlInputElement = el_as(
            &doc,
            "input",
            &[
                ("id", "reference-search"),
                ("type", "search"),
                ("autocomplete", "off"),
                ("spellcheck", "false"),
                ("placeholder", "name, dialect, words of the rule…"),
            ],
        )?;
        append(&side, &search)?;
        let count = el(
            &doc,
            "p",
            &[("id", "reference-count"), ("class", "hint")],
            None,
        )?;
        append(&side, &count)?;
        let arch_label = el(&doc, "label", &[("for", "reference-arch")], None)?;
        append(&arch_label, &el(&doc, "code", &[], Some("AMD target"))?)?;
        append(&side, &arch_label)?;
        let arch_pick: HtmlSelectElement = el_as(&doc, "select", &[("id", "reference-arch")])?;
        for t in arch::TARGETS {
            let o = el(
                &doc,
                "option",
                &[("value", t.name)],
                Some(&format!("{} — {}", t.name, t.product)),
            )?;
            append(&arch_pick, &o)?;
        }
        arch_pick.set_value(arch::DEFAULT);
        if let Some(w) = &self.wanted {
            search.set_value(&w.search);
            if let Some(t) = w.target.as_deref().filter(|t| is_target(t)) {
                arch_pick.set_value(t);
            }
        }
        append(&side, &arch_pick)?;
        append(
            &side,
            &el(
                &doc,
                "p",
                &[("class", "hint")],
                Some(&format!(
                    "the AMD examples (amdgcn, HIP) run for this target (default {})",
                    arch::DEFAULT
                )),
            )?,
        )?;
        let contents = toc(&doc, &specs)?;
        kit::listen(&contents, "click", |e| {
            if let Err(err) = jump(&e) {
                panic::banner(&format!(
                    "crosslane could not scroll the reference: {err:?}"
                ));
            }
        })?;
        append(&side, &contents)?;
        append(&layout, &side)?;

        let list: HtmlElement = el_as(&doc, "div", &[("id", "reference")])?;
        list.set_attribute("aria-busy", "true")?;
        let mut order = Vec::with_capacity(specs.len());
        let mut sections = Vec::new();
        for d in Dialect::ALL {
            let ops: Vec<usize> = (0..specs.len())
                .filter(|&i| specs[i].dialect == d)
                .collect();
            if ops.is_empty() {
                continue;
            }
            let section = el(
                &doc,
                "section",
                &[
                    ("class", "ref-dialect"),
                    ("id", &format!("ref-{}", d.name())),
                    ("data-dialect", d.name()),
                ],
                None,
            )?;
            let mut head = Html::new();
            head.el("h2").with(|h| {
                h.push_text(d.title()).push_text(" ");
                h.leaf(
                    "small",
                    format_args!(
                        "{} operation{}",
                        ops.len(),
                        if ops.len() == 1 { "" } else { "s" }
                    ),
                );
            });
            kit::set_html(&section, &head);
            append(&list, &section)?;
            sections.push((d, section));
            order.extend(ops);
        }
        append(&layout, &list)?;
        append(&self.section, &layout)?;
        self.pending = Some(Pending {
            entries: specs.iter().map(|_| None).collect(),
            specs,
            order,
            next: 0,
            sections,
            list,
            search,
            count,
            arch_pick,
        });
        Self::later(me)
    }

    /// Runs [`Reference::step`] in a task of its own (after the browser has had its turn).
    fn later(me: &State<Reference>) -> Js<()> {
        let weak = me.downgrade();
        let f = Closure::once_into_js(move || {
            let Some(view) = weak.upgrade() else { return };
            let result = match view.get_mut() {
                Some(mut v) => v.step(),
                None => Ok(true),
            };
            match result {
                Ok(true) => {
                    if let Err(err) = Self::later(&view) {
                        panic::banner(&format!("crosslane could not build the reference: {err:?}"));
                    }
                }
                Ok(false) => {
                    if let Err(err) = Self::finish(&view) {
                        panic::banner(&format!("crosslane could not build the reference: {err:?}"));
                    }
                }
                Err(err) => {
                    panic::banner(&format!("crosslane could not build the reference: {err:?}"));
                }
            }
        });
        window()?.set_timeout_with_callback_and_timeout_and_arguments_0(f.unchecked_ref(), 0)?;
        Ok(())
    }

    /// Builds articles (their op's example run) for about [`CHUNK_MS`], each into its dialect's
    /// group. `true` while articles remain.
    fn step(&mut self) -> Js<bool> {
        let Some(p) = &mut self.pending else {
            return Ok(false);
        };
        let clock = window()?.performance();
        let now = || clock.as_ref().map_or(0.0, web_sys::Performance::now);
        let t0 = now();
        while p.next < p.order.len() {
            let i = p.order[p.next];
            let spec = p.specs[i];
            let mut html = Html::new();
            // One dialect at a time: the articles of one group go in with one insertion.
            while p.next < p.order.len() && p.specs[p.order[p.next]].dialect == spec.dialect {
                let j = p.order[p.next];
                let e = entry(p.specs[j]);
                article::html(&mut html, j, &e);
                p.entries[j] = Some(e);
                p.next += 1;
                if now() - t0 > CHUNK_MS {
                    break;
                }
            }
            if let Some((_, section)) = p.sections.iter().find(|(d, _)| *d == spec.dialect) {
                kit::append_html(section, &html)?;
            }
            if now() - t0 > CHUNK_MS {
                break;
            }
        }
        Ok(p.next < p.order.len())
    }

    /// After the last chunk: the article list, the listeners, the drawings' observer, the count.
    fn finish(me: &State<Reference>) -> Js<()> {
        let mut v = me.get_mut().ok_or_else(|| JsValue::from_str("busy"))?;
        let Some(p) = v.pending.take() else {
            return Ok(());
        };
        let doc = document()?;
        let all: Vec<RefEntry> = p.entries.into_iter().flatten().collect();
        if all.len() != p.specs.len() {
            return Err(JsValue::from_str("a reference entry is missing"));
        }
        let list = p.list;
        let mut articles = Vec::with_capacity(all.len());
        for e in &all {
            let found = doc
                .get_element_by_id(&article::anchor(e))
                .and_then(|a| a.dyn_into::<HtmlElement>().ok())
                .ok_or_else(|| JsValue::from_str("a reference article is missing"))?;
            articles.push((found, article::haystack(e)));
        }
        let groups = p
            .sections
            .iter()
            .filter_map(|(_, s)| s.clone().dyn_into::<HtmlElement>().ok())
            .collect();

        let weak = me.downgrade();
        let list_target: EventTarget = list.clone().into();
        kit::listen(&list_target, "click", move |e| {
            let Some(view) = weak.upgrade() else { return };
            if let Err(err) = open_in_playground(&view, &e) {
                panic::banner(&format!("crosslane could not open the example: {err:?}"));
            }
        })?;
        // The target picker and the search box are bound to the view: each change re-runs the
        // examples for the target, or filters the list by the words typed.
        kit::bind::text(me, &p.arch_pick, |v, name| v.retarget(&name))?;
        kit::bind::text(me, &p.search, |v, _| v.filter())?;

        observe_drawings(me, &list)?;
        list.set_attribute("data-count", &all.len().to_string())?;
        list.remove_attribute("aria-busy")?;
        v.built = Some(Built {
            entries: all,
            articles,
            groups,
            list,
            search: p.search,
            count: p.count,
        });
        // A target picked while the chunks ran: the AMD examples were built for the default.
        let target = p.arch_pick.value();
        if target != arch::DEFAULT {
            v.retarget(&target)?;
        }
        v.filter()?;
        v.scroll_to_wanted();
        Ok(())
    }

    /// Applies a link's state: at once to the fields when the view is built (or being built),
    /// else when [`Reference::start`] makes them; the place is scrolled to once the view is
    /// built and shown ([`Reference::scroll_to_wanted`]).
    fn restore(&mut self, wanted: Wanted) -> Js<()> {
        let target = wanted
            .target
            .clone()
            .filter(|t| is_target(t))
            .unwrap_or_else(|| arch::DEFAULT.to_string());
        if let Some(p) = &self.pending {
            // `finish` reads both fields.
            p.search.set_value(&wanted.search);
            p.arch_pick.set_value(&target);
        } else if let Some(b) = &self.built {
            b.search.set_value(&wanted.search);
            if let Some(pick) = document()?
                .get_element_by_id("reference-arch")
                .and_then(|e| e.dyn_into::<HtmlSelectElement>().ok())
            {
                if pick.value() != target {
                    pick.set_value(&target);
                    self.retarget(&target)?;
                }
            }
            self.filter()?;
        }
        self.wanted = Some(wanted);
        Ok(())
    }

    /// Scrolls to the place a restored link asked for, once the articles are in and the view
    /// is on screen (a hidden view has no layout to scroll to); then forgets it.
    fn scroll_to_wanted(&mut self) {
        if self.built.is_none() || router::current() != NAME {
            return;
        }
        let Some(wanted) = self.wanted.take() else {
            return;
        };
        let Some(anchor) = wanted.article else {
            return;
        };
        if let Some(e) = document().ok().and_then(|d| d.get_element_by_id(&anchor)) {
            e.scroll_into_view();
        }
    }

    /// Re-runs every AMD (amdgcn, HIP) example for target `name` and redraws those articles (their
    /// rule, target line, example command, results and drawing), so the results of rules that
    /// differ by generation change with the picker.
    fn retarget(&mut self, name: &str) -> Js<()> {
        let Some(b) = &mut self.built else {
            return Ok(());
        };
        for (i, e) in b.entries.iter_mut().enumerate() {
            if !matches!(e.dialect, Dialect::Amdgcn | Dialect::Hip) {
                continue;
            }
            let Ok(spec) = find_op(e.dialect, e.name) else {
                continue;
            };
            e.example = example_for_arch(spec, name);
            let Some((article, _)) = b.articles.get(i) else {
                continue;
            };
            kit::set_html(article, &article::inner(i, e));
            // Drawn at once: only the AMD articles change, a handful of drawings.
            if let Some(slot) = article.query_selector(".example-drawing")? {
                if let Some(svg) = article::drawing(e) {
                    kit::set_svg(&slot, &svg);
                    slot.remove_attribute("data-pending")?;
                }
            }
        }
        mark_ready()
    }

    /// Shows the articles whose search text holds every word typed, hides empty dialect groups,
    /// and updates the count.
    fn filter(&self) -> Js<()> {
        let Some(b) = &self.built else {
            return Ok(());
        };
        // ASCII case only, as the search text (`article::haystack`): the entries' names,
        // signatures and rules are ASCII where case matters, and Unicode's case tables are
        // kilobytes of the page's first module.
        let query = b.search.value().to_ascii_lowercase();
        let words: Vec<&str> = query.split_whitespace().collect();
        let mut shown = 0;
        for (article, text) in &b.articles {
            let hit = words.iter().all(|w| text.contains(w));
            article.set_hidden(!hit);
            shown += usize::from(hit);
        }
        for g in &b.groups {
            let any = g.query_selector("article:not([hidden])")?.is_some();
            g.set_hidden(!any);
        }
        let total = b.entries.len();
        b.list.set_attribute("data-shown", &shown.to_string())?;
        b.count.set_text_content(Some(&if shown == total {
            format!("{total} operations")
        } else {
            format!("{shown} of {total} operations")
        }));
        mark_ready()
    }
}

/// Draws each example when it comes within a screen of the viewport (and only then: laying out
/// every drawing at once takes seconds), then counts a render.
fn observe_drawings(me: &State<Reference>, list: &HtmlElement) -> Js<()> {
    let weak = me.downgrade();
    let callback = Closure::<dyn FnMut(js_sys::Array, IntersectionObserver)>::new(
        move |seen: js_sys::Array, observer: IntersectionObserver| {
            let Some(view) = weak.upgrade() else { return };
            let Some(v) = view.get() else { return };
            let Some(built) = &v.built else { return };
            let mut drew = false;
            for entry in seen.iter() {
                let Ok(entry) = entry.dyn_into::<IntersectionObserverEntry>() else {
                    continue;
                };
                if !entry.is_intersecting() {
                    continue;
                }
                let target = entry.target();
                observer.unobserve(&target);
                let svg = target
                    .get_attribute("data-index")
                    .and_then(|i| i.parse::<usize>().ok())
                    .and_then(|i| built.entries.get(i))
                    .and_then(article::drawing);
                if let Some(svg) = svg {
                    kit::set_svg(&target, &svg);
                    let _ = target.remove_attribute("data-pending");
                    drew = true;
                }
            }
            if drew {
                if let Err(err) = mark_ready() {
                    panic::banner(&format!("crosslane could not draw an example: {err:?}"));
                }
            }
        },
    );
    let init = IntersectionObserverInit::new();
    init.set_root_margin("100% 0px");
    let observer =
        IntersectionObserver::new_with_options(callback.as_ref().unchecked_ref(), &init)?;
    callback.forget();
    let pending = list.query_selector_all(".example-drawing[data-pending]")?;
    for i in 0..pending.length() {
        if let Some(e) = pending.item(i).and_then(|n| n.dyn_into::<Element>().ok()) {
            observer.observe(&e);
        }
    }
    Ok(())
}

/// The dialect list beside the search box: one link per dialect with its number of operations.
fn toc(doc: &Document, all: &[&'static OpSpec]) -> Js<Element> {
    let nav = el(doc, "nav", &[("class", "reference-toc")], None)?;
    let ul = el(doc, "ul", &[], None)?;
    for d in Dialect::ALL {
        let n = all.iter().filter(|e| e.dialect == d).count();
        if n == 0 {
            continue;
        }
        let li = el(doc, "li", &[], None)?;
        let a = el(
            doc,
            "a",
            &[("href", &format!("#ref-{}", d.name()))],
            Some(d.title()),
        )?;
        append(&li, &a)?;
        append(
            &li,
            &el(doc, "span", &[("class", "n")], Some(&n.to_string()))?,
        )?;
        append(&ul, &li)?;
    }
    append(&nav, &ul)?;
    Ok(nav)
}

/// Whether `name` is one of the AMD targets the picker offers.
fn is_target(name: &str) -> bool {
    arch::TARGETS.iter().any(|t| t.name == name)
}

/// A click in the contents list: scrolls to the dialect group in the page and records it as the
/// place jumped to (the link follows), instead of following the `#ref-…` link, which would
/// replace the URL fragment that holds the permalink.
fn jump(e: &Event) -> Js<()> {
    let Some(link) = e
        .target()
        .and_then(|t| t.dyn_into::<Element>().ok())
        .and_then(|t| t.closest("a[href^='#ref-']").ok().flatten())
    else {
        return Ok(());
    };
    e.prevent_default();
    let Some(anchor) = link
        .get_attribute("href")
        .and_then(|h| h.strip_prefix('#').map(str::to_string))
    else {
        return Ok(());
    };
    if let Some(target) = document()?.get_element_by_id(&anchor) {
        target.scroll_into_view();
    }
    jumped_to(Some(anchor));
    router::changed(NAME);
    Ok(())
}

/// A click on an "open in playground" button: the example's request goes to the op view (its
/// restore hook fills the form and renders), which is then shown.
fn open_in_playground(view: &State<Reference>, e: &Event) -> Js<()> {
    let Some(button) = e
        .target()
        .and_then(|t| t.dyn_into::<Element>().ok())
        .and_then(|t| t.closest("button.open-playground").ok().flatten())
    else {
        return Ok(());
    };
    let Some(index) = button
        .get_attribute("data-index")
        .and_then(|i| i.parse::<usize>().ok())
    else {
        return Ok(());
    };
    // Take the request and let go of the view before the op view runs.
    let request = {
        let v = view.get().ok_or_else(|| JsValue::from_str("busy"))?;
        v.built
            .as_ref()
            .and_then(|b| b.entries.get(index))
            .map(|entry| entry.example.request.clone())
    };
    let Some(request) = request else {
        return Ok(());
    };
    // The article becomes the place jumped to, in the reference's own history entry (amended,
    // not a new entry), so Back from the operation view returns to it.
    if let Some(article) = button.closest("article[id]")?.map(|a| a.id()) {
        jumped_to(Some(article));
        crate::permalink::amend();
    }
    if router::restore(&View::Op(request)) {
        window()?.scroll_to_with_x_and_y(0.0, 0.0);
        Ok(())
    } else {
        Err(JsValue::from_str(
            "the operation view did not take the example",
        ))
    }
}
