//! Warp geometry: lane counts and lane masks (the active / exec mask).
//!
//! A mask holds up to [`MAX_LANES`] lanes, bit `i` = lane `i`. Vendor warps have 32 or 64 lanes;
//! WGSL subgroups have a power of two in 4..=128 (WGSL spec, "Subgroup built-in functions").

use serde::{Deserialize, Serialize};

use crate::error::InputError;

/// The widest warp / subgroup any dialect has: WGSL allows subgroups of up to 128 invocations.
pub const MAX_LANES: usize = 128;

/// A set of lanes, bit `i` = lane `i` (lanes 0..128).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct LaneMask(pub u128);

impl LaneMask {
    /// Every lane of a warp of `lanes` lanes (`lanes` ≤ 128).
    pub fn all(lanes: usize) -> Self {
        if lanes >= MAX_LANES {
            LaneMask(u128::MAX)
        } else {
            LaneMask((1u128 << lanes) - 1)
        }
    }

    /// No lane.
    pub const fn none() -> Self {
        LaneMask(0)
    }

    /// Whether lane `lane` is in the set (false for lanes ≥ 128).
    pub fn contains(self, lane: usize) -> bool {
        lane < MAX_LANES && (self.0 >> lane) & 1 == 1
    }

    /// The set with `lane` added (lanes ≥ 128 are ignored).
    #[must_use]
    pub fn with(self, lane: usize) -> Self {
        if lane < MAX_LANES {
            LaneMask(self.0 | (1u128 << lane))
        } else {
            self
        }
    }

    /// The set with `lane` removed.
    #[must_use]
    pub fn without(self, lane: usize) -> Self {
        if lane < MAX_LANES {
            LaneMask(self.0 & !(1u128 << lane))
        } else {
            self
        }
    }

    /// The set restricted to the first `lanes` lanes.
    #[must_use]
    pub fn truncate(self, lanes: usize) -> Self {
        LaneMask(self.0 & LaneMask::all(lanes).0)
    }

    /// Number of lanes in the set.
    pub fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Lowest lane in the set, if any (`v_readfirstlane`, `subgroupBroadcastFirst`).
    pub fn first(self) -> Option<usize> {
        if self.0 == 0 {
            None
        } else {
            Some(self.0.trailing_zeros() as usize)
        }
    }

    /// Iterates the lanes of the set in increasing order.
    pub fn iter(self) -> impl Iterator<Item = usize> {
        (0..MAX_LANES).filter(move |&i| self.contains(i))
    }

    /// Hex text with one digit per 4 lanes of a `lanes`-lane warp, e.g. `0x0000ffff` for 32 lanes.
    pub fn to_hex(self, lanes: usize) -> String {
        let digits = lanes.div_ceil(4).max(1);
        format!("0x{:0width$x}", self.truncate(lanes).0, width = digits)
    }

    /// Parses a mask typed by a user: `0x…` hex, decimal, or `all`.
    ///
    /// # Errors
    /// [`InputError`] naming `field` when the text does not parse or sets a bit at or above `lanes`.
    pub fn parse(text: &str, lanes: usize, field: &str) -> Result<Self, InputError> {
        let t = text.trim();
        if t.is_empty() || t.eq_ignore_ascii_case("all") {
            return Ok(LaneMask::all(lanes));
        }
        let t = t.replace('_', "");
        let parsed = if let Some(hex) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
            u128::from_str_radix(hex, 16).ok()
        } else {
            t.parse::<u128>().ok()
        };
        let value = parsed.ok_or_else(|| {
            InputError::new(
                field,
                format!("`{text}` is not a lane mask: expected hex (0x…) or decimal"),
            )
        })?;
        let mask = LaneMask(value);
        if mask.truncate(lanes) != mask {
            return Err(InputError::new(
                field,
                format!(
                    "`{text}` names lanes at or above {lanes}; a {lanes}-lane warp allows 0x0..={}",
                    LaneMask::all(lanes).to_hex(lanes)
                ),
            ));
        }
        Ok(mask)
    }
}

/// Whether `n` is a power of two (1, 2, 4, …). Width rules of every dialect use it.
pub fn is_power_of_two(n: i64) -> bool {
    n > 0 && (n & (n - 1)) == 0
}

/// `0-3, 5, 7-9` for a sorted lane list.
pub fn list_lanes(lanes: &[usize]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut k = 0;
    while k < lanes.len() {
        let start = lanes[k];
        let mut end = start;
        while k + 1 < lanes.len() && lanes[k + 1] == end + 1 {
            k += 1;
            end = lanes[k];
        }
        parts.push(if start == end {
            start.to_string()
        } else {
            format!("{start}-{end}")
        });
        k += 1;
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trip_and_bounds() {
        let m = LaneMask::parse("0x0000ffff", 32, "active").unwrap();
        assert_eq!(m.count(), 16);
        assert_eq!(m.to_hex(32), "0x0000ffff");
        assert_eq!(LaneMask::all(64).to_hex(64), "0xffffffffffffffff");
        let err = LaneMask::parse("0x1_0000_0000", 32, "active").unwrap_err();
        assert_eq!(err.field, "active");
        assert!(LaneMask::parse("zz", 32, "active").is_err());
        assert_eq!(LaneMask::all(128).count(), 128);
        assert_eq!(LaneMask(0b1000).first(), Some(3));
    }
}
