//! The canvas back end: draws a [`Scene`] on a `<canvas>` with CanvasRenderingContext2d. The
//! backing store is sized by devicePixelRatio so lines and text stay sharp on high-density
//! screens; all coordinates stay in CSS pixels through the context transform. Colours go
//! through the page theme's [`Palette`] (read from the canvas's CSS custom properties).

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
/// task (issue 17 item 8). `None` measures.
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
    canvas.set_width((scene.width * dpr).ceil() as u32);
    canvas.set_height((scene.height * dpr).ceil() as u32);
    canvas
        .style()
        .set_property("height", &format!("{}px", scene.height))?;
    let ctx = canvas
        .get_context("2d")?
        .ok_or_else(|| JsValue::from_str("no 2d canvas context"))?
        .dyn_into::<CanvasRenderingContext2d>()?;
    ctx.set_transform(dpr, 0.0, 0.0, dpr, 0.0, 0.0)?;
    let pal = Palette::of(canvas);
    ctx.set_fill_style_str(&pal.background());
    ctx.fill_rect(0.0, 0.0, scene.width, scene.height);
    for item in &scene.items {
        match item {
            Item::Box(b) => draw_box(&ctx, b, &pal)?,
            Item::Arrow(a) => draw_arrow(&ctx, a, &pal)?,
            Item::Line {
                x1,
                y1,
                x2,
                y2,
                color,
                width,
            } => {
                ctx.set_stroke_style_str(&pal.get(Role::Line, color));
                ctx.set_line_width(*width);
                ctx.begin_path();
                ctx.move_to(*x1, *y1);
                ctx.line_to(*x2, *y2);
                ctx.stroke();
            }
            Item::Text {
                x,
                y,
                text,
                size,
                color,
                anchor,
                bold,
            } => {
                ctx.set_font(&format!(
                    "{}{size}px {FONT}",
                    if *bold { "bold " } else { "" }
                ));
                ctx.set_fill_style_str(&pal.get(Role::Text, color));
                ctx.set_text_baseline("alphabetic");
                ctx.set_text_align(match anchor {
                    Anchor::Start => "left",
                    Anchor::Middle => "center",
                    Anchor::End => "right",
                });
                ctx.fill_text(text, *x, *y)?;
            }
        }
    }
    Ok(())
}

fn set_dash(ctx: &CanvasRenderingContext2d, dash: &[f64]) -> Js<()> {
    let arr = js_sys::Array::new();
    for d in dash {
        arr.push(&JsValue::from_f64(*d));
    }
    ctx.set_line_dash(&arr)
}

fn draw_box(ctx: &CanvasRenderingContext2d, b: &BoxItem, pal: &Palette) -> Js<()> {
    let r = b.rect;
    let stroke = pal.get(Role::Stroke, b.paint.stroke);
    ctx.set_fill_style_str(&pal.get(Role::Fill, b.paint.fill));
    ctx.fill_rect(r.x, r.y, r.w, r.h);
    let marks = pattern_marks(r, b.paint.pattern, pattern_spacing(r.w));
    if !marks.is_empty() {
        ctx.save();
        ctx.set_global_alpha(0.55);
        ctx.set_stroke_style_str(&stroke);
        ctx.set_fill_style_str(&stroke);
        ctx.set_line_width(0.8);
        ctx.begin_path();
        for m in &marks {
            if let Mark::Line(x1, y1, x2, y2) = *m {
                ctx.move_to(x1, y1);
                ctx.line_to(x2, y2);
            }
        }
        ctx.stroke();
        for m in &marks {
            if let Mark::Dot(x, y, rad) = *m {
                ctx.begin_path();
                ctx.arc(x, y, rad, 0.0, std::f64::consts::TAU)?;
                ctx.fill();
            }
        }
        ctx.restore();
    }
    ctx.set_stroke_style_str(&stroke);
    ctx.set_line_width(1.0);
    set_dash(ctx, if b.paint.dashed { &[3.0, 2.0] } else { &[] })?;
    ctx.stroke_rect(r.x + 0.5, r.y + 0.5, (r.w - 1.0).max(0.5), r.h - 1.0);
    set_dash(ctx, &[])?;
    if let Some(label) = &b.label {
        ctx.set_font(&format!("600 {}px {FONT}", b.font));
        ctx.set_fill_style_str(&pal.ink(b.paint.fill, b.paint.ink));
        ctx.set_text_align("center");
        ctx.set_text_baseline("middle");
        fill_label(ctx, b, label)?;
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
    ctx.set_stroke_style_str(&Palette::of(canvas).get(Role::Stroke, FED_BY));
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
fn fill_label(ctx: &CanvasRenderingContext2d, b: &BoxItem, label: &str) -> Js<()> {
    let (x, y) = (b.rect.cx(), b.rect.y + b.rect.h / 2.0);
    if !b.rotated() {
        return ctx.fill_text(label, x, y);
    }
    ctx.save();
    ctx.translate(x, y)?;
    ctx.rotate(-std::f64::consts::FRAC_PI_2)?;
    let drawn = ctx.fill_text(label, 0.0, 0.0);
    ctx.restore();
    drawn
}

fn draw_arrow(ctx: &CanvasRenderingContext2d, a: &Arrow, pal: &Palette) -> Js<()> {
    let (base, head) = a.geometry();
    let color = pal.get(Role::Arrow, a.color);
    ctx.set_stroke_style_str(&color);
    ctx.set_fill_style_str(&color);
    ctx.set_line_width(a.width);
    set_dash(ctx, if a.dashed { &[4.0, 3.0] } else { &[] })?;
    ctx.begin_path();
    ctx.move_to(a.x1, a.y1);
    ctx.line_to(base.0, base.1);
    ctx.stroke();
    set_dash(ctx, &[])?;
    ctx.begin_path();
    ctx.move_to(head[0].0, head[0].1);
    ctx.line_to(head[1].0, head[1].1);
    ctx.line_to(head[2].0, head[2].1);
    ctx.close_path();
    ctx.fill();
    Ok(())
}
