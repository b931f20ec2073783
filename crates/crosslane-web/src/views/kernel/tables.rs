//! The HTML of the kernel view's tables: the lane table of variables (`table#kernel-vars`), the
//! active-mask strip (`#kernel-mask`) and the memory table (`#kernel-memory`). Built as [`Html`]
//! from core types only (in the worker; the frame carries them), so the page sets each at once.
//!
//! Words: a lane's undefined value reads `undefined` (the page contract's word, docs/embedding.md "Page
//! contract"), with the interpreter's reason and line on hover; an undefined memory cell reads
//! `undef`, which is also what the cell editor accepts (`Memory::set_text`). A value from an
//! inexact math function has its accuracy note on hover.

use std::collections::{BTreeMap, HashSet};

use crosslane_core::LaneMask;
use crosslane_kernel::{KVal, LaneVal, MemWrite, Memory, Scalar, Space, VarChange};

use crate::kit::Html;

/// Cells per row of the memory table.
pub const MEMORY_COLUMNS: usize = 16;

/// A value as the lane table, the memory table and the cell editor write it: vectors as
/// `a:b:…`, floats as [`float_text`], other scalars as the interpreter prints them; all of it
/// what [`crosslane_kernel::memory::parse_cell`] reads back.
pub fn value_text(v: &KVal) -> String {
    match v {
        KVal::Float { ty, x, .. } => float_text(*x, *ty == Scalar::F32),
        KVal::Vector { items, .. } => items.iter().map(value_text).collect::<Vec<_>>().join(":"),
        other => crosslane_kernel::edits::cell_text(other),
    }
}

/// A float in its shortest round-trip form (`single`: as an `f32`, so `0.1f` reads `0.1`), with
/// an exponent where positional notation would be long: a decimal exponent below −4 or from 16
/// on, as Python's `repr` chooses (`1.234e-22`, `3e30`; `0.0001`, `123456.7`), written as Rust
/// writes it (no `+`, no leading zeros in the exponent). `NaN`, `inf` and `-inf` as the
/// interpreter writes them.
pub fn float_text(x: f64, single: bool) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf" } else { "-inf" }.into();
    }
    let (plain, exp) = if single {
        let y = x as f32;
        (format!("{y}"), format!("{y:e}"))
    } else {
        (format!("{x}"), format!("{x:e}"))
    };
    let power: i32 = exp
        .rsplit_once('e')
        .and_then(|(_, p)| p.parse().ok())
        .unwrap_or(0);
    if x != 0.0 && !(-4..16).contains(&power) {
        exp
    } else {
        plain
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
pub fn vars_table(lanes: usize, active: LaneMask, vars: &[VarChange], changed: &[&str]) -> Html {
    let mut html = Html::with_capacity(lanes * (60 + vars.len() * 40));
    html.el("thead").with(|h| {
        h.el("tr").with(|h| {
            h.el("th").attr("scope", "col").text("lane");
            h.el("th").attr("scope", "col").text("active");
            for v in vars {
                h.el("th")
                    .attr("scope", "col")
                    .attr("data-var", &v.name)
                    .attr_opt(
                        "class",
                        changed.contains(&v.name.as_str()).then_some("changed"),
                    )
                    .text(&v.name);
            }
        });
    });
    html.el("tbody").with(|h| {
        for lane in 0..lanes {
            let on = active.contains(lane);
            h.el("tr")
                .attr("data-lane", lane)
                .attr_opt("class", (!on).then_some("off"))
                .with(|h| {
                    h.el("th").attr("scope", "row").text(lane);
                    h.el("td")
                        .attr("class", "on")
                        .text(if on { "●" } else { "·" });
                    for v in vars {
                        let changed = on && changed.contains(&v.name.as_str());
                        let td = h.el("td").attr("data-var", &v.name);
                        match v.values.get(lane) {
                            // A value from an inexact math function says its bound on
                            // hover ("device may differ by ≤ 2 ulp (CUDA Math API, expf)").
                            Some(Ok(k)) => td
                                .attr_opt("class", changed.then_some("changed"))
                                .attr_opt("title", k.approx().map(|a| a.note()))
                                .text(value_text(k)),
                            Some(u @ Err(_)) => td
                                .attr("class", if changed { "undef changed" } else { "undef" })
                                .attr("title", undef_title(u))
                                .text("undefined"),
                            None => td.empty(),
                        }
                    }
                });
        }
    });
    html
}

/// The active mask as one square per lane (`span.m.on` / `span.m.off`) after its hex form.
pub fn mask_strip(lanes: usize, active: LaneMask) -> Html {
    let mut html = Html::with_capacity(lanes * 48 + 64);
    html.el("span").attr("class", "mask-label").with(|h| {
        h.push_text("active ");
        h.leaf("code", active.to_hex(lanes));
    });
    html.el("span").attr("class", "mask-lanes").with(|h| {
        for lane in 0..lanes {
            let on = active.contains(lane);
            h.el("span")
                .attr("class", if on { "m on" } else { "m off" })
                .attr("data-lane", lane)
                .attr(
                    "title",
                    format_args!("lane {lane} {}", if on { "active" } else { "inactive" }),
                )
                .empty();
        }
    });
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
/// 64-million-cell buffer, and one `<input>` per cell took the tab 10 s to show.
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
) -> Html {
    let mut html = Html::new();
    if memory.buffers.is_empty() {
        html.el("tbody").with(|h| {
            h.el("tr").with(|h| {
                h.el("td")
                    .attr("class", "hint")
                    .text("the kernel has no memory");
            });
        });
        return html;
    }
    let written: HashSet<(usize, usize)> = writes.iter().map(|w| (w.buffer, w.index)).collect();
    let span = MEMORY_COLUMNS + 1;
    for (k, b) in memory.buffers.iter().enumerate() {
        let edit = editable && b.space == Space::Global;
        let page = page_of(k, b.cells.len(), writes, pages);
        let start = page * MEMORY_PAGE;
        let shown = b.cells.get(start..).unwrap_or(&[]);
        let shown = &shown[..shown.len().min(MEMORY_PAGE)];
        html.el("tbody")
            .attr("data-buffer", k)
            .attr("data-name", &b.name)
            .with(|h| {
                h.el("tr").attr("class", "buf").with(|h| {
                    h.el("th")
                        .attr("colspan", span)
                        .attr("scope", "rowgroup")
                        .with(|h| {
                            h.leaf("code", &b.name);
                            h.push_text(format_args!(
                                " · {} · {} × {}{}",
                                space_text(b.space),
                                b.cells.len(),
                                b.elem.name(),
                                if edit {
                                    " · editable before the first step"
                                } else {
                                    ""
                                }
                            ));
                        });
                });
                if b.cells.len() > MEMORY_PAGE {
                    let pages_total = b.cells.len().div_ceil(MEMORY_PAGE);
                    let button = |h: &mut Html, to: usize, label: &str, enabled: bool| {
                        h.el("button")
                            .attr("type", "button")
                            .attr("class", "mem-page")
                            .attr("data-buffer", k)
                            .attr("data-page", to)
                            .flag("disabled", !enabled)
                            .text(label);
                    };
                    h.el("tr").attr("class", "pager").with(|h| {
                        h.el("th")
                            .attr("colspan", span)
                            .attr("scope", "rowgroup")
                            .with(|h| {
                                button(h, 0, "⏮", page > 0);
                                button(h, page.saturating_sub(1), "◀", page > 0);
                                h.push_text(format_args!(
                                    " cells {}–{} of {} (page {} of {pages_total}) ",
                                    start,
                                    start + shown.len().saturating_sub(1),
                                    b.cells.len(),
                                    page + 1
                                ));
                                button(h, page + 1, "▶", page + 1 < pages_total);
                                button(h, pages_total - 1, "⏭", page + 1 < pages_total);
                            });
                    });
                }
                for (row, chunk) in shown.chunks(MEMORY_COLUMNS).enumerate() {
                    let first = start + row * MEMORY_COLUMNS;
                    h.el("tr").with(|h| {
                        h.el("th").attr("scope", "row").text(first);
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
                            let td = h
                                .el("td")
                                .attr("data-buffer", k)
                                .attr("data-index", i)
                                .attr("class", &cls)
                                .attr_opt(
                                    "title",
                                    cell.as_ref().and_then(KVal::approx).map(|a| a.note()),
                                );
                            if edit {
                                td.with(|h| {
                                    h.el("input")
                                        .attr("type", "text")
                                        .attr("data-buffer", k)
                                        .attr("data-index", i)
                                        .attr("value", &text)
                                        .attr("aria-label", format_args!("{}[{i}]", b.name))
                                        .attr("spellcheck", "false")
                                        .void();
                                });
                            } else {
                                td.text(&text);
                            }
                        }
                    });
                }
            });
    }
    html
}

#[cfg(test)]
mod tests {
    use super::float_text;

    /// Python 3's `repr` of the same doubles picks the same form (exponent or not) and the same
    /// digits: `repr(1.234e-22)` = '1.234e-22', `repr(1e16)` = '1e+16', `repr(1e15)` =
    /// '1000000000000000.0', `repr(0.0001)` = '0.0001', `repr(0.00001)` = '1e-05' (Rust writes
    /// the exponent without `+` and leading zeros, and a whole number without `.0`). Singles:
    /// the shortest text that reads back as the same `f32` (`0.1f` is "0.1", 3e30f "3e30").
    #[test]
    fn floats_are_shortest_with_an_exponent_outside_1e_minus_4_to_1e16() {
        let cases: [(f64, bool, &str); 12] = [
            (1.234e-22, false, "1.234e-22"),
            (1e16, false, "1e16"),
            (1e15, false, "1000000000000000"),
            (0.0001, false, "0.0001"),
            (0.00001, false, "1e-5"),
            (-2.5e-300, false, "-2.5e-300"),
            (0.0, false, "0"),
            (f64::from(1.234e-22f32), true, "1.234e-22"),
            (f64::from(3e30f32), true, "3e30"),
            (f64::from(0.1f32), true, "0.1"),
            (f64::from(123456.7f32), true, "123456.7"),
            (f64::NEG_INFINITY, true, "-inf"),
        ];
        for (x, single, text) in cases {
            assert_eq!(float_text(x, single), text, "{x:e} single {single}");
        }
        assert_eq!(float_text(f64::NAN, false), "NaN");
    }
}
