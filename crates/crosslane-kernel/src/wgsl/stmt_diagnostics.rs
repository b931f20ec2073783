//! `@diagnostic(SEVERITY, subgroup_uniformity)` on a statement (WGSL spec, § Diagnostic
//! Filtering: an attribute on a compound, `if`, `switch`, `loop`, `for` or `while` statement
//! filters the triggers inside it). naga 30 refuses such an attribute ("not yet implemented
//! … on compound statements"); Tint accepts it, and real shaders use it (gridwise's
//! `@diagnostic(off, subgroup_uniformity) if (lidx < RADIX) { … }`). Before naga parses the
//! text, each attribute inside a function body is blanked (spaces, so every offset stays), and
//! for `subgroup_uniformity` the byte range of the statement it is on is kept with its
//! severity, which the uniformity check applies to the built-ins inside
//! (`super::uniformity`; the innermost range wins over the function's attribute and the
//! module's directive).

use crosslane_core::result::Level;

use super::scan::comment_end;

/// One statement's filter of `subgroup_uniformity`.
#[derive(Clone, Debug, PartialEq)]
pub struct StmtFilter {
    /// Byte offset of the attribute (the statement follows it).
    pub start: usize,
    /// Byte offset after the statement's last `}` (an `if`'s last `else` block included).
    pub end: usize,
    /// The severity inside (`None`: off).
    pub level: Option<Level>,
}

/// The text with every statement-level `@diagnostic(…)` blanked, and the filters of
/// `subgroup_uniformity` among them. An attribute whose statement has no `{ … }` after it is
/// left as written (naga then reports it). One pass over the bytes, no recursion.
pub fn blank(src: &str) -> (String, Vec<StmtFilter>) {
    let b = src.as_bytes();
    let mut out = b.to_vec();
    let mut filters = Vec::new();
    let mut depth = 0usize;
    let mut k = 0;
    while k < b.len() {
        if let Some(e) = comment_end(b, k) {
            k = e.max(k + 1);
            continue;
        }
        match b[k] {
            b'{' => depth += 1,
            b'}' => depth = depth.saturating_sub(1),
            b'@' if depth > 0 => {
                if let Some((close, level)) = attribute(b, k) {
                    if let Some(end) = statement_end(b, close + 1) {
                        for c in &mut out[k..=close] {
                            if *c != b'\n' {
                                *c = b' ';
                            }
                        }
                        if let Some(level) = level {
                            filters.push(StmtFilter {
                                start: k,
                                end,
                                level,
                            });
                        }
                        k = close + 1;
                        continue;
                    }
                }
            }
            _ => {}
        }
        k += 1;
    }
    // Only spaces replaced ASCII bytes, so the text stays UTF-8.
    (
        String::from_utf8(out).unwrap_or_else(|_| src.to_string()),
        filters,
    )
}

/// The `@diagnostic(SEVERITY, RULE)` attribute at `at`: the index of its `)` and, for the
/// rule `subgroup_uniformity`, `Some(severity)` (`None` inside for `off`).
#[allow(clippy::type_complexity)]
fn attribute(b: &[u8], at: usize) -> Option<(usize, Option<Option<Level>>)> {
    let mut k = skip_space(b, at + 1);
    let name = b"diagnostic";
    if b.get(k..k + name.len()) != Some(&name[..]) {
        return None;
    }
    k = skip_space(b, k + name.len());
    if b.get(k) != Some(&b'(') {
        return None;
    }
    let open = k;
    let close = open + b[open..].iter().position(|&c| c == b')')?;
    let inner = std::str::from_utf8(&b[open + 1..close]).ok()?;
    let mut parts = inner.split(',').map(str::trim);
    let severity = parts.next()?;
    let rule = parts.next()?;
    let level = match severity {
        "off" => None,
        "info" => Some(Level::Info),
        "warning" => Some(Level::Warning),
        "error" => Some(Level::Error),
        _ => return None,
    };
    Some((close, (rule == "subgroup_uniformity").then_some(level)))
}

/// Where the statement starting at `k` ends: after the `}` matching its first `{`, and after
/// each `else` block that follows.
fn statement_end(b: &[u8], mut k: usize) -> Option<usize> {
    loop {
        // The statement's block: its first `{` (a WGSL expression holds none; a `for`
        // header's `;`s are inside its parentheses).
        let mut parens = 0usize;
        while k < b.len() && b[k] != b'{' {
            match b[k] {
                b'(' => parens += 1,
                b')' => parens = parens.saturating_sub(1),
                b';' | b'}' if parens == 0 => return None,
                _ => {}
            }
            k = comment_end(b, k).unwrap_or(k + 1).max(k + 1);
        }
        let mut depth = 0usize;
        while k < b.len() {
            if let Some(e) = comment_end(b, k) {
                k = e.max(k + 1);
                continue;
            }
            match b[k] {
                b'{' => depth += 1,
                b'}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
            k += 1;
        }
        if k >= b.len() {
            return None;
        }
        let end = k + 1;
        let next = skip_space(b, end);
        let is_else = b.get(next..next + 4).is_some_and(|s| s == b"else")
            && !b
                .get(next + 4)
                .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_');
        if !is_else {
            return Some(end);
        }
        k = next + 4;
    }
}

/// The index of the first byte at or after `k` that is neither white space nor a comment.
fn skip_space(b: &[u8], mut k: usize) -> usize {
    while k < b.len() {
        if b[k].is_ascii_whitespace() {
            k += 1;
        } else if let Some(e) = comment_end(b, k) {
            k = e.max(k + 1);
        } else {
            break;
        }
    }
    k
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_if_with_its_else_is_one_range_and_the_attribute_is_blanked() {
        let src = "fn f() {\n  @diagnostic(off, subgroup_uniformity)\n  if (a) { x(); } else { y(); }\n  z();\n}";
        let (text, f) = blank(src);
        assert_eq!(text.len(), src.len());
        assert!(!text.contains("diagnostic"));
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].level, None);
        assert_eq!(
            &src[f[0].start..f[0].end].trim_end().chars().last(),
            &Some('}')
        );
        assert!(src[f[0].start..f[0].end].contains("y();"));
        assert!(!src[f[0].start..f[0].end].contains("z();"));
    }

    #[test]
    fn other_rules_are_blanked_but_not_kept_and_function_attributes_stay() {
        let src = "@diagnostic(off, subgroup_uniformity) fn f() {\n  @diagnostic(warning, derivative_uniformity) { x(); }\n  @diagnostic(info, subgroup_uniformity) for (var i = 0; i < 2; i++) { y(); }\n}";
        let (text, f) = blank(src);
        assert!(text.starts_with("@diagnostic(off, subgroup_uniformity) fn f()"));
        assert_eq!(text.matches("diagnostic").count(), 1);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].level, Some(Level::Info));
        assert!(src[f[0].start..f[0].end].contains("y();"));
    }
}
