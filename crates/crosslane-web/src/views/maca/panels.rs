//! The MACA view's panels as [`Html`], built from core types only: the editable word table of
//! the simulated memory (seed 002 §3.1), the 64-bit lane mask of a compare builtin as a bit strip
//! (§3.2), and the four MMA matrices coloured by the lane that holds each element (§3.6, layout
//! from [`crosslane_core::dialect::maca::mma_layout`], the one table).

use crosslane_core::dialect::maca::mma::{self, MmaSpec};
use crosslane_core::dialect::maca::mma_layout::{Matrix, MmaLayout};
use crosslane_core::{InputError, LaneMask, OpInput, Source, Step};

use crate::kit::Html;

/// Words per row of the memory tables.
const ROW_WORDS: usize = 8;

/// `<th scope="row">byte N</th>`, the head of a memory row.
fn byte_head(h: &mut Html, base: usize) {
    h.el("th")
        .attr("scope", "row")
        .text(format_args!("byte {}", base * 4));
}

/// The editable memory table: one `<input data-word="w">` per 32-bit word, eight words a row,
/// each row headed by its first byte address.
pub fn memory_editor(words: &[u32]) -> Html {
    let mut html = Html::with_capacity(words.len() * 120);
    html.el("table")
        .attr("class", "maca-words")
        .attr("id", "maca-memory-edit")
        .with(|h| {
            h.el("tbody").with(|h| {
                for (row, chunk) in words.chunks(ROW_WORDS).enumerate() {
                    let base = row * ROW_WORDS;
                    h.el("tr").with(|h| {
                        byte_head(h, base);
                        for (k, w) in chunk.iter().enumerate() {
                            let i = base + k;
                            h.el("td").with(|h| {
                                h.el("input")
                                    .attr("data-word", i)
                                    .attr("value", format_args!("0x{w:08x}"))
                                    .attr(
                                        "aria-label",
                                        format_args!("word {i} (bytes {}..{})", i * 4, i * 4 + 3),
                                    )
                                    .attr("spellcheck", "false")
                                    .void();
                            });
                        }
                    });
                }
            });
        });
    html
}

/// The memory after a store, read-only: every word, changed words marked `changed` with their
/// old value in the tooltip.
pub fn memory_after(buffer: &str, before: &[u32], after: &[u32]) -> Html {
    let changed = before.iter().zip(after).filter(|(a, b)| a != b).count();
    let mut html = Html::new();
    html.el("h3").with(|h| {
        h.push_text(if buffer == "shared" {
            "shared memory"
        } else {
            "global memory"
        });
        h.push_text(" after the call ");
        h.el("span")
            .attr("class", "hint")
            .text(format_args!("({changed} word(s) changed)"));
    });
    html.el("table")
        .attr("class", "maca-words")
        .attr("id", "maca-memory-after")
        .attr("data-buffer", buffer)
        .with(|h| {
            h.el("tbody").with(|h| {
                for (row, chunk) in after.chunks(ROW_WORDS).enumerate() {
                    let base = row * ROW_WORDS;
                    h.el("tr").with(|h| {
                        byte_head(h, base);
                        for (k, w) in chunk.iter().enumerate() {
                            let i = base + k;
                            match before.get(i) {
                                Some(old) if old != w => h
                                    .el("td")
                                    .attr("class", "changed")
                                    .attr("data-word", i)
                                    .attr("title", format_args!("word {i}: was 0x{old:08x}"))
                                    .text(format_args!("0x{w:08x}")),
                                _ => h
                                    .el("td")
                                    .attr("data-word", i)
                                    .text(format_args!("0x{w:08x}")),
                            }
                        }
                    });
                }
            });
        });
    html
}

/// The lane mask a compare builtin returns (every active lane gets the same 64-bit value), as a
/// strip of 64 cells, bit 0 (lane 0) first. `None` when no lane has a value.
pub fn bit_strip(step: &Step) -> Option<Html> {
    let mask = step
        .results
        .iter()
        .find(|r| r.source != Source::Inactive)
        .and_then(|r| r.value)?
        .bits;
    let mut html = Html::new();
    html.el("h2").with(|h| {
        h.push_text("lane mask ");
        h.el("code")
            .attr("id", "maca-mask-hex")
            .text(format_args!("0x{mask:016x}"));
        h.push_text(" ");
        h.el("span")
            .attr("class", "hint")
            .text(format_args!("bit n = lane n ({} set)", mask.count_ones()));
    });
    html.el("div")
        .attr("class", "maca-bits")
        .attr("id", "maca-bits")
        .attr("role", "img")
        .attr("aria-label", format_args!("64-bit lane mask 0x{mask:016x}"))
        .with(|h| {
            for bit in 0..64 {
                let on = (mask >> bit) & 1 == 1;
                h.el("span")
                    .attr("class", if on { "bit on" } else { "bit" })
                    .attr("data-bit", bit)
                    .attr(
                        "title",
                        format_args!("bit {bit} (lane {bit}): {}", u8::from(on)),
                    )
                    .text(u8::from(on));
            }
        });
    html.el("div").attr("class", "maca-bit-scale").with(|h| {
        for lane in ["lane 0", "lane 31", "lane 63"] {
            h.leaf("span", lane);
        }
    });
    Some(html)
}

/// A lane's colour: hue from its position in a 16-lane group, lightness from the group, so both
/// parts of the layout (`16·group + index`) read at a glance.
fn lane_colour(lane: usize) -> String {
    let hue = (lane % 16) * 360 / 16;
    let light = [88, 76, 66, 56].get(lane / 16).copied().unwrap_or(50);
    format!("hsl({hue} 70% {light}%)")
}

/// The four matrices of an MMA call, one `figure.maca-matrix` each, in the order A, B, C, D: A,
/// B, C as parsed from the call's params and D computed by the core (`D = A·B + C`), each cell
/// coloured by the lane that holds it, the tooltip naming lane and register slot. The page
/// puts them in a `div#maca-mma.maca-mma`, one per frame.
///
/// # Errors
/// The [`InputError`] of a matrix parameter that does not parse (the op run reports the same).
pub fn mma_figures(
    spec: &MmaSpec,
    layout: &MmaLayout,
    input: &OpInput,
) -> Result<Vec<Html>, InputError> {
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
    Ok([
        (Matrix::A, "A", &a),
        (Matrix::B, "B", &b),
        (Matrix::C, "C", &c),
        (Matrix::D, "D", &d),
    ]
    .into_iter()
    .map(|(m, name, values)| {
        let mut html = Html::new();
        grid(&mut html, layout, m, name, values, active);
        html
    })
    .collect())
}

/// A matrix element as the panels print it: an integer in full (below 10^9 in magnitude), else
/// at most four decimals without trailing zeros. Integers are printed as `i64`: `{:.0}` on an
/// `f64` takes the exact (Dragon) formatting path, which was half of an MMA builtin's panels
/// task (each task under 50 ms).
fn number(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e9 {
        match x as i64 {
            0 if x.is_sign_negative() => "-0".to_string(),
            i => i.to_string(),
        }
    } else {
        format!("{x:.4}")
            .trim_end_matches('0')
            .trim_end_matches('.')
            .to_string()
    }
}

fn grid(
    html: &mut Html,
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
    html.el("figure")
        .attr("class", "maca-matrix")
        .attr("data-matrix", name)
        .with(|h| {
            h.el("figcaption").with(|h| {
                h.push_text(name).push_text(" ");
                h.el("span").attr("class", "hint").text(format_args!(
                    "{rows}×{cols}, {} {slot_word}(s) per lane",
                    layout.slots(m)
                ));
            });
            h.el("table").with(|h| {
                h.el("tbody").with(|h| {
                    for r in 0..rows {
                        h.el("tr").with(|h| {
                            for c in 0..cols {
                                let x = values.get(r * cols + c).copied().unwrap_or(0.0);
                                match layout.locate(m, r, c) {
                                    Some((lane, slot)) => {
                                        let x = number(x);
                                        let off = if active.contains(lane) { "" } else { " off" };
                                        h.el("td")
                                            .attr("class", format_args!("cell{off}"))
                                            .attr("data-lane", lane)
                                            .attr("data-slot", slot)
                                            .attr("style", format_args!("background:{}", lane_colour(lane)))
                                            .attr(
                                                "title",
                                                format_args!(
                                                    "{name}[{r}][{c}] = {x}: lane {lane}, {slot_word} {slot}",
                                                ),
                                            )
                                            .text(&x);
                                    }
                                    None => h.el("td").empty(),
                                }
                            }
                        });
                    }
                });
            });
        });
}
