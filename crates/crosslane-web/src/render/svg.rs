//! The SVG back end: the same display list as the canvas, written as SVG text (for export and for
//! native tests of what the page draws). Every lane box carries a `<title>` with its hover text,
//! so the SVG holds every lane value and every undefined lane's reason even where a box is too
//! narrow for its label.
//!
//! Two colourings: [`to_svg`] writes the scene's own (light) colours as attributes, for files
//! (exports, the JavaScript library, embed fallbacks: a file has no page theme); [`to_svg_themed`]
//! writes each colour as the page theme's custom property with the scene's colour as fallback
//! (the same `--draw-*` properties the canvas reads, [`crate::render::theme`]), for drawings shown
//! inside the page (the reference view's examples), so they follow `?theme=` and
//! `prefers-color-scheme`.

use std::fmt::Write;

use crate::labels::escape as esc;

use crate::render::scene::{
    pattern_marks, pattern_spacing, Anchor, Arrow, BoxItem, Item, Mark, Scene,
};
use crate::render::theme::{properties, Role};

/// How colours are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Colours {
    /// The scene's colours, as presentation attributes (`fill="#ffffff"`).
    Fixed,
    /// The theme's custom properties, falling back to the scene's colours, in a `style`
    /// attribute (`style="fill:var(--draw-fill-ffffff,var(--draw-ffffff,#ffffff))"`):
    /// presentation attributes do not take `var()`.
    Themed,
}

impl Colours {
    /// The attributes that paint `parts` (SVG property, role, scene colour).
    fn paint(self, parts: &[(&str, Role, &str)]) -> String {
        match self {
            Colours::Fixed => parts
                .iter()
                .map(|(prop, _, colour)| format!(r#" {prop}="{colour}""#))
                .collect(),
            Colours::Themed => {
                let decls: Vec<String> = parts
                    .iter()
                    .map(|(prop, role, colour)| format!("{prop}:{}", themed(*role, colour)))
                    .collect();
                format!(r#" style="{}""#, decls.join(";"))
            }
        }
    }
}

/// `colour` as a chain of the theme's custom properties for `role`, most specific first, ending
/// in `colour` itself (a named colour stays as it is).
fn themed(role: Role, colour: &str) -> String {
    properties(role, colour)
        .iter()
        .rev()
        .fold(colour.to_string(), |inner, p| format!("var({p},{inner})"))
}

/// Two decimals are below a device pixel at any zoom the page offers; they keep the text short.
fn n(v: f64) -> String {
    let r = (v * 100.0).round() / 100.0;
    if r == r.trunc() {
        format!("{}", r as i64)
    } else {
        format!("{r}")
    }
}

/// The scene as a standalone SVG document (width and height in CSS pixels), in the scene's own
/// colours (for files: see the module doc).
pub fn to_svg(scene: &Scene) -> String {
    write_svg(scene, Colours::Fixed)
}

/// The scene as an SVG element for the page: every colour is the page theme's (`--draw-*`
/// custom properties, [`crate::render::theme`]), the scene's own where the theme sets none, and
/// the background is `--draw-bg`. A box's label is themed with the box (every fill an op scene
/// uses has a dark replacement in `web/style.css`).
pub fn to_svg_themed(scene: &Scene) -> String {
    write_svg(scene, Colours::Themed)
}

fn write_svg(scene: &Scene, colours: Colours) -> String {
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="system-ui, sans-serif">"#,
        w = n(scene.width),
        h = n(scene.height)
    );
    let background = match colours {
        Colours::Fixed => r##" fill="#ffffff""##.to_string(),
        Colours::Themed => r#" style="fill:var(--draw-bg,#ffffff)""#.to_string(),
    };
    let _ = write!(
        s,
        r#"<rect width="{}" height="{}"{background}/>"#,
        n(scene.width),
        n(scene.height)
    );
    for item in &scene.items {
        match item {
            Item::Box(b) => write_box(&mut s, b, colours),
            Item::Arrow(a) => write_arrow(&mut s, a, colours),
            Item::Line {
                x1,
                y1,
                x2,
                y2,
                color,
                width,
            } => {
                let _ = write!(
                    s,
                    r#"<line x1="{}" y1="{}" x2="{}" y2="{}"{} stroke-width="{}"/>"#,
                    n(*x1),
                    n(*y1),
                    n(*x2),
                    n(*y2),
                    colours.paint(&[("stroke", Role::Line, color)]),
                    n(*width)
                );
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
                let _ = write!(
                    s,
                    r#"<text x="{}" y="{}" font-size="{}"{} text-anchor="{}"{}>{}</text>"#,
                    n(*x),
                    n(*y),
                    n(*size),
                    colours.paint(&[("fill", Role::Text, color)]),
                    anchor_name(*anchor),
                    if *bold { r#" font-weight="bold""# } else { "" },
                    esc(text)
                );
            }
        }
    }
    s.push_str("</svg>");
    s
}

fn anchor_name(a: Anchor) -> &'static str {
    match a {
        Anchor::Start => "start",
        Anchor::Middle => "middle",
        Anchor::End => "end",
    }
}

fn write_box(s: &mut String, b: &BoxItem, colours: Colours) {
    let r = b.rect;
    let class = match (&b.lane, b.source) {
        (Some(_), Some(src)) => format!(r#" class="lane {}""#, src.name()),
        (Some(_), None) => r#" class="lane input""#.to_string(),
        _ => String::new(),
    };
    let _ = write!(s, "<g{class}>");
    if let Some(tip) = &b.tip {
        let _ = write!(s, "<title>{}</title>", esc(tip));
    }
    let _ = write!(
        s,
        r#"<rect x="{}" y="{}" width="{}" height="{}"{}/>"#,
        n(r.x),
        n(r.y),
        n(r.w),
        n(r.h),
        colours.paint(&[("fill", Role::Fill, b.paint.fill)])
    );
    let marks = pattern_marks(r, b.paint.pattern, pattern_spacing(r.w));
    if !marks.is_empty() {
        let _ = write!(
            s,
            r#"<g{} stroke-width="0.8" opacity="0.55">"#,
            colours.paint(&[
                ("stroke", Role::Stroke, b.paint.stroke),
                ("fill", Role::Stroke, b.paint.stroke)
            ])
        );
        for m in marks {
            let _ = match m {
                Mark::Line(x1, y1, x2, y2) => write!(
                    s,
                    r#"<line x1="{}" y1="{}" x2="{}" y2="{}"/>"#,
                    n(x1),
                    n(y1),
                    n(x2),
                    n(y2)
                ),
                Mark::Dot(x, y, rad) => {
                    write!(s, r#"<circle cx="{}" cy="{}" r="{}"/>"#, n(x), n(y), n(rad))
                }
            };
        }
        s.push_str("</g>");
    }
    let _ = write!(
        s,
        r#"<rect x="{}" y="{}" width="{}" height="{}" fill="none"{} stroke-width="1"{}/>"#,
        n(r.x),
        n(r.y),
        n(r.w),
        n(r.h),
        colours.paint(&[("stroke", Role::Stroke, b.paint.stroke)]),
        if b.paint.dashed {
            r#" stroke-dasharray="3 2""#
        } else {
            ""
        }
    );
    if let Some(back) = b.label_backing() {
        let _ = write!(
            s,
            r#"<rect x="{}" y="{}" width="{}" height="{}"{}/>"#,
            n(back.x),
            n(back.y),
            n(back.w),
            n(back.h),
            colours.paint(&[("fill", Role::Fill, b.paint.fill)])
        );
    }
    if let Some(label) = &b.label {
        let (x, y) = (n(r.cx()), n(r.y + r.h / 2.0));
        let _ = write!(
            s,
            r#"<text x="{x}" y="{y}" font-size="{}"{} text-anchor="middle" dominant-baseline="central" font-weight="600"{}>{}</text>"#,
            n(b.font),
            colours.paint(&[("fill", Role::Ink, b.paint.ink)]),
            // Rotated labels turn about their own centre (as the canvas draws them).
            if b.rotated() {
                format!(r#" transform="rotate(-90 {x} {y})""#)
            } else {
                String::new()
            },
            esc(label),
        );
    }
    s.push_str("</g>");
}

fn write_arrow(s: &mut String, a: &Arrow, colours: Colours) {
    let (base, head) = a.geometry();
    let _ = write!(
        s,
        r#"<g class="arrow"><line x1="{}" y1="{}" x2="{}" y2="{}"{} stroke-width="{}"{}/><polygon points="{}"{}/></g>"#,
        n(a.x1),
        n(a.y1),
        n(base.0),
        n(base.1),
        colours.paint(&[("stroke", Role::Arrow, a.color)]),
        n(a.width),
        if a.dashed {
            r#" stroke-dasharray="4 3""#
        } else {
            ""
        },
        head.iter()
            .map(|(x, y)| format!("{},{}", n(*x), n(*y)))
            .collect::<Vec<_>>()
            .join(" "),
        colours.paint(&[("fill", Role::Arrow, a.color)])
    );
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::render::scene::build;
    use crosslane_core::OpRequest;

    #[test]
    fn a_64_lane_scan_keeps_each_sum_as_text() {
        // WGSL subgroupInclusiveAdd over values 0..63: lane 63 holds 63 * 64 / 2 = 2016, too
        // wide across an 11-pixel lane at 900 px, so its <text> is the plain decimal, rotated.
        let step = OpRequest {
            dialect: "wgsl".into(),
            op: "subgroupInclusiveAdd".into(),
            lanes: "64".into(),
            ty: "u32".into(),
            values: "lane".into(),
            ..OpRequest::default()
        }
        .run()
        .unwrap();
        let svg = to_svg(&build(&step, 900.0));
        assert!(svg.contains(">2016</text>"), "no 2016");
        assert!(svg.contains(r#"transform="rotate(-90 "#));
    }

    /// Ascend `asc_shfl_xor` with lane_mask 1 at `width` (31: undefined in every lane).
    pub(crate) fn xor(width: &str) -> crosslane_core::Step {
        OpRequest {
            dialect: "ascend".into(),
            op: "asc_shfl_xor".into(),
            params: [("lane_mask", "1"), ("width", width)]
                .into_iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            ..OpRequest::default()
        }
        .run()
        .unwrap()
    }

    #[test]
    fn the_svg_holds_every_lane_value() {
        let step = xor("16");
        let svg = to_svg(&build(&step, 960.0));
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(svg.ends_with("</svg>"));
        // Seed 000's example: lane i reads lane i ^ 1.
        for lane in 0..32 {
            let read = lane ^ 1;
            let title = format!("<title>lane {lane} ← lane {read}: {read}</title>");
            assert!(svg.contains(&title), "missing {title}");
        }
        assert_eq!(svg.matches(r#"<g class="lane lane">"#).count(), 32);
        assert_eq!(svg.matches(r#"<g class="lane input">"#).count(), 32);
        assert_eq!(svg.matches(r#"<g class="arrow">"#).count(), 33);
    }

    #[test]
    fn undefined_lanes_carry_their_reason_and_hatching() {
        let svg = to_svg(&build(&xor("31"), 960.0));
        assert_eq!(svg.matches(r#"<g class="lane undefined">"#).count(), 32);
        assert_eq!(
            svg.matches("width 31 is not a power of two: asc_shfl_* results are undefined")
                .count(),
            32
        );
        // The hatch marks are drawn in the undefined stroke colour.
        assert!(svg.contains(r##"<g stroke="#b91c1c" fill="#b91c1c""##));
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(esc(r#"a<b & "c""#), "a&lt;b &amp; &quot;c&quot;");
    }

    #[test]
    fn the_themed_svg_paints_every_colour_from_the_theme() {
        let scene = build(&xor("31"), 960.0);
        let themed = to_svg_themed(&scene);
        // No colour is written as a bare attribute: each one is the theme's property with the
        // scene's colour as the fallback.
        for attr in [r##" fill="#"##, r##" stroke="#"##] {
            assert!(!themed.contains(attr), "{attr} in the themed SVG");
        }
        assert!(themed.contains(r#"<rect width="960" height=""#));
        assert!(themed.contains(r##"style="fill:var(--draw-bg,#ffffff)""##));
        // The undefined lanes' fill and hatching (render/style.rs: #fee2e2 / #b91c1c).
        assert!(themed.contains("fill:var(--draw-fill-fee2e2,var(--draw-fee2e2,#fee2e2))"));
        assert!(themed.contains("stroke:var(--draw-stroke-b91c1c,var(--draw-b91c1c,#b91c1c))"));
        // The file keeps the light palette as plain attributes.
        assert!(to_svg(&scene).contains(r##"<rect width="960" height="##));
        assert!(to_svg(&scene).contains(r##"fill="#ffffff"/>"##));
    }
}
