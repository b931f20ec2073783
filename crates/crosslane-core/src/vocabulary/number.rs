//! Numbers as a user types them (flags, form fields, operand lists, lane expressions): one
//! parser, below the modules that read typed text (`value`, `lane_expr`, `params`), so none of
//! them imports another for it.

/// Whether `text` is written as an integer (decimal, `0x` hex or `0b` binary digits, optionally
/// signed, `_` separators allowed), whatever its size: [`parse_int`] refuses one that does not
/// fit an i64, and the message then says "out of range", not "not an integer".
pub fn is_int_text(text: &str) -> bool {
    let t = text.trim().replace('_', "");
    let body = t.strip_prefix(['-', '+']).unwrap_or(&t);
    let (digits, radix) =
        if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
            (h, 16)
        } else if let Some(b) = body.strip_prefix("0b").or_else(|| body.strip_prefix("0B")) {
            (b, 2)
        } else {
            (body, 10)
        };
    !digits.is_empty() && digits.chars().all(|c| c.is_digit(radix))
}

/// Parses an integer typed by a user: decimal, `0x` hex, `0b` binary, optionally negative.
/// Returns `None` when it does not parse or does not fit an i64.
pub fn parse_int(text: &str) -> Option<i64> {
    let t = text.trim().replace('_', "");
    let (neg, body) = match t.strip_prefix('-') {
        Some(rest) => (true, rest.to_string()),
        None => (false, t.strip_prefix('+').unwrap_or(&t).to_string()),
    };
    let magnitude = if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        i128::from_str_radix(h, 16).ok()?
    } else if let Some(b) = body.strip_prefix("0b").or_else(|| body.strip_prefix("0B")) {
        i128::from_str_radix(b, 2).ok()?
    } else {
        body.parse::<i128>().ok()?
    };
    // `--170141183460469231731687303715884105728` parses as i128::MIN after the first `-`:
    // its negation does not exist, so it is "does not fit", not a panic.
    let v = if neg {
        magnitude.checked_neg()?
    } else {
        magnitude
    };
    i64::try_from(v).ok()
}
