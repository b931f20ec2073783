//! The comparison table `table#compare-lanes`: one row per lane, one cell per dialect run (the
//! value and where it came from), whether the runs agree, and, where they do not, the rules that
//! make them differ (the core's [`crosslane_core::portability::LaneVerdict::explanation`]).

use std::fmt::Write;

use crosslane_core::Comparison;
use web_sys::Element;

use crate::dom::Js;
use crate::labels::{escape, result_text, source_text, DisplayOptions};

/// Rewrites the table's head (one column per run) and body (one row per lane) for `c`.
pub fn render(tbody: &Element, c: &Comparison) -> Js<()> {
    if let Some(table) = tbody.parent_element() {
        if let Some(thead) = table.query_selector("thead")? {
            let mut head = String::from(r#"<tr><th scope="col">lane</th>"#);
            for run in &c.runs {
                let _ = write!(head, r#"<th scope="col">{}</th>"#, escape(&run.label));
            }
            head.push_str(r#"<th scope="col">agree</th><th scope="col">why they differ</th></tr>"#);
            thead.set_inner_html(&head);
        }
    }
    let mut html = String::with_capacity(c.lanes.len() * 600);
    for v in &c.lanes {
        let _ = write!(
            html,
            r#"<tr data-lane="{lane}" data-agree="{agree}"{class}><th scope="row">{lane}</th>"#,
            lane = v.lane,
            agree = v.agree,
            class = if v.agree { "" } else { r#" class="disagree""# },
        );
        for run in &c.runs {
            let label = escape(&run.label);
            let result = run.step.as_ref().ok().and_then(|s| s.results.get(v.lane));
            match result {
                Some(r) => {
                    let _ = write!(
                        html,
                        r#"<td class="run src-{src}" data-run="{label}"><span class="value">{value}</span> <span class="outcome">{outcome}</span></td>"#,
                        src = r.source.name(),
                        value = escape(&result_text(r, DisplayOptions::default())),
                        outcome = escape(&source_text(r)),
                    );
                }
                None => {
                    let _ = write!(
                        html,
                        r#"<td class="run absent" data-run="{label}" title="{why}">—</td>"#,
                        why = if run.step.is_ok() {
                            "this run has no such lane"
                        } else {
                            "this dialect refuses the input"
                        },
                    );
                }
            }
        }
        let _ = write!(
            html,
            r#"<td class="agree">{}</td><td class="why">{}</td></tr>"#,
            if v.agree { "✓" } else { "≠" },
            escape(v.explanation.as_deref().unwrap_or("")),
        );
    }
    tbody.set_inner_html(&html);
    Ok(())
}
