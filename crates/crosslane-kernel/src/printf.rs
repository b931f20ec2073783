//! Device `printf`: each lane's line formatted as the device would print it.
//!
//! Source: C11 7.21.6.1 (conversions `d i u x X o c s f F e E g G p %`, flags `-+ #0`, width,
//! precision, length modifiers `hh h l ll z`); CUDA C++ Programming Guide, "Formatted Output"
//! (device `printf` follows the C conversions; every thread that calls it prints its own line).
//! An undefined argument prints as `<undefined: why>`, never as a made-up number.

use serde::Serialize;

use super::trace::LaneVal;
use super::types::KVal;

/// One line a thread printed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PrintfLine {
    /// Block index (linear).
    pub block: usize,
    /// Thread index within the block (linear).
    pub thread: usize,
    /// The formatted text, as printed (a trailing newline kept).
    pub text: String,
    /// The source line of the call.
    pub line: u32,
}

/// Most printed lines a run keeps; past them a note counts the rest.
pub const MAX_PRINTF_LINES: usize = 10_000;

/// The widest field width and the longest precision a conversion is printed with. C11
/// 7.21.6.1 sets no bound (an implementation's own: glibc prints `%.999999999f` as a billion
/// digits); the kernel engine caps both so that one call can cost at most a few KiB, and
/// says so with a warning naming the cap ([`Formatted::capped`]).
pub const MAX_PRINTF_FIELD: usize = 512;

/// One formatted line and what the caps changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Formatted {
    /// The text, as printed.
    pub text: String,
    /// The largest width or precision written in the format that was above
    /// [`MAX_PRINTF_FIELD`] and printed as that cap instead (`None` when none was).
    pub capped: Option<u64>,
}

/// Formats `fmt` with one lane's `args` (C11 7.21.6.1). A conversion without its argument
/// prints `<missing>`; text beyond 1024 bytes is cut with `…`; a width or precision above
/// [`MAX_PRINTF_FIELD`] is printed as the cap (see [`format_line`] for which).
pub fn format(fmt: &str, args: &[LaneVal]) -> String {
    format_line(fmt, args).text
}

/// The digits of a width or precision as a number, saturating (a format may write more
/// digits than any integer holds).
fn field_number(digits: &str) -> u64 {
    digits.bytes().fold(0u64, |n, d| {
        n.saturating_mul(10).saturating_add(u64::from(d - b'0'))
    })
}

/// As [`format()`], also saying whether a width or precision was capped.
pub fn format_line(fmt: &str, args: &[LaneVal]) -> Formatted {
    format_line_strs(fmt, args, &[])
}

/// As [`format_line`], where `strs[k]`, when given, is argument `k`'s string literal (as
/// written, escapes included): a `%s` conversion of it prints the string, cut to the
/// precision (C11 7.21.6.1/8, `s`: "the argument shall be a pointer to the initial element of
/// an array of character type"; CUDA C++ Programming Guide, Formatted Output: `%s` takes a
/// string). Its entry in `args` is then not read.
pub fn format_line_strs(fmt: &str, args: &[LaneVal], strs: &[Option<String>]) -> Formatted {
    let fmt = unescape(fmt);
    let mut index = 0usize;
    let mut capped: Option<u64> = None;
    let mut cap = |n: u64| -> usize {
        if n > MAX_PRINTF_FIELD as u64 {
            capped = Some(capped.map_or(n, |c| c.max(n)));
            MAX_PRINTF_FIELD
        } else {
            n as usize
        }
    };
    let mut out = String::new();
    let mut chars = fmt.chars().peekable();
    let mut next = args.iter();
    while let Some(c) = chars.next() {
        if out.len() > 1024 {
            out.push('…');
            break;
        }
        if c != '%' {
            out.push(c);
            continue;
        }
        // flags, width, precision, length, conversion
        let mut flags = String::new();
        while let Some(&f) = chars.peek() {
            if "-+ #0".contains(f) {
                flags.push(f);
                chars.next();
            } else {
                break;
            }
        }
        let mut width = String::new();
        while let Some(&d) = chars.peek() {
            if d.is_ascii_digit() {
                width.push(d);
                chars.next();
            } else {
                break;
            }
        }
        let mut precision: Option<usize> = None;
        if chars.peek() == Some(&'.') {
            chars.next();
            let mut p = String::new();
            while let Some(&d) = chars.peek() {
                if d.is_ascii_digit() {
                    p.push(d);
                    chars.next();
                } else {
                    break;
                }
            }
            precision = Some(cap(field_number(&p)));
        }
        while let Some(&l) = chars.peek() {
            if "hlzjtL".contains(l) {
                chars.next();
            } else {
                break;
            }
        }
        let Some(conv) = chars.next() else {
            out.push('%');
            break;
        };
        if conv == '%' {
            out.push('%');
            continue;
        }
        let literal = strs.get(index).and_then(Option::as_deref);
        index += 1;
        let body = match next.next() {
            Some(_) if conv == 's' && literal.is_some() => {
                let text = unescape(literal.unwrap_or_default());
                match precision {
                    Some(p) => text.chars().take(p).collect(),
                    None => text,
                }
            }
            None => "<missing>".to_string(),
            Some(Err(u)) => format!("<undefined: {}>", u.why),
            Some(Ok(v)) => convert(conv, v, &flags, precision),
        };
        let width: usize = cap(field_number(&width));
        let pad = width.saturating_sub(body.chars().count());
        if flags.contains('-') {
            out.push_str(&body);
            out.extend(std::iter::repeat_n(' ', pad));
        } else if flags.contains('0') && "diuxXofFeEgG".contains(conv) && precision.is_none() {
            let (sign, digits) = match body.strip_prefix('-') {
                Some(d) => ("-", d),
                None => ("", body.as_str()),
            };
            out.push_str(sign);
            out.extend(std::iter::repeat_n('0', pad));
            out.push_str(digits);
        } else {
            out.extend(std::iter::repeat_n(' ', pad));
            out.push_str(&body);
        }
    }
    Formatted { text: out, capped }
}

/// The conversion letter of each conversion in `fmt` in order (`%%` is none), so argument `k`
/// of a call is converted by entry `k` (C11 7.21.6.1/4: flags, width, precision, length,
/// then the conversion specifier).
pub(crate) fn conversions(fmt: &str) -> Vec<char> {
    let mut out = Vec::new();
    let mut chars = fmt.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            continue;
        }
        for d in chars.by_ref() {
            if "-+ #0123456789.hlzjtL".contains(d) {
                continue;
            }
            if d != '%' {
                out.push(d);
            }
            break;
        }
    }
    out
}

/// The string literal's escapes (`\n`, `\t`, `\\`, `\"`, `\'`, `\0`) as the characters they
/// stand for (C11 6.4.4.4); an unknown escape stays as written.
pub(crate) fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('0') => out.push('\0'),
            Some(e @ ('\\' | '"' | '\'')) => out.push(e),
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

/// One conversion of one value.
fn convert(conv: char, v: &KVal, flags: &str, precision: Option<usize>) -> String {
    let int = v.as_int();
    let float = v.as_f64();
    let plus = |s: String, neg: bool| {
        if !neg && flags.contains('+') {
            format!("+{s}")
        } else if !neg && flags.contains(' ') {
            format!(" {s}")
        } else {
            s
        }
    };
    match conv {
        'd' | 'i' => match int.or_else(|| float.map(|f| f as i128)) {
            Some(n) => plus(n.to_string(), n < 0),
            None => "<not a number>".into(),
        },
        'u' => int.map_or("<not a number>".into(), |n| (n as u64).to_string()),
        'x' | 'X' | 'o' => {
            let n = int.unwrap_or(0) as u64;
            let s = match conv {
                'x' => format!("{n:x}"),
                'X' => format!("{n:X}"),
                _ => format!("{n:o}"),
            };
            if flags.contains('#') && n != 0 {
                match conv {
                    'x' => format!("0x{s}"),
                    'X' => format!("0X{s}"),
                    _ => format!("0{s}"),
                }
            } else {
                s
            }
        }
        'c' => int
            .and_then(|n| u32::try_from(n).ok())
            .and_then(char::from_u32)
            .map_or("?".into(), |c| c.to_string()),
        'f' | 'F' | 'e' | 'E' | 'g' | 'G' => {
            let x = float.unwrap_or(f64::NAN);
            let p = precision.unwrap_or(6);
            let s = if x.is_nan() {
                "nan".to_string()
            } else if x.is_infinite() {
                if x < 0.0 { "-inf" } else { "inf" }.to_string()
            } else {
                match conv {
                    'f' | 'F' => format!("{x:.p$}"),
                    'e' | 'E' => c_exp(x, p),
                    _ => c_general(x, p.max(1)),
                }
            };
            let s = if conv.is_ascii_uppercase() {
                s.to_uppercase()
            } else {
                s
            };
            plus(s, x.is_sign_negative())
        }
        's' => "(string)".into(),
        'p' => format!("{:#x}", int.unwrap_or(0)),
        other => format!("%{other}"),
    }
}

/// `%e`: `d.ddde±XX`.
fn c_exp(x: f64, p: usize) -> String {
    let s = format!("{x:.p$e}");
    match s.split_once('e') {
        Some((m, e)) => {
            let (sign, digits) = match e.strip_prefix('-') {
                Some(d) => ('-', d),
                None => ('+', e),
            };
            format!("{m}e{sign}{digits:0>2}")
        }
        None => s,
    }
}

/// `%g`: `%e` when the exponent is below -4 or at least the precision, else `%f`; trailing
/// zeros removed.
fn c_general(x: f64, p: usize) -> String {
    if x == 0.0 {
        return "0".into();
    }
    // C11 7.21.6.1: X is the exponent the `%e` conversion (precision P-1) would print, after
    // rounding.
    let e_form = format!("{x:.prec$e}", prec = p - 1);
    let exp: i64 = e_form
        .split_once('e')
        .and_then(|(_, e)| e.parse().ok())
        .unwrap_or(0);
    let trim = |s: String| {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s
        }
    };
    if exp < -4 || exp >= p as i64 {
        let s = c_exp(x, p - 1);
        match s.split_once('e') {
            Some((m, e)) => format!("{}e{e}", trim(m.to_string())),
            None => s,
        }
    } else {
        let decimals = (p as i64 - 1 - exp).max(0) as usize;
        trim(format!("{x:.decimals$}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Scalar;

    #[test]
    fn conversions_are_listed_in_argument_order() {
        // C11 7.21.6.1/4: `%-8.3lf` is one `f`; `%%` converts no argument.
        assert_eq!(
            conversions("a %d %% %-8.3lf %s|%5.2s %p\\n"),
            vec!['d', 'f', 's', 's', 'p']
        );
    }

    fn i(n: i128) -> LaneVal {
        Ok(KVal::int(Scalar::I32, n))
    }

    #[test]
    fn c_conversions() {
        // Expected texts written from C11 7.21.6.1's rules.
        assert_eq!(format("lane %d of %d\n", &[i(3), i(32)]), "lane 3 of 32\n");
        assert_eq!(format(r"a\tb\n", &[]), "a\tb\n");
        assert_eq!(
            format("[%4d|%-4d|%04d]", &[i(7), i(7), i(-7)]),
            "[   7|7   |-007]"
        );
        assert_eq!(
            format("%x %#X %o %%", &[i(255), i(255), i(8)]),
            "ff 0XFF 10 %"
        );
        let f = |x: f64| Ok(KVal::float(Scalar::F32, x));
        assert_eq!(
            format("%f %.2f %e", &[f(1.5), f(2.0), f(1500.0)]),
            "1.500000 2.00 1.500000e+03"
        );
        assert_eq!(format("%g %g", &[f(0.0001), f(123456.0)]), "0.0001 123456");
        assert_eq!(format("%d %d", &[i(1)]), "1 <missing>");
        assert_eq!(format("%+d %c", &[i(5), i(65)]), "+5 A");
    }

    #[test]
    fn huge_width_and_precision_are_capped() {
        let f = |x: f64| Ok(KVal::float(Scalar::F32, x));
        // Past Rust's own formatting range (u16) and far past the cap: printed with 512 digits
        // after the point ("0." then 512 zeros), no panic.
        let out = format_line("%.999999999f", &[f(0.0)]);
        assert_eq!(out.capped, Some(999_999_999));
        assert_eq!(out.text, format!("0.{}", "0".repeat(MAX_PRINTF_FIELD)));
        let out = format_line("%.70000e", &[f(1.0)]);
        assert_eq!(out.capped, Some(70_000));
        assert_eq!(out.text, format!("1.{}e+00", "0".repeat(MAX_PRINTF_FIELD)));
        // A width of more digits than u64 holds saturates, and is capped.
        let out = format_line("%99999999999999999999999d|", &[i(7)]);
        assert_eq!(out.capped, Some(u64::MAX));
        assert_eq!(out.text, format!("{}7|", " ".repeat(MAX_PRINTF_FIELD - 1)));
        // Within the cap nothing changes.
        assert_eq!(format_line("%512d", &[i(1)]).capped, None);
    }
}
