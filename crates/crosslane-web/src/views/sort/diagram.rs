//! The Knuth diagram of a [`SortRun`] as a [`Scene`] (drawn by the same canvas and SVG back ends
//! as the lane drawing): one horizontal wire per key, each comparator a vertical segment between
//! its two wires, comparators grouped in stage columns with separators, the current stage on a
//! highlighted band with its swaps marked apart from the comparators that kept their keys, and the
//! keys at both wire ends coloured by value (input on the left, keys after the current stage on
//! the right).
//!
//! Inside a stage, comparators whose wire spans overlap go to separate sub-columns (Knuth, TAOCP
//! vol. 3, §5.3.4 draws them so), which takes `k` sub-columns for a stage of distance `k`; when that
//! would make columns narrower than [`MIN_SUB_COLUMN`] pixels, every stage gets an equal share of
//! the width and its sub-columns wrap around the slots that fit in it.

use crate::render::scene::{Anchor, BoxItem, Item, Rect, Scene};
use crate::render::style::{Paint, Pattern};

use super::model::SortRun;

/// Colour of a comparator that exchanged its keys in the current stage.
pub const SWAPPED: &str = "#dc2626";
/// Colour of a comparator of the current stage that kept its keys.
pub const KEPT: &str = "#2563eb";
/// Colour of comparators of stages already run.
pub const DONE: &str = "#334155";
/// Colour of comparators of stages still to run.
pub const TODO: &str = "#cbd5e1";

/// Narrowest sub-column (CSS pixels) before stages collapse to one column each.
pub const MIN_SUB_COLUMN: f64 = 3.0;

const WIRE: &str = "#94a3b8";
const SEPARATOR: &str = "#e2e8f0";
const BAND_FILL: &str = "#fef9c3";
const BAND_STROKE: &str = "#facc15";
const MUTED: &str = "#64748b";
const INK: &str = "#0f172a";
const TOP: f64 = 24.0;
const INDEX_W: f64 = 26.0;
const STAGE_GAP: f64 = 10.0;
const LEGEND_H: f64 = 30.0;

/// Ten steps of the viridis scale (dark to light) with a readable ink on each: keys are coloured
/// by where their value falls between the smallest and largest input key, so the sorted output
/// reads as a smooth ramp.
const PALETTE: [(&str, &str); 10] = [
    ("#440154", "#ffffff"),
    ("#482878", "#ffffff"),
    ("#3e4989", "#ffffff"),
    ("#31688e", "#ffffff"),
    ("#26828e", "#ffffff"),
    ("#1f9e89", "#0f172a"),
    ("#35b779", "#0f172a"),
    ("#6ece58", "#0f172a"),
    ("#b5de2b", "#0f172a"),
    ("#fde725", "#0f172a"),
];

/// The paint of a key of value `v` on the scale `range = (min, max)` (the middle colour when all
/// keys are equal).
pub fn key_paint(v: i64, range: (i64, i64)) -> Paint {
    let (lo, hi) = range;
    let last = PALETTE.len() - 1;
    let step = if hi > lo {
        let t = (i128::from(v) - i128::from(lo)) * last as i128 / (i128::from(hi) - i128::from(lo));
        usize::try_from(t.clamp(0, last as i128)).unwrap_or(0)
    } else {
        last / 2
    };
    let (fill, ink) = PALETTE[step.min(last)];
    Paint {
        fill,
        stroke: fill,
        ink,
        pattern: Pattern::Solid,
        dashed: false,
    }
}

/// Approximate advance of `text` at font size `size` (as the lane scene estimates it).
fn text_width(text: &str, size: f64) -> f64 {
    text.chars().count() as f64 * size * 0.62
}

/// Sub-column of each comparator of a stage: the first sub-column whose last comparator ends
/// above this one's start (comparators come in increasing `lo` order).
fn sub_columns(spans: impl Iterator<Item = (usize, usize)>) -> (Vec<usize>, usize) {
    let mut ends: Vec<usize> = Vec::new();
    let mut assigned = Vec::new();
    for (lo, hi) in spans {
        match ends.iter().position(|&end| end < lo) {
            Some(c) => {
                ends[c] = hi;
                assigned.push(c);
            }
            None => {
                ends.push(hi);
                assigned.push(ends.len() - 1);
            }
        }
    }
    let used = ends.len().max(1);
    (assigned, used)
}

/// The diagram of `run` at step position `at` (0 = input, `s` = after stage `s`) for a drawing
/// `width` CSS pixels wide. A run without drawn wires ([`SortRun::drawn`] false) gives an empty
/// scene: the page shows the plot instead.
pub fn build(run: &SortRun, at: usize, width: f64) -> Scene {
    let n = run.len();
    if !run.drawn || n == 0 {
        return Scene {
            width,
            height: 0.0,
            items: Vec::new(),
        };
    }
    let pitch = (560.0 / n as f64).clamp(3.0, 26.0);
    let input = run.keys_at(0);
    let now = run.keys_at(at);
    let labels = pitch >= 14.0;
    let key_w = if labels {
        let widest = input
            .iter()
            .map(|v| text_width(&v.to_string(), 11.0))
            .fold(0.0, f64::max);
        (widest + 10.0).clamp(22.0, 72.0)
    } else {
        14.0
    };
    let width = width.max(2.0 * (INDEX_W + key_w) + 120.0);
    let x_wire0 = INDEX_W + key_w + 4.0;
    let x_wire1 = width - key_w - 4.0;
    let wire_y = |i: usize| TOP + i as f64 * pitch + pitch / 2.0;

    // Sub-columns per stage.
    let layouts: Vec<(Vec<usize>, usize)> = run
        .stages
        .iter()
        .map(|s| {
            let fired = s.fired.as_deref().unwrap_or(&[]);
            sub_columns(fired.iter().map(|f| (f.comparator.lo, f.comparator.hi)))
        })
        .collect();
    let stages = run.stages.len().max(1);
    let room = (x_wire1 - x_wire0 - STAGE_GAP * (stages as f64 + 1.0)).max(stages as f64);
    let total_subs: usize = layouts.iter().map(|(_, used)| used).sum::<usize>().max(1);
    let mut col_w = (room / total_subs as f64).min(22.0);
    let collapsed = col_w < MIN_SUB_COLUMN;
    // Collapsed: every stage gets an equal share, holding as many sub-columns as fit; the
    // stage's sub-columns wrap around them (some comparators then share a line).
    let slots = if collapsed {
        col_w = room / stages as f64;
        ((col_w / MIN_SUB_COLUMN).floor() as usize).max(1)
    } else {
        1
    };
    let stage_w = |used: usize| {
        if collapsed {
            col_w
        } else {
            col_w * used as f64
        }
    };
    let used_w: f64 = layouts.iter().map(|(_, used)| stage_w(*used)).sum::<f64>()
        + STAGE_GAP * (stages as f64 - 1.0);
    let mut x = x_wire0 + ((x_wire1 - x_wire0) - used_w).max(0.0) / 2.0;
    let bottom = TOP + n as f64 * pitch;
    let current = at.checked_sub(1);

    // Sized up front: a 256-key network is ~12 000 comparator items, and growing the vectors
    // copied them over and over (each task under 50 ms).
    let fired: usize = run
        .stages
        .iter()
        .map(|s| s.fired.as_deref().map_or(0, <[_]>::len))
        .sum();
    let mut items = Vec::with_capacity(3 * fired + 4 * n + 2 * stages + 16);
    let mut comparators = Vec::with_capacity(3 * fired);
    let mut stage_labels = Vec::new();
    for (s, (stage, (assigned, used))) in run.stages.iter().zip(&layouts).enumerate() {
        let w = stage_w(*used);
        if current == Some(s) {
            items.push(Item::Box(BoxItem {
                rect: Rect {
                    x: x - STAGE_GAP / 2.0 + 1.0,
                    y: TOP - 4.0,
                    w: w + STAGE_GAP - 2.0,
                    h: bottom - TOP + 8.0,
                },
                paint: Paint {
                    fill: BAND_FILL,
                    stroke: BAND_STROKE,
                    ink: INK,
                    pattern: Pattern::Solid,
                    dashed: false,
                },
                label: None,
                font: 10.0,
                lane: None,
                source: None,
                tip: Some(format!(
                    "stage {} (p = {}, k = {}): {} comparators, {} swaps",
                    s + 1,
                    stage.p,
                    stage.k,
                    stage.comparators,
                    stage.swaps
                )),
            }));
        }
        if s > 0 {
            let sx = x - STAGE_GAP / 2.0;
            items.push(Item::Line {
                x1: sx,
                y1: TOP - 6.0,
                x2: sx,
                y2: bottom + 4.0,
                color: SEPARATOR,
                width: 1.0,
            });
        }
        if w >= 12.0 || (s + 1) % 5 == 0 || s == 0 || current == Some(s) {
            stage_labels.push(Item::Text {
                x: x + w / 2.0,
                y: TOP - 10.0,
                text: (s + 1).to_string(),
                size: 10.0,
                color: if current == Some(s) { INK } else { MUTED },
                anchor: Anchor::Middle,
                bold: current == Some(s),
            });
        }
        for (f, sub) in stage.fired.as_deref().unwrap_or(&[]).iter().zip(assigned) {
            let cx = if collapsed {
                x + ((*sub % slots) as f64 + 0.5) * (col_w / slots as f64)
            } else {
                x + (*sub as f64 + 0.5) * col_w
            };
            let (color, line_w) = match current {
                Some(c) if c == s && f.swapped => (SWAPPED, 2.5),
                Some(c) if c == s => (KEPT, 2.0),
                Some(c) if s < c => (DONE, 1.4),
                _ => (TODO, 1.4),
            };
            let (y1, y2) = (wire_y(f.comparator.lo), wire_y(f.comparator.hi));
            comparators.push(Item::Line {
                x1: cx,
                y1,
                x2: cx,
                y2,
                color,
                width: line_w,
            });
            let dot = (pitch * 0.45).min(col_w * 0.9).clamp(1.5, 6.0);
            for y in [y1, y2] {
                comparators.push(Item::Box(BoxItem {
                    rect: Rect {
                        x: cx - dot / 2.0,
                        y: y - dot / 2.0,
                        w: dot,
                        h: dot,
                    },
                    paint: Paint {
                        fill: color,
                        stroke: color,
                        ink: INK,
                        pattern: Pattern::Solid,
                        dashed: false,
                    },
                    label: None,
                    font: 10.0,
                    lane: None,
                    source: None,
                    tip: None,
                }));
            }
        }
        x += w + STAGE_GAP;
    }
    for i in 0..n {
        let y = wire_y(i);
        items.push(Item::Line {
            x1: x_wire0 - 2.0,
            y1: y,
            x2: x_wire1 + 2.0,
            y2: y,
            color: WIRE,
            width: 1.0,
        });
    }
    items.extend(stage_labels);
    items.extend(comparators);
    let box_h = (pitch - (pitch * 0.15).clamp(1.0, 3.0)).max(1.0);
    for (i, (&a, &b)) in input.iter().zip(now).enumerate() {
        let y = wire_y(i) - box_h / 2.0;
        if labels {
            items.push(Item::Text {
                x: INDEX_W - 6.0,
                y: wire_y(i) + 4.0,
                text: i.to_string(),
                size: 10.0,
                color: MUTED,
                anchor: Anchor::End,
                bold: false,
            });
        }
        for (v, bx, side) in [(a, INDEX_W, "input"), (b, x_wire1 + 4.0, "now")] {
            let label = v.to_string();
            let fits = labels && text_width(&label, 11.0) <= key_w - 4.0;
            items.push(Item::Box(BoxItem {
                rect: Rect {
                    x: bx,
                    y,
                    w: key_w,
                    h: box_h,
                },
                paint: key_paint(v, run.key_range),
                label: fits.then_some(label),
                font: 11.0,
                lane: None,
                source: None,
                tip: Some(format!("{side} key {v} on wire {i}")),
            }));
        }
    }
    let legend_y = bottom + 22.0;
    let mut lx = x_wire0;
    for (color, words) in [
        (SWAPPED, "swapped in this stage"),
        (KEPT, "compared, kept"),
        (DONE, "stages run"),
        (TODO, "stages to come"),
    ] {
        items.push(Item::Line {
            x1: lx,
            y1: legend_y - 4.0,
            x2: lx + 18.0,
            y2: legend_y - 4.0,
            color,
            width: 3.0,
        });
        items.push(Item::Text {
            x: lx + 24.0,
            y: legend_y,
            text: words.to_string(),
            size: 11.0,
            color: MUTED,
            anchor: Anchor::Start,
            bold: false,
        });
        lx += 24.0 + text_width(words, 11.0) + 18.0;
    }
    Scene {
        width,
        height: bottom + LEGEND_H,
        items,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::svg::to_svg;
    use crate::views::sort::model::DRAW_LIMIT;

    fn comparator_lines<'a>(scene: &'a Scene, color: &str) -> Vec<&'a Item> {
        scene
            .items
            .iter()
            .filter(|i| matches!(i, Item::Line { x1, x2, color: c, y1, y2, .. } if x1 == x2 && *c == color && y1 != y2 && *y2 > TOP - 1.0 && *y1 >= TOP))
            .collect()
    }

    fn ten() -> SortRun {
        SortRun::new(None, 1, Some("9,-3,7,7,0,12,5,1,8,2"), DRAW_LIMIT).unwrap()
    }

    #[test]
    fn before_any_stage_every_comparator_is_to_come() {
        let scene = build(&ten(), 0, 900.0);
        assert_eq!(comparator_lines(&scene, TODO).len(), 32);
        assert!(comparator_lines(&scene, SWAPPED).is_empty());
        // Ten wires, two key boxes per wire (input and now), plus one box per comparator end.
        let wires = scene
            .items
            .iter()
            .filter(|i| matches!(i, Item::Line { y1, y2, color, .. } if y1 == y2 && *color == WIRE))
            .count();
        assert_eq!(wires, 10);
        let keys = scene.boxes().filter(|b| b.tip.is_some()).count();
        assert_eq!(keys, 20);
    }

    #[test]
    fn the_current_stage_marks_its_swaps() {
        let run = ten();
        let scene = build(&run, 1, 900.0);
        // Stage 1 swaps (0,1), (6,7), (8,9) and keeps (2,3), (4,5).
        assert_eq!(comparator_lines(&scene, SWAPPED).len(), 3);
        assert_eq!(comparator_lines(&scene, KEPT).len(), 2);
        assert_eq!(comparator_lines(&scene, TODO).len(), 27);
        let band = scene.boxes().find(|b| b.paint.fill == BAND_FILL).unwrap();
        assert!(band.tip.as_deref().unwrap().contains("3 swaps"));
        let last = build(&run, 10, 900.0);
        let done = comparator_lines(&last, DONE).len();
        let now = comparator_lines(&last, SWAPPED).len() + comparator_lines(&last, KEPT).len();
        assert_eq!(done + now, 32);
        assert_eq!(now as u64, run.stages[9].comparators);
    }

    #[test]
    fn wire_ends_show_input_and_current_keys_coloured_by_value() {
        let run = ten();
        let scene = build(&run, 10, 900.0);
        let right: Vec<String> = scene
            .boxes()
            .filter(|b| b.tip.as_deref().is_some_and(|t| t.starts_with("now")))
            .filter_map(|b| b.label.clone())
            .collect();
        assert_eq!(right, ["-3", "0", "1", "2", "5", "7", "7", "8", "9", "12"]);
        assert_eq!(key_paint(-3, run.key_range).fill, PALETTE[0].0);
        assert_eq!(key_paint(12, run.key_range).fill, PALETTE[9].0);
        assert_eq!(key_paint(5, (5, 5)).fill, PALETTE[4].0);
        assert!(to_svg(&scene).contains("now key 12 on wire 9"));
    }

    #[test]
    fn comparators_of_a_stage_never_share_a_column_where_spans_overlap() {
        let run = SortRun::new(Some(16), 2, None, DRAW_LIMIT).unwrap();
        let scene = build(&run, 0, 1200.0);
        let lines: Vec<(f64, f64, f64)> = scene
            .items
            .iter()
            .filter_map(|i| match i {
                Item::Line {
                    x1,
                    x2,
                    y1,
                    y2,
                    color,
                    ..
                } if x1 == x2 && *color == TODO => Some((*x1, *y1, *y2)),
                _ => None,
            })
            .collect();
        assert_eq!(lines.len() as u64, run.report.figures.comparators);
        for (i, a) in lines.iter().enumerate() {
            for b in &lines[i + 1..] {
                let overlap = a.1 <= b.2 && b.1 <= a.2;
                assert!(!(a.0 == b.0 && overlap), "{a:?} and {b:?} share a column");
            }
        }
    }

    #[test]
    fn wide_networks_collapse_to_one_column_per_stage_and_large_ones_draw_nothing() {
        let run = SortRun::new(Some(256), 2, None, DRAW_LIMIT).unwrap();
        let scene = build(&run, 3, 600.0);
        assert!(scene.width <= 600.0 + 1e-9);
        assert_eq!(
            comparator_lines(&scene, TODO).len()
                + comparator_lines(&scene, DONE).len()
                + comparator_lines(&scene, SWAPPED).len()
                + comparator_lines(&scene, KEPT).len(),
            run.report.figures.comparators as usize
        );
        let large = SortRun::new(Some(300), 2, None, DRAW_LIMIT).unwrap();
        assert!(build(&large, 0, 600.0).items.is_empty());
    }

    #[test]
    fn sub_columns_are_greedy() {
        assert_eq!(
            sub_columns([(0, 4), (1, 5), (6, 7)].into_iter()),
            (vec![0, 1, 0], 2)
        );
        assert_eq!(sub_columns(std::iter::empty()), (vec![], 1));
    }
}
