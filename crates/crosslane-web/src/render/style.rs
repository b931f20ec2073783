//! How each provenance looks: colour AND pattern (so the kinds stay apart in grey-scale print and
//! for colour-blind readers) and the legend words. One table, read by the scene builder only.

use crosslane_core::Source;

/// A fill pattern drawn over a lane box's fill colour. The marks are generated once, as plain
/// geometry, by [`crate::render::scene::pattern_marks`], so every back end draws the same pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pattern {
    /// Plain fill.
    Solid,
    /// Vertical stripes.
    VStripes,
    /// Horizontal stripes.
    HStripes,
    /// A grid of dots.
    Dots,
    /// Horizontal and vertical lines.
    Grid,
    /// Diagonal hatching `/` (undefined lanes).
    Hatch,
    /// Diagonal hatching `\` (inactive lanes).
    BackHatch,
}

/// Paint of one lane box.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Paint {
    /// Fill colour (CSS colour).
    pub fill: &'static str,
    /// Outline colour; also the colour of the box's arrow and pattern marks.
    pub stroke: &'static str,
    /// Text colour inside the box.
    pub ink: &'static str,
    /// Pattern over the fill.
    pub pattern: Pattern,
    /// Dashed outline (inactive lanes).
    pub dashed: bool,
}

/// The paint of an active input lane.
pub const INPUT: Paint = Paint {
    fill: "#ffffff",
    stroke: "#475569",
    ink: "#0f172a",
    pattern: Pattern::Solid,
    dashed: false,
};

/// The paint of a result lane of provenance `source`.
pub fn paint(source: Source) -> Paint {
    match source {
        Source::Lane => Paint {
            fill: "#dbeafe",
            stroke: "#1d4ed8",
            ink: "#0f172a",
            pattern: Pattern::Solid,
            dashed: false,
        },
        Source::Own => Paint {
            fill: "#dcfce7",
            stroke: "#15803d",
            ink: "#0f172a",
            pattern: Pattern::VStripes,
            dashed: false,
        },
        Source::Zero => Paint {
            fill: "#e2e8f0",
            stroke: "#334155",
            ink: "#0f172a",
            pattern: Pattern::HStripes,
            dashed: false,
        },
        Source::Old => Paint {
            fill: "#fef3c7",
            stroke: "#b45309",
            ink: "#0f172a",
            pattern: Pattern::Dots,
            dashed: false,
        },
        Source::Computed => Paint {
            fill: "#ede9fe",
            stroke: "#6d28d9",
            ink: "#0f172a",
            pattern: Pattern::Grid,
            dashed: false,
        },
        Source::Undefined => Paint {
            fill: "#fee2e2",
            stroke: "#b91c1c",
            ink: "#7f1d1d",
            pattern: Pattern::Hatch,
            dashed: false,
        },
        Source::Inactive => Paint {
            fill: "#f8fafc",
            stroke: "#94a3b8",
            ink: "#64748b",
            pattern: Pattern::BackHatch,
            dashed: true,
        },
    }
}

/// The legend's words for each provenance, in legend order.
pub const LEGEND: [(Source, &str); 7] = [
    (Source::Lane, "reads another lane"),
    (Source::Own, "keeps its own value"),
    (Source::Zero, "zero"),
    (Source::Old, "old / fill value"),
    (Source::Computed, "computed"),
    (Source::Undefined, "UNDEFINED (hover: why)"),
    (Source::Inactive, "inactive lane"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_provenance_differs_in_colour_and_pattern() {
        for (i, (a, _)) in LEGEND.iter().enumerate() {
            for (b, _) in &LEGEND[i + 1..] {
                assert_ne!(paint(*a).fill, paint(*b).fill, "{a:?} vs {b:?}");
                assert_ne!(paint(*a).pattern, paint(*b).pattern, "{a:?} vs {b:?}");
            }
        }
    }
}
