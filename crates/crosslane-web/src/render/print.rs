//! A drawing made to be read away from the page (the PNG export): a title line
//! naming the operation and its parameters on top, and none of the page's hover hints (a file
//! cannot be hovered; the lane table, the CSV and the JSON carry every reason).

use std::collections::BTreeMap;

use crosslane_core::Step;

use crate::render::scene::{Anchor, Item, Scene};

/// Height in CSS pixels of the title band added above the drawing.
pub const TITLE_HEIGHT: f64 = 26.0;
/// Font size of the title in CSS pixels.
const TITLE_SIZE: f64 = 14.0;
/// Left margin of the title in CSS pixels.
const TITLE_X: f64 = 8.0;
/// The title's colour: the scene's ink (render/style.rs).
const TITLE_INK: &str = "#0f172a";

/// The title of a step: dialect, op, the parameters as typed (`params`, name order), lane
/// count, active mask and value type — `ascend asc_shfl_xor · lane_mask=1 width=16 · 32 lanes ·
/// active 0xffffffff · i32`. Empty parameters (defaults left blank) are left out.
pub fn title(step: &Step, params: &BTreeMap<String, String>) -> String {
    let typed: Vec<String> = params
        .iter()
        .filter(|(_, v)| !v.trim().is_empty())
        .map(|(k, v)| format!("{k}={}", v.trim()))
        .collect();
    let mut parts = vec![format!("{} {}", step.dialect.name(), step.op)];
    if !typed.is_empty() {
        parts.push(typed.join(" "));
    }
    parts.push(format!("{} lanes", step.lanes));
    parts.push(format!("active {}", step.active.to_hex(step.lanes)));
    parts.push(step.ty.to_string());
    parts.join(" · ")
}

/// `text` without a parenthesised hover hint (`UNDEFINED (hover: why)` → `UNDEFINED`).
fn without_hover_hint(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('(') {
        let Some(close) = rest[open..].find(')').map(|c| open + c) else {
            break;
        };
        if rest[open..close].contains("hover") {
            out.push_str(rest[..open].trim_end());
        } else {
            out.push_str(&rest[..=close]);
        }
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out
}

/// `scene` with the hover hints removed from its free text (the legend's `UNDEFINED (hover:
/// why)` → `UNDEFINED`): for the SVG export, a file no one hovers. The boxes'
/// `<title>` texts stay, for they hold each lane's value and reason.
pub fn without_hover_hints(scene: &Scene) -> Scene {
    let items = scene
        .items
        .iter()
        .map(|item| match item {
            Item::Text {
                x,
                y,
                text,
                size,
                color,
                anchor,
                bold,
            } => Item::Text {
                x: *x,
                y: *y,
                text: without_hover_hint(text),
                size: *size,
                color,
                anchor: *anchor,
                bold: *bold,
            },
            other => other.clone(),
        })
        .collect();
    Scene {
        width: scene.width,
        height: scene.height,
        items,
    }
}

/// `scene` moved down under a title band with `title`, its hover hints removed.
pub fn for_print(scene: &Scene, title: &str) -> Scene {
    let dy = TITLE_HEIGHT;
    let mut items = Vec::with_capacity(scene.items.len() + 1);
    items.push(Item::Text {
        x: TITLE_X,
        y: TITLE_SIZE + 6.0,
        text: title.to_string(),
        size: TITLE_SIZE,
        color: TITLE_INK,
        anchor: Anchor::Start,
        bold: true,
    });
    for item in &scene.items {
        items.push(match item.clone() {
            Item::Box(mut b) => {
                b.rect.y += dy;
                b.tip = None;
                Item::Box(b)
            }
            Item::Arrow(mut a) => {
                a.y1 += dy;
                a.y2 += dy;
                Item::Arrow(a)
            }
            Item::Line {
                x1,
                y1,
                x2,
                y2,
                color,
                width,
            } => Item::Line {
                x1,
                y1: y1 + dy,
                x2,
                y2: y2 + dy,
                color,
                width,
            },
            Item::Text {
                x,
                y,
                text,
                size,
                color,
                anchor,
                bold,
            } => Item::Text {
                x,
                y: y + dy,
                text: without_hover_hint(&text),
                size,
                color,
                anchor,
                bold,
            },
        });
    }
    Scene {
        width: scene.width,
        height: scene.height + dy,
        items,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::scene;
    use crosslane_core::OpRequest;

    fn xor_with_undefined() -> (Step, BTreeMap<String, String>) {
        // Seed 000 §asc_shfl_xor: width 31 is not a power of two, so every lane is undefined.
        let params = BTreeMap::from([
            ("lane_mask".to_string(), "1".to_string()),
            ("width".to_string(), "31".to_string()),
        ]);
        let req = OpRequest {
            dialect: "ascend".into(),
            op: "asc_shfl_xor".into(),
            params: params.clone(),
            ..OpRequest::default()
        };
        (req.run().expect("runs"), params)
    }

    #[test]
    fn the_title_names_the_op_its_parameters_and_the_geometry() {
        let (step, params) = xor_with_undefined();
        assert_eq!(
            title(&step, &params),
            "ascend asc_shfl_xor · lane_mask=1 width=31 · 32 lanes · active 0xffffffff · i32"
        );
    }

    #[test]
    fn the_printed_drawing_has_the_title_on_top_and_no_hover_hint() {
        let (step, params) = xor_with_undefined();
        let drawn = scene::build(&step, 900.0);
        let texts = |s: &Scene| -> Vec<String> {
            s.items
                .iter()
                .filter_map(|i| match i {
                    Item::Text { text, .. } => Some(text.clone()),
                    Item::Box(b) => b.label.clone(),
                    _ => None,
                })
                .collect()
        };
        assert!(
            texts(&drawn).iter().any(|t| t.contains("hover")),
            "the page's legend has the hint"
        );
        let printed = for_print(&drawn, &title(&step, &params));
        assert_eq!(printed.height, drawn.height + TITLE_HEIGHT);
        let t = texts(&printed);
        assert!(t[0].starts_with("ascend asc_shfl_xor · lane_mask=1 width=31"));
        assert!(t.iter().all(|t| !t.contains("hover")), "{t:?}");
        assert!(t.iter().any(|t| t == "UNDEFINED"), "{t:?}");
        let tips = printed
            .items
            .iter()
            .filter(|i| matches!(i, Item::Box(b) if b.tip.is_some()));
        assert_eq!(tips.count(), 0);
    }

    #[test]
    fn only_hover_hints_are_removed() {
        assert_eq!(without_hover_hint("UNDEFINED (hover: why)"), "UNDEFINED");
        assert_eq!(without_hover_hint("old (fill) value"), "old (fill) value");
        assert_eq!(without_hover_hint("a (b"), "a (b");
    }
}
