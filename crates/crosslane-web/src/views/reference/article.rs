//! One reference entry as HTML: `article[data-op=NAME][data-dialect=D]` with the signature, the
//! rule in one paragraph, its source, the parameter table (name and CLI flag, accepted range,
//! default, meaning), the value types, and the live example drawn small by the SVG back end of
//! the same renderer the op view uses, with an "open in playground" button.
//!
//! Everything comes from [`RefEntry`], which the core builds from the `OpSpec` that runs the op
//! and from an actual run of the example, so the page cannot say anything the op does not do.

use std::fmt::Write;

use crosslane_core::dialect::amdgcn::arch;
use crosslane_core::{Dialect, RefEntry};

use crate::labels::{escape, result_text, DisplayOptions};
use crate::render::{scene, svg};

/// Width of an example drawing, in CSS pixels (the SVG scales down with the column).
const EXAMPLE_WIDTH: f64 = 720.0;

/// The words search matches against: dialect, name, aliases, signature and its note, rule and
/// source, in
/// lower case.
pub fn haystack(e: &RefEntry) -> String {
    format!(
        "{} {} {} {} {} {} {} {}",
        e.dialect.name(),
        e.dialect.title(),
        e.name,
        e.aliases.join(" "),
        e.signature,
        e.signature_note,
        e.rule,
        e.source
    )
    .to_lowercase()
}

/// The `id` of the entry's article (`ref-ascend-asc_shfl_xor`).
pub fn anchor(e: &RefEntry) -> String {
    let name: String = e
        .name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    format!("ref-{}-{name}", e.dialect.name())
}

/// The article of entry number `index` (the button carries the index back to the view).
pub fn html(index: usize, e: &RefEntry) -> String {
    format!(
        r#"<article class="ref-op" id="{id}" data-op="{name}" data-dialect="{dialect}">{inner}</article>"#,
        id = anchor(e),
        name = escape(e.name),
        dialect = e.dialect.name(),
        inner = inner(index, e),
    )
}

/// The AMD target an entry's example ran for (its `arch` parameter, else the default), with the
/// product; `None` for ops without a target.
pub fn target(e: &RefEntry) -> Option<String> {
    if !matches!(e.dialect, Dialect::Amdgcn | Dialect::Hip)
        || !e.params.iter().any(|p| p.name == "arch")
    {
        return None;
    }
    let name = e
        .example
        .request
        .params
        .get("arch")
        .map_or(arch::DEFAULT, String::as_str);
    let product = arch::parse(name).map(|t| t.product).unwrap_or("unknown");
    Some(format!("{name} ({product})"))
}

/// The inside of the article: replaced whole when the AMD target picker re-runs the example.
pub fn inner(index: usize, e: &RefEntry) -> String {
    let mut s = String::with_capacity(8192);
    let _ = write!(
        s,
        r#"<header><h3><code>{name}</code></h3>"#,
        name = escape(e.name),
    );
    if !e.aliases.is_empty() {
        let _ = write!(
            s,
            r#"<span class="aliases">also: {}</span>"#,
            e.aliases
                .iter()
                .map(|a| format!("<code>{}</code>", escape(a)))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    if e.scalar {
        s.push_str(r#"<span class="badge">scalar</span>"#);
    }
    let _ = write!(
        s,
        r#"<button type="button" class="open-playground button" data-index="{index}" title="load this example into the operation view">open in playground</button></header>"#
    );
    let _ = write!(
        s,
        r#"<pre class="signature"><code>{}</code></pre><p class="rule">{}</p><p class="source">source: {}</p>"#,
        escape(&e.signature_line()),
        escape(&e.rule),
        escape(e.source)
    );
    if let Some(t) = target(e) {
        let _ = write!(
            s,
            r#"<p class="target">target: <code>{}</code> <span class="hint">· set by the AMD target picker beside the list; default {}</span></p>"#,
            escape(&t),
            arch::DEFAULT
        );
    }
    params(&mut s, e);
    let types: Vec<String> = e
        .types
        .iter()
        .map(|t| format!("<code>{}</code>", t.name()))
        .collect();
    let _ = write!(
        s,
        r#"<p class="types">types: {}"#,
        if types.is_empty() {
            "none (the op takes no operand)".to_string()
        } else {
            types.join(", ")
        }
    );
    if !e.type_note.is_empty() {
        let _ = write!(s, r#" <span class="hint">· {}</span>"#, escape(e.type_note));
    }
    s.push_str("</p>");
    example(&mut s, index, e);
    s
}

fn params(s: &mut String, e: &RefEntry) {
    if e.params.is_empty() {
        s.push_str(r#"<p class="params-none hint">no parameters besides the operand</p>"#);
        return;
    }
    s.push_str(
        r#"<table class="params"><thead><tr><th scope="col">parameter</th><th scope="col">range</th><th scope="col">default</th><th scope="col">meaning</th></tr></thead><tbody>"#,
    );
    for p in &e.params {
        let _ = write!(
            s,
            r#"<tr data-param="{name}"><td class="name"><code>{name}</code> <span class="flag">{flag}</span></td><td class="range">{range}{lanes}</td><td class="default">{default}</td><td class="doc">{doc}</td></tr>"#,
            name = escape(p.name),
            flag = escape(&p.flag),
            range = escape(&p.range),
            lanes = match (p.lanes, p.lanes_source) {
                (Some(l), Some(src)) => format!(
                    r#" <span class="lanes" title="{}">· {}</span>"#,
                    escape(src),
                    escape(l)
                ),
                _ => String::new(),
            },
            default = escape(p.default_text.trim_start_matches("default ")),
            doc = escape(p.doc),
        );
    }
    s.push_str("</tbody></table>");
}

fn example(s: &mut String, index: usize, e: &RefEntry) {
    let ex = &e.example;
    let results = ex.step.as_ref().map_or(String::new(), |step| {
        step.results
            .iter()
            .map(|r| result_text(r, DisplayOptions::default()))
            .collect::<Vec<_>>()
            .join(",")
    });
    let _ = write!(
        s,
        r#"<figure class="example" data-results="{}"><figcaption>example: <code class="command">{}</code>"#,
        escape(&results),
        escape(&ex.command)
    );
    if let Some(note) = ex.note {
        let _ = write!(s, r#" <span class="note">{}</span>"#, escape(note));
    }
    s.push_str("</figcaption>");
    match (&ex.step, &ex.error) {
        (Some(_), _) => {
            // Filled with [`drawing`] when it scrolls near the screen: 171 drawings at once
            // would take seconds to lay out.
            let _ = write!(
                s,
                r#"<div class="example-drawing" data-index="{index}" data-pending="true"></div>"#
            );
        }
        (None, Some(err)) => {
            let _ = write!(
                s,
                r#"<p class="field-error">{}: {}</p>"#,
                escape(&err.field),
                escape(&err.message)
            );
        }
        (None, None) => {}
    }
    s.push_str("</figure>");
}

/// The example drawn small (an SVG by the same renderer as the op view), or `None` when the
/// example was refused.
pub fn drawing(e: &RefEntry) -> Option<String> {
    e.example
        .step
        .as_ref()
        .map(|step| svg::to_svg(&scene::build(step, EXAMPLE_WIDTH)))
}
