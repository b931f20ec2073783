//! The MACA view's panels as HTML text, built from core types only: the editable word table of
//! the simulated memory (seed 002 §3.1), the 64-bit lane mask of a compare builtin as a bit strip
//! (§3.2), and the four MMA matrices coloured by the lane that holds each element (§3.6, layout
//! from [`crosslane_core::dialect::maca::mma_layout`], the one table).

use std::fmt::Write;

use crosslane_core::dialect::maca::mma::{self, MmaSpec};
use crosslane_core::dialect::maca::mma_layout::{Matrix, MmaLayout};
use crosslane_core::{InputError, LaneMask, OpInput, Source, Step};

use crate::labels::escape;

/// Words per row of the memory tables.
const ROW_WORDS: usize = 8;

/// The editable memory table: one `<input data-word="w">` per 32-bit word, eight words a row,
/// each row headed by its first byte address.
pub fn memory_editor(words: &[u32]) -> String {
    let mut html = String::with_capacity(words.len() * 120);
    html.push_str(r#"<table class="maca-words" id="maca-memory-edit"><tbody>"#);
    for (row, chunk) in words.chunks(ROW_WORDS).enumerate() {
        let base = row * ROW_WORDS;
        let _ = write!(html, r#"<tr><th scope="row">byte {}</th>"#, base * 4);
        for (k, w) in chunk.iter().enumerate() {
            let i = base + k;
            let _ = write!(
                html,
                r#"<td><input data-word="{i}" value="0x{w:08x}" aria-label="word {i} (bytes {}..{})" spellcheck="false"></td>"#,
                i * 4,
                i * 4 + 3
            );
        }
        html.push_str("</tr>");
    }
    html.push_str("</tbody></table>");
    html
}

/// The memory after a store, read-only: every word, changed words marked `changed` with their
/// old value in the tooltip.
pub fn memory_after(buffer: &str, before: &[u32], after: &[u32]) -> String {
    let changed = before.iter().zip(after).filter(|(a, b)| a != b).count();
    let mut html = format!(
        r#"<h3>{} after the call <span class="hint">({changed} word(s) changed)</span></h3><table class="maca-words" id="maca-memory-after" data-buffer="{}"><tbody>"#,
        if buffer == "shared" {
            "shared memory"
        } else {
            "global memory"
        },
        escape(buffer)
    );
    for (row, chunk) in after.chunks(ROW_WORDS).enumerate() {
        let base = row * ROW_WORDS;
        let _ = write!(html, r#"<tr><th scope="row">byte {}</th>"#, base * 4);
        for (k, w) in chunk.iter().enumerate() {
            let i = base + k;
            match before.get(i) {
                Some(old) if old != w => {
                    let _ = write!(
                        html,
                        r#"<td class="changed" data-word="{i}" title="word {i}: was 0x{old:08x}">0x{w:08x}</td>"#
                    );
                }
                _ => {
                    let _ = write!(html, r#"<td data-word="{i}">0x{w:08x}</td>"#);
                }
            }
        }
        html.push_str("</tr>");
    }
    html.push_str("</tbody></table>");
    html
}

/// The lane mask a compare builtin returns (every active lane gets the same 64-bit value), as a
/// strip of 64 cells, bit 0 (lane 0) first. `None` when no lane has a value.
pub fn bit_strip(step: &Step) -> Option<String> {
    let mask = step
        .results
        .iter()
        .find(|r| r.source != Source::Inactive)
        .and_then(|r| r.value)?
        .bits;
    let mut html = format!(
        r#"<h3>lane mask <code id="maca-mask-hex">0x{mask:016x}</code> <span class="hint">bit n = lane n ({} set)</span></h3><div class="maca-bits" id="maca-bits" role="img" aria-label="64-bit lane mask 0x{mask:016x}">"#,
        mask.count_ones()
    );
    for bit in 0..64 {
        let on = (mask >> bit) & 1 == 1;
        let _ = write!(
            html,
            r#"<span class="bit{}" data-bit="{bit}" title="bit {bit} (lane {bit}): {}">{}</span>"#,
            if on { " on" } else { "" },
            u8::from(on),
            u8::from(on)
        );
    }
    html.push_str(r#"</div><div class="maca-bit-scale"><span>lane 0</span><span>lane 31</span><span>lane 63</span></div>"#);
    Some(html)
}

/// A lane's colour: hue from its position in a 16-lane group, lightness from the group, so both
/// parts of the layout (`16·group + index`) read at a glance.
fn lane_colour(lane: usize) -> String {
    let hue = (lane % 16) * 360 / 16;
    let light = [88, 76, 66, 56].get(lane / 16).copied().unwrap_or(50);
    format!("hsl({hue} 70% {light}%)")
}

/// The four matrices of an MMA call: A, B, C as parsed from the call's params and D computed by
/// the core (`D = A·B + C`), each cell coloured by the lane that holds it, the tooltip naming lane
/// and register slot.
///
/// # Errors
/// The [`InputError`] of a matrix parameter that does not parse (the op run reports the same).
pub fn mma_grids(
    spec: &MmaSpec,
    layout: &MmaLayout,
    input: &OpInput,
) -> Result<String, InputError> {
    let parse = |m: Matrix, field: &str| {
        let (r, c) = layout.dims(m);
        let elem = if m == Matrix::C {
            spec.output
        } else {
            spec.input
        };
        mma::parse_matrix(input.params.text(field)?, r, c, elem, field)
    };
    let a = parse(Matrix::A, "a")?;
    let b = parse(Matrix::B, "b")?;
    let c = parse(Matrix::C, "c")?;
    let d_regs = mma::compute(
        spec,
        layout,
        &mma::pack(layout, Matrix::A, &a),
        &mma::pack(layout, Matrix::B, &b),
        &mma::pack(layout, Matrix::C, &c),
    );
    let d = mma::unpack(layout, Matrix::D, &d_regs);
    let active = input.active;
    let mut html = String::from(r#"<div class="maca-mma" id="maca-mma">"#);
    for (m, name, values) in [
        (Matrix::A, "A", &a),
        (Matrix::B, "B", &b),
        (Matrix::C, "C", &c),
        (Matrix::D, "D", &d),
    ] {
        grid(&mut html, layout, m, name, values, active);
    }
    html.push_str("</div>");
    Ok(html)
}

fn number(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e9 {
        format!("{x:.0}")
    } else {
        format!("{x:.4}")
            .trim_end_matches('0')
            .trim_end_matches('.')
            .to_string()
    }
}

fn grid(
    html: &mut String,
    layout: &MmaLayout,
    m: Matrix,
    name: &str,
    values: &[f64],
    active: LaneMask,
) {
    let (rows, cols) = layout.dims(m);
    let slot_word = if matches!(m, Matrix::C | Matrix::D) {
        "register"
    } else {
        "slot"
    };
    let _ = write!(
        html,
        r#"<figure class="maca-matrix" data-matrix="{name}"><figcaption>{name} <span class="hint">{rows}×{cols}, {} {slot_word}(s) per lane</span></figcaption><table><tbody>"#,
        layout.slots(m)
    );
    for r in 0..rows {
        html.push_str("<tr>");
        for c in 0..cols {
            let x = values.get(r * cols + c).copied().unwrap_or(0.0);
            match layout.locate(m, r, c) {
                Some((lane, slot)) => {
                    let off = if active.contains(lane) { "" } else { " off" };
                    let _ = write!(
                        html,
                        r#"<td class="cell{off}" data-lane="{lane}" data-slot="{slot}" style="background:{}" title="{name}[{r}][{c}] = {}: lane {lane}, {slot_word} {slot}">{}</td>"#,
                        lane_colour(lane),
                        number(x),
                        number(x)
                    );
                }
                None => html.push_str("<td></td>"),
            }
        }
        html.push_str("</tr>");
    }
    html.push_str("</tbody></table></figure>");
}
