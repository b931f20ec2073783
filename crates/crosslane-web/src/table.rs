//! The lane table: the accessible, copyable twin of the canvas (page contract, DESIGN.md):
//! `<table id="lanes">`, one `<tr data-lane="i">` per lane with `td.input`, `td.result`,
//! `td.source` (and `td.why`). A result reads `undefined` for an undefined lane and `inactive` for
//! an inactive one. Each row has a checkbox that switches the lane on or off; a click anywhere on
//! the row does the same (the click handler lives in `app`).

use std::fmt::Write;

use crosslane_core::Step;
use web_sys::Element;

use crate::labels::{escape, input_text, result_text, source_text};

/// Replaces the body of `tbody` with one row per lane of `step`.
pub fn render(tbody: &Element, step: &Step) {
    let rows = step.inputs.len().max(step.results.len());
    let mut html = String::with_capacity(rows * 320);
    for lane in 0..rows {
        let active = step.active.contains(lane);
        let input = step
            .inputs
            .get(lane)
            .map(|v| input_text(*v))
            .unwrap_or_default();
        let (result, source, why, class) = match step.results.get(lane) {
            Some(r) => (
                result_text(r),
                source_text(r),
                r.why.clone().unwrap_or_default(),
                r.source.name(),
            ),
            None => Default::default(),
        };
        let _ = write!(
            html,
            r#"<tr data-lane="{lane}" class="src-{class}{off}"><th scope="row">{lane}</th><td class="on"><input type="checkbox" aria-label="lane {lane} active"{checked}></td><td class="input">{input}</td><td class="result">{result}</td><td class="source">{source}</td><td class="why">{why}</td></tr>"#,
            off = if active { "" } else { " off" },
            checked = if active { " checked" } else { "" },
            input = escape(&input),
            result = escape(&result),
            source = escape(&source),
            why = escape(&why),
        );
    }
    tbody.set_inner_html(&html);
}
