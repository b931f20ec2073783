//! The sortedness plot of a [`SortRun`] for inputs too long to draw wire by wire: after each stage
//! (x axis, 0 = the input), the fraction of adjacent pairs in order (the line, 0 to 1; 1 exactly
//! when sorted) over bars of the swaps that stage made (scaled to the busiest stage). A marker
//! shows the step position. Built as a [`Scene`] for the shared canvas / SVG back ends.

use crate::render::scene::{Anchor, BoxItem, Item, Rect, Scene};
use crate::render::style::{Paint, Pattern};

use super::model::SortRun;

/// Colour of the in-order line.
pub const LINE: &str = "#1d4ed8";
/// Fill of the swap bars.
pub const BAR: &str = "#fecaca";
/// Colour of the step marker.
pub const MARKER: &str = "#ca8a04";

const AXIS: &str = "#475569";
const GRID: &str = "#e2e8f0";
const MUTED: &str = "#64748b";
const INK: &str = "#0f172a";
const LEFT: f64 = 56.0;
const RIGHT: f64 = 64.0;
const TOP: f64 = 28.0;
const PLOT_H: f64 = 220.0;
const BOTTOM: f64 = 46.0;

fn text(x: f64, y: f64, text: String, anchor: Anchor, color: &'static str, bold: bool) -> Item {
    Item::Text {
        x,
        y,
        text,
        size: 11.0,
        color,
        anchor,
        bold,
    }
}

fn line(x1: f64, y1: f64, x2: f64, y2: f64, color: &'static str, width: f64) -> Item {
    Item::Line {
        x1,
        y1,
        x2,
        y2,
        color,
        width,
    }
}

/// The plot of `run` at step position `at` for a drawing `width` CSS pixels wide.
pub fn build(run: &SortRun, at: usize, width: f64) -> Scene {
    let width = width.max(LEFT + RIGHT + 100.0);
    let positions = run.positions().max(1);
    let plot_w = width - LEFT - RIGHT;
    let x_of = |pos: usize| LEFT + plot_w * pos as f64 / positions as f64;
    let y_of = |frac: f64| TOP + PLOT_H * (1.0 - frac.clamp(0.0, 1.0));
    let bottom = TOP + PLOT_H;
    let mut items = Vec::new();

    for frac in [0.0, 0.25, 0.5, 0.75, 1.0] {
        let y = y_of(frac);
        items.push(line(LEFT, y, LEFT + plot_w, y, GRID, 1.0));
        items.push(text(
            LEFT - 6.0,
            y + 4.0,
            format!("{}%", (frac * 100.0) as u32),
            Anchor::End,
            MUTED,
            false,
        ));
    }
    // Swap bars: stage s (1-based position) occupies (s − 1, s].
    let max_swaps = run.stages.iter().map(|s| s.swaps).max().unwrap_or(0).max(1);
    for (i, stage) in run.stages.iter().enumerate() {
        let h = PLOT_H * stage.swaps as f64 / max_swaps as f64;
        let (x0, x1) = (x_of(i), x_of(i + 1));
        let gap = ((x1 - x0) * 0.15).min(2.0);
        items.push(Item::Box(BoxItem {
            rect: Rect {
                x: x0 + gap / 2.0,
                y: bottom - h,
                w: (x1 - x0 - gap).max(0.5),
                h,
            },
            paint: Paint {
                fill: BAR,
                stroke: BAR,
                ink: INK,
                pattern: Pattern::Solid,
                dashed: false,
            },
            label: None,
            font: 10.0,
            lane: None,
            source: None,
            tip: Some(format!(
                "stage {} (p = {}, k = {}): {} comparators, {} swaps, {:.1}% in order after",
                i + 1,
                stage.p,
                stage.k,
                stage.comparators,
                stage.swaps,
                stage.in_order * 100.0
            )),
        }));
    }
    // The in-order line, position by position.
    let mut prev = (x_of(0), y_of(run.initial_in_order));
    for (i, stage) in run.stages.iter().enumerate() {
        let next = (x_of(i + 1), y_of(stage.in_order));
        items.push(line(prev.0, prev.1, next.0, next.1, LINE, 2.0));
        prev = next;
    }
    items.push(line(LEFT, TOP, LEFT, bottom, AXIS, 1.0));
    items.push(line(LEFT, bottom, LEFT + plot_w, bottom, AXIS, 1.0));
    // x ticks: about ten labels.
    let every = positions.div_ceil(10).max(1);
    for pos in (0..=positions).step_by(every) {
        let x = x_of(pos);
        items.push(line(x, bottom, x, bottom + 4.0, AXIS, 1.0));
        items.push(text(
            x,
            bottom + 16.0,
            pos.to_string(),
            Anchor::Middle,
            MUTED,
            false,
        ));
    }
    items.push(text(
        LEFT + plot_w,
        bottom + 34.0,
        "stages run".to_string(),
        Anchor::End,
        MUTED,
        false,
    ));
    items.push(text(
        LEFT + plot_w + 6.0,
        TOP + 10.0,
        format!("{max_swaps}"),
        Anchor::Start,
        MUTED,
        false,
    ));
    items.push(text(
        LEFT + plot_w + 6.0,
        TOP + 24.0,
        "swaps".to_string(),
        Anchor::Start,
        MUTED,
        false,
    ));
    let at = at.min(run.positions());
    let mx = x_of(at);
    items.push(line(mx, TOP - 6.0, mx, bottom, MARKER, 2.0));
    let words = format!(
        "after {at} of {} stages: {:.2}% of adjacent pairs in order",
        run.positions(),
        run.in_order_at(at) * 100.0
    );
    let anchor = if mx > LEFT + plot_w * 0.6 {
        Anchor::End
    } else {
        Anchor::Start
    };
    items.push(text(mx, TOP - 10.0, words, anchor, INK, true));
    items.push(text(
        LEFT,
        bottom + 34.0,
        "— line: adjacent pairs in order · bars: swaps per stage".to_string(),
        Anchor::Start,
        LINE,
        false,
    ));
    Scene {
        width,
        height: bottom + BOTTOM,
        items,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::views::sort::model::DRAW_LIMIT;

    #[test]
    fn one_bar_per_stage_and_a_line_ending_at_one() {
        let run = SortRun::new(Some(4096), 5, None, DRAW_LIMIT).unwrap();
        let scene = build(&run, run.positions(), 900.0);
        let bars = scene.boxes().filter(|b| b.paint.fill == BAR).count();
        assert_eq!(bars, run.positions());
        assert_eq!(run.positions(), 78);
        let segs: Vec<(f64, f64)> = scene
            .items
            .iter()
            .filter_map(|i| match i {
                Item::Line { x2, y2, color, .. } if *color == LINE => Some((*x2, *y2)),
                _ => None,
            })
            .collect();
        assert_eq!(segs.len(), run.positions());
        // The last point is at 100% (top of the plot), at the right end.
        let last = segs.last().copied().unwrap();
        assert!((last.1 - TOP).abs() < 1e-9, "{last:?}");
        assert!((last.0 - (900.0 - RIGHT)).abs() < 1e-9);
        let marker = scene
            .items
            .iter()
            .filter(|i| matches!(i, Item::Line { color, .. } if *color == MARKER))
            .count();
        assert_eq!(marker, 1);
        assert!(scene.items.iter().any(
            |i| matches!(i, Item::Text { text, .. } if text.starts_with("after 78 of 78 stages: 100.00%"))
        ));
    }

    #[test]
    fn the_busiest_stage_fills_the_plot_height() {
        let run = SortRun::new(Some(1000), 9, None, DRAW_LIMIT).unwrap();
        let scene = build(&run, 0, 700.0);
        let tallest = scene
            .boxes()
            .filter(|b| b.paint.fill == BAR)
            .map(|b| b.rect.h)
            .fold(0.0, f64::max);
        assert!((tallest - PLOT_H).abs() < 1e-9);
    }
}
