//! The canvas back end: draws a [`Scene`] on a `<canvas>` with CanvasRenderingContext2d. The
//! backing store is sized by devicePixelRatio so lines and text stay sharp on high-density
//! screens; all coordinates stay in CSS pixels through the context transform. Colours go
//! through the page theme's [`Palette`] (read from the document's CSS custom properties).

use wasm_bindgen::{JsCast, JsValue};
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

use crate::dom::Js;
use crate::render::scene::{
    contributors, pattern_marks, pattern_spacing, Anchor, Arrow, BoxItem, Item, LaneRef, Mark, Row,
    Scene,
};
use crate::render::theme::{Palette, Role};

const FONT: &str = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";

/// Resizes `canvas` to the scene (CSS size × `dpr` backing pixels) and draws it.
pub fn draw(canvas: &HtmlCanvasElement, scene: &Scene, dpr: f64) -> Js<()> {
    draw_in(canvas, scene, dpr, None)
}

/// [`draw`] when the caller already knows the canvas's [`available_width`] (CSS pixels):
/// measuring it forces a layout in the middle of a render, which made a view's render one long
/// task (each task under 50 ms). `None` measures.
pub fn draw_in(
    canvas: &HtmlCanvasElement,
    scene: &Scene,
    dpr: f64,
    available: Option<f64>,
) -> Js<()> {
    let dpr = if dpr.is_finite() && dpr > 0.0 {
        dpr
    } else {
        1.0
    };
    fit_width(canvas, scene, available)?;
    // A fresh drawing has no lanes outlined (mark_contributors).
    canvas.remove_attribute("data-fed-by")?;
    let (w, h) = (
        (scene.width * dpr).ceil() as u32,
        (scene.height * dpr).ceil() as u32,
    );
    // Setting a canvas's size, even to the size it has, drops its backing store and the
    // browser allocates a new one at the next call: keep it when the size stays (a redraw).
    let resized = canvas.width() != w || canvas.height() != h;
    if resized {
        canvas.set_width(w);
        canvas.set_height(h);
        canvas
            .style()
            .set_property("height", &format!("{}px", scene.height))?;
    }
    let ctx = canvas
        .get_context("2d")?
        .ok_or_else(|| JsValue::from_str("no 2d canvas context"))?
        .dyn_into::<CanvasRenderingContext2d>()?;
    if !resized {
        // The state a resize would have reset and that the pen does not set itself.
        ctx.set_transform(1.0, 0.0, 0.0, 1.0, 0.0, 0.0)?;
        ctx.set_global_alpha(1.0);
        ctx.clear_rect(0.0, 0.0, f64::from(w), f64::from(h));
    }
    ctx.set_transform(dpr, 0.0, 0.0, dpr, 0.0, 0.0)?;
    let pal = Palette::current();
    let mut pen = Pen::new(&ctx);
    pen.fill_rect(&pal.background(), 0.0, 0.0, scene.width, scene.height);
    for item in &scene.items {
        match item {
            Item::Box(b) => draw_box(&mut pen, b, &pal)?,
            Item::Arrow(a) => draw_arrow(&mut pen, a, &pal)?,
            Item::Line {
                x1,
                y1,
                x2,
                y2,
                color,
                width,
            } => pen.line(&pal.get(Role::Line, color), *width, (*x1, *y1), (*x2, *y2))?,
            Item::Text {
                x,
                y,
                text,
                size,
                color,
                anchor,
                bold,
            } => {
                pen.font(&format!(
                    "{}{size}px {FONT}",
                    if *bold { "bold " } else { "" }
                ));
                pen.fill(&pal.get(Role::Text, color));
                pen.text_baseline("alphabetic");
                pen.text_align(match anchor {
                    Anchor::Start => "left",
                    Anchor::Middle => "center",
                    Anchor::End => "right",
                });
                pen.fill_text(text, *x, *y)?;
            }
        }
    }
    pen.finish();
    Ok(())
}

/// The 2D context with the state last set on it: a property is set only when it changes, and
/// consecutive lines of one colour and width are stroked as one path. Every property set is a
/// call out of wasm; a 256-key sort diagram is 8 190 boxes and 4 134 lines, and setting each
/// box's fill, stroke, width and (empty) dash made its drawing a 25–45 ms task (each task under 50 ms).
/// Drawing order is kept: anything but a line strokes the lines before it first.
struct Pen<'a> {
    ctx: &'a CanvasRenderingContext2d,
    fill: String,
    stroke: String,
    width: f64,
    dash: &'static [f64],
    font: String,
    align: &'static str,
    baseline: &'static str,
    alpha: f64,
    /// Lines begun and not yet stroked (in `stroke` at `width`, solid).
    lines: bool,
}

/// No dash: solid lines.
const SOLID: &[f64] = &[];

impl<'a> Pen<'a> {
    /// A pen on a context just reset (a canvas whose size was set): nothing is assumed about
    /// its state, so the first use of each property sets it.
    fn new(ctx: &'a CanvasRenderingContext2d) -> Self {
        Pen {
            ctx,
            fill: String::new(),
            stroke: String::new(),
            width: f64::NAN,
            dash: &[f64::NAN],
            font: String::new(),
            align: "",
            baseline: "",
            alpha: f64::NAN,
            lines: false,
        }
    }

    /// Strokes the lines begun.
    fn finish(&mut self) {
        if self.lines {
            self.ctx.stroke();
            self.lines = false;
        }
    }

    fn fill(&mut self, colour: &str) {
        if self.fill != colour {
            colour.clone_into(&mut self.fill);
            self.ctx.set_fill_style_str(colour);
        }
    }

    /// The stroke's colour, width and dash (the lines begun in another are stroked first).
    fn stroke(&mut self, colour: &str, width: f64, dash: &'static [f64]) -> Js<()> {
        if self.stroke != colour || self.width != width || self.dash != dash {
            self.finish();
        }
        if self.stroke != colour {
            colour.clone_into(&mut self.stroke);
            self.ctx.set_stroke_style_str(colour);
        }
        if self.width != width {
            self.width = width;
            self.ctx.set_line_width(width);
        }
        if self.dash != dash {
            self.dash = dash;
            let arr = js_sys::Array::new();
            for d in dash {
                arr.push(&JsValue::from_f64(*d));
            }
            self.ctx.set_line_dash(&arr)?;
        }
        Ok(())
    }

    fn alpha(&mut self, alpha: f64) {
        if self.alpha != alpha {
            self.finish();
            self.alpha = alpha;
            self.ctx.set_global_alpha(alpha);
        }
    }

    fn font(&mut self, font: &str) {
        if self.font != font {
            font.clone_into(&mut self.font);
            self.ctx.set_font(font);
        }
    }

    fn text_align(&mut self, align: &'static str) {
        if self.align != align {
            self.align = align;
            self.ctx.set_text_align(align);
        }
    }

    fn text_baseline(&mut self, baseline: &'static str) {
        if self.baseline != baseline {
            self.baseline = baseline;
            self.ctx.set_text_baseline(baseline);
        }
    }

    /// A solid line, stroked with the lines of the same colour and width next to it.
    fn line(&mut self, colour: &str, width: f64, from: (f64, f64), to: (f64, f64)) -> Js<()> {
        self.stroke(colour, width, SOLID)?;
        if !self.lines {
            self.ctx.begin_path();
            self.lines = true;
        }
        self.ctx.move_to(from.0, from.1);
        self.ctx.line_to(to.0, to.1);
        Ok(())
    }

    fn fill_rect(&mut self, colour: &str, x: f64, y: f64, w: f64, h: f64) {
        self.finish();
        self.fill(colour);
        self.ctx.fill_rect(x, y, w, h);
    }

    fn stroke_rect(&mut self, x: f64, y: f64, w: f64, h: f64) {
        self.finish();
        self.ctx.stroke_rect(x, y, w, h);
    }

    fn fill_text(&mut self, text: &str, x: f64, y: f64) -> Js<()> {
        self.finish();
        self.ctx.fill_text(text, x, y)
    }
}

fn draw_box(pen: &mut Pen, b: &BoxItem, pal: &Palette) -> Js<()> {
    let r = b.rect;
    let stroke = pal.get(Role::Stroke, b.paint.stroke);
    let fill = pal.get(Role::Fill, b.paint.fill);
    pen.fill_rect(&fill, r.x, r.y, r.w, r.h);
    let marks = pattern_marks(r, b.paint.pattern, pattern_spacing(r.w));
    if !marks.is_empty() {
        pen.alpha(0.55);
        pen.fill(&stroke);
        for m in &marks {
            if let Mark::Line(x1, y1, x2, y2) = *m {
                pen.line(&stroke, 0.8, (x1, y1), (x2, y2))?;
            }
        }
        pen.finish();
        for m in &marks {
            if let Mark::Dot(x, y, rad) = *m {
                pen.ctx.begin_path();
                pen.ctx.arc(x, y, rad, 0.0, std::f64::consts::TAU)?;
                pen.ctx.fill();
            }
        }
        pen.alpha(1.0);
    }
    // An outline in the fill's own colour lies inside a box at least 1.5 px a side, over pixels
    // of that colour (only its anti-aliased edge could differ): it is left out. A 256-key sort
    // diagram has 7 680 such boxes, the comparators' ends: 7 680 calls fewer in its drawing
    // task (each task under 50 ms).
    if *stroke != *fill || r.w < 1.5 || r.h < 1.5 {
        pen.stroke(
            &stroke,
            1.0,
            if b.paint.dashed { &[3.0, 2.0] } else { SOLID },
        )?;
        pen.stroke_rect(r.x + 0.5, r.y + 0.5, (r.w - 1.0).max(0.5), r.h - 1.0);
    }
    if let Some(back) = b.label_backing() {
        pen.fill_rect(&fill, back.x, back.y, back.w, back.h);
    }
    if let Some(label) = &b.label {
        pen.font(&format!("600 {}px {FONT}", b.font));
        pen.fill(&pal.ink(b.paint.fill, b.paint.ink));
        pen.text_align("center");
        pen.text_baseline("middle");
        fill_label(pen, b, label)?;
    }
    Ok(())
}

/// The width a drawing in `canvas` may use: its parent's content width (the canvas itself may
/// be wider, see [`fit_width`]), else the canvas's own; 0 when it is not laid out.
pub fn available_width(canvas: &HtmlCanvasElement) -> f64 {
    match canvas.parent_element() {
        Some(p) if p.client_width() > 0 => {
            let style = web_sys::window().and_then(|w| w.get_computed_style(&p).ok().flatten());
            let pad = |side: &str| {
                style
                    .as_ref()
                    .and_then(|s| s.get_property_value(side).ok())
                    .and_then(|v| v.trim_end_matches("px").parse::<f64>().ok())
                    .unwrap_or(0.0)
            };
            f64::from(p.client_width()) - pad("padding-left") - pad("padding-right")
        }
        _ => canvas.get_bounding_client_rect().width(),
    }
}

/// A scene wider than the canvas's box (lanes at [`crate::render::scene::MIN_PITCH`]) keeps its
/// width: the canvas gets it as its CSS width and its parent scrolls sideways, so the page
/// itself never does. Otherwise the stylesheet's width applies.
fn fit_width(canvas: &HtmlCanvasElement, scene: &Scene, available: Option<f64>) -> Js<()> {
    let style = canvas.style();
    style.remove_property("width")?;
    let available = available.unwrap_or_else(|| available_width(canvas));
    if scene.width > available + 0.5 {
        style.set_property("width", &format!("{}px", scene.width))?;
        style.set_property("max-width", "none")?;
        if let Some(parent) = canvas.parent_element() {
            if let Ok(parent) = parent.dyn_into::<web_sys::HtmlElement>() {
                parent.style().set_property("overflow-x", "auto")?;
            }
        }
    }
    Ok(())
}

/// Outlines the input lanes that fed the hovered computed result (a ballot, vote, reduction,
/// scan: [`crate::render::scene::contributors`]) on top of the drawing, or takes the outline
/// away (`hovered` `None`, or a lane that is not computed). Redraws only when the outlined set
/// changes (kept in the canvas's `data-fed-by`).
pub fn mark_contributors(
    canvas: &HtmlCanvasElement,
    scene: &Scene,
    step: &crosslane_core::Step,
    hovered: Option<LaneRef>,
    dpr: f64,
) -> Js<()> {
    let fed = hovered
        .filter(|l| l.row == Row::Result)
        .and_then(|l| contributors(step, l.lane));
    let key = fed.map(|m| format!("{:x}", m.0)).unwrap_or_default();
    if canvas.get_attribute("data-fed-by").unwrap_or_default() == key {
        return Ok(());
    }
    draw(canvas, scene, dpr)?;
    canvas.set_attribute("data-fed-by", &key)?;
    let Some(fed) = fed else { return Ok(()) };
    let ctx = canvas
        .get_context("2d")?
        .ok_or_else(|| JsValue::from_str("no 2d canvas context"))?
        .dyn_into::<CanvasRenderingContext2d>()?;
    ctx.set_stroke_style_str(&Palette::current().get(Role::Stroke, FED_BY));
    ctx.set_line_width(2.0);
    for lane in fed.iter() {
        if let Some(b) = scene.lane_box(Row::Input, lane) {
            let r = b.rect;
            ctx.stroke_rect(r.x - 1.0, r.y - 1.0, r.w + 2.0, r.h + 2.0);
        }
    }
    Ok(())
}

/// The outline of the lanes that fed a hovered result (the computed provenance's violet).
const FED_BY: &str = "#7c3aed";

/// A box's label, centred, rotated a quarter turn (reading upwards) where the scene says so.
fn fill_label(pen: &mut Pen, b: &BoxItem, label: &str) -> Js<()> {
    let (x, y) = (b.rect.cx(), b.rect.y + b.rect.h / 2.0);
    if !b.rotated() {
        return pen.fill_text(label, x, y);
    }
    // restore() brings back the state at save(), which is what the pen holds.
    pen.finish();
    pen.ctx.save();
    pen.ctx.translate(x, y)?;
    pen.ctx.rotate(-std::f64::consts::FRAC_PI_2)?;
    let drawn = pen.ctx.fill_text(label, 0.0, 0.0);
    pen.ctx.restore();
    drawn
}

fn draw_arrow(pen: &mut Pen, a: &Arrow, pal: &Palette) -> Js<()> {
    let (base, head) = a.geometry();
    let color = pal.get(Role::Arrow, a.color);
    pen.stroke(&color, a.width, if a.dashed { &[4.0, 3.0] } else { SOLID })?;
    pen.fill(&color);
    pen.finish();
    pen.ctx.begin_path();
    pen.ctx.move_to(a.x1, a.y1);
    pen.ctx.line_to(base.0, base.1);
    pen.ctx.stroke();
    pen.ctx.begin_path();
    pen.ctx.move_to(head[0].0, head[0].1);
    pen.ctx.line_to(head[1].0, head[1].1);
    pen.ctx.line_to(head[2].0, head[2].1);
    pen.ctx.close_path();
    pen.ctx.fill();
    Ok(())
}
