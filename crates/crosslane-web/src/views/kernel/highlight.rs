//! Syntax highlighting of the kernel editor: the source as HTML, one block per line, that sits
//! under the transparent `<textarea>` and must match it character for character.
//!
//! One scanner for every dialect; what differs is the dialect's table of words ([`Lang`]): the
//! C dialects' (CUDA, HIP, Ascend C, MACA: C++ keywords, vendor qualifiers and builtins) and
//! WGSL's (its keywords, types and `@` attributes, WGSL spec "Keyword Summary", "Attributes"),
//! coloured with the same classes.
//!
//! A scanner of its own rather than [`crosslane_kernel::lexer`]: the editor shows text while
//! it is being typed, so an unterminated comment or a stray character must still colour the rest
//! of the line instead of failing, and comments need their extent (the core lexer keeps only
//! their start). Columns are 1-based characters, as in [`crosslane_kernel::KernelError`].

use std::fmt::Write;

use crate::kit::Html;

/// What marks a line or a position of the editor carries.
#[derive(Clone, Debug, Default)]
pub struct Marks {
    /// The line of the step shown (1-based), highlighted.
    pub current: Option<u32>,
    /// Wavy underlines: line, column (1-based), class (`error`, `warning`, `info`), message.
    pub squiggles: Vec<(u32, u32, &'static str, String)>,
    /// Lines a preprocessor conditional skipped, `(first, last)` (1-based): greyed, as an
    /// editor shows inactive code.
    pub skipped: Vec<(u32, u32)>,
}

/// Token classes; the CSS colours `.tk-<class>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    Plain,
    Keyword,
    Type,
    Builtin,
    Number,
    Str,
    Comment,
    Directive,
}

impl Class {
    fn css(self) -> Option<&'static str> {
        match self {
            Class::Plain => None,
            Class::Keyword => Some("tk-kw"),
            Class::Type => Some("tk-ty"),
            Class::Builtin => Some("tk-bi"),
            Class::Number => Some("tk-num"),
            Class::Str => Some("tk-str"),
            Class::Comment => Some("tk-com"),
            Class::Directive => Some("tk-pp"),
        }
    }
}

/// The source language of the editor's text: its table of words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    /// CUDA, HIP, Ascend C, MACA.
    C,
    /// A WGSL compute shader.
    Wgsl,
}

impl Lang {
    /// The language of `source`, as the kernel engine tells it
    /// ([`crosslane_kernel::wgsl::is_wgsl`]).
    pub fn of(source: &str) -> Lang {
        if crosslane_kernel::wgsl::is_wgsl(source) {
            Lang::Wgsl
        } else {
            Lang::C
        }
    }

    fn classify(self, word: &str) -> Class {
        match self {
            Lang::C => classify(word),
            Lang::Wgsl => classify_wgsl(word),
        }
    }
}

const KEYWORDS: &[&str] = &[
    "if",
    "else",
    "for",
    "while",
    "do",
    "return",
    "break",
    "continue",
    "switch",
    "case",
    "default",
    "sizeof",
    "const",
    "static",
    "inline",
    "extern",
    "volatile",
    "struct",
    "true",
    "false",
    "constexpr",
    "template",
    "typename",
    "using",
    "namespace",
    "goto",
    "auto",
];

const TYPES: &[&str] = &[
    "void",
    "int",
    "unsigned",
    "signed",
    "long",
    "short",
    "char",
    "float",
    "double",
    "bool",
    "half",
    "bfloat16_t",
    "dim3",
    "float2",
    "float4",
    "int2",
    "int4",
    "uint",
    "size_t",
];

/// Identifiers that name the launch geometry or a builtin without a vendor prefix.
const BUILTIN_NAMES: &[&str] = &[
    "threadIdx",
    "blockIdx",
    "blockDim",
    "gridDim",
    "warpSize",
    "__syncthreads",
    "__syncwarp",
];

/// Vendor qualifiers and builtin prefixes (`__global__`, `asc_shfl_xor`, `__shfl_sync`, …).
fn classify(word: &str) -> Class {
    if KEYWORDS.contains(&word) {
        Class::Keyword
    } else if TYPES.contains(&word) || (word.ends_with("_t") && word.len() > 2) {
        Class::Type
    } else if BUILTIN_NAMES.contains(&word)
        || word.starts_with("asc_")
        || word.starts_with("__shfl")
        || word.starts_with("__builtin_")
        || word.starts_with("__ballot")
        || word.starts_with("__any")
        || word.starts_with("__all")
        || word.starts_with("subgroup")
    {
        Class::Builtin
    } else if word.starts_with("__") && word.ends_with("__") && word.len() > 4 {
        // __global__, __device__, __shared__, __simt_vf__, __gm__, __launch_bounds__, …
        Class::Keyword
    } else {
        Class::Plain
    }
}

/// WGSL's keywords (WGSL spec, "Keyword Summary"), with the address spaces and access modes
/// of `var<…>` and `ptr<…>` (context-dependent names the reader takes as keywords).
const WGSL_KEYWORDS: &[&str] = &[
    "alias",
    "break",
    "case",
    "const",
    "const_assert",
    "continue",
    "continuing",
    "default",
    "diagnostic",
    "discard",
    "else",
    "enable",
    "false",
    "fn",
    "for",
    "if",
    "let",
    "loop",
    "override",
    "requires",
    "return",
    "struct",
    "switch",
    "true",
    "var",
    "while",
    "function",
    "private",
    "workgroup",
    "uniform",
    "storage",
    "read",
    "write",
    "read_write",
];

/// WGSL's predeclared types (WGSL spec, "Types"; the `vec2f`-style aliases by prefix).
const WGSL_TYPES: &[&str] = &[
    "bool", "i32", "u32", "f32", "f16", "vec2", "vec3", "vec4", "array", "atomic", "ptr",
];

/// WGSL built-in values and functions that have no common prefix (WGSL spec, "Built-in Values",
/// "Synchronization Built-in Functions").
const WGSL_BUILTINS: &[&str] = &[
    "local_invocation_index",
    "local_invocation_id",
    "global_invocation_id",
    "workgroup_id",
    "num_workgroups",
    "subgroup_invocation_id",
    "subgroup_size",
    "workgroupBarrier",
    "storageBarrier",
    "workgroupUniformLoad",
    "arrayLength",
];

/// A WGSL word ([`WGSL_KEYWORDS`], [`WGSL_TYPES`], [`WGSL_BUILTINS`]; `@` attributes are
/// keywords, taken whole by the scanner).
fn classify_wgsl(word: &str) -> Class {
    let vector_alias = |w: &str| {
        // vec2f, vec4u, mat3x3f, mat2x4h …
        let rest = w
            .strip_prefix("vec")
            .or_else(|| w.strip_prefix("mat"))
            .unwrap_or("");
        !rest.is_empty()
            && rest.chars().next().is_some_and(|c| c.is_ascii_digit())
            && rest
                .chars()
                .all(|c| c.is_ascii_digit() || matches!(c, 'x' | 'f' | 'h' | 'i' | 'u'))
    };
    if word.starts_with('@') || WGSL_KEYWORDS.contains(&word) {
        Class::Keyword
    } else if WGSL_TYPES.contains(&word) || vector_alias(word) {
        Class::Type
    } else if WGSL_BUILTINS.contains(&word)
        || word.starts_with("subgroup")
        || word.starts_with("quad")
        || word.starts_with("atomic")
    {
        Class::Builtin
    } else {
        Class::Plain
    }
}

/// The source as classified runs of characters (a run never spans a line break).
fn scan(source: &str, lang: Lang) -> Vec<Vec<(Class, String)>> {
    let chars: Vec<char> = source.chars().collect();
    let at = |k: usize| chars.get(k).copied().unwrap_or('\0');
    let mut lines: Vec<Vec<(Class, String)>> = vec![Vec::new()];
    let push = |lines: &mut Vec<Vec<(Class, String)>>, class: Class, text: &[char]| {
        let mut run = String::new();
        for &c in text {
            if c == '\n' {
                if let Some(line) = lines.last_mut() {
                    line.push((class, std::mem::take(&mut run)));
                }
                lines.push(Vec::new());
            } else {
                run.push(c);
            }
        }
        if let Some(line) = lines.last_mut() {
            line.push((class, run));
        }
    };
    let mut i = 0;
    let mut line_start = true;
    while i < chars.len() {
        let c = chars[i];
        let start = i;
        let class = if c == '/' && at(i + 1) == '/' {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            Class::Comment
        } else if c == '/' && at(i + 1) == '*' {
            i += 2;
            while i < chars.len() && !(chars[i] == '*' && at(i + 1) == '/') {
                i += 1;
            }
            i = (i + 2).min(chars.len());
            Class::Comment
        } else if c == '#' && line_start && lang == Lang::C {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            Class::Directive
        } else if c == '"' || c == '\'' {
            i += 1;
            while i < chars.len() && chars[i] != c && chars[i] != '\n' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i = (i + 1).min(chars.len());
            Class::Str
        } else if c.is_ascii_digit() || (c == '.' && at(i + 1).is_ascii_digit()) {
            while i < chars.len()
                && (chars[i].is_ascii_alphanumeric()
                    || chars[i] == '.'
                    || ((chars[i] == '+' || chars[i] == '-')
                        && matches!(chars[i - 1], 'e' | 'E' | 'p' | 'P')))
            {
                i += 1;
            }
            Class::Number
        } else if c.is_alphabetic()
            || c == '_'
            || (c == '@' && lang == Lang::Wgsl && (at(i + 1).is_alphabetic() || at(i + 1) == '_'))
        {
            // A WGSL attribute (`@compute`) is one word with its `@`.
            i += 1;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            lang.classify(&word)
        } else {
            i += 1;
            Class::Plain
        };
        if c == '\n' {
            line_start = true;
        } else if !c.is_whitespace() {
            line_start = false;
        }
        let end = i.min(chars.len());
        push(&mut lines, class, &chars[start..end]);
    }
    lines
}

/// Splits the run containing column `col` of `line` so that the token there (to the end of its
/// run, at least one character) is a separate run; returns the index of that run, or `None` past
/// the end of the line.
fn isolate(line: &mut Vec<(Class, String)>, col: u32) -> Option<usize> {
    let target = (col.max(1) - 1) as usize;
    let mut seen = 0usize;
    for k in 0..line.len() {
        let len = line[k].1.chars().count();
        if target < seen + len {
            let offset = target - seen;
            if offset > 0 {
                let (class, text) = line[k].clone();
                let head: String = text.chars().take(offset).collect();
                let tail: String = text.chars().skip(offset).collect();
                line[k] = (class, head);
                line.insert(k + 1, (class, tail));
                return Some(k + 1);
            }
            return Some(k);
        }
        seen += len;
    }
    None
}

/// Most squiggles drawn on one line; a line's diagnostics are already merged per rule
/// ([`crosslane_kernel::diaglog`]), so more than this is a flood, not information.
pub const MAX_PER_LINE: usize = 8;

/// Sources of more lines than this, or more bytes than [`PLAIN_BYTES`], are shown as plain text:
/// one text node for the code and one for the line numbers, without colours or marks. A pasted
/// or linked source of 20 000 lines made 100 000 spans, which took the browser seconds to lay out
/// ("the DOM stays small"); the diagnostics list and `#kernel-error` still say where
/// each problem is.
pub const PLAIN_LINES: usize = 5_000;

/// See [`PLAIN_LINES`].
pub const PLAIN_BYTES: usize = 512 * 1024;

/// Whether `source` is over [`PLAIN_LINES`] or [`PLAIN_BYTES`]: shown as plain text, without
/// colours or marks.
pub fn is_plain(source: &str) -> bool {
    source.len() > PLAIN_BYTES || source.bytes().filter(|b| *b == b'\n').count() >= PLAIN_LINES
}

/// The gutter of a plain source of `lines` lines: its numbers as one text node.
pub fn plain_gutter(lines: usize) -> Html {
    let mut numbers = String::with_capacity(lines * 6);
    for n in 1..=lines {
        let _ = writeln!(numbers, "{n}");
    }
    let mut gutter = Html::with_capacity(numbers.len() + 32);
    gutter.el("span").attr("class", "gl-plain").text(&numbers);
    gutter
}

/// [`render`] for a source over [`PLAIN_LINES`] or [`PLAIN_BYTES`]: the text and the line
/// numbers, escaped. (The editor shows such a source in the textarea itself instead,
/// `KernelView::render_plain_source`; this form is for a caller that has no textarea.)
fn plain(source: &str) -> (Html, Html) {
    let lines = source.split('\n').count();
    let mut code = Html::with_capacity(source.len() + 64);
    code.el("span")
        .attr("class", "plain")
        .attr("data-lines", lines)
        .text(source);
    (code, plain_gutter(lines))
}

/// Most coloured runs on one line; a longer line is shown uncoloured.
pub const LONG_LINE_RUNS: usize = 2_000;

/// The editor's highlighted text (one `<span class="cl" data-line="N">` per line) and its gutter
/// (one `<span class="gl" data-line="N">N</span>` per line), both carrying the marks; the words
/// coloured as `lang`'s table says ([`Lang::of`] the source).
pub fn render(source: &str, lang: Lang, marks: &Marks) -> (Html, Html) {
    if is_plain(source) {
        return plain(source);
    }
    let lines = scan(source, lang);
    let mut code = Html::with_capacity(source.len() * 3);
    let mut gutter = Html::with_capacity(lines.len() * 40);
    // The squiggles grouped by line once, so that the work is linear in the source plus the
    // squiggles (it was lines × squiggles: 10^4 lines with 10^4 diagnostics froze the tab), and at
    // most [`MAX_PER_LINE`] of them marked on one line (the rest counted in the gutter's title).
    let mut by_line: Vec<Vec<usize>> = vec![Vec::new(); lines.len()];
    let mut more_on_line: Vec<usize> = vec![0; lines.len()];
    for (i, (line, ..)) in marks.squiggles.iter().enumerate() {
        let Some(k) = (*line as usize).checked_sub(1).filter(|k| *k < lines.len()) else {
            continue;
        };
        if by_line[k].len() < MAX_PER_LINE {
            by_line[k].push(i);
        } else {
            more_on_line[k] += 1;
        }
    }
    // Skipped lines as one flag per line, so the work stays linear in lines plus ranges.
    let mut skipped = vec![false; lines.len()];
    for &(first, last) in &marks.skipped {
        let from = (first as usize).saturating_sub(1).min(lines.len());
        let to = (last as usize).min(lines.len()).max(from);
        skipped[from..to].iter_mut().for_each(|s| *s = true);
    }
    for (k, mut runs) in lines.into_iter().enumerate() {
        let n = k as u32 + 1;
        // A line of thousands of tokens (a pasted 10^5-term chain) is shown as plain text: one
        // text node instead of a span per token, which took the browser seconds to lay out.
        if runs.len() > LONG_LINE_RUNS {
            let text: String = runs.iter().map(|(_, t)| t.as_str()).collect();
            runs = vec![(Class::Plain, text)];
        }
        // Squiggles of this line, by run index (a run may carry several messages).
        let mut marked: Vec<(usize, &'static str, String)> = Vec::new();
        let mut at_end: Vec<(&'static str, String)> = Vec::new();
        let mut line_level: Option<&'static str> = None;
        let mut titles: Vec<String> = Vec::new();
        for &i in &by_line[k] {
            let (_, col, level, message) = &marks.squiggles[i];
            // Errors outrank warnings, warnings outrank notes, for the gutter's colour.
            line_level = match (line_level, *level) {
                (Some("error"), _) | (_, "error") => Some("error"),
                (Some("warning"), _) | (_, "warning") => Some("warning"),
                _ => Some(level),
            };
            titles.push(format!("{n}:{col}: {message}"));
            // The token under the column, skipping the whitespace before it.
            let mut target = (*col).max(1);
            let text: Vec<char> = runs.iter().flat_map(|(_, t)| t.chars()).collect();
            while (target as usize) <= text.len()
                && text
                    .get(target as usize - 1)
                    .is_some_and(|c| c.is_whitespace())
            {
                target += 1;
            }
            match isolate(&mut runs, target) {
                Some(i) => {
                    for m in &mut marked {
                        if m.0 >= i {
                            m.0 += 1;
                        }
                    }
                    marked.push((i, level, message.clone()));
                }
                None => at_end.push((level, message.clone())),
            }
        }
        if more_on_line[k] > 0 {
            titles.push(format!("and {} more on line {n}", more_on_line[k]));
        }
        let current = marks.current == Some(n);
        code.el("span")
            .attr(
                "class",
                match (current, skipped[k]) {
                    (true, true) => "cl current skipped",
                    (true, false) => "cl current",
                    (false, true) => "cl skipped",
                    (false, false) => "cl",
                },
            )
            .attr("data-line", n)
            .with(|h| {
                for (i, (class, text)) in runs.iter().enumerate() {
                    if text.is_empty() {
                        continue;
                    }
                    let run = |h: &mut Html| match class.css() {
                        Some(css) => h.el("span").attr("class", css).text(text),
                        None => {
                            h.push_text(text);
                        }
                    };
                    match marked.iter().find(|m| m.0 == i) {
                        Some((_, level, message)) => h
                            .el("span")
                            .attr("class", format_args!("sq sq-{level}"))
                            .attr("title", message)
                            .with(run),
                        None => run(h),
                    }
                }
                for (level, message) in &at_end {
                    h.el("span")
                        .attr("class", format_args!("sq sq-{level} sq-eol"))
                        .attr("title", message)
                        .text(" ");
                }
            });
        let mut class = String::from("gl");
        if current {
            class.push_str(" current");
        }
        if let Some(level) = line_level {
            class.push_str(" mark-");
            class.push_str(level);
        }
        gutter
            .el("span")
            .attr("class", &class)
            .attr("data-line", n)
            .attr("title", titles.join("\n"))
            .text(n);
    }
    (code, gutter)
}
