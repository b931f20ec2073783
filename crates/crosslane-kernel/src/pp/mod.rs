//! The preprocessor: C++17 \[cpp\] as `clang -E` applies it, run on the source before the parser.
//!
//! Phases: backslash line splicing and comments (\[lex.phases\]/1.2–1.3, `lines`); directive lines
//! in order with the conditional-inclusion stack (\[cpp.cond\], `cond`), `#if` expressions in
//! `intmax_t` (`expr`), `#define`/`#undef` taking effect from their line (\[cpp.replace\]),
//! `#error`, `#warning`, `#line`, `#pragma` and `#include` (headers are not read: noted);
//! then the text lines that survive are scanned by the lexer and their macros expanded with
//! rescanning and hide sets (`expand`). Predefined macros per dialect and target are one table
//! (`predefined`); user defines (`--define` / `--undefine`) follow them in order.
//!
//! Every token keeps the line and column the user wrote it at; a token a macro produced takes
//! the position of the macro's name at the call (an argument's tokens keep their own), each
//! distinct identifier of the replacement a column of its own inside the name, because the
//! parser keys names by position. The [`PpRecord`] says which branch each conditional took and
//! which lines it skipped (the page greys them).
//!
//! Written here rather than taken from the `pp-rs` crate (naga's GLSL preprocessor): that one
//! follows the GLSL ES rules — no variadic macros, `__VA_OPT__`, `__has_include` or `#warning`,
//! `#if` arithmetic and literals of GLSL, GLSL's own token set (no `::`, C++ literal suffixes
//! and digit separators) and its own location type — so it would need as much code around it as
//! it saves, and every token would be lexed twice.
//!
//! Bounds: the tokens produced, every expansion counting at least one, stay within
//! [`Limits::max_tokens`]; macro calls nested in arguments and `#if` expressions within
//! [`Limits::max_depth`]; nothing recurses over the input's length.

mod cond;
mod expand;
mod expr;
mod headers;
mod lines;
pub mod predefined;

use std::collections::HashMap;
use std::rc::Rc;

use serde::{Deserialize, Serialize};

use super::ast::Span;
use super::budget::Limits;
use super::lexer::{lex_fragment, lex_with, Comment, Tok, Token};
use super::{KernelDiagnostic, KernelError};
use crosslane_core::result::Level;
use crosslane_core::Dialect;
use expand::{Expander, Macro};
use lines::{logical_lines, Spliced};

pub use cond::{Branch, Conditional, LineRange, PpRecord};

/// A user's `--define NAME[=VALUE]` or `--undefine NAME`, applied in order after the predefined
/// macros (as `clang -D`/`-U`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UserMacro {
    /// `NAME` (replacement `1`), `NAME=` (empty), `NAME=VALUE`, or `NAME(a,b)=VALUE`.
    Define(String),
    /// `NAME`.
    Undefine(String),
}

impl UserMacro {
    /// Reads a list as typed in the page's field or a scenario: words separated by white space,
    /// each `-DNAME[=VALUE]`, `-UNAME`, or a bare `NAME[=VALUE]` (a define). A value cannot
    /// hold white space here (the CLI's `--define` can).
    ///
    /// # Errors
    /// A word whose name is not an identifier.
    pub fn parse_list(text: &str) -> Result<Vec<UserMacro>, String> {
        let mut out = Vec::new();
        for w in text.split_whitespace() {
            let u = if let Some(n) = w.strip_prefix("-U") {
                UserMacro::Undefine(n.to_string())
            } else {
                UserMacro::Define(w.strip_prefix("-D").unwrap_or(w).to_string())
            };
            let name = u.name();
            if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
                return Err(format!(
                    "`{w}`: expected -DNAME[=VALUE], -UNAME or NAME[=VALUE]"
                ));
            }
            out.push(u);
        }
        Ok(out)
    }

    /// The macro's name.
    pub fn name(&self) -> &str {
        let (UserMacro::Define(t) | UserMacro::Undefine(t)) = self;
        let end = t
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(t.len());
        &t[..end]
    }
}

/// What a preprocessing run is told besides the source.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PpOptions {
    /// User defines and undefines, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub defines: Vec<UserMacro>,
    /// The target: CUDA `sm_XX`, or an AMD processor `gfxNNN` for HIP ([`predefined`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arch: Option<String>,
    /// What `__FILE__` expands to; default `<source>`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
}

impl PpOptions {
    /// Whether nothing is set (the defaults).
    pub fn is_empty(&self) -> bool {
        self.defines.is_empty() && self.arch.is_none() && self.file.is_none()
    }
}

/// The preprocessor's output: the tokens the parser reads (ending in [`Tok::Eof`]), the
/// comments of the lines kept, notes and warnings, and the conditionals' record.
#[derive(Clone, Debug, Default)]
pub struct Preprocessed {
    /// Tokens after macro expansion, at their source positions.
    pub tokens: Vec<Token>,
    /// Comments of the text lines kept, at their source positions.
    pub comments: Vec<Comment>,
    /// `#include` notes, `#warning`s, `#pragma unroll` notes, macro redefinitions.
    pub diagnostics: Vec<KernelDiagnostic>,
    /// Which branch each conditional took and which lines it skipped.
    pub record: PpRecord,
    /// The object-like macros defined at the end of the source, each as its replacement's
    /// spelling (`bfloat16` → `maca_bfloat16`), for names the run is given outside the source
    /// (`--entry 'k<bfloat16, 4>'`).
    pub object_macros: HashMap<String, String>,
}

/// A token while preprocessing: the lexer's token, its hide set (ids of the macros whose
/// expansion made it), whether white space preceded it, and a literal's spelling as written.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PTok {
    pub t: Token,
    pub hide: Vec<u32>,
    pub space: bool,
    pub spell: Option<Rc<str>>,
}

/// A token's spelling rebuilt from its kind: an integer in decimal (with `u` when unsigned), a
/// float as Rust's shortest round-trip form (with `f` when single), a string or character in
/// quotes; empty for [`Tok::Eof`].
pub fn spell(t: &Tok) -> String {
    match t {
        Tok::Ident(s) => s.clone(),
        Tok::Int {
            value, unsigned, ..
        } => format!("{value}{}", if *unsigned { "u" } else { "" }),
        Tok::Float { value, single } => {
            format!("{value:?}{}", if *single { "f" } else { "" })
        }
        Tok::Str(s) => format!("\"{s}\""),
        Tok::Char(c) => format!("'{}'", char::from_u32(*c).unwrap_or('?')),
        Tok::PrefixedChar { code, prefix } => {
            format!("{prefix}'{}'", char::from_u32(*code).unwrap_or('?'))
        }
        Tok::Punct(p) => (*p).to_string(),
        Tok::Eof => String::new(),
    }
}

/// Tokens of `text` (line `line` of the source) with spacing and literal spellings.
fn fragment(text: &str, line: u32, col: u32, max: u64) -> Result<Vec<PTok>, KernelError> {
    let lexed = lex_fragment(text, max)
        .map_err(|e| KernelError::new(line, col, format!("in this directive: {}", e.message)))?;
    let chars: Vec<char> = text.chars().collect();
    Ok(with_spacing(lexed.tokens, &chars, &[0])
        .into_iter()
        .map(|mut p| {
            p.t.line = line;
            p.t.col = col;
            p.t.end = (line, col);
            p
        })
        .collect())
}

/// `toks` (without [`Tok::Eof`]) as [`PTok`]s: spacing from the gap before each, literal
/// spellings from `chars` (whose lines start at `starts`).
fn with_spacing(toks: Vec<Token>, chars: &[char], starts: &[usize]) -> Vec<PTok> {
    let idx = |(line, col): (u32, u32)| {
        starts
            .get((line as usize).saturating_sub(1))
            .copied()
            .unwrap_or(chars.len())
            .saturating_add((col as usize).saturating_sub(1))
            .min(chars.len())
    };
    let mut prev_end: Option<(u32, u32)> = None;
    let mut out = Vec::with_capacity(toks.len());
    for t in toks {
        if t.tok == Tok::Eof {
            continue;
        }
        let space = prev_end.is_some_and(|e| e != (t.line, t.col));
        prev_end = Some(t.end);
        let (a, b) = (idx((t.line, t.col)), idx(t.end));
        // An alternative token (`xor`, `and`) keeps its spelling: it is the operator in every
        // respect "except for its spelling" (C++17 [lex.digraph]/2), and `##` and `#` work on
        // spellings ([cpp.concat]/3, [cpp.stringize]/2): `__shfl_ ## xor` is `__shfl_xor`.
        let alternative =
            matches!(t.tok, Tok::Punct(_)) && chars.get(a).is_some_and(|c| c.is_ascii_alphabetic());
        let spell = (alternative
            || matches!(
                t.tok,
                Tok::Int { .. } | Tok::Float { .. } | Tok::Char(_) | Tok::PrefixedChar { .. }
            ))
        .then(|| Rc::from(chars[a..b.max(a)].iter().collect::<String>().as_str()));
        out.push(PTok {
            t,
            hide: Vec::new(),
            space,
            spell,
        });
    }
    out
}

/// A directive's effect on the text lines after it, replayed while they expand.
#[derive(Clone)]
enum Event {
    Define(String, Rc<Macro>),
    Undef(String),
    Line(i64, Option<String>),
}

/// Preprocesses `source` for `dialect` on `lanes`-wide warps.
///
/// # Errors
/// [`KernelError`] at its line: `#error` (with its text), a malformed directive or `#if`
/// expression, an unbalanced conditional, a macro call that does not close or has the wrong
/// number of arguments, a `##` that makes no token, an `--arch` the dialect does not take, a
/// lexer error, or a budget (tokens, depth) whose message names the flag that raises it.
pub fn preprocess(
    source: &str,
    dialect: Dialect,
    lanes: usize,
    options: &PpOptions,
    limits: &Limits,
) -> Result<Preprocessed, KernelError> {
    let spliced = Spliced::new(source);
    let logical = logical_lines(&spliced);
    let max_tokens = limits.max_tokens;
    let mut ex = Expander {
        macros: HashMap::new(),
        spent: 0,
        max_tokens,
        max_depth: limits.depth(),
        file: options.file.clone().unwrap_or_else(|| "<source>".into()),
        line_delta: 0,
        pragmas: Vec::new(),
        copies: 0,
    };
    let mut next_id = 0u32;
    let predefined = predefined::predefined(dialect, lanes, options.arch.as_deref())
        .map_err(|m| KernelError::new(1, 1, m))?;
    for (name, value) in predefined {
        let m = define(&format!("{name} {value}"), 1, 1, &mut next_id, max_tokens)?;
        ex.macros.insert(m.0, Rc::new(m.1));
    }
    for u in &options.defines {
        match u {
            UserMacro::Define(text) => {
                // `NAME=VALUE` is `#define NAME VALUE`; a bare `NAME` is `#define NAME 1`.
                let text = match text.split_once('=') {
                    Some((head, value)) => format!("{head} {value}"),
                    None => format!("{text} 1"),
                };
                let (name, m) = define(&text, 1, 1, &mut next_id, max_tokens)
                    .map_err(|e| KernelError::new(1, 1, format!("--define {}", e.message)))?;
                ex.macros.insert(name, Rc::new(m));
            }
            UserMacro::Undefine(name) => {
                ex.macros.remove(name.trim());
            }
        }
    }
    // `assert` as `<assert.h>` defines it, which nvcc's and hipcc's runtime headers bring into
    // every translation unit; `NDEBUG` given with `--define` turns it off ([`headers::assert_macro`]).
    if dialect != Dialect::Wgsl {
        let text = headers::assert_macro(ex.macros.contains_key("NDEBUG"));
        let (name, m) = define(text, 1, 1, &mut next_id, max_tokens)?;
        ex.macros.insert(name, Rc::new(m));
    }
    let initial = ex.macros.clone();
    let mut blank = spliced.chars.clone();
    let mut state = cond::Stack::default();
    let mut events: Vec<(u32, Event)> = Vec::new();
    let mut local_includes = Vec::new();
    let mut diags = Vec::new();
    // Contraction pragmas by line (`crate::contract::pragma_mode`).
    let mut contract: Vec<(u32, bool)> = Vec::new();
    for l in &logical {
        let first = spliced.orig_line(l.start);
        let last = spliced.orig_line(l.end.saturating_sub(1).max(l.start));
        let Some(text) = &l.directive else {
            if !state.active() {
                blank_range(&mut blank, l.start, l.end);
            }
            continue;
        };
        blank_range(&mut blank, l.start, l.end);
        let hash_col = spliced.origin.get(l.start..l.end).and_then(|o| {
            spliced.chars[l.start..l.end]
                .iter()
                .position(|c| *c == '#')
                .and_then(|k| o.get(k))
                .map(|p| p.1)
        });
        let col = hash_col.unwrap_or(1);
        let body = text.trim_start();
        let name_end = body
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(body.len());
        let (word, rest) = body.split_at(name_end);
        let shown = format!("#{}", body.trim_end());
        let err = |m: String| KernelError::new(first, col, m);
        match word {
            "if" | "ifdef" | "ifndef" | "elif" | "elifdef" | "elifndef" | "else" | "endif" => {
                let evaluate = |ex: &mut Expander| -> Result<bool, KernelError> {
                    match word {
                        "ifdef" | "elifdef" => {
                            Ok(ex.macros.contains_key(one_name(rest, word).map_err(err)?)
                                || builtin_name(rest.trim()))
                        }
                        "ifndef" | "elifndef" => {
                            Ok(!ex.macros.contains_key(one_name(rest, word).map_err(err)?)
                                && !builtin_name(rest.trim()))
                        }
                        _ => if_expr(ex, rest, first, col, &mut diags),
                    }
                };
                state.directive(word, first, last, col, &shown, evaluate, &mut ex)?;
            }
            _ if !state.active() => {}
            "" => {}
            "define" => {
                let (name, m) = define(rest, first, col, &mut next_id, max_tokens)?;
                if let Some(old) = ex.macros.get(&name) {
                    // The source's own `assert` replaces the header's without a word, as a
                    // source that includes no `<assert.h>` would have it.
                    if !old.same_as(&m) && name != "assert" {
                        diags.push(diag(first, col, Level::Warning, format!("macro `{name}` redefined ([cpp.replace]/2: a different definition replaces it from here)")));
                    }
                }
                let m = Rc::new(m);
                ex.macros.insert(name.clone(), m.clone());
                events.push((first, Event::Define(name, m)));
            }
            "undef" => {
                let name = one_name(rest, word).map_err(err)?.to_string();
                ex.macros.remove(&name);
                events.push((first, Event::Undef(name)));
            }
            "include" | "include_next" | "import" => {
                // C17 7.2/1: `assert` is defined anew by the state of `NDEBUG` at each
                // inclusion of `<assert.h>` (C++17 [cassert.syn]: `<cassert>` the same).
                if rest.trim_start().starts_with('"') {
                    local_includes.push((first, rest.trim().to_string()));
                }
                // hip-tests' common header: its platform macros; rocPRIM's and hipCUB's headers:
                // their configuration macros — unless the file defines them.
                let amd = ex.macros.contains_key("__HIP_PLATFORM_AMD__");
                for text in headers::hip_test_macros(rest, amd)
                    .iter()
                    .chain(headers::rocprim_macros(rest, amd))
                {
                    let (name, m) = define(text, first, col, &mut next_id, max_tokens)?;
                    if !ex.macros.contains_key(&name) {
                        let m = Rc::new(m);
                        ex.macros.insert(name.clone(), m.clone());
                        events.push((first, Event::Define(name, m)));
                    }
                }
                if headers::is_assert_header(rest) {
                    let text = headers::assert_macro(ex.macros.contains_key("NDEBUG"));
                    let (name, m) = define(text, first, col, &mut next_id, max_tokens)?;
                    let m = Rc::new(m);
                    ex.macros.insert(name.clone(), m.clone());
                    events.push((first, Event::Define(name, m)));
                }
                diags.push(diag(
                    first,
                    col,
                    Level::Info,
                    format!(
                        "{} skipped: headers are not read (the vendors' builtins are known by name)",
                        shown.trim()
                    ),
                ))
            }
            "error" => return Err(err(format!("#error{}", rest.trim_end()))),
            "warning" => diags.push(diag(
                first,
                col,
                Level::Warning,
                format!("#warning{}", rest.trim_end()),
            )),
            "line" => {
                let toks = fragment(rest, first, col, max_tokens)?;
                let toks = ex.expand(&toks, 0, &mut |_, _| {})?;
                let n = match toks.first().map(|t| &t.t.tok) {
                    Some(Tok::Int { value, .. }) => *value,
                    _ => return Err(err("#line takes a line number ([cpp.line]/3)".into())),
                };
                let file = match toks.get(1).map(|t| &t.t.tok) {
                    Some(Tok::Str(s)) => Some(s.clone()),
                    None => None,
                    Some(_) => {
                        return Err(err(
                            "#line's file name must be a string literal ([cpp.line]/4)".into(),
                        ))
                    }
                };
                // The line after the directive has number `n`.
                let delta = n as i64 - (i64::from(last) + 1);
                apply(&mut ex, &Event::Line(delta, file.clone()));
                events.push((first, Event::Line(delta, file)));
            }
            "pragma" => {
                let p = rest.trim();
                if p.starts_with("unroll") {
                    diags.push(diag(first, col, Level::Info, format!("#pragma {p} noted: the loop runs as written (unrolling changes no result)")));
                }
                if let Some(fuse) = crate::contract::pragma_mode(p) {
                    contract.push((first, fuse));
                }
                // `#pragma pack(1)`, `#pragma pack(push, 2)`: a maximum member alignment
                // (GCC manual, "Structure-Layout Pragmas"), which would change `sizeof` and the
                // offsets of the structs after it; not modelled, so refused rather than dropped.
                let pack = p.strip_prefix("pack").map(str::trim_start);
                if pack.is_some_and(|a| a.starts_with('(') && a.chars().any(|c| c.is_ascii_digit()))
                {
                    return Err(err(format!(
                        "`#pragma {p}` sets the structs' member alignment, which is not modelled \
                         here (dropping it would give the wrong sizeof and offsets): write \
                         `__attribute__((packed))` on each struct it packs to 1 byte, or lay the \
                         members out so that none needs padding"
                    )));
                }
            }
            _ => {
                return Err(err(format!(
                    "unknown preprocessor directive `#{word}` ([cpp]/1)"
                )))
            }
        }
    }
    let mut record = state.finish()?;
    record.local_includes = local_includes;
    // The text lines that survive, scanned with their source positions.
    let text: String = blank.iter().collect();
    let lexed = lex_with(&text, max_tokens).map_err(|e| {
        let (line, col) = spliced.orig(e.line, e.col);
        KernelError::new(line, col, e.message)
    })?;
    let eof = lexed.tokens.last().cloned();
    let mut toks = with_spacing(lexed.tokens, &spliced.chars, &spliced.line_starts);
    for p in &mut toks {
        let (line, col) = spliced.orig(p.t.line, p.t.col);
        let end = spliced.orig(p.t.end.0, p.t.end.1);
        p.t.line = line;
        p.t.col = col;
        p.t.end = end;
    }
    ex.macros = initial;
    ex.line_delta = 0;
    ex.file = options.file.clone().unwrap_or_else(|| "<source>".into());
    ex.spent = ex.spent.saturating_add(toks.len() as u64);
    let mut next_event = 0usize;
    let out = ex.expand(&toks, 0, &mut |ex, line| {
        while let Some((at, e)) = events.get(next_event) {
            if *at >= line {
                break;
            }
            apply(ex, e);
            next_event += 1;
        }
    })?;
    let mut tokens: Vec<Token> = out.into_iter().map(|p| p.t).collect();
    if let Some(mut e) = eof {
        let (line, col) = spliced.orig(e.line, e.col);
        e.line = line;
        e.col = col;
        e.end = (line, col);
        tokens.push(e);
    }
    for (line, p) in &ex.pragmas {
        if let Some(fuse) = crate::contract::pragma_mode(p) {
            contract.push((*line, fuse));
        }
        if p.trim_start().starts_with("unroll") {
            diags.push(diag(*line, 1, Level::Info, format!("_Pragma(\"{p}\") noted: the loop runs as written (unrolling changes no result)")));
        }
    }
    record.fp_contract = contract_ranges(&contract, &tokens);
    let comments = lexed
        .comments
        .into_iter()
        .map(|mut c| {
            let (line, col) = spliced.orig(c.line, c.col);
            c.line = line;
            c.col = col;
            c
        })
        .collect();
    let object_macros = ex
        .macros
        .iter()
        .filter(|(_, m)| m.params.is_none() && !m.body.is_empty())
        .map(|(n, m)| {
            let text: Vec<String> = m.body.iter().map(expand::spell_tok).collect();
            (n.clone(), text.join(" "))
        })
        .collect();
    Ok(Preprocessed {
        tokens,
        comments,
        diagnostics: diags,
        record,
        object_macros,
    })
}

/// Blanks characters `from..to` (new-lines kept, so lines keep their numbers).
fn blank_range(chars: &mut [char], from: usize, to: usize) {
    for c in chars.iter_mut().take(to).skip(from) {
        if *c != '\n' {
            *c = ' ';
        }
    }
}

/// A diagnostic at `line`:`col`.
/// Each contraction pragma's range: from its line to the line of the `}` that closes the
/// compound statement it stands in (the tokens after it, counted by brace depth), or to the
/// end of the source at namespace scope (Clang Language Extensions, "Extensions to specify
/// floating-point flags": the pragma applies to the rest of its compound statement).
fn contract_ranges(
    pragmas: &[(u32, bool)],
    tokens: &[Token],
) -> Vec<crate::contract::ContractPragma> {
    if pragmas.is_empty() {
        return Vec::new();
    }
    let mut order: Vec<usize> = (0..pragmas.len()).collect();
    order.sort_by_key(|&k| pragmas.get(k).map_or(0, |p| p.0));
    let mut out: Vec<crate::contract::ContractPragma> = order
        .iter()
        .filter_map(|&k| pragmas.get(k))
        .map(|&(line, fuse)| crate::contract::ContractPragma {
            line,
            end_line: u32::MAX,
            fuse,
        })
        .collect();
    // One walk over the tokens: a pragma opens at the brace depth of the tokens after it and
    // closes at the `}` that goes below that depth (open ones form a stack by depth).
    let (mut depth, mut next) = (0usize, 0usize);
    let mut open: Vec<(usize, usize)> = Vec::new();
    for t in tokens {
        while let Some(p) = out.get(next) {
            if p.line >= t.line {
                break;
            }
            open.push((next, depth));
            next += 1;
        }
        match t.tok {
            Tok::Punct("{") => depth += 1,
            Tok::Punct("}") => {
                while let Some(&(k, d)) = open.last() {
                    if d < depth {
                        break;
                    }
                    if let Some(p) = out.get_mut(k) {
                        p.end_line = t.line;
                    }
                    open.pop();
                }
                depth = depth.saturating_sub(1);
            }
            _ => {}
        }
    }
    out
}

fn diag(line: u32, col: u32, level: Level, message: String) -> KernelDiagnostic {
    KernelDiagnostic::new(Span { line, col }, level, message, "C++17 [cpp]")
}

/// Names defined without a `#define`: `__LINE__` and `__FILE__` (\[cpp.predefined\]/1).
/// Also the feature-test operators both host compilers define for `#ifdef` and `defined`
/// (GCC manual, "__has_include", "__has_builtin", "__has_attribute", "__has_cpp_attribute":
/// each "can be used with #ifdef"; Clang, "Feature Checking Macros"), so `#ifdef __has_include`
/// guards as it does under nvcc and hipcc; their values are [`HAS_ZERO`]'s.
fn builtin_name(name: &str) -> bool {
    matches!(
        name,
        "__LINE__"
            | "__FILE__"
            | "__has_include"
            | "__has_include_next"
            | "__has_builtin"
            | "__has_attribute"
            | "__has_cpp_attribute"
    )
}

/// The one identifier `#ifdef`, `#ifndef` and `#undef` take.
fn one_name<'a>(rest: &'a str, word: &str) -> Result<&'a str, String> {
    let mut words = rest.split_whitespace();
    match (words.next(), words.next()) {
        (Some(n), None)
            if n.chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') =>
        {
            Ok(n)
        }
        _ => Err(format!(
            "#{word} takes one macro name, got `{}`",
            rest.trim()
        )),
    }
}

/// Applies a directive's effect to the macro table.
fn apply(ex: &mut Expander, e: &Event) {
    match e {
        Event::Define(name, m) => {
            ex.macros.insert(name.clone(), m.clone());
        }
        Event::Undef(name) => {
            ex.macros.remove(name);
        }
        Event::Line(delta, file) => {
            ex.line_delta = *delta;
            if let Some(f) = file {
                ex.file = f.clone();
            }
        }
    }
}

/// `#define` operands: `NAME body` or `NAME(params) body` (\[cpp.replace\]); `__VA_ARGS__` names
/// a trailing `...`, a GNU `args...` its own name.
fn define(
    text: &str,
    line: u32,
    col: u32,
    next_id: &mut u32,
    max: u64,
) -> Result<(String, Macro), KernelError> {
    let err = |m: String| KernelError::new(line, col, m);
    let text = text.trim_start();
    let end = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    let (name, after) = text.split_at(end);
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        return Err(err(format!(
            "#define needs a macro name, got `{}`",
            text.trim()
        )));
    }
    if name == "defined" {
        return Err(err(
            "`defined` cannot be a macro name ([cpp.replace]/8)".into()
        ));
    }
    let mut params = None;
    let mut variadic = false;
    let mut body = after;
    if let Some(inner) = after.strip_prefix('(') {
        let Some((list, rest)) = inner.split_once(')') else {
            return Err(err(format!(
                "the parameter list of macro `{name}` does not close"
            )));
        };
        let mut ps: Vec<String> = Vec::new();
        let items: Vec<&str> = list.split(',').map(str::trim).collect();
        let count = items.len();
        for (k, p) in items.into_iter().enumerate() {
            if p.is_empty() && count == 1 {
                break;
            }
            let (p, dots) = match p.strip_suffix("...") {
                Some(n) => (n.trim(), true),
                None => (p, false),
            };
            if dots && k + 1 != count {
                return Err(err(format!(
                    "in macro `{name}`: `...` must be the last parameter"
                )));
            }
            let p = if dots && p.is_empty() {
                "__VA_ARGS__"
            } else {
                p
            };
            if p.is_empty()
                || !p.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                || p.starts_with(|c: char| c.is_ascii_digit())
            {
                return Err(err(format!(
                    "in macro `{name}`: `{p}` is not a parameter name"
                )));
            }
            if ps.iter().any(|q| q == p) {
                return Err(err(format!(
                    "in macro `{name}`: parameter `{p}` given twice"
                )));
            }
            variadic |= dots;
            ps.push(p.to_string());
        }
        params = Some(ps);
        body = rest;
    }
    let mut toks = fragment(body, line, col, max)?;
    if let Some(t) = toks.first_mut() {
        t.space = false;
    }
    let paste = |t: Option<&PTok>| t.is_some_and(|t| t.t.tok == Tok::Punct("##"));
    if paste(toks.first()) || paste(toks.last()) {
        return Err(err(format!(
            "in macro `{name}`: `##` cannot begin or end a replacement list ([cpp.concat]/1)"
        )));
    }
    *next_id = next_id.saturating_add(1);
    Ok((
        name.to_string(),
        Macro {
            id: *next_id,
            params,
            variadic,
            body: toks,
        },
    ))
}

/// Feature tests: `__has_include` is true for the standard library's and the toolkit's headers
/// ([`headers`]) and false for any other, because headers are not read; the others are false
/// because no builtin, feature or attribute is claimed by them.
const HAS_ZERO: &[&str] = &[
    "__has_include",
    "__has_include_next",
    "__has_builtin",
    "__has_feature",
    "__has_extension",
    "__has_attribute",
    "__has_cpp_attribute",
    "__has_c_attribute",
    "__has_declspec_attribute",
];

/// An integer token at `at`'s position.
fn int_at(at: &PTok, value: u64) -> PTok {
    PTok {
        t: Token {
            tok: Tok::Int {
                value,
                unsigned: false,
                long: false,
            },
            ..at.t.clone()
        },
        hide: Vec::new(),
        space: at.space,
        spell: None,
    }
}

/// `defined NAME`, `defined ( NAME )` and the feature tests replaced by their values
/// (\[cpp.cond\]/1, /4).
fn resolve_defined(
    toks: Vec<PTok>,
    ex: &Expander,
    diags: &mut Vec<KernelDiagnostic>,
    line: u32,
    col: u32,
) -> Result<Vec<PTok>, KernelError> {
    let mut out = Vec::with_capacity(toks.len());
    let mut i = 0;
    let ident = |t: Option<&PTok>| match t.map(|t| &t.t.tok) {
        Some(Tok::Ident(n)) => Some(n.clone()),
        _ => None,
    };
    let punct = |t: Option<&PTok>, p: &str| {
        t.is_some_and(|t| {
            t.t.tok
                == Tok::Punct(match p {
                    "(" => "(",
                    _ => ")",
                })
        })
    };
    while i < toks.len() {
        let t = &toks[i];
        let name = ident(Some(t));
        match name.as_deref() {
            Some("defined") => {
                let (n, used) = if let Some(n) = ident(toks.get(i + 1)) {
                    (n, 2)
                } else if punct(toks.get(i + 1), "(") && punct(toks.get(i + 3), ")") {
                    match ident(toks.get(i + 2)) {
                        Some(n) => (n, 4),
                        None => {
                            return Err(KernelError::new(
                                line,
                                col,
                                "`defined` takes a macro name ([cpp.cond]/1)",
                            ))
                        }
                    }
                } else {
                    return Err(KernelError::new(
                        line,
                        col,
                        "`defined` takes a macro name ([cpp.cond]/1)",
                    ));
                };
                let yes = ex.macros.contains_key(&n) || builtin_name(&n);
                out.push(int_at(t, u64::from(yes)));
                i += used;
            }
            Some(h) if HAS_ZERO.contains(&h) => {
                if !punct(toks.get(i + 1), "(") {
                    return Err(KernelError::new(
                        line,
                        col,
                        format!("`{h}` takes a parenthesized operand"),
                    ));
                }
                let mut depth = 0usize;
                let mut j = i + 1;
                let mut operand = String::new();
                while let Some(a) = toks.get(j) {
                    match a.t.tok {
                        Tok::Punct("(") => depth += 1,
                        Tok::Punct(")") => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    if j > i + 1 {
                        operand.push_str(&expand::spell_tok(a));
                    }
                    j += 1;
                }
                if j >= toks.len() {
                    return Err(KernelError::new(
                        line,
                        col,
                        format!("`{h}(` does not close"),
                    ));
                }
                let mut found = false;
                if h.starts_with("__has_include") {
                    // `__has_include_next` searches after the current header: there is none.
                    found = h == "__has_include"
                        && headers::has_include(
                            &operand,
                            ex.macros.contains_key("__CUDACC__"),
                            ex.macros.contains_key("__HIPCC__"),
                        );
                    diags.push(diag(
                        line,
                        col,
                        Level::Info,
                        if found {
                            format!(
                                "{h}({operand}) is true: a header the toolchain ships, whose \
                                 declarations crosslane knows by name"
                            )
                        } else {
                            format!(
                                "{h}({operand}) is false: not a header of the standard library \
                                 or the toolkit, and headers are not read"
                            )
                        },
                    ));
                }
                out.push(int_at(t, u64::from(found)));
                i = j + 1;
            }
            _ => {
                out.push(t.clone());
                i += 1;
            }
        }
    }
    Ok(out)
}

/// The value of an `#if` / `#elif` expression (\[cpp.cond\]).
fn if_expr(
    ex: &mut Expander,
    rest: &str,
    line: u32,
    col: u32,
    diags: &mut Vec<KernelDiagnostic>,
) -> Result<bool, KernelError> {
    let toks = fragment(rest, line, col, ex.max_tokens)?;
    let toks = resolve_defined(toks, ex, diags, line, col)?;
    let toks = ex.expand(&toks, 0, &mut |_, _| {})?;
    let toks = resolve_defined(toks, ex, diags, line, col)?;
    let values: Vec<Tok> = toks
        .into_iter()
        .map(|t| match t.t.tok {
            Tok::Ident(n) if n == "true" => Tok::Int {
                value: 1,
                unsigned: false,
                long: false,
            },
            // [cpp.cond]/9: every other identifier left is 0.
            Tok::Ident(_) => Tok::Int {
                value: 0,
                unsigned: false,
                long: false,
            },
            other => other,
        })
        .collect();
    expr::evaluate(&values, ex.max_depth)
        .map_err(|m| KernelError::new(line, col, format!("in #if: {m}")))
}

#[cfg(test)]
mod tests;
