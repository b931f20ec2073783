//! The display list: what the lane drawing consists of (boxes, arrows, lines, text), in CSS
//! pixels, built ONLY from a [`crosslane_core::Step`]. The trace is the only thing renderers read
//! (docs/STYLE.md): the canvas and SVG back ends turn this list into pixels or text and decide nothing.
//!
//! Layout, top to bottom: lane numbers, the input row, the arrow band (one arrow from each result
//! lane to the input lane it read: the pull model of the gather engine), the result row, lane
//! numbers, the legend. Lane boxes share the width evenly down to [`MIN_PITCH`] pixels a lane
//! (beyond that the drawing is wider than asked and scrolls in its own box). Every value is
//! drawn: across its box where the whole row fits, else rotated in a row made tall enough for
//! the longest value (64 and 128 lanes, f16x2 pairs, 64-bit values). A computed result's hover
//! text names the lanes that fed it ([`contributors`]).

use std::fmt::Write;

use crosslane_core::{LaneMask, Source, Step};

use crate::labels::{self, DisplayOptions};
use crate::render::style::{paint, Paint, Pattern, INPUT, LEGEND};

/// An axis-aligned rectangle in CSS pixels (origin top left).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub w: f64,
    /// Height.
    pub h: f64,
}

impl Rect {
    /// Whether the point lies inside (edges included).
    pub fn contains(&self, x: f64, y: f64) -> bool {
        x >= self.x && x <= self.x + self.w && y >= self.y && y <= self.y + self.h
    }

    /// Horizontal centre.
    pub fn cx(&self) -> f64 {
        self.x + self.w / 2.0
    }
}

/// Which row a lane box belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Row {
    /// The operand row the lanes read from.
    Input,
    /// The result row.
    Result,
}

/// A lane a box stands for (for hit-testing clicks and hovers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaneRef {
    /// Row.
    pub row: Row,
    /// Lane number.
    pub lane: usize,
}

/// Horizontal text alignment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// Text starts at x.
    Start,
    /// Text is centred on x.
    Middle,
    /// Text ends at x.
    End,
}

/// A filled, outlined, patterned box: a lane, or a legend swatch.
#[derive(Clone, Debug, PartialEq)]
pub struct BoxItem {
    /// Where.
    pub rect: Rect,
    /// Colour, outline and pattern.
    pub paint: Paint,
    /// Text centred inside (the value), when it fits.
    pub label: Option<String>,
    /// Font size of `label` in CSS pixels.
    pub font: f64,
    /// The lane it stands for; `None` for legend swatches.
    pub lane: Option<LaneRef>,
    /// The result's provenance (result boxes and swatches only).
    pub source: Option<Source>,
    /// Hover text: value, provenance and `LaneResult::why`.
    pub tip: Option<String>,
}

impl BoxItem {
    /// Whether the label is drawn rotated a quarter turn (reading upwards): it does not fit
    /// across the box at its font size but fits along the box's height. [`build`] makes a row's
    /// boxes tall enough for that when its values are too long for the lane width (64 and 128
    /// lanes, f16x2 pairs, 64-bit values).
    pub fn rotated(&self) -> bool {
        self.label.as_deref().is_some_and(|l| {
            let w = text_width(l, self.font);
            w > self.rect.w - 2.0 && w <= self.rect.h - 2.0
        })
    }

    /// The solid patch both back ends paint in the box's fill behind the label of a patterned
    /// box, so the pattern's marks (a computed result's grid, an undefined lane's hatching)
    /// never cross the digits: the label's extent (as estimated for layout, a pixel around it),
    /// turned with the label, within the box. `None` for a plain box or one without label.
    pub fn label_backing(&self) -> Option<Rect> {
        let label = self.label.as_deref().filter(|l| !l.is_empty())?;
        if self.paint.pattern == Pattern::Solid {
            return None;
        }
        let (along, across) = (text_width(label, self.font) + 2.0, self.font + 2.0);
        let (w, h) = if self.rotated() {
            (across, along)
        } else {
            (along, across)
        };
        let (w, h) = (
            w.min(self.rect.w - 2.0).max(0.0),
            h.min(self.rect.h - 2.0).max(0.0),
        );
        Some(Rect {
            x: self.rect.cx() - w / 2.0,
            y: self.rect.y + (self.rect.h - h) / 2.0,
            w,
            h,
        })
    }
}

/// An arrow from result lane `lane` (tail, at the result row) to input lane `to` (head, at the
/// input row): "lane `lane` read lane `to`". The legend's sample arrow has neither.
#[derive(Clone, Debug, PartialEq)]
pub struct Arrow {
    /// The result lane (tail); `None` for the legend's sample.
    pub lane: Option<usize>,
    /// The input lane read (head); `None` for the legend's sample.
    pub to: Option<usize>,
    /// Tail x.
    pub x1: f64,
    /// Tail y.
    pub y1: f64,
    /// Head x.
    pub x2: f64,
    /// Head y.
    pub y2: f64,
    /// Colour (the provenance's stroke).
    pub color: &'static str,
    /// Dashed: a fallback to the own value, or the lane an undefined rule would have read.
    pub dashed: bool,
    /// Line width.
    pub width: f64,
    /// Length of the arrow head.
    pub head: f64,
}

impl Arrow {
    /// The shaft's end (where the head starts) and the head's three corners (tip first), so that
    /// every back end draws the same arrow.
    pub fn geometry(&self) -> ((f64, f64), [(f64, f64); 3]) {
        let (dx, dy) = (self.x2 - self.x1, self.y2 - self.y1);
        let len = (dx * dx + dy * dy).sqrt().max(1e-9);
        let (ux, uy) = (dx / len, dy / len);
        let head = self.head.min(len);
        let base = (self.x2 - ux * head, self.y2 - uy * head);
        let half = head * 0.5;
        let left = (base.0 - uy * half, base.1 + ux * half);
        let right = (base.0 + uy * half, base.1 - ux * half);
        (base, [(self.x2, self.y2), left, right])
    }
}

/// One thing to draw.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// A box.
    Box(BoxItem),
    /// An arrow.
    Arrow(Arrow),
    /// A straight line (segment separators).
    Line {
        /// Start x.
        x1: f64,
        /// Start y.
        y1: f64,
        /// End x.
        x2: f64,
        /// End y.
        y2: f64,
        /// Colour.
        color: &'static str,
        /// Line width.
        width: f64,
    },
    /// A line of text; `y` is the baseline.
    Text {
        /// Anchor x.
        x: f64,
        /// Baseline y.
        y: f64,
        /// The text.
        text: String,
        /// Font size in CSS pixels.
        size: f64,
        /// Colour.
        color: &'static str,
        /// Alignment on x.
        anchor: Anchor,
        /// Bold face.
        bold: bool,
    },
}

/// A pattern mark inside a box, already clipped to it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Mark {
    /// A line segment `(x1, y1) – (x2, y2)`.
    Line(f64, f64, f64, f64),
    /// A dot at `(x, y)` with radius `r`.
    Dot(f64, f64, f64),
}

/// The display list of one step.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scene {
    /// Width in CSS pixels (the width asked for).
    pub width: f64,
    /// Height in CSS pixels (what the content needs).
    pub height: f64,
    /// Items in drawing order.
    pub items: Vec<Item>,
}

impl Scene {
    /// The lane box under the point, with its hover text (topmost first).
    pub fn hit(&self, x: f64, y: f64) -> Option<(LaneRef, &str)> {
        self.boxes().rev().find_map(|b| match (&b.lane, &b.tip) {
            (Some(lane), Some(tip)) if b.rect.contains(x, y) => Some((*lane, tip.as_str())),
            _ => None,
        })
    }

    /// Every box, in drawing order.
    pub fn boxes(&self) -> impl DoubleEndedIterator<Item = &BoxItem> {
        self.items.iter().filter_map(|i| match i {
            Item::Box(b) => Some(b),
            _ => None,
        })
    }

    /// Every lane arrow (not the legend's sample), in drawing order.
    pub fn arrows(&self) -> impl Iterator<Item = &Arrow> {
        self.items.iter().filter_map(|i| match i {
            Item::Arrow(a) if a.lane.is_some() => Some(a),
            _ => None,
        })
    }

    /// The box of lane `lane` in row `row`.
    pub fn lane_box(&self, row: Row, lane: usize) -> Option<&BoxItem> {
        self.boxes().find(|b| b.lane == Some(LaneRef { row, lane }))
    }
}

const LEFT: f64 = 64.0;
const RIGHT: f64 = 12.0;
const INDEX_BAND: f64 = 20.0;
const BOX_H: f64 = 34.0;
const ARROW_BAND: f64 = 120.0;
const LEGEND_ROW: f64 = 20.0;
const MUTED: &str = "#64748b";
const INK: &str = "#0f172a";
/// The lane numbers' colour: darker than `MUTED`, for they are also drawn over the portability
/// view's "disagree" band ([`crate::render::stack::BAND`]) and must keep 4.5:1 there (WCAG 1.4.3);
/// `--draw-475569` in `web/style.css` is its dark-theme colour.
pub const LANE_NUMBER: &str = "#475569";

/// Approximate advance of one character at font size `size` (the UI font is a sans-serif; a
/// slight overestimate keeps labels inside their boxes on both back ends).
fn text_width(text: &str, size: f64) -> f64 {
    text.chars().count() as f64 * size * 0.62
}

/// The space between neighbouring lane boxes: at least a pixel, so that narrow boxes of one
/// colour stay apart.
fn box_gap(pitch: f64) -> f64 {
    (pitch * 0.14).clamp(1.0, 4.0)
}

/// The narrowest lane pitch: below it no value could be drawn at [`MIN_FONT`] even rotated (a
/// box of `MIN_PITCH - box_gap` = 12 px holds a 10 px line with a pixel either side), so the
/// drawing is made wider than asked (its canvas scrolls sideways inside its own box: 128 lanes
/// are 1868 px wide, 32 lanes 524 px on a 390 px phone).
pub const MIN_PITCH: f64 = 14.0;

/// The smallest font a value label is drawn at, in CSS pixels: readable on screen and in the
/// exports ("every result value is readable"; a value too long for its lane
/// is turned a quarter, or the drawing widened, never set smaller).
pub const MIN_FONT: f64 = 10.0;

/// How one row's value labels are set: one font size for the row, and the row's box height.
#[derive(Clone, Copy, Debug, PartialEq)]
struct RowLabels {
    font: f64,
    height: f64,
}

/// The largest of 12, 11, 10 px at which every label of the row fits across its box; where none
/// does (long values in narrow lanes), the largest font the box width allows, with the labels
/// that do not fit across drawn rotated ([`BoxItem::rotated`]) and the row as tall as its
/// longest label. Every value is drawn either way.
fn row_labels(labels: &[String], box_w: f64) -> RowLabels {
    if let Some(font) = [12.0, 11.0, MIN_FONT]
        .into_iter()
        .find(|&s| labels.iter().all(|l| text_width(l, s) <= box_w - 2.0))
    {
        return RowLabels {
            font,
            height: BOX_H,
        };
    }
    let font = (box_w - 2.0).clamp(MIN_FONT, 12.0).floor();
    let longest = labels
        .iter()
        .map(|l| text_width(l, font))
        .fold(0.0, f64::max);
    RowLabels {
        font,
        height: (longest + 8.0).max(BOX_H),
    }
}

/// The lanes that fed lane `lane`'s computed result (a ballot, vote, reduction or scan), as the
/// op's collective says ([`crosslane_core::codegen::Collective::contributors`]) from the lanes
/// taking part: the active lanes, within the sync mask where the op has one. `None` for a
/// result that is not computed or an op that is not a collective.
pub fn contributors(step: &Step, lane: usize) -> Option<LaneMask> {
    if step.results.get(lane)?.source != Source::Computed {
        return None;
    }
    let spec = crosslane_core::find_op(step.dialect, &step.op).ok()?;
    let collective = crosslane_core::codegen::Collective::of(spec)?;
    let mut taking_part = step.active;
    if let Ok(mask) = step.params.mask("mask") {
        taking_part = LaneMask(taking_part.0 & mask.0);
    }
    Some(collective.contributors(lane, taking_part))
}

/// `0–7, 9, 12–15`: a lane set as ranges.
fn lane_ranges(mask: LaneMask) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut run: Option<(usize, usize)> = None;
    for lane in mask.iter() {
        run = match run {
            Some((a, b)) if b + 1 == lane => Some((a, lane)),
            Some((a, b)) => {
                parts.push(range_text(a, b));
                Some((lane, lane))
            }
            None => Some((lane, lane)),
        };
    }
    if let Some((a, b)) = run {
        parts.push(range_text(a, b));
    }
    if parts.is_empty() {
        "none".to_string()
    } else {
        parts.join(", ")
    }
}

fn range_text(a: usize, b: usize) -> String {
    if a == b {
        a.to_string()
    } else {
        format!("{a}–{b}")
    }
}

/// Builds the display list of `step` for a drawing `width` CSS pixels wide, values in the
/// type's own notation ([`build_with`] for other display options).
pub fn build(step: &Step, width: f64) -> Scene {
    build_with(step, width, DisplayOptions::default())
}

/// [`build`] with the values written as `display` says (hex: the operation view's
/// "values in hex").
pub fn build_with(step: &Step, width: f64, display: DisplayOptions) -> Scene {
    let columns = step
        .lanes
        .max(step.results.len())
        .max(step.inputs.len())
        .max(1);
    let width = width.max(LEFT + RIGHT + MIN_PITCH * columns as f64);
    let pitch = (width - LEFT - RIGHT) / columns as f64;
    let gap = box_gap(pitch);
    let bw = pitch - gap;
    let x_of = |lane: usize| LEFT + lane as f64 * pitch + gap / 2.0;
    let input_labels: Vec<String> = step
        .inputs
        .iter()
        .map(|v| match v {
            Some(_) => labels::input_text(*v, display),
            None => "?".into(),
        })
        .collect();
    let result_labels: Vec<String> = step
        .results
        .iter()
        .map(|r| match r.source {
            Source::Undefined => "?".to_string(),
            Source::Inactive => "–".to_string(),
            _ => labels::result_text(r, display),
        })
        .collect();
    let row_in = row_labels(&input_labels, bw);
    let row_out = row_labels(&result_labels, bw);
    let y_in = INDEX_BAND;
    let y_out = y_in + row_in.height + ARROW_BAND;
    let mut items = Vec::new();

    lane_numbers(&mut items, columns, pitch, &x_of, y_in - 6.0);
    row_label(&mut items, "input", y_in);
    row_label(&mut items, "result", y_out);

    segment_lines(
        &mut items,
        step,
        columns,
        pitch,
        y_in - 4.0,
        y_out + row_out.height + 4.0,
    );

    // Arrows first, so boxes cover their ends.
    let head = (pitch * 0.35).clamp(2.5, 7.0);
    let stroke_w = if pitch < 8.0 { 0.75 } else { 1.25 };
    for (i, r) in step.results.iter().enumerate() {
        let (Some(j), dashed) = (r.from, r.source != Source::Lane) else {
            continue;
        };
        if !matches!(r.source, Source::Lane | Source::Own | Source::Undefined) || j >= columns {
            continue;
        }
        items.push(Item::Arrow(Arrow {
            lane: Some(i),
            to: Some(j),
            x1: x_of(i) + bw / 2.0,
            y1: y_out - 1.0,
            x2: x_of(j) + bw / 2.0,
            y2: y_in + row_in.height + 1.0,
            color: paint(r.source).stroke,
            dashed,
            width: stroke_w,
            head,
        }));
    }

    if step.inputs.is_empty() {
        items.push(Item::Text {
            x: LEFT,
            y: y_in + BOX_H / 2.0 + 4.0,
            text: "scalar operation: computed from the parameters alone (result in lane 0)".into(),
            size: 12.0,
            color: MUTED,
            anchor: Anchor::Start,
            bold: false,
        });
    }
    for ((i, value), text) in step.inputs.iter().enumerate().zip(input_labels) {
        let active = step.active.contains(i);
        let p = match (value, active) {
            (None, _) => paint(Source::Undefined),
            (Some(_), true) => INPUT,
            (Some(_), false) => paint(Source::Inactive),
        };
        items.push(lane_box(
            Rect {
                x: x_of(i),
                y: y_in,
                w: bw,
                h: row_in.height,
            },
            p,
            text,
            row_in.font,
            LaneRef {
                row: Row::Input,
                lane: i,
            },
            None,
            labels::input_tip(i, *value, active, display),
        ));
    }
    for ((i, r), text) in step.results.iter().enumerate().zip(result_labels) {
        let mut tip = labels::result_tip(i, r, display);
        if let Some(fed) = contributors(step, i) {
            let _ = write!(tip, "\nfrom lanes {}", lane_ranges(fed));
        }
        items.push(lane_box(
            Rect {
                x: x_of(i),
                y: y_out,
                w: bw,
                h: row_out.height,
            },
            paint(r.source),
            text,
            row_out.font,
            LaneRef {
                row: Row::Result,
                lane: i,
            },
            Some(r.source),
            tip,
        ));
    }

    lane_numbers(
        &mut items,
        columns,
        pitch,
        &x_of,
        y_out + row_out.height + 14.0,
    );
    let legend_top = y_out + row_out.height + 30.0;
    let height = legend(&mut items, legend_top, width);
    Scene {
        width,
        height,
        items,
    }
}

/// Faint separators between `width`-lane segments, for ops whose step has a `width` parameter
/// (CUDA, HIP, Ascend shuffles): where a segment ends is where fallbacks to the own value start.
fn segment_lines(
    items: &mut Vec<Item>,
    step: &Step,
    columns: usize,
    pitch: f64,
    top: f64,
    bottom: f64,
) {
    // One width for every lane (a per-lane width that varies has no single segment grid).
    let Ok(width) = step.params.int("width") else {
        return;
    };
    let Ok(width) = usize::try_from(width) else {
        return;
    };
    if width == 0 || !width.is_power_of_two() || width >= columns {
        return;
    }
    for lane in (width..columns).step_by(width) {
        let x = LEFT + lane as f64 * pitch;
        items.push(Item::Line {
            x1: x,
            y1: top,
            x2: x,
            y2: bottom,
            color: "#94a3b8",
            width: 1.0,
        });
    }
}

fn lane_box(
    rect: Rect,
    paint: Paint,
    text: String,
    font: f64,
    lane: LaneRef,
    source: Option<Source>,
    tip: String,
) -> Item {
    Item::Box(BoxItem {
        rect,
        paint,
        label: Some(text),
        font,
        lane: Some(lane),
        source,
        tip: Some(tip),
    })
}

fn row_label(items: &mut Vec<Item>, text: &str, top: f64) {
    items.push(Item::Text {
        x: LEFT - 8.0,
        y: top + BOX_H / 2.0 + 4.0,
        text: text.into(),
        size: 12.0,
        color: INK,
        anchor: Anchor::End,
        bold: true,
    });
}

/// Lane numbers every 1, 2, 4, … lanes, whichever is the first to leave room for the widest one.
fn lane_numbers(
    items: &mut Vec<Item>,
    columns: usize,
    pitch: f64,
    x_of: &dyn Fn(usize) -> f64,
    baseline: f64,
) {
    let size = 10.0;
    let widest = text_width(&(columns - 1).to_string(), size) + 4.0;
    let step = [1usize, 2, 4, 8, 16, 32]
        .into_iter()
        .find(|&s| pitch * s as f64 >= widest)
        .unwrap_or(64);
    let box_w = pitch - box_gap(pitch);
    for lane in (0..columns).step_by(step) {
        items.push(Item::Text {
            x: x_of(lane) + box_w / 2.0,
            y: baseline,
            text: lane.to_string(),
            size,
            color: LANE_NUMBER,
            anchor: Anchor::Middle,
            bold: false,
        });
    }
}

/// The legend (arrow meaning, then one swatch per provenance), wrapped to `width`. Returns the
/// scene height below it.
fn legend(items: &mut Vec<Item>, top: f64, width: f64) -> f64 {
    let size = 11.0;
    let mut x = LEFT;
    let mut y = top;
    let arrow_text = "result lane → the input lane it read (dashed: fallback / would-be source)";
    let arrow_w = 28.0 + 6.0 + text_width(arrow_text, size);
    items.push(Item::Arrow(Arrow {
        lane: None,
        to: None,
        x1: x,
        y1: y + 6.0,
        x2: x + 28.0,
        y2: y + 6.0,
        color: paint(Source::Lane).stroke,
        dashed: false,
        width: 1.25,
        head: 6.0,
    }));
    items.push(Item::Text {
        x: x + 34.0,
        y: y + 10.0,
        text: arrow_text.into(),
        size,
        color: INK,
        anchor: Anchor::Start,
        bold: false,
    });
    x += arrow_w + 18.0;
    for (source, words) in LEGEND {
        let item_w = 22.0 + 6.0 + text_width(words, size) + 18.0;
        if x + item_w > width - RIGHT && x > LEFT {
            x = LEFT;
            y += LEGEND_ROW;
        }
        items.push(Item::Box(BoxItem {
            rect: Rect {
                x,
                y,
                w: 22.0,
                h: 13.0,
            },
            paint: paint(source),
            label: None,
            font: 0.0,
            lane: None,
            source: Some(source),
            tip: None,
        }));
        items.push(Item::Text {
            x: x + 28.0,
            y: y + 10.5,
            text: words.into(),
            size,
            color: INK,
            anchor: Anchor::Start,
            bold: false,
        });
        x += item_w;
    }
    y + LEGEND_ROW + 4.0
}

/// The marks of `pattern` inside `rect`, clipped to it, about `spacing` pixels apart.
pub fn pattern_marks(rect: Rect, pattern: Pattern, spacing: f64) -> Vec<Mark> {
    let s = spacing.max(2.0);
    let Rect { x, y, w, h } = rect;
    let mut marks = Vec::new();
    let steps = |len: f64| {
        (1..)
            .map(move |k| k as f64 * s)
            .take_while(move |d| *d < len)
    };
    match pattern {
        Pattern::Solid => {}
        Pattern::VStripes => marks.extend(steps(w).map(|d| Mark::Line(x + d, y, x + d, y + h))),
        Pattern::HStripes => marks.extend(steps(h).map(|d| Mark::Line(x, y + d, x + w, y + d))),
        Pattern::Grid => {
            marks.extend(steps(w).map(|d| Mark::Line(x + d, y, x + d, y + h)));
            marks.extend(steps(h).map(|d| Mark::Line(x, y + d, x + w, y + d)));
        }
        Pattern::Dots => {
            for dy in steps(h) {
                for dx in steps(w) {
                    marks.push(Mark::Dot(x + dx, y + dy, (s * 0.18).max(0.6)));
                }
            }
        }
        Pattern::Hatch | Pattern::BackHatch => {
            // Lines of slope ±1 through (x + t, bottom or top), t from -h to w, clipped to the box
            // by solving for the parameter range u where x ≤ x + t + u ≤ x + w and 0 ≤ u ≤ h.
            let mut t = -h + s / 2.0;
            while t < w {
                let lo = (-t).max(0.0);
                let hi = h.min(w - t);
                if hi > lo {
                    let (y_lo, y_hi) = if pattern == Pattern::Hatch {
                        (y + h - lo, y + h - hi)
                    } else {
                        (y + lo, y + hi)
                    };
                    marks.push(Mark::Line(x + t + lo, y_lo, x + t + hi, y_hi));
                }
                t += s;
            }
        }
    }
    marks
}

/// The spacing of pattern marks for a box `w` pixels wide: denser in narrow boxes so that a
/// 128-lane row still shows its pattern.
pub fn pattern_spacing(w: f64) -> f64 {
    (w / 3.0).clamp(3.0, 7.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crosslane_core::{LaneMask, LaneResult, OpRequest, Params, Value, ValueType};

    fn ascend(op: &str, params: &[(&str, &str)], active: &str) -> Step {
        OpRequest {
            dialect: "ascend".into(),
            op: op.into(),
            active: active.into(),
            params: params
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            ..OpRequest::default()
        }
        .run()
        .expect("a valid Ascend request")
    }

    #[test]
    fn arrows_go_from_each_result_lane_to_the_lane_it_read() {
        // Seed 000: asc_shfl_xor(LaneId, 1, 16) → {1,0,3,2,…}.
        let step = ascend("asc_shfl_xor", &[("lane_mask", "1"), ("width", "16")], "");
        let scene = build(&step, 960.0);
        let arrows: Vec<&Arrow> = scene.arrows().collect();
        assert_eq!(arrows.len(), 32);
        for a in &arrows {
            let (lane, to) = (a.lane.unwrap(), a.to.unwrap());
            assert_eq!(to, lane ^ 1);
            let result = scene.lane_box(Row::Result, lane).unwrap();
            let input = scene.lane_box(Row::Input, to).unwrap();
            assert!((a.x1 - result.rect.cx()).abs() < 1e-9);
            assert!((a.x2 - input.rect.cx()).abs() < 1e-9);
            assert!(a.y1 <= result.rect.y && a.y2 >= input.rect.y + input.rect.h);
            assert!(!a.dashed);
        }
        let separators: Vec<f64> = scene
            .items
            .iter()
            .filter_map(|i| match i {
                Item::Line { x1, .. } => Some(*x1),
                _ => None,
            })
            .collect();
        let end_of_15 = scene.lane_box(Row::Input, 15).unwrap().rect;
        let start_of_16 = scene.lane_box(Row::Input, 16).unwrap().rect.x;
        assert_eq!(
            separators.len(),
            1,
            "one separator between two 16-lane segments"
        );
        assert!(separators[0] >= end_of_15.x + end_of_15.w && separators[0] <= start_of_16);
        let r4 = scene.lane_box(Row::Result, 4).unwrap();
        assert_eq!(r4.label.as_deref(), Some("5"));
        let fonts: Vec<f64> = scene
            .boxes()
            .filter(|b| b.lane.is_some())
            .map(|b| b.font)
            .collect();
        assert!(
            fonts.iter().all(|f| *f == 12.0),
            "one size per row: {fonts:?}"
        );
        assert_eq!(r4.paint, paint(Source::Lane));
    }

    #[test]
    fn undefined_lanes_are_hatched_and_carry_their_reason() {
        let step = ascend("asc_shfl_xor", &[("lane_mask", "1"), ("width", "31")], "");
        let scene = build(&step, 960.0);
        for lane in 0..32 {
            let b = scene.lane_box(Row::Result, lane).unwrap();
            assert_eq!(b.paint.pattern, Pattern::Hatch);
            assert_eq!(b.source, Some(Source::Undefined));
            let tip = b.tip.as_deref().unwrap();
            assert!(tip.contains("width 31 is not a power of two"), "{tip}");
            assert!(!pattern_marks(b.rect, b.paint.pattern, 5.0).is_empty());
        }
    }

    #[test]
    fn an_inactive_source_gives_a_dashed_arrow_to_it_and_an_undefined_lane() {
        let step = ascend(
            "asc_shfl_xor",
            &[("lane_mask", "1"), ("width", "16")],
            "0xffffffdf",
        );
        let scene = build(&step, 960.0);
        let five = scene.lane_box(Row::Result, 5).unwrap();
        assert_eq!(five.source, Some(Source::Inactive));
        assert!(five.paint.dashed);
        let four = scene.lane_box(Row::Result, 4).unwrap();
        assert_eq!(four.source, Some(Source::Undefined));
        assert!(four.tip.as_deref().unwrap().contains("lane 5 is inactive"));
        let arrow = scene.arrows().find(|a| a.lane == Some(4)).unwrap();
        assert_eq!(arrow.to, Some(5));
        assert!(arrow.dashed);
        assert!(scene.arrows().all(|a| a.lane != Some(5)));
        let (hit, tip) = scene
            .hit(four.rect.cx(), four.rect.y + 2.0)
            .expect("lane 4's result box is under its own centre");
        assert_eq!(
            hit,
            LaneRef {
                row: Row::Result,
                lane: 4
            }
        );
        assert!(tip.contains("undefined"));
    }

    #[test]
    fn own_value_fallbacks_are_dashed_and_striped() {
        // Seed 001: asc_shfl_down(LaneId, 2, 16): lanes 14, 15 keep their own value.
        let step = ascend("asc_shfl_down", &[("delta", "2"), ("width", "16")], "");
        let scene = build(&step, 960.0);
        let b = scene.lane_box(Row::Result, 14).unwrap();
        assert_eq!(b.source, Some(Source::Own));
        assert_eq!(b.paint.pattern, Pattern::VStripes);
        assert_eq!(b.label.as_deref(), Some("14"));
        let a = scene.arrows().find(|a| a.lane == Some(14)).unwrap();
        assert_eq!(a.to, Some(14));
        assert!(a.dashed);
    }

    #[test]
    fn a_128_lane_step_fits_the_width() {
        let ty = ValueType::U32;
        let step = Step {
            dialect: crosslane_core::Dialect::Wgsl,
            op: "subgroupShuffleXor".into(),
            lanes: 128,
            active: LaneMask::all(128),
            ty,
            inputs: (0..128).map(|i| Some(Value::from_i64(ty, i))).collect(),
            params: Params::default(),
            results: (0..128)
                .map(|i| LaneResult::lane(Value::from_i64(ty, (i ^ 1) as i64), i ^ 1))
                .collect(),
            diagnostics: Vec::new(),
            scalar: false,
            label: None,
        };
        // 800 px would give 5.7-pixel lanes: the drawing widens to 14 px a lane (64 + 12 px of
        // margins), and scrolls in its box.
        let scene = build(&step, 800.0);
        assert_eq!(scene.width, 64.0 + 12.0 + 128.0 * 14.0);
        let mut boxes = 0;
        for b in scene.boxes().filter(|b| b.lane.is_some()) {
            assert!(
                b.rect.x >= 0.0 && b.rect.x + b.rect.w <= scene.width,
                "{:?}",
                b.rect
            );
            assert!(b.rect.w >= 12.0);
            boxes += 1;
        }
        assert_eq!(boxes, 256);
        // Every value is drawn: lane i's result is i ^ 1.
        for i in 0..128usize {
            let b = scene.lane_box(Row::Result, i).unwrap();
            assert_eq!(b.label.as_deref(), Some((i ^ 1).to_string().as_str()));
            assert!(b.font >= 10.0);
            // A 10-pixel font in 12-pixel boxes (6.2 px a digit, 1 px either side): one digit
            // fits across, two need the turn.
            assert_eq!(b.rotated(), (i ^ 1) >= 10, "lane {i}");
        }
        assert!(scene.height > 0.0);
    }

    fn request(dialect: &str, op: &str, lanes: &str, ty: &str, values: &str, active: &str) -> Step {
        OpRequest {
            dialect: dialect.into(),
            op: op.into(),
            lanes: lanes.into(),
            ty: ty.into(),
            values: values.into(),
            active: active.into(),
            ..OpRequest::default()
        }
        .run()
        .expect("a valid request")
    }

    /// Every label of `row` is drawn whole inside its box: across it, or rotated along it.
    fn assert_readable(scene: &Scene, row: Row, lanes: usize) {
        for i in 0..lanes {
            let b = scene.lane_box(row, i).unwrap();
            let label = b
                .label
                .as_deref()
                .unwrap_or_else(|| panic!("lane {i}: no label"));
            let room = if b.rotated() { b.rect.h } else { b.rect.w };
            assert!(
                text_width(label, b.font) <= room - 2.0,
                "lane {i}: {label} in {:?}",
                b.rect
            );
            assert!(b.font >= 10.0, "lane {i}: {} px", b.font);
        }
    }

    #[test]
    fn a_64_lane_scan_shows_every_sum() {
        // WGSL subgroupInclusiveAdd over values 0..63: lane i holds i(i+1)/2 (up to 2016), four
        // digits in 11-pixel lanes at 900 px: rotated.
        let step = request("wgsl", "subgroupInclusiveAdd", "64", "u32", "lane", "");
        let scene = build(&step, 900.0);
        for i in 0..64usize {
            let b = scene.lane_box(Row::Result, i).unwrap();
            assert_eq!(
                b.label.as_deref(),
                Some((i * (i + 1) / 2).to_string().as_str())
            );
        }
        assert_readable(&scene, Row::Result, 64);
        assert_readable(&scene, Row::Input, 64);
        let tall = scene.lane_box(Row::Result, 63).unwrap();
        assert!(tall.rotated(), "{:?}", tall.rect);
        // Hovering lane 5 names the lanes its sum came from; the exclusive scan stops below it.
        assert!(scene.hit(tall.rect.cx(), tall.rect.y + 2.0).is_some());
        let tip =
            |scene: &Scene, i: usize| scene.lane_box(Row::Result, i).unwrap().tip.clone().unwrap();
        assert!(
            tip(&scene, 5).ends_with("from lanes 0–5"),
            "{}",
            tip(&scene, 5)
        );
        let excl = request("wgsl", "subgroupExclusiveAdd", "64", "u32", "lane", "0xf0f");
        let excl_scene = build(&excl, 900.0);
        assert!(
            tip(&excl_scene, 9).ends_with("from lanes 0–3, 8"),
            "{}",
            tip(&excl_scene, 9)
        );
    }

    #[test]
    fn a_ballot_names_the_active_lanes_it_read() {
        // CUDA __ballot_sync with 8 active lanes: each result is the mask of lanes 0–7.
        let step = request("cuda", "__ballot_sync", "32", "", "lane*0+1", "0xff");
        let scene = build(&step, 600.0);
        let tip = scene.lane_box(Row::Result, 3).unwrap().tip.clone().unwrap();
        assert!(tip.contains("255"), "{tip}");
        assert!(tip.ends_with("from lanes 0–7"), "{tip}");
        // A lane read is not a collective: no list.
        let xor = ascend("asc_shfl_xor", &[("lane_mask", "1")], "");
        let scene = build(&xor, 600.0);
        assert!(!scene
            .lane_box(Row::Result, 0)
            .unwrap()
            .tip
            .clone()
            .unwrap()
            .contains("from lanes"));
    }

    #[test]
    fn f16x2_pairs_and_64_bit_values_are_drawn_whole() {
        for (dialect, op, ty, values) in [
            ("cuda", "__shfl_xor_sync", "f16x2", "1.5:-2.25,0.1:65504"),
            (
                "cuda",
                "__shfl_xor_sync",
                "i64",
                "-9223372036854775808,1234567890123",
            ),
        ] {
            for lanes in ["32", "64"] {
                let list: Vec<&str> = values.split(',').collect();
                let n: usize = lanes.parse().unwrap();
                let values: Vec<&str> = (0..n).map(|i| list[i % list.len()]).collect();
                let Ok(step) = OpRequest {
                    dialect: if lanes == "64" {
                        "hip".into()
                    } else {
                        dialect.into()
                    },
                    op: if lanes == "64" {
                        "__shfl_xor".into()
                    } else {
                        op.into()
                    },
                    lanes: lanes.into(),
                    ty: ty.into(),
                    values: values.join(","),
                    params: [("lane_mask".to_string(), "1".to_string())].into(),
                    ..OpRequest::default()
                }
                .run() else {
                    panic!("{ty} {lanes}")
                };
                let scene = build(&step, 900.0);
                assert_readable(&scene, Row::Result, n);
                assert_readable(&scene, Row::Input, n);
            }
        }
    }

    #[test]
    fn hatch_marks_stay_inside_their_box() {
        let r = Rect {
            x: 10.0,
            y: 20.0,
            w: 9.0,
            h: 34.0,
        };
        for p in [
            Pattern::Hatch,
            Pattern::BackHatch,
            Pattern::Grid,
            Pattern::Dots,
        ] {
            let marks = pattern_marks(r, p, 4.0);
            assert!(!marks.is_empty(), "{p:?}");
            for m in marks {
                let pts = match m {
                    Mark::Line(a, b, c, d) => vec![(a, b), (c, d)],
                    Mark::Dot(a, b, _) => vec![(a, b)],
                };
                for (px, py) in pts {
                    let inside = px >= r.x - 1e-9
                        && px <= r.x + r.w + 1e-9
                        && py >= r.y - 1e-9
                        && py <= r.y + r.h + 1e-9;
                    assert!(inside, "{p:?} {px},{py}");
                }
            }
        }
    }

    #[test]
    fn a_128_lane_scan_of_large_values_is_readable_at_desktop_and_phone_widths() {
        // WGSL subgroupInclusiveAdd (WGSL spec §16.11 subgroup built-ins: lane i gets the sum of
        // lanes 0..=i) over lane * 123457: lane 127 holds 123457 * (127 * 128 / 2) =
        // 1003458496, ten digits in a lane of at least 14 px.
        for lanes in [32usize, 64, 128] {
            let step = request(
                "wgsl",
                "subgroupInclusiveAdd",
                &lanes.to_string(),
                "u32",
                "lane*123457",
                "",
            );
            for width in [1440.0, 390.0] {
                let scene = build(&step, width);
                assert!(scene.width >= LEFT + RIGHT + MIN_PITCH * lanes as f64);
                let last = scene.lane_box(Row::Result, lanes - 1).unwrap();
                let sum = 123457 * (lanes - 1) * lanes / 2;
                assert_eq!(last.label.as_deref(), Some(sum.to_string().as_str()));
                assert_readable(&scene, Row::Result, lanes);
                assert_readable(&scene, Row::Input, lanes);
                for b in scene.boxes().filter(|b| b.lane.is_some()) {
                    assert!(
                        b.font >= MIN_FONT,
                        "{lanes} lanes at {width}: {} px",
                        b.font
                    );
                }
            }
        }
    }

    #[test]
    fn a_patterned_box_has_a_solid_patch_under_its_label() {
        // Computed results carry the grid pattern; the patch sits inside the box and covers the
        // label's extent (across, or along the box when the label is turned).
        let step = request(
            "wgsl",
            "subgroupInclusiveAdd",
            "64",
            "u32",
            "lane*123457",
            "",
        );
        let scene = build(&step, 900.0);
        for i in 0..64 {
            let b = scene.lane_box(Row::Result, i).unwrap();
            assert_eq!(b.paint.pattern, Pattern::Grid);
            let back = b.label_backing().expect("a patch under the label");
            let label = b.label.as_deref().unwrap();
            let (along, across) = if b.rotated() {
                (back.h, back.w)
            } else {
                (back.w, back.h)
            };
            assert!(along >= text_width(label, b.font), "lane {i}");
            assert!(across >= b.font, "lane {i}");
            assert!(back.x >= b.rect.x && back.x + back.w <= b.rect.x + b.rect.w);
            assert!(back.y >= b.rect.y && back.y + back.h <= b.rect.y + b.rect.h);
        }
        // Plain input boxes need none.
        let input = scene.lane_box(Row::Input, 0).unwrap();
        assert_eq!(input.label_backing(), None);
    }
}
