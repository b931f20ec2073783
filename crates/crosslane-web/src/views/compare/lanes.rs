//! The comparison table `table#compare-lanes`: one row per lane, one cell per dialect run (the
//! value and where it came from), whether the runs agree, and, where they do not, the rules that
//! make them differ (the core's [`crosslane_core::portability::LaneVerdict::explanation`]).

use crosslane_core::Comparison;
use web_sys::Element;

use crate::dom::Js;
use crate::kit::{self, Html};
use crate::labels::{result_text, source_text, DisplayOptions};

/// Rewrites the table's head (one column per run) and body (one row per lane) for `c`.
pub fn render(tbody: &Element, c: &Comparison) -> Js<()> {
    if let Some(table) = tbody.parent_element() {
        if let Some(thead) = table.query_selector("thead")? {
            let mut head = Html::new();
            head.el("tr").with(|h| {
                h.el("th").attr("scope", "col").text("lane");
                for run in &c.runs {
                    h.el("th").attr("scope", "col").text(&run.label);
                }
                h.el("th").attr("scope", "col").text("agree");
                h.el("th").attr("scope", "col").text("why they differ");
            });
            kit::set_html(&thead, &head);
        }
    }
    let mut html = Html::with_capacity(c.lanes.len() * 600);
    for v in &c.lanes {
        html.el("tr")
            .attr("data-lane", v.lane)
            .attr("data-agree", v.agree)
            .attr_opt("class", (!v.agree).then_some("disagree"))
            .with(|h| {
                h.el("th").attr("scope", "row").text(v.lane);
                for run in &c.runs {
                    let result = run.step.as_ref().ok().and_then(|s| s.results.get(v.lane));
                    match result {
                        Some(r) => h
                            .el("td")
                            .attr("class", format_args!("run src-{}", r.source.name()))
                            .attr("data-run", &run.label)
                            .with(|h| {
                                h.el("span")
                                    .attr("class", "value")
                                    .text(result_text(r, DisplayOptions::default()));
                                h.push_text(" ");
                                h.el("span").attr("class", "outcome").text(source_text(r));
                            }),
                        None => h
                            .el("td")
                            .attr("class", "run absent")
                            .attr("data-run", &run.label)
                            .attr(
                                "title",
                                if run.step.is_ok() {
                                    "this run has no such lane"
                                } else {
                                    "this dialect refuses the input"
                                },
                            )
                            .text("—"),
                    }
                }
                h.el("td")
                    .attr("class", "agree")
                    .text(if v.agree { "✓" } else { "≠" });
                h.el("td")
                    .attr("class", "why")
                    .text(v.explanation.as_deref().unwrap_or(""));
            });
    }
    kit::set_html(tbody, &html);
    Ok(())
}
