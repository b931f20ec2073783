//! The reference view: every operation of the registry, grouped by dialect, each with its
//! signature, rule, source, parameter ranges, types and a live example
//! ([`crosslane_core::reference::entries`], built from the same `OpSpec`s and runs as the op view,
//! so it cannot drift), a search box, and "open in playground", which loads an example into the
//! op view through the router (the op view's restore hook fills the form).
//!
//! The entries (every op run once, every example drawn) are built the first time the view is
//! shown, not at page load, so the op view starts as fast as before.
//!
//! Page contract (tests rely on it): `input#reference-search`, `#reference-count`, `#reference`
//! (`data-count` = the number of operations, `data-shown` = how many the search leaves), one
//! `section.ref-dialect[data-dialect]` per dialect with one `article[data-op=NAME]` per op (see
//! [`article`]), `button.open-playground` in each article, `select#reference-arch` (the AMD target
//! the AMD examples run for; each amdgcn and HIP article shows it in `p.target`).

mod article;

use crosslane_core::dialect::amdgcn::arch;
use crosslane_core::{entries, example_for_arch, find_op, Dialect, RefEntry, View};
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

struct Reference {
    section: Element,
    /// Filled on first show.
    built: Option<Built>,
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
            return;
        }
        if let Err(err) = v.build(&shown) {
            panic::banner(&format!("crosslane could not build the reference: {err:?}"));
        }
    });
    router::register(router::ViewHooks {
        name: NAME,
        // The reference has no state worth a permalink (crosslane_core::scenario::View has no
        // variant for it).
        save: Box::new(|| None),
        restore: Box::new(|_| false),
    });
    Ok(())
}

impl Owned for Reference {
    const WHAT: &'static str = "the reference view";
}

impl Reference {
    fn build(&mut self, me: &State<Reference>) -> Js<()> {
        let doc = document()?;
        let all = entries();
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
        append(&side, &toc(&doc, &all)?)?;
        append(&layout, &side)?;

        let list: HtmlElement = el_as(&doc, "div", &[("id", "reference")])?;
        list.set_attribute("data-count", &all.len().to_string())?;
        let mut html = Html::new();
        for d in Dialect::ALL {
            let ops: Vec<(usize, &RefEntry)> = all
                .iter()
                .enumerate()
                .filter(|(_, e)| e.dialect == d)
                .collect();
            if ops.is_empty() {
                continue;
            }
            html.el("section")
                .attr("class", "ref-dialect")
                .attr("id", format_args!("ref-{}", d.name()))
                .attr("data-dialect", d.name())
                .with(|h| {
                    h.el("h2").with(|h| {
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
                    for (i, e) in ops {
                        article::html(h, i, e);
                    }
                });
        }
        kit::set_html(&list, &html);
        append(&layout, &list)?;
        append(&self.section, &layout)?;

        let mut articles = Vec::with_capacity(all.len());
        for e in &all {
            let found = list
                .query_selector(&format!("#{}", article::anchor(e)))?
                .and_then(|a| a.dyn_into::<HtmlElement>().ok())
                .ok_or_else(|| JsValue::from_str("a reference article is missing"))?;
            articles.push((found, article::haystack(e)));
        }
        let found = list.query_selector_all("section.ref-dialect")?;
        let groups = (0..found.length())
            .filter_map(|i| found.item(i)?.dyn_into::<HtmlElement>().ok())
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
        kit::bind::text(me, &arch_pick, |v, name| v.retarget(&name))?;
        kit::bind::text(me, &search, |v, _| v.filter())?;

        observe_drawings(me, &list)?;
        self.built = Some(Built {
            entries: all,
            articles,
            groups,
            list,
            search,
            count,
        });
        self.filter()
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
        let query = b.search.value().to_lowercase();
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
fn toc(doc: &Document, all: &[RefEntry]) -> Js<Element> {
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
    if router::restore(&View::Op(request)) {
        window()?.scroll_to_with_x_and_y(0.0, 0.0);
        Ok(())
    } else {
        Err(JsValue::from_str(
            "the operation view did not take the example",
        ))
    }
}
