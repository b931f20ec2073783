//! Translation phases 2 and 3 of C++17 \[lex.phases\] as far as the directives need them: a
//! backslash before a new-line splices the two lines (\[lex.phases\]/1.2), and each line is either
//! a directive line (its first character outside a comment is `#`, \[cpp\]/1) or a text line.
//! Every character of the spliced text keeps the line and column it had in the user's text, so
//! that tokens report where the user wrote them.

/// The source with every backslash–new-line removed, and where each character came from.
pub(super) struct Spliced {
    /// The spliced characters.
    pub chars: Vec<char>,
    /// For each character (and one past the end), its 1-based line and column in the source.
    pub origin: Vec<(u32, u32)>,
    /// Index in `chars` of the first character of each spliced line.
    pub line_starts: Vec<usize>,
}

impl Spliced {
    /// Splices `source` (\[lex.phases\]/1.2: a `\` directly before a new-line, or before `\r\n`).
    pub fn new(source: &str) -> Self {
        let src: Vec<char> = source.chars().collect();
        let mut chars = Vec::with_capacity(src.len());
        let mut origin = Vec::with_capacity(src.len() + 1);
        let (mut line, mut col) = (1u32, 1u32);
        let mut i = 0;
        while i < src.len() {
            let c = src[i];
            if c == '\\' {
                let skip = match (src.get(i + 1), src.get(i + 2)) {
                    (Some('\n'), _) => 2,
                    (Some('\r'), Some('\n')) => 3,
                    _ => 0,
                };
                if skip > 0 {
                    i += skip;
                    line = line.saturating_add(1);
                    col = 1;
                    continue;
                }
            }
            chars.push(c);
            origin.push((line, col));
            if c == '\n' {
                line = line.saturating_add(1);
                col = 1;
            } else {
                col = col.saturating_add(1);
            }
            i += 1;
        }
        origin.push((line, col));
        let mut line_starts = vec![0];
        for (k, c) in chars.iter().enumerate() {
            if *c == '\n' {
                line_starts.push(k + 1);
            }
        }
        Spliced {
            chars,
            origin,
            line_starts,
        }
    }

    /// The source position of spliced line `line`, column `col` (both 1-based, as the lexer
    /// counts them over the spliced text).
    pub fn orig(&self, line: u32, col: u32) -> (u32, u32) {
        let start = self
            .line_starts
            .get((line as usize).saturating_sub(1))
            .copied()
            .unwrap_or(self.chars.len());
        let k = start
            .saturating_add((col as usize).saturating_sub(1))
            .min(self.chars.len());
        self.origin
            .get(k)
            .copied()
            .unwrap_or((line.max(1), col.max(1)))
    }

    /// The source line of character `k`.
    pub fn orig_line(&self, k: usize) -> u32 {
        self.origin.get(k.min(self.chars.len())).map_or(1, |p| p.0)
    }
}

/// One logical line: a directive (with its text after the `#`, comments replaced by a space)
/// or a text line, as a range of spliced characters.
pub(super) struct Logical {
    /// First character (index into [`Spliced::chars`]).
    pub start: usize,
    /// One past the last character, excluding the closing new-line.
    pub end: usize,
    /// `Some(text after '#')` for a directive line.
    pub directive: Option<String>,
}

/// Splits the spliced text into logical lines. A directive whose block comment runs past a
/// new-line continues to the end of the line where the comment ends (\[lex.phases\]/1.3: a
/// comment is one space before directives are read).
pub(super) fn logical_lines(s: &Spliced) -> Vec<Logical> {
    let c = &s.chars;
    let at = |k: usize| c.get(k).copied().unwrap_or('\0');
    let mut out = Vec::new();
    let mut in_comment = false;
    let mut k = 0;
    while k < c.len() {
        let start = k;
        // Is the first character outside a comment a `#`?
        let mut j = k;
        while j < c.len() && c[j] != '\n' && (c[j] == ' ' || c[j] == '\t' || c[j] == '\r') {
            j += 1;
        }
        let directive = !in_comment && at(j) == '#';
        let mut text = String::new();
        let mut i = if directive { j + 1 } else { k };
        // Scan to the end of the logical line, tracking comments and literals.
        let mut prev = '\0';
        while i < c.len() {
            let ch = c[i];
            if in_comment {
                if ch == '*' && at(i + 1) == '/' {
                    in_comment = false;
                    i += 2;
                    if directive {
                        text.push(' ');
                    }
                    prev = ' ';
                    continue;
                }
                i += 1;
                continue;
            }
            if ch == '\n' {
                break;
            }
            if ch == '/' && at(i + 1) == '*' {
                in_comment = true;
                i += 2;
                continue;
            }
            if ch == '/' && at(i + 1) == '/' {
                while i < c.len() && c[i] != '\n' {
                    i += 1;
                }
                if directive {
                    text.push(' ');
                }
                break;
            }
            // A quote after a digit is a digit separator (C++14 [lex.icon]), not a literal.
            if ch == '"' || (ch == '\'' && !prev.is_ascii_alphanumeric()) {
                let q = ch;
                let from = i;
                i += 1;
                while i < c.len() && c[i] != '\n' && c[i] != q {
                    if c[i] == '\\' {
                        i += 1;
                    }
                    i += 1;
                }
                if i < c.len() && c[i] == q {
                    i += 1;
                }
                let to = i.min(c.len());
                if directive {
                    text.extend(&c[from..to]);
                }
                prev = q;
                continue;
            }
            if directive {
                text.push(ch);
            }
            prev = ch;
            i += 1;
        }
        let end = i.min(c.len());
        out.push(Logical {
            start,
            end,
            directive: directive.then_some(text),
        });
        k = end + 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splices_keep_source_positions() {
        let s = Spliced::new("ab\\\ncd\nef");
        let text: String = s.chars.iter().collect();
        assert_eq!(text, "abcd\nef");
        // `c` is line 2, column 1 of the source; `e` line 3.
        assert_eq!(s.orig(1, 3), (2, 1));
        assert_eq!(s.orig(2, 1), (3, 1));
    }

    #[test]
    fn directives_and_comments() {
        let s = Spliced::new("#define A 1 /* x\n y */ + 2\nint a; /* \n#if 0 */\n  # endif // c\n");
        let l = logical_lines(&s);
        assert_eq!(l[0].directive.as_deref(), Some("define A 1   + 2"));
        // The comment's `#if 0` is not a directive (the text line runs to the comment's end);
        // `# endif` is.
        assert_eq!(l.len(), 3);
        assert!(l[1].directive.is_none());
        assert_eq!(l[2].directive.as_deref(), Some(" endif  "));
    }
}
