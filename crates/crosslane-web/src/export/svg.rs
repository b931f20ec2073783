//! SVG export: the scene through the SVG back end ([`crate::render::svg::to_svg`]), the same
//! display list the canvas draws, so the export is the drawing on screen.

use crate::render::scene::Scene;

/// File name of the SVG export.
pub const FILE: &str = "crosslane.svg";

/// The scene as a standalone SVG document, in the light palette (a file has no page theme) and
/// without hover hints (a file is not hovered; each box's `<title>` keeps its value and reason).
pub fn export(scene: &Scene) -> String {
    crate::render::svg::to_svg(&crate::render::print::without_hover_hints(scene))
}

#[cfg(test)]
mod tests {
    use super::export;
    use crate::render::scene::build;
    use crate::render::svg::tests::xor;
    use crate::render::svg::to_svg;
    use crosslane_core::OpRequest;

    #[test]
    fn the_svg_export_has_no_hover_hint() {
        let scene = build(&xor("31"), 960.0);
        assert!(to_svg(&scene).contains("UNDEFINED (hover: why)"));
        let exported = export(&scene);
        assert!(!exported.contains("hover"), "hover hint in the export");
        assert!(exported.contains(">UNDEFINED</text>"));
        // Each lane's reason stays in its <title>.
        assert_eq!(
            exported
                .matches("width 31 is not a power of two: asc_shfl_* results are undefined")
                .count(),
            32
        );
    }

    #[test]
    fn every_value_in_a_128_lane_export_is_at_least_the_minimum_font() {
        let step = OpRequest {
            dialect: "wgsl".into(),
            op: "subgroupInclusiveAdd".into(),
            lanes: "128".into(),
            ty: "u32".into(),
            values: "lane*123457".into(),
            ..OpRequest::default()
        }
        .run()
        .unwrap();
        let svg = export(&build(&step, 1440.0));
        let sizes: Vec<f64> = svg
            .split(r#"font-size=""#)
            .skip(1)
            .map(|rest| rest[..rest.find('"').unwrap()].parse().unwrap())
            .collect();
        assert!(sizes.len() > 256);
        for size in sizes {
            assert!(size >= crate::render::scene::MIN_FONT, "font-size {size}");
        }
    }
}
