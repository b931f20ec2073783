//! Several lane drawings in one display list, one under the other with their lane columns lined
//! up, and column bands that mark lanes across every row: the portability view draws one
//! [`Scene`] per dialect run this way and bands the lanes where the dialects disagree.
//!
//! Each part is an ordinary [`scene::build`] of its step (so it looks exactly like the op view);
//! this module only sizes the parts so that lane `i` has the same x in every row, moves them
//! down, keeps one legend (the widest part's, at the bottom) and adds titles and bands. It reads
//! nothing but the scenes it is given.

use crosslane_core::Step;

use crate::render::scene::{self, Anchor, BoxItem, Item, Rect, Row, Scene};
use crate::render::style::{Paint, Pattern};

/// Height of the title line above each part, in CSS pixels.
const TITLE_H: f64 = 20.0;
/// Height of the marker line above the first part, in CSS pixels.
const MARKER_H: f64 = 16.0;
/// Below a part's result row: the lane numbers are kept (baseline 14 px below), the legend
/// (30 px below and further) is cut.
const CUT_BELOW_RESULTS: f64 = 20.0;
/// Gap after each part.
const PART_GAP: f64 = 10.0;
const INK: &str = "#0f172a";
const BAD: &str = "#b91c1c";

/// The band's paint: a pale amber column behind the lane boxes, outlined. Its own fill colour
/// (not the "old value" boxes' `#fef3c7`), so the theme can give the band a background on which
/// the lane numbers drawn over it ([`crate::render::scene::LANE_NUMBER`]) keep 4.5:1
/// (`--draw-fffbeb` in `web/style.css`).
pub const BAND: Paint = Paint {
    fill: "#fffbeb",
    stroke: "#f59e0b",
    ink: INK,
    pattern: Pattern::Solid,
    dashed: false,
};

/// One row of a stacked drawing.
pub enum Part<'a> {
    /// A step, drawn as the op view draws it, under `title`.
    Step {
        /// The line above the drawing (`CUDA · __shfl_down_sync · 32 lanes`).
        title: String,
        /// The step.
        step: &'a Step,
    },
    /// A run that produced no step: its title and, in red, why (`HIP wave64 refuses …`).
    Note {
        /// The line above.
        title: String,
        /// The reason.
        text: String,
    },
}

/// A column band: lane `lane` marked across every part, with a hover text.
#[derive(Clone, Debug, PartialEq)]
pub struct Band {
    /// Lane (column).
    pub lane: usize,
    /// Where it is drawn.
    pub rect: Rect,
    /// What hovering over it says (the rule that makes the rows differ).
    pub tip: String,
}

/// A stacked drawing: the display list and the bands in it (for hovering over a band).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stacked {
    /// The display list (the bands are its first items).
    pub scene: Scene,
    /// The bands, left to right.
    pub bands: Vec<Band>,
}

impl Stacked {
    /// The band under the point, if any.
    pub fn band_at(&self, x: f64, y: f64) -> Option<&Band> {
        self.bands.iter().find(|b| b.rect.contains(x, y))
    }
}

/// The lane pitch and the left/right margins (together) of a built scene, measured from its
/// first two input boxes; `None` for a scene with fewer than two lanes.
fn geometry(scene: &Scene, lanes: usize) -> Option<(f64, f64)> {
    let a = scene.lane_box(Row::Input, 0)?.rect;
    let b = scene.lane_box(Row::Input, 1)?.rect;
    let pitch = b.x - a.x;
    (pitch > 0.0).then_some((pitch, scene.width - pitch * lanes as f64))
}

/// The columns (lane count) of a step's drawing.
fn columns(step: &Step) -> usize {
    step.lanes
        .max(step.results.len())
        .max(step.inputs.len())
        .max(1)
}

/// Moves an item down by `dy`.
fn shifted(item: &Item, dy: f64) -> Item {
    let mut item = item.clone();
    match &mut item {
        Item::Box(b) => b.rect.y += dy,
        Item::Arrow(a) => {
            a.y1 += dy;
            a.y2 += dy;
        }
        Item::Line { y1, y2, .. } => {
            *y1 += dy;
            *y2 += dy;
        }
        Item::Text { y, .. } => *y += dy,
    }
    item
}

/// The top of an item (for telling the drawing from the legend).
fn top(item: &Item) -> f64 {
    match item {
        Item::Box(b) => b.rect.y,
        Item::Arrow(a) => a.y1.min(a.y2),
        Item::Line { y1, y2, .. } => y1.min(*y2),
        // A baseline: the text's top is above it, but legend texts sit well below the cut.
        Item::Text { y, .. } => *y,
    }
}

/// Splits a scene into its drawing and its legend, and returns the drawing's height.
fn split(scene: &Scene) -> (Vec<Item>, Vec<Item>, f64) {
    let bottom = scene
        .boxes()
        .filter(|b| b.lane.is_some_and(|l| l.row == Row::Result))
        .map(|b| b.rect.y + b.rect.h)
        .fold(f64::NAN, f64::max);
    if bottom.is_nan() {
        return (scene.items.clone(), Vec::new(), scene.height);
    }
    let cut = bottom + CUT_BELOW_RESULTS;
    let (body, legend): (Vec<Item>, Vec<Item>) =
        scene.items.iter().cloned().partition(|i| top(i) < cut);
    (body, legend, cut)
}

fn text(x: f64, y: f64, text: String, size: f64, color: &'static str, bold: bool) -> Item {
    Item::Text {
        x,
        y,
        text,
        size,
        color,
        anchor: Anchor::Start,
        bold,
    }
}

/// Stacks `parts` in a drawing `width` CSS pixels wide and bands the lanes of `marks`
/// (`(lane, hover text)`), above which a `≠` is written.
///
/// The part with the most lanes fills the width; a part with fewer lanes is drawn narrower with
/// the same pitch, so that lane `i` lines up in every row. The hover text of each marked lane's
/// result boxes gets the mark's text appended, so the canvas tooltip and the SVG `<title>` carry
/// it too.
pub fn stack(parts: &[Part<'_>], width: f64, marks: &[(usize, String)]) -> Stacked {
    let widest = parts
        .iter()
        .filter_map(|p| match p {
            Part::Step { step, .. } => Some(columns(step)),
            Part::Note { .. } => None,
        })
        .max()
        .unwrap_or(1);
    // Pitch and margins come from the widest part drawn at full width: the scene builder owns
    // its layout, so it is measured rather than assumed.
    let reference = parts.iter().find_map(|p| match p {
        Part::Step { step, .. } if columns(step) == widest => Some(scene::build(step, width)),
        _ => None,
    });
    let measured = reference.as_ref().and_then(|s| geometry(s, widest));
    let mut items = Vec::new();
    let mut legend = Vec::new();
    let mut y = MARKER_H;
    let mut full_width = width;
    for part in parts {
        let title_y = y + 14.0;
        match part {
            Part::Step { title, step } => {
                items.push(text(4.0, title_y, title.clone(), 12.0, INK, true));
                let lanes = columns(step);
                let part_width = match measured {
                    Some((pitch, margins)) if lanes < widest => margins + pitch * lanes as f64,
                    _ => width,
                };
                let mut built = scene::build(step, part_width);
                for (lane, tip) in marks {
                    annotate(&mut built, *lane, tip);
                }
                full_width = full_width.max(built.width);
                let (body, rest, height) = split(&built);
                let dy = y + TITLE_H;
                items.extend(body.iter().map(|i| shifted(i, dy)));
                if lanes == widest && legend.is_empty() {
                    legend = rest;
                }
                y = dy + height + PART_GAP;
            }
            Part::Note { title, text: why } => {
                items.push(text(4.0, title_y, title.clone(), 12.0, INK, true));
                items.push(text(64.0, title_y + 20.0, why.clone(), 12.0, BAD, false));
                y += TITLE_H + 30.0 + PART_GAP;
            }
        }
    }
    let body_bottom = y - PART_GAP;
    // The legend's own top (its first item) moves to just below the last part.
    let legend_top = legend.iter().map(top).fold(f64::INFINITY, f64::min);
    let mut height = body_bottom + 8.0;
    if legend_top.is_finite() {
        let dy = body_bottom + 12.0 - legend_top;
        let bottom = reference.as_ref().map_or(0.0, |s| s.height) + dy;
        items.extend(legend.iter().map(|i| shifted(i, dy)));
        height = height.max(bottom);
    }
    let mut bands = Vec::new();
    let mut front = Vec::new();
    if let Some((pitch, margins)) = measured {
        // The left margin is the scene's row-label column; the right one is what is left.
        let left = reference
            .as_ref()
            .and_then(|s| s.lane_box(Row::Input, 0))
            .map_or(margins, |b| b.rect.x - (pitch - b.rect.w) / 2.0);
        for (lane, tip) in marks {
            let rect = Rect {
                x: left + pitch * *lane as f64,
                y: MARKER_H,
                w: pitch,
                h: body_bottom - MARKER_H,
            };
            front.push(Item::Box(BoxItem {
                rect,
                paint: BAND,
                label: None,
                font: 0.0,
                lane: None,
                source: None,
                tip: Some(tip.clone()),
            }));
            front.push(Item::Text {
                x: rect.cx(),
                y: MARKER_H - 3.0,
                text: "≠".into(),
                size: 13.0,
                color: "#b45309",
                anchor: Anchor::Middle,
                bold: true,
            });
            bands.push(Band {
                lane: *lane,
                rect,
                tip: tip.clone(),
            });
        }
    }
    front.extend(items);
    Stacked {
        scene: Scene {
            width: full_width,
            height,
            items: front,
        },
        bands,
    }
}

/// Appends `note` to the hover text of lane `lane`'s result box.
fn annotate(scene: &mut Scene, lane: usize, note: &str) {
    for item in &mut scene.items {
        if let Item::Box(b) = item {
            if b.lane
                .is_some_and(|l| l.row == Row::Result && l.lane == lane)
            {
                if let Some(tip) = &mut b.tip {
                    tip.push_str("\n≠ ");
                    tip.push_str(note);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::svg;
    use crosslane_core::OpRequest;

    fn run(dialect: &str, op: &str, lanes: &str, params: &[(&str, &str)]) -> Step {
        OpRequest {
            dialect: dialect.into(),
            op: op.into(),
            lanes: lanes.into(),
            params: params
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            ..OpRequest::default()
        }
        .run()
        .unwrap()
    }

    #[test]
    fn lanes_line_up_across_parts_of_different_widths() {
        let narrow = run("hip", "__shfl_down", "32", &[("delta", "1")]);
        let wide = run("hip", "__shfl_down", "64", &[("delta", "1")]);
        let parts = [
            Part::Step {
                title: "HIP wave32".into(),
                step: &narrow,
            },
            Part::Step {
                title: "HIP wave64".into(),
                step: &wide,
            },
        ];
        let out = stack(&parts, 1200.0, &[(3, "why".into())]);
        let xs: Vec<(f64, f64)> = out
            .scene
            .boxes()
            .filter(|b| b.lane.is_some_and(|l| l.row == Row::Result && l.lane == 31))
            .map(|b| (b.rect.x, b.rect.y))
            .collect();
        assert_eq!(xs.len(), 2, "lane 31 in both parts");
        assert!((xs[0].0 - xs[1].0).abs() < 1e-6, "{xs:?}");
        assert!(xs[1].1 > xs[0].1, "the second part is below the first");
        // 64 + 32 result boxes, 64 + 32 input boxes: nothing lost, one legend.
        let lanes = out.scene.boxes().filter(|b| b.lane.is_some()).count();
        assert_eq!(lanes, 2 * (64 + 32));
        let legends = out
            .scene
            .items
            .iter()
            .filter(|i| matches!(i, Item::Text { text, .. } if text.starts_with("result lane →")))
            .count();
        assert_eq!(legends, 1);
        // The band covers lane 3 in both parts and carries its text.
        let band = &out.bands[0];
        for b in out
            .scene
            .boxes()
            .filter(|b| b.lane.is_some_and(|l| l.lane == 3))
        {
            assert!(band.rect.x <= b.rect.x && b.rect.x + b.rect.w <= band.rect.x + band.rect.w);
            assert!(band.rect.y <= b.rect.y && b.rect.y + b.rect.h <= band.rect.y + band.rect.h);
        }
        let r3 = out
            .scene
            .boxes()
            .find(|b| b.lane.is_some_and(|l| l.row == Row::Result && l.lane == 3))
            .unwrap();
        assert!(r3.tip.as_deref().unwrap().ends_with("\n≠ why"));
        assert_eq!(
            out.band_at(band.rect.cx(), band.rect.y + 1.0)
                .map(|b| b.lane),
            Some(3)
        );
        assert!(out.scene.height > xs[1].1);
        let text = svg::to_svg(&out.scene);
        assert!(text.contains("≠ why</title>"));
    }

    #[test]
    fn a_refused_run_is_a_note() {
        let step = run("ascend", "asc_shfl_xor", "", &[("lane_mask", "1")]);
        let parts = [
            Part::Step {
                title: "Ascend C".into(),
                step: &step,
            },
            Part::Note {
                title: "HIP wave64".into(),
                text: "values: 32 items for 64 lanes".into(),
            },
        ];
        let out = stack(&parts, 900.0, &[]);
        assert!(out.bands.is_empty());
        assert!(out.scene.items.iter().any(
            |i| matches!(i, Item::Text { text, color, .. } if text.contains("32 items") && *color == BAD)
        ));
    }

    /// WCAG 2.1 relative luminance of `#rrggbb` (§1.4.3, "relative luminance").
    fn luminance(hex: &str) -> f64 {
        let c = |i: usize| {
            let v = f64::from(u8::from_str_radix(&hex[1 + 2 * i..3 + 2 * i], 16).unwrap()) / 255.0;
            if v <= 0.03928 {
                v / 12.92
            } else {
                ((v + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * c(0) + 0.7152 * c(1) + 0.0722 * c(2)
    }

    #[test]
    fn lane_numbers_keep_4_5_to_1_on_the_disagree_band() {
        let (a, b) = (
            luminance(crate::render::scene::LANE_NUMBER),
            luminance(BAND.fill),
        );
        let ratio = (a.max(b) + 0.05) / (a.min(b) + 0.05);
        assert!(ratio >= 4.5, "{ratio:.2}:1");
    }
}
