//! The words the page uses for a lane: result text, source text and the hover reason. Shared by
//! the lane table, the canvas tooltips and the SVG `<title>`s so that all three say the same thing.
//!
//! The result words `undefined` and `inactive` are part of the page contract (docs/embedding.md, "Page
//! contract"): end-to-end tests and embeds read them from the lane table.

use crosslane_core::{LaneResult, Source, Value, ValueType};

/// How values are written, passed down to every label (table, canvas, SVG, tooltips, CSV) by
/// the view that owns the setting: the operation view's `#show-hex` checkbox ("values in hex"),
/// which a permalink stores as the scenario's `display`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DisplayOptions {
    /// Values as raw bits in hex instead of the type's own notation.
    pub hex: bool,
}

/// One value as the page writes it: the type's notation (`-3`, `0.5`, packed pairs `lo:hi`), or
/// with [`DisplayOptions::hex`] its raw bits (`0xfffffffd`; packed pairs per half,
/// `0x3c00:0x4000`, so both halves stay readable).
pub fn value_text(v: Value, display: DisplayOptions) -> String {
    if !display.hex {
        return v.to_string();
    }
    match v.ty {
        ValueType::F16x2 | ValueType::Bf16x2 => {
            let (lo, hi) = v.halves();
            format!("0x{lo:04x}:0x{hi:04x}")
        }
        _ => v.bits_hex(),
    }
}

/// Escapes text for SVG character data and attribute values (the page's HTML is built by
/// [`crate::kit::Html`], which escapes by type).
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// The text of an input cell: the value, or `undefined` when the lane's input is itself undefined.
pub fn input_text(value: Option<Value>, display: DisplayOptions) -> String {
    value.map_or_else(|| "undefined".to_string(), |v| value_text(v, display))
}

/// The text of a result cell: the value; `inactive` for a lane outside the active mask;
/// `undefined` for a lane the vendor leaves undefined (or any lane without a value).
pub fn result_text(r: &LaneResult, display: DisplayOptions) -> String {
    match (r.source, r.value) {
        (Source::Inactive, _) => "inactive".to_string(),
        (Source::Undefined, _) | (_, None) => "undefined".to_string(),
        (_, Some(v)) => value_text(v, display),
    }
}

/// The text of a source cell: `lane J` for a read, else the provenance name (`own`, `zero`,
/// `old`, `computed`, `undefined`, `inactive`).
pub fn source_text(r: &LaneResult) -> String {
    match (r.source, r.from) {
        (Source::Lane, Some(j)) => format!("lane {j}"),
        (source, _) => source.name().to_string(),
    }
}

/// What hovering over result lane `lane` says: value, provenance and, where the trace has one, the
/// reason (`LaneResult::why`).
pub fn result_tip(lane: usize, r: &LaneResult, display: DisplayOptions) -> String {
    let head = match (r.source, r.from) {
        (Source::Lane, Some(j)) => format!("lane {lane} ← lane {j}: {}", result_text(r, display)),
        (Source::Undefined, Some(j)) => {
            format!("lane {lane}: undefined (the rule selected lane {j})")
        }
        (Source::Undefined, None) => format!("lane {lane}: undefined"),
        (Source::Inactive, _) => format!("lane {lane}: inactive"),
        (source, _) => format!(
            "lane {lane}: {} ({})",
            result_text(r, display),
            source.name()
        ),
    };
    match &r.why {
        Some(why) => format!("{head}\n{why}"),
        None => head,
    }
}

/// What hovering over input lane `lane` says.
pub fn input_tip(
    lane: usize,
    value: Option<Value>,
    active: bool,
    display: DisplayOptions,
) -> String {
    let state = if active {
        "active"
    } else {
        "inactive: not in the active mask"
    };
    format!(
        "input lane {lane}: {} ({state})\nclick to switch the lane on or off",
        input_text(value, display)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crosslane_core::ValueType;

    #[test]
    fn contract_words() {
        let d = DisplayOptions::default();
        let v = Value::from_i64(ValueType::I32, 7);
        assert_eq!(result_text(&LaneResult::lane(v, 3), d), "7");
        assert_eq!(source_text(&LaneResult::lane(v, 3)), "lane 3");
        let u = LaneResult::undefined("source lane 5 is inactive", Some(5));
        assert_eq!(result_text(&u, d), "undefined");
        assert_eq!(source_text(&u), "undefined");
        assert!(result_tip(4, &u, d).contains("source lane 5 is inactive"));
        assert_eq!(result_text(&LaneResult::inactive(), d), "inactive");
        assert_eq!(source_text(&LaneResult::inactive()), "inactive");
        assert_eq!(source_text(&LaneResult::own(v, 2, "delta ≥ width")), "own");
    }

    #[test]
    fn hex_shows_raw_bits_and_both_halves_of_a_pair() {
        let minus3 = Value::from_i64(ValueType::I32, -3);
        let pair = Value::parse(ValueType::F16x2, "1:2", "values").unwrap();
        let plain = DisplayOptions::default();
        let hex = DisplayOptions { hex: true };
        assert_eq!(value_text(pair, plain), "1:2");
        assert_eq!(value_text(minus3, hex), "0xfffffffd");
        assert_eq!(result_text(&LaneResult::lane(minus3, 1), hex), "0xfffffffd");
        // f16 1.0 = 0x3c00, 2.0 = 0x4000.
        assert_eq!(value_text(pair, hex), "0x3c00:0x4000");
        assert_eq!(
            input_text(Some(Value::from_i64(ValueType::U64, 255)), hex),
            "0x00000000000000ff"
        );
        assert_eq!(value_text(minus3, plain), "-3");
    }
}
