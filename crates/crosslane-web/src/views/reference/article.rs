//! One reference entry as HTML: `article[data-op=NAME][data-dialect=D]` with the signature, the
//! rule in one paragraph, its source, the parameter table (name and CLI flag, accepted range,
//! default, meaning), the value types, and the live example drawn small by the SVG back end of
//! the same renderer the op view uses, with an "open in playground" button.
//!
//! Everything comes from [`RefEntry`], which the core builds from the `OpSpec` that runs the op
//! and from an actual run of the example, so the page cannot say anything the op does not do.

use crosslane_core::dialect::amdgcn::arch;
use crosslane_core::{Dialect, RefEntry};

use crate::kit::Html;
use crate::labels::{result_text, DisplayOptions};
use crate::render::{scene, svg};

/// Width of an example drawing, in CSS pixels (the SVG scales down with the column).
const EXAMPLE_WIDTH: f64 = 720.0;

/// The words search matches against: dialect, name, aliases, signature and its note, rule and
/// source, in ASCII lower case (the page's search folds ASCII case only: Unicode's case tables
/// would be kilobytes of the page's first module).
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
    .to_ascii_lowercase()
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

/// The article of entry number `index` (the button carries the index back to the view),
/// appended to `html`.
pub fn html(html: &mut Html, index: usize, e: &RefEntry) {
    html.el("article")
        .attr("class", "ref-op")
        .attr("id", anchor(e))
        .attr("data-op", e.name)
        .attr("data-dialect", e.dialect.name())
        .html(&inner(index, e));
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
pub fn inner(index: usize, e: &RefEntry) -> Html {
    let mut s = Html::with_capacity(8192);
    s.el("header").with(|h| {
        h.el("h3").with(|h| {
            h.leaf("code", e.name);
        });
        if !e.aliases.is_empty() {
            h.el("span").attr("class", "aliases").with(|h| {
                h.push_text("also: ");
                for (i, a) in e.aliases.iter().enumerate() {
                    if i > 0 {
                        h.push_text(", ");
                    }
                    h.leaf("code", a);
                }
            });
        }
        if e.scalar {
            h.el("span").attr("class", "badge").text("scalar");
        }
        h.el("button")
            .attr("type", "button")
            .attr("class", "open-playground button")
            .attr("data-index", index)
            .attr("title", "load this example into the operation view")
            .text("open in playground");
    });
    s.el("pre").attr("class", "signature").with(|h| {
        h.leaf("code", e.signature_line());
    });
    s.el("p").attr("class", "rule").text(&e.rule);
    s.el("p")
        .attr("class", "source")
        .text(format_args!("source: {}", e.source));
    if let Some(t) = target(e) {
        s.el("p").attr("class", "target").with(|h| {
            h.push_text("target: ");
            h.leaf("code", &t);
            h.push_text(" ");
            h.el("span").attr("class", "hint").text(format_args!(
                "· set by the AMD target picker beside the list; default {}",
                arch::DEFAULT
            ));
        });
    }
    params(&mut s, e);
    s.el("p").attr("class", "types").with(|h| {
        h.push_text("types: ");
        if e.types.is_empty() {
            h.push_text("none (the op takes no operand)");
        }
        for (i, t) in e.types.iter().enumerate() {
            if i > 0 {
                h.push_text(", ");
            }
            h.leaf("code", t.name());
        }
        if !e.type_note.is_empty() {
            h.push_text(" ");
            h.el("span")
                .attr("class", "hint")
                .text(format_args!("· {}", e.type_note));
        }
    });
    example(&mut s, index, e);
    s
}

fn params(s: &mut Html, e: &RefEntry) {
    if e.params.is_empty() {
        s.el("p")
            .attr("class", "params-none hint")
            .text("no parameters besides the operand");
        return;
    }
    s.el("table").attr("class", "params").with(|h| {
        h.el("thead").with(|h| {
            h.el("tr").with(|h| {
                for col in ["parameter", "range", "default", "meaning"] {
                    h.el("th").attr("scope", "col").text(col);
                }
            });
        });
        h.el("tbody").with(|h| {
            for p in &e.params {
                h.el("tr").attr("data-param", p.name).with(|h| {
                    h.el("td").attr("class", "name").with(|h| {
                        h.leaf("code", p.name);
                        h.push_text(" ");
                        h.el("span").attr("class", "flag").text(&p.flag);
                    });
                    h.el("td").attr("class", "range").with(|h| {
                        h.push_text(&p.range);
                        if let (Some(l), Some(src)) = (p.lanes, p.lanes_source) {
                            h.push_text(" ");
                            h.el("span")
                                .attr("class", "lanes")
                                .attr("title", src)
                                .text(format_args!("· {l}"));
                        }
                    });
                    h.el("td")
                        .attr("class", "default")
                        .text(p.default_text.trim_start_matches("default "));
                    h.el("td").attr("class", "doc").text(p.doc);
                });
            }
        });
    });
}

fn example(s: &mut Html, index: usize, e: &RefEntry) {
    let ex = &e.example;
    let results = ex.step.as_ref().map_or(String::new(), |step| {
        step.results
            .iter()
            .map(|r| result_text(r, DisplayOptions::default()))
            .collect::<Vec<_>>()
            .join(",")
    });
    s.el("figure")
        .attr("class", "example")
        .attr("data-results", &results)
        .with(|h| {
            h.el("figcaption").with(|h| {
                h.push_text("example: ");
                h.el("code").attr("class", "command").text(&ex.command);
                if let Some(note) = ex.note {
                    h.push_text(" ");
                    h.el("span").attr("class", "note").text(note);
                }
            });
            match (&ex.step, &ex.error) {
                // Filled with [`drawing`] when it scrolls near the screen: 171 drawings at
                // once would take seconds to lay out.
                (Some(_), _) => h
                    .el("div")
                    .attr("class", "example-drawing")
                    .attr("data-index", index)
                    .attr("data-pending", "true")
                    .empty(),
                (None, Some(err)) => h
                    .el("p")
                    .attr("class", "field-error")
                    .text(format_args!("{}: {}", err.field, err.message)),
                (None, None) => {}
            }
        });
}

/// The example drawn small (an SVG by the same renderer as the op view), or `None` when the
/// example was refused.
pub fn drawing(e: &RefEntry) -> Option<String> {
    e.example
        .step
        .as_ref()
        .map(|step| svg::to_svg_themed(&scene::build(step, EXAMPLE_WIDTH)))
}
