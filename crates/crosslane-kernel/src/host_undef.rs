//! Cells of a host array that host code leaves undefined for a known reason, carried to the
//! device buffer the array is copied into so that the run names the reason at each read.
//!
//! Today one reason: a signed integer overflow in the expression that computed the cell (C++17
//! \[expr\]/4: "If during the evaluation of an expression, the result is not mathematically
//! defined or not in the range of representable values for its type, the behavior is
//! undefined"). Only the cells whose computation overflowed are undefined; the cells host code
//! computed before the overflow keep their values. An unsigned computation wraps modulo 2^N
//! ([basic.fundamental]/4) and is never undefined.
//!
//! The host reading (`parser::host_fill_loop`, `parser::host`) writes such a cell as the text
//! [`overflow_cell`] in the array's fill (a fill's cells are texts, one per cell); the launch
//! ([`crate::host_launch`]) takes the marks out with [`split_marks`] (the buffer's cell is
//! undefined, as `undef` is) and keeps the reasons in [`crate::LaunchConfig::undef_why`], which
//! the run's read of the cell gives ([`reason_at`]).

use std::collections::BTreeMap;

/// The start of a fill cell's text that marks a signed overflow; the host line follows.
const OVERFLOW: &str = "undef@overflow:";

/// The text of a fill cell whose computation at host `line` overflowed a signed type.
pub fn overflow_cell(line: u32) -> String {
    format!("{OVERFLOW}{line}")
}

/// The host line of a cell written by [`overflow_cell`], `None` for any other text.
fn overflow_line(text: &str) -> Option<u32> {
    text.strip_prefix(OVERFLOW)?.parse().ok()
}

/// Why cell `cell` of buffer `name` is undefined when host code's `line` overflowed computing it.
fn overflow_reason(name: &str, cell: usize, line: u32) -> String {
    format!(
        "`{name}[{cell}]` holds no value: host code's computation of it at line {line} is a \
         signed overflow (undefined behavior, C++17 [expr]/4)"
    )
}

/// Undefined cells of a buffer with their reason: `(first, last, host line)` ranges of cells
/// (inclusive), in order.
pub type UndefCells = Vec<(usize, usize, u32)>;

/// Takes the marks out of a fill's cells: each marked cell becomes `undef`; returns the
/// ranges of marked cells, counted in buffer cells of `per_cell` fill texts each (a vector
/// element's components are one cell where the buffer counts elements).
pub fn split_marks(values: &mut [String], per_cell: usize) -> UndefCells {
    let mut out: UndefCells = Vec::new();
    for (j, v) in values.iter_mut().enumerate() {
        let Some(line) = overflow_line(v) else {
            continue;
        };
        *v = "undef".to_string();
        let cell = j / per_cell.max(1);
        match out.last_mut() {
            Some((_, last, l)) if *l == line && (*last == cell || *last + 1 == cell) => {
                *last = cell;
            }
            _ => out.push((cell, cell, line)),
        }
    }
    out
}

/// The first host line and the cells of `ranges`, as a launch note says them: `cells 1–7
/// (signed overflow at line 10)`.
pub fn describe(ranges: &UndefCells) -> String {
    let parts: Vec<String> = ranges
        .iter()
        .take(4)
        .map(|&(a, b, line)| {
            let cells = if a == b {
                format!("cell {a}")
            } else {
                format!("cells {a}–{b}")
            };
            format!("{cells} (signed overflow at host line {line})")
        })
        .collect();
    let more = if ranges.len() > 4 { ", …" } else { "" };
    format!("{}{more}", parts.join(", "))
}

/// The reason the run gives for reading cell `cell` of buffer `name` that was never written on
/// the device, when host code left it undefined ([`crate::LaunchConfig::undef_why`]).
pub fn reason_at(why: &BTreeMap<String, UndefCells>, name: &str, cell: i64) -> Option<String> {
    let cell = usize::try_from(cell).ok()?;
    let ranges = why.get(name)?;
    let k = ranges.partition_point(|&(_, last, _)| last < cell);
    let &(first, _, line) = ranges.get(k)?;
    (first <= cell).then(|| overflow_reason(name, cell, line))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_become_ranges() {
        let mut v: Vec<String> = ["1", "2"].iter().map(|s| s.to_string()).collect();
        v.extend([
            overflow_cell(10),
            overflow_cell(10),
            "5".into(),
            overflow_cell(11),
        ]);
        let r = split_marks(&mut v, 1);
        assert_eq!(r, vec![(2, 3, 10), (5, 5, 11)]);
        assert_eq!(v[2], "undef");
        let mut why = BTreeMap::new();
        why.insert("in".to_string(), r);
        assert!(reason_at(&why, "in", 3).unwrap().contains("line 10"));
        assert!(reason_at(&why, "in", 4).is_none());
        assert!(reason_at(&why, "in", 5).unwrap().contains("line 11"));
        assert!(reason_at(&why, "in", 9).is_none());
    }
}
