//! The HTML of the kernel view's tables: the lane table of variables (`table#kernel-vars`), the
//! active-mask strip (`#kernel-mask`) and the memory table (`#kernel-memory`). Built as strings
//! from core types only, so the page sets each with one `innerHTML`.
//!
//! Words: a lane's undefined value reads `undefined` (the page contract's word, DESIGN.md "Page
//! contract"), with the interpreter's reason and line on hover; an undefined memory cell reads
//! `undef`, which is also what the cell editor accepts (`Memory::set_text`).

use std::collections::{BTreeMap, HashSet};
use std::fmt::Write;

use crosslane_core::kernel::{KVal, LaneVal, MemWrite, Memory, Space, VarChange};
use crosslane_core::LaneMask;

use crate::labels::escape;

/// Cells per row of the memory table.
pub const MEMORY_COLUMNS: usize = 16;

/// A value as the page and the cell editor write it: vectors as `a:b:…` (what
/// [`crosslane_core::kernel::memory::parse_cell`] reads back), scalars as the interpreter prints them.
pub fn value_text(v: &KVal) -> String {
    match v {
        KVal::Vector { items, .. } => items
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(":"),
        other => other.to_string(),
    }
}

/// The hover text of an undefined lane value: why, and the line that made it so.
fn undef_title(v: &LaneVal) -> String {
    match v {
        Ok(_) => String::new(),
        Err(u) if u.line > 0 => format!("{} (line {}:{})", u.why, u.line, u.col),
        Err(u) if u.why.is_empty() => "never assigned in this lane".to_string(),
        Err(u) => u.why.clone(),
    }
}

/// The lane table: a header row (lane, active, one column per variable), then one
/// `tr[data-lane]` per lane with `td[data-var=NAME]` cells. Lanes outside `active` (the lanes
/// that did not run the step shown) get class `off`; variables changed by that step get class
/// `changed`.
pub fn vars_table(lanes: usize, active: LaneMask, vars: &[VarChange], changed: &[&str]) -> String {
    let mut html = String::with_capacity(lanes * (60 + vars.len() * 40));
    html.push_str(r#"<thead><tr><th scope="col">lane</th><th scope="col">active</th>"#);
    for v in vars {
        let _ = write!(
            html,
            r#"<th scope="col" data-var="{name}"{cls}>{name}</th>"#,
            name = escape(&v.name),
            cls = if changed.contains(&v.name.as_str()) {
                r#" class="changed""#
            } else {
                ""
            }
        );
    }
    html.push_str("</tr></thead><tbody>");
    for lane in 0..lanes {
        let on = active.contains(lane);
        let _ = write!(
            html,
            r#"<tr data-lane="{lane}"{off}><th scope="row">{lane}</th><td class="on">{mark}</td>"#,
            off = if on { "" } else { r#" class="off""# },
            mark = if on { "●" } else { "·" },
        );
        for v in vars {
            let name = escape(&v.name);
            let changed = on && changed.contains(&v.name.as_str());
            match v.values.get(lane) {
                Some(Ok(k)) => {
                    let _ = write!(
                        html,
                        r#"<td data-var="{name}"{cls}>{}</td>"#,
                        escape(&value_text(k)),
                        cls = if changed { r#" class="changed""# } else { "" }
                    );
                }
                Some(u @ Err(_)) => {
                    let _ = write!(
                        html,
                        r#"<td data-var="{name}" class="undef{}" title="{}">undefined</td>"#,
                        if changed { " changed" } else { "" },
                        escape(&undef_title(u))
                    );
                }
                None => {
                    let _ = write!(html, r#"<td data-var="{name}"></td>"#);
                }
            }
        }
        html.push_str("</tr>");
    }
    html.push_str("</tbody>");
    html
}

/// The active mask as one square per lane (`span.m.on` / `span.m.off`) after its hex form.
pub fn mask_strip(lanes: usize, active: LaneMask) -> String {
    let mut html = String::with_capacity(lanes * 48 + 64);
    let _ = write!(
        html,
        r#"<span class="mask-label">active <code>{}</code></span><span class="mask-lanes">"#,
        active.to_hex(lanes)
    );
    for lane in 0..lanes {
        let on = active.contains(lane);
        let _ = write!(
            html,
            r#"<span class="m {}" data-lane="{lane}" title="lane {lane} {}"></span>"#,
            if on { "on" } else { "off" },
            if on { "active" } else { "inactive" }
        );
    }
    html.push_str("</span>");
    html
}

fn space_text(space: Space) -> String {
    match space {
        Space::Global => "global".into(),
        Space::Shared { block } => format!("shared, block {block}"),
        Space::Local { block, warp, lane } => {
            format!("local, block {block} warp {warp} lane {lane}")
        }
    }
}

/// Cells of one buffer shown at a time (16 rows): a launch of 65536 × 1024 threads has a
/// 64-million-cell buffer, and one `<input>` per cell took the tab 10 s to show (issue 12).
pub const MEMORY_PAGE: usize = MEMORY_COLUMNS * 16;

/// The page of buffer `k` to show: the one `pages` names, else the page of the first cell the
/// step shown wrote into it, else the first. Always a page the buffer has.
fn page_of(k: usize, cells: usize, writes: &[MemWrite], pages: &BTreeMap<usize, usize>) -> usize {
    let last = cells.saturating_sub(1) / MEMORY_PAGE;
    let wanted = pages.get(&k).copied().unwrap_or_else(|| {
        writes
            .iter()
            .find(|w| w.buffer == k)
            .map_or(0, |w| w.index / MEMORY_PAGE)
    });
    wanted.min(last)
}

/// The memory table: per buffer a `tbody[data-buffer=K]` with a caption row (name, space,
/// size × type) and rows of [`MEMORY_COLUMNS`] cells `td[data-buffer=K][data-index=I]`. With
/// `editable`, global cells hold an `<input>` (edits apply to the launch's initial memory).
/// Cells written by the step shown get class `written`. A buffer of more than [`MEMORY_PAGE`]
/// cells shows one page of them ([`page_of`]) with `button.mem-page[data-buffer][data-page]`
/// to move, so the table holds at most that many cells per buffer however large the launch.
pub fn memory_table(
    memory: &Memory,
    writes: &[MemWrite],
    editable: bool,
    pages: &BTreeMap<usize, usize>,
) -> String {
    let mut html = String::new();
    if memory.buffers.is_empty() {
        html.push_str(r#"<tbody><tr><td class="hint">the kernel has no memory</td></tr></tbody>"#);
        return html;
    }
    let written: HashSet<(usize, usize)> = writes.iter().map(|w| (w.buffer, w.index)).collect();
    for (k, b) in memory.buffers.iter().enumerate() {
        let edit = editable && b.space == Space::Global;
        let _ = write!(
            html,
            r#"<tbody data-buffer="{k}" data-name="{name}"><tr class="buf"><th colspan="{span}" scope="rowgroup"><code>{name}</code> · {space} · {len} × {ty}{hint}</th></tr>"#,
            name = escape(&b.name),
            span = MEMORY_COLUMNS + 1,
            space = space_text(b.space),
            len = b.cells.len(),
            ty = escape(&b.elem.name()),
            hint = if edit {
                " · editable before the first step"
            } else {
                ""
            },
        );
        let page = page_of(k, b.cells.len(), writes, pages);
        let start = page * MEMORY_PAGE;
        let shown = b.cells.get(start..).unwrap_or(&[]);
        let shown = &shown[..shown.len().min(MEMORY_PAGE)];
        if b.cells.len() > MEMORY_PAGE {
            let pages_total = b.cells.len().div_ceil(MEMORY_PAGE);
            let button = |to: usize, label: &str, enabled: bool| {
                format!(
                    r#"<button type="button" class="mem-page" data-buffer="{k}" data-page="{to}"{}>{label}</button>"#,
                    if enabled { "" } else { " disabled" }
                )
            };
            let _ = write!(
                html,
                r#"<tr class="pager"><th colspan="{span}" scope="rowgroup">{first}{prev} cells {a}–{z} of {len} (page {p} of {pages_total}) {next}{last}</th></tr>"#,
                span = MEMORY_COLUMNS + 1,
                first = button(0, "⏮", page > 0),
                prev = button(page.saturating_sub(1), "◀", page > 0),
                a = start,
                z = start + shown.len().saturating_sub(1),
                len = b.cells.len(),
                p = page + 1,
                next = button(page + 1, "▶", page + 1 < pages_total),
                last = button(pages_total - 1, "⏭", page + 1 < pages_total),
            );
        }
        for (row, chunk) in shown.chunks(MEMORY_COLUMNS).enumerate() {
            let first = start + row * MEMORY_COLUMNS;
            let _ = write!(html, r#"<tr><th scope="row">{first}</th>"#);
            for (j, cell) in chunk.iter().enumerate() {
                let i = first + j;
                let text = cell.as_ref().map_or("undef".to_string(), value_text);
                let mut cls = String::new();
                if written.contains(&(k, i)) {
                    cls.push_str("written");
                }
                if cell.is_none() {
                    cls.push_str(" undef");
                }
                if edit {
                    let _ = write!(
                        html,
                        r#"<td data-buffer="{k}" data-index="{i}" class="{cls}"><input type="text" data-buffer="{k}" data-index="{i}" value="{v}" aria-label="{name}[{i}]" spellcheck="false"></td>"#,
                        v = escape(&text),
                        name = escape(&b.name),
                    );
                } else {
                    let _ = write!(
                        html,
                        r#"<td data-buffer="{k}" data-index="{i}" class="{cls}">{}</td>"#,
                        escape(&text)
                    );
                }
            }
            html.push_str("</tr>");
        }
        html.push_str("</tbody>");
    }
    html
}
