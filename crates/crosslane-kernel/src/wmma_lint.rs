//! A warning where a kernel's result may depend on which matrix element a `wmma::fragment`'s
//! `x[i]` holds. The CUDA C++ Programming Guide ("Warp Matrix Functions") says "the map of
//! matrix elements into each thread's fragment is unspecified" and allows direct access to
//! `x[]` only "where all threads in the warp will apply an element-wise operation uniformly to
//! all fragment elements". crosslane runs its own fixed mapping ([`crate::wmma_header`]), so a
//! use outside that case shows crosslane's mapping, not a device's.
//!
//! The check reads the tokens, statement by statement (pieces between `;`, `{` and `}`). A
//! piece that touches `F.x[…]` of a fragment variable `F` is an element-wise update when it
//! assigns to `F.x[i]` (`i` one name), every fragment element it names has that same index,
//! its right-hand side does not use `i` outside those brackets, and it names no lane-dependent
//! value (`threadIdx`, `__lane_id`, `laneid`). Any other piece gets the warning, once per line.

use crate::ast::Span;
use crate::lexer::{Tok, Token};
use crate::KernelDiagnostic;
use crosslane_core::result::Level;
use std::collections::HashSet;

/// The rule the warning cites.
const RULE: &str = "CUDA C++ Programming Guide, Warp Matrix Functions";

/// Names whose value differs between the lanes of a warp.
const LANE_DEPENDENT: [&str; 4] = ["threadIdx", "__lane_id", "laneid", "laneId"];

fn ident(t: Option<&Token>) -> Option<&str> {
    match t.map(|t| &t.tok) {
        Some(Tok::Ident(s)) => Some(s),
        _ => None,
    }
}

fn punct(t: Option<&Token>, p: &str) -> bool {
    matches!(t.map(|t| &t.tok), Some(Tok::Punct(q)) if *q == p)
}

/// The index just past the bracket that closes the `open` (`[` or `<`) at `at`; `None` when
/// it is not closed. `>>` closes two levels.
fn close(tokens: &[Token], at: usize, open: &str, shut: &str) -> Option<usize> {
    let mut depth = 0i64;
    for (i, t) in tokens.iter().enumerate().skip(at) {
        match &t.tok {
            Tok::Punct(p) if *p == open => depth += 1,
            Tok::Punct(p) if *p == shut => depth -= 1,
            Tok::Punct(">>") if shut == ">" => depth -= 2,
            Tok::Punct(";" | "{" | "}") => return None,
            _ => {}
        }
        if depth <= 0 {
            return Some(i + 1);
        }
    }
    None
}

/// The variables declared with a `fragment<…>` type outside the header's own line.
fn fragment_names(tokens: &[Token], header_lines: &HashSet<u32>) -> HashSet<String> {
    let mut names = HashSet::new();
    for i in 0..tokens.len() {
        if ident(tokens.get(i)) != Some("fragment")
            || header_lines.contains(&tokens[i].line)
            || !punct(tokens.get(i + 1), "<")
        {
            continue;
        }
        let Some(mut j) = close(tokens, i + 1, "<", ">") else {
            continue;
        };
        while punct(tokens.get(j), "&") || punct(tokens.get(j), "*") {
            j += 1;
        }
        // `fragment<…> a, b[2];`
        while let Some(name) = ident(tokens.get(j)) {
            names.insert(name.to_string());
            j += 1;
            if punct(tokens.get(j), "[") {
                match close(tokens, j, "[", "]") {
                    Some(k) => j = k,
                    None => break,
                }
            }
            if !punct(tokens.get(j), ",") {
                break;
            }
            j += 1;
        }
    }
    names
}

/// One `F.x[…]` (or `F[…].x[…]`) in a piece: where it starts and ends (token indices, end
/// exclusive) and its index's text.
struct Use {
    start: usize,
    end: usize,
    index: Vec<String>,
}

fn text(t: &Token) -> String {
    match &t.tok {
        Tok::Ident(s) => s.clone(),
        Tok::Punct(p) => (*p).to_string(),
        Tok::Int { value, .. } => value.to_string(),
        other => format!("{other:?}"),
    }
}

fn uses(piece: &[Token], names: &HashSet<String>) -> Vec<Use> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < piece.len() {
        let start = i;
        if ident(piece.get(i)).is_some_and(|n| names.contains(n)) {
            let mut j = i + 1;
            if punct(piece.get(j), "[") {
                if let Some(k) = close(piece, j, "[", "]") {
                    j = k;
                }
            }
            if punct(piece.get(j), ".")
                && ident(piece.get(j + 1)) == Some("x")
                && punct(piece.get(j + 2), "[")
            {
                if let Some(end) = close(piece, j + 2, "[", "]") {
                    let index = piece[j + 3..end - 1].iter().map(text).collect();
                    out.push(Use { start, end, index });
                    i = end;
                    continue;
                }
            }
        }
        i += 1;
    }
    out
}

/// Whether `piece` is an element-wise update (module doc).
fn uniform(piece: &[Token], found: &[Use]) -> bool {
    const ASSIGN: [&str; 5] = ["=", "+=", "-=", "*=", "/="];
    let Some(op) = piece
        .iter()
        .position(|t| matches!(&t.tok, Tok::Punct(p) if ASSIGN.contains(p)))
    else {
        return false;
    };
    let Some(lhs) = found.iter().find(|u| u.end == op) else {
        return false;
    };
    // One name: a loop over the elements (`c.x[0] = v` changes an unspecified element).
    let [index] = lhs.index.as_slice() else {
        return false;
    };
    if !index.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        return false;
    }
    if found.iter().any(|u| u.index != lhs.index) {
        return false;
    }
    if piece
        .iter()
        .any(|t| ident(Some(t)).is_some_and(|n| LANE_DEPENDENT.contains(&n)))
    {
        return false;
    }
    // The index outside the brackets on the right-hand side (`c.x[i] = i`).
    !(op + 1..piece.len()).any(|k| {
        ident(piece.get(k)) == Some(index.as_str())
            && !found.iter().any(|u| u.start < k && k < u.end)
    })
}

/// The lines that hold crosslane's `<mma.h>` text (each `#include <mma.h>` line), in order;
/// empty without one.
pub fn header_lines(tokens: &[Token]) -> Vec<u32> {
    let mut lines: Vec<u32> = tokens
        .iter()
        .filter(|t| ident(Some(t)) == Some("__crosslane_no_layout"))
        .map(|t| t.line)
        .collect();
    lines.dedup();
    lines
}

/// `F.x` for every variable `F` declared with a `fragment<…>` type, the header's own
/// parameters included (`f` of `fill_fragment`): the arrays the trace shows as each lane's
/// elements ([`crate::ast::Program::element_arrays`]). Empty without `<mma.h>`.
pub fn fragment_arrays(tokens: &[Token]) -> Vec<String> {
    if !tokens
        .iter()
        .any(|t| ident(Some(t)) == Some("__crosslane_no_layout"))
    {
        return Vec::new();
    }
    let mut names: Vec<String> = fragment_names(tokens, &HashSet::new())
        .into_iter()
        .map(|n| format!("{n}.x"))
        .collect();
    names.sort();
    names
}

/// The warnings for `tokens` (the preprocessed source): one per line whose statement may
/// expose the fragment mapping.
pub fn mapping_warnings(tokens: &[Token]) -> Vec<KernelDiagnostic> {
    let header_lines: HashSet<u32> = header_lines(tokens).into_iter().collect();
    if header_lines.is_empty() {
        return Vec::new();
    }
    let names = fragment_names(tokens, &header_lines);
    if names.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut lines = HashSet::new();
    for piece in tokens.split(|t| matches!(&t.tok, Tok::Punct(";" | "{" | "}"))) {
        if piece
            .first()
            .is_some_and(|t| header_lines.contains(&t.line))
        {
            continue;
        }
        let found = uses(piece, &names);
        let Some(first) = found.first() else {
            continue;
        };
        if uniform(piece, &found) {
            continue;
        }
        let at = &piece[first.start];
        if !lines.insert(at.line) {
            continue;
        }
        let name = text(at);
        out.push(KernelDiagnostic::new(
            Span {
                line: at.line,
                col: at.col,
            },
            Level::Warning,
            format!(
                "`{name}.x[…]` is used here other than by an element-wise operation applied \
                 alike to every element: \"the map of matrix elements into each thread's \
                 fragment is unspecified\" (CUDA C++ Programming Guide, Warp Matrix Functions), \
                 so a result that depends on which element `x[i]` holds is not one a device \
                 promises; crosslane's mapping (element e = row * cols + col in lane \
                 e / num_elements, x[e % num_elements]) is its own, not any GPU's. Defined: \
                 `for (int i = 0; i < {name}.num_elements; i++) {name}.x[i] = alpha * {name}.x[i];`"
            ),
            RULE,
        ));
    }
    out
}
