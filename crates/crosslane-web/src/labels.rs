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

/// `x` with `decimals` digits after the point (at most 9), exactly as `format!("{x:.N}")` writes
/// it: the exact binary value rounded half to even, a sign on negative values and negative zero
/// (`-0.00`). Written with integer arithmetic so that the page's first module carries no copy of
/// the standard library's exact float formatting (Dragon4 and Grisu's exact mode, about 6 KB of
/// wasm, which only `{:.N}` on a float pulls in; docs/benchmarks.md, "Time to first lanes", the
/// first module's diet of 2026-12-05). A value whose digits would not fit 64 bits (above
/// 1.8e19 / 10^decimals), NaN or an infinity is written as `Display` writes it (`NaN`, `inf`,
/// the shortest digits).
pub fn fixed(x: f64, decimals: u32) -> String {
    let decimals = decimals.min(9);
    let scale = 10u64.pow(decimals);
    let bits = x.abs().to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let frac = bits & ((1u64 << 52) - 1);
    if biased == 0x7ff {
        return x.to_string();
    }
    // |x| = m * 2^e exactly (IEEE 754 binary64: a subnormal has no hidden bit).
    let (m, e) = if biased == 0 {
        (frac, -1074)
    } else {
        (frac | (1u64 << 52), biased - 1075)
    };
    // |x| * 10^decimals = p * 2^e exactly: p < 2^53 * 10^9 < 2^83.
    let p = u128::from(m) * u128::from(scale);
    let n: u128 = if e >= 0 {
        if e > 40 {
            return x.to_string();
        }
        p << e
    } else {
        let sh = e.unsigned_abs();
        if sh > 100 {
            // Below 2^-100 * 2^83: rounds to zero at any scale.
            0
        } else {
            let q = p >> sh;
            let rem = p - (q << sh);
            let half = 1u128 << (sh - 1);
            if rem > half || (rem == half && q & 1 == 1) {
                q + 1
            } else {
                q
            }
        }
    };
    let Ok(n) = u64::try_from(n) else {
        return x.to_string();
    };
    let sign = if x.is_sign_negative() { "-" } else { "" };
    if decimals == 0 {
        format!("{sign}{n}")
    } else {
        format!(
            "{sign}{}.{:0width$}",
            n / scale,
            n % scale,
            width = decimals as usize
        )
    }
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

    /// `fixed` writes what `format!("{x:.N}")` writes: exact ties rounded to even (0.125 →
    /// 0.12, 0.375 → 0.38), values just above a tie in binary (12.345 → 12.35), negative zero,
    /// subnormals, NaN and infinities, and a sweep of values and decimals.
    #[test]
    fn fixed_writes_what_the_exact_formatting_writes() {
        let mut xs = vec![
            0.0, -0.0, 0.125, 0.375, 2.5, 0.5, 1.5, 0.0625, 12.345, -0.001, 1.005, 99.995,
            100.0, 1e-300, 5e-324, 1e15, 123456789.987654321, 1e19, 1e300, f64::MAX,
            f64::MIN_POSITIVE, f64::NAN, f64::INFINITY, f64::NEG_INFINITY,
        ];
        // Fractions k/7, k/1000 and k/1024 (exact ties), and xorshift bit patterns in [0, 2^20).
        for k in 0..3000 {
            let k = f64::from(k);
            xs.extend([k / 7.0, k / 1000.0, -k / 1024.0, k * 0.01]);
        }
        let mut s = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..3000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            xs.push(f64::from_bits(s) % 1_048_576.0);
        }
        for x in xs {
            if !x.is_finite() || x.abs() < 1e15 {
                for d in 0..=4 {
                    assert_eq!(fixed(x, d), format!("{x:.*}", d as usize), "{x:e} to {d} decimals");
                }
            }
        }
        assert_eq!(fixed(f64::NAN, 2), "NaN");
        assert_eq!(fixed(f64::NEG_INFINITY, 1), "-inf");
    }
}
