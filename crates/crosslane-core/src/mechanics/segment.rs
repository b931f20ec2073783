//! Width segments: the grouping of a warp into `width`-lane segments that CUDA, HIP, Ascend C use
//! for their shuffles (`width` parameter). Shared by every dialect that has a width.

use crate::lanes::is_power_of_two;
use crate::result::Diagnostic;

/// First lane of lane `lane`'s segment for a power-of-two `width`.
pub fn segment_start(lane: usize, width: usize) -> usize {
    lane & !(width.max(1) - 1)
}

/// Last lane of lane `lane`'s segment for a power-of-two `width`.
pub fn segment_end(lane: usize, width: usize) -> usize {
    segment_start(lane, width) + width.max(1) - 1
}

/// Checks a segment width against "a power of two in 1..=max". Returns the warning to attach when
/// the width is encodable but undefined by the vendor (`family` names the ops, `rule` the source).
pub fn width_warning(width: i64, max: i64, family: &str, rule: &str) -> Option<Diagnostic> {
    if !is_power_of_two(width) {
        Some(Diagnostic::warning(
            format!("width {width} is not a power of two: {family} results are undefined"),
            rule,
        ))
    } else if width > max {
        Some(Diagnostic::warning(
            format!(
                "width {width} is larger than the {max}-lane warp: {family} results are undefined"
            ),
            rule,
        ))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments() {
        assert_eq!(segment_start(21, 16), 16);
        assert_eq!(segment_end(21, 16), 31);
        assert_eq!(segment_end(5, 32), 31);
        assert!(width_warning(31, 32, "asc_shfl_*", "r").is_some());
        assert!(width_warning(64, 32, "asc_shfl_*", "r").is_some());
        assert!(width_warning(16, 32, "asc_shfl_*", "r").is_none());
    }
}
