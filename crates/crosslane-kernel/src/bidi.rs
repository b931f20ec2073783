//! Bidirectional control characters in kernel text (the "Trojan Source" attack, CVE-2021-42574,
//! Boucher and Anderson 2021): the explicit embedding, override and isolate controls of the
//! Unicode Bidirectional Algorithm (UAX #9, §2.1-2.2) make an editor show source in an order
//! other than the compiler's, so a comment or string can seem to hold code and code can hide in
//! a comment. A kernel may carry them in comments and strings (each is reported, by name and
//! position, as a warning); in code they are refused by name; and no message, quoted line, text
//! trace or JSON writes them raw ([`escape`]).

use crosslane_core::result::Level;

use super::KernelDiagnostic;

/// The controls and their Unicode names (UAX #9, Table 1 and §2.1-2.2).
pub const CONTROLS: [(char, &str); 9] = [
    ('\u{202A}', "LEFT-TO-RIGHT EMBEDDING"),
    ('\u{202B}', "RIGHT-TO-LEFT EMBEDDING"),
    ('\u{202C}', "POP DIRECTIONAL FORMATTING"),
    ('\u{202D}', "LEFT-TO-RIGHT OVERRIDE"),
    ('\u{202E}', "RIGHT-TO-LEFT OVERRIDE"),
    ('\u{2066}', "LEFT-TO-RIGHT ISOLATE"),
    ('\u{2067}', "RIGHT-TO-LEFT ISOLATE"),
    ('\u{2068}', "FIRST STRONG ISOLATE"),
    ('\u{2069}', "POP DIRECTIONAL ISOLATE"),
];

/// The Unicode name of `c` when it is a bidirectional control, else `None`.
pub fn name(c: char) -> Option<&'static str> {
    CONTROLS.iter().find(|(k, _)| *k == c).map(|(_, n)| *n)
}

/// `c` as `U+202E RIGHT-TO-LEFT OVERRIDE` (its code point and name).
pub fn describe(c: char) -> String {
    format!(
        "U+{:04X} {}",
        c as u32,
        name(c).unwrap_or("(not a bidirectional control)")
    )
}

/// `text` with every bidirectional control written as `\u{202e}`, so that printing it cannot
/// reorder what surrounds it.
pub fn escape(text: &str) -> String {
    if !text.chars().any(|c| name(c).is_some()) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if name(c).is_some() {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// One warning per bidirectional control in `source` (1-based line, column in characters),
/// at most `max` of them (the rest are counted in the last one). The lexers refuse a control
/// outside comments and strings, so those that reach a run are in comments or strings.
pub fn warnings(source: &str, max: usize) -> Vec<KernelDiagnostic> {
    let mut out = Vec::new();
    let mut more = 0usize;
    let (mut line, mut col) = (1u32, 1u32);
    for c in source.chars() {
        if name(c).is_some() {
            if out.len() < max {
                out.push(KernelDiagnostic {
                    line,
                    col,
                    level: Level::Warning,
                    message: format!(
                        "bidirectional control character {} in a comment or string: it can \
                         make the text read in another order than it runs (Trojan Source)",
                        describe(c)
                    ),
                    rule: "Unicode UAX #9 §2.1-2.2; CVE-2021-42574".to_string(),
                });
            } else {
                more += 1;
            }
        }
        if c == '\n' {
            line = line.saturating_add(1);
            col = 1;
        } else {
            col = col.saturating_add(1);
        }
    }
    if more > 0 {
        if let Some(last) = out.last_mut() {
            last.message
                .push_str(&format!(" (and {more} more bidirectional controls)"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_are_named_and_escaped() {
        assert_eq!(describe('\u{202E}'), "U+202E RIGHT-TO-LEFT OVERRIDE");
        assert_eq!(name('a'), None);
        assert_eq!(escape("a\u{202E}b\u{2066}"), "a\\u{202e}b\\u{2066}");
        let w = warnings("int x;\n// \u{202E} }\n", 10);
        assert_eq!(w.len(), 1);
        assert_eq!((w[0].line, w[0].col), (2, 4));
        assert!(w[0].message.contains("U+202E RIGHT-TO-LEFT OVERRIDE"));
        assert!(!w[0].message.contains('\u{202E}'));
    }
}
