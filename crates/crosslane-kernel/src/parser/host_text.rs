//! The text of host-code tokens, for the notes host reading writes and the keys its readers
//! build: [`text_of`] joins tokens with nothing between them (a key, or a launch argument's
//! text parsed further), [`source_text`] writes them with the source's spacing (what a note
//! quotes), and [`split_commas`] splits a token range at its top-level commas.

use crate::lexer::{Tok, Token};

/// The tokens' text joined with nothing between them: a key (a host function template's
/// arguments, `launch<float>`) or an argument's text that host-code readers parse further
/// ([`crate::ast::HostArg::text`]). A note shows [`source_text`] instead.
pub(super) fn text_of(toks: &[Token]) -> String {
    toks.iter().map(|t| token_text(&t.tok)).collect()
}

/// One token's text: an identifier or punctuator as written, an integer in decimal, a string
/// literal as `"…"`.
fn token_text(tok: &Tok) -> String {
    match tok {
        Tok::Ident(n) => n.clone(),
        Tok::Int { value, .. } => value.to_string(),
        Tok::Float { value, .. } => value.to_string(),
        Tok::Punct(p) => (*p).to_string(),
        Tok::Str(_) => "\"…\"".into(),
        Tok::Char(c) => format!("'{c}'"),
        Tok::PrefixedChar { code, prefix } => format!("{prefix}'{code}'"),
        Tok::Eof => String::new(),
    }
}

/// The punctuators of more than one character (the lexer's, longest first), and `//`, `/*`
/// that would open a comment: two punctuators written together read as another token where
/// their text starts with one of these longer than the first (C++17 [lex.pptoken]/3: the
/// longest token wins; `-` `-` reads as `--`, while `<<` `<` still reads as `<<` `<`).
const LONGER: &[&str] = &[
    "<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=",
    "-=", "*=", "/=", "%=", "&=", "|=", "^=", "::", "..", "##", "//", "/*",
];

/// The tokens' text as the source writes it, for a note: one space where the source has white
/// space between two tokens (a line break included), none where it has none, read from the
/// tokens' positions; where those do not tell (tokens of a macro's expansion share its use's
/// position), a space only where C++ needs one, between two words (`const bool a`) or two
/// punctuators that would read as one (`- -x`). A floating literal keeps its point and `f`
/// suffix (`1.0f`, not `1`); an integer is written in decimal.
pub(super) fn source_text(toks: &[Token]) -> String {
    let mut s = String::new();
    let mut prev: Option<&Token> = None;
    for t in toks.iter().filter(|t| !matches!(t.tok, Tok::Eof)) {
        let piece = match &t.tok {
            Tok::Float { value, single } => float_text(*value, *single),
            other => token_text(other),
        };
        if let Some(p) = prev {
            if spaced(p, t, &s, &piece) {
                s.push(' ');
            }
        }
        s.push_str(&piece);
        prev = Some(t);
    }
    s
}

/// Whether [`source_text`] puts a space between `p` (ending `so_far`) and `t` (written `next`).
fn spaced(p: &Token, t: &Token, so_far: &str, next: &str) -> bool {
    let word = |tok: &Tok| {
        matches!(
            tok,
            Tok::Ident(_)
                | Tok::Int { .. }
                | Tok::Float { .. }
                | Tok::Char(_)
                | Tok::PrefixedChar { .. }
                | Tok::Str(_)
        )
    };
    let needed = (word(&p.tok) && word(&t.tok))
        || (matches!(p.tok, Tok::Punct(_)) && matches!(t.tok, Tok::Punct(_)) && {
            // The previous punctuator is the end of the text so far.
            let first = match &p.tok {
                Tok::Punct(q) => q.len(),
                _ => 0,
            };
            let start = so_far.len().saturating_sub(first);
            let joined = format!("{}{next}", so_far.get(start..).unwrap_or(""));
            LONGER
                .iter()
                .any(|l| l.len() > first && joined.starts_with(l))
        });
    let (end_line, end_col) = p.end;
    let written = if t.line > end_line {
        // A line break in the source.
        true
    } else {
        // After the previous token on its line: white space where a gap is; tokens whose
        // positions overlap or go backwards (a macro's expansion) tell nothing.
        t.line == end_line && t.col > end_col
    };
    needed || written
}

/// A floating literal's value as C++ writes it: with a point or an exponent (`1.0`, `0.5`,
/// `1e20`; Rust's shortest round-trip form) and `f` for a `float`.
fn float_text(value: f64, single: bool) -> String {
    let mut text = format!("{value:?}");
    if single {
        text.push('f');
    }
    text
}

/// Splits `from..to` at the commas outside brackets.
pub(super) fn split_commas(toks: &[Token], from: usize, to: usize) -> Vec<(usize, usize)> {
    let mut parts = Vec::new();
    let mut depth = 0usize;
    let mut start = from;
    for (k, t) in toks.iter().enumerate().take(to).skip(from) {
        match &t.tok {
            Tok::Punct("(" | "[" | "{") => depth += 1,
            Tok::Punct(")" | "]" | "}") => depth = depth.saturating_sub(1),
            Tok::Punct(",") if depth == 0 => {
                parts.push((start, k));
                start = k + 1;
            }
            _ => {}
        }
    }
    if start < to {
        parts.push((start, to));
    }
    parts
}

/// Allocations of page-locked host memory the device reads and writes directly (CUDA Runtime
/// API, "cudaMallocHost" / "cudaHostAlloc": "page-locked memory … accessible to the device";
/// with unified addressing the pointer is the device's as well — CUDA C++ Programming Guide,
/// Mapped Memory; HIP Runtime API, "hipHostMalloc" / "hipHostAlloc" / "hipMallocHost", the
/// same): each is `(&p, bytes[, flags])`, as `cudaMalloc`.
pub(super) const PINNED_ALLOCS: &[&str] = &[
    "cudaMallocHost",
    "cudaHostAlloc",
    "hipHostMalloc",
    "hipHostAlloc",
    "hipMallocHost",
    "mcMallocHost",
];

/// Whether memory from the allocating call `call` is host memory a kernel reads and writes
/// directly: managed memory (`cudaMallocManaged`; CUDA C++ Programming Guide, Unified Memory)
/// or page-locked host memory ([`PINNED_ALLOCS`]). Host code's own writes into it are what a
/// launch given it reads, and its launches' writes what host code reads back.
pub(super) fn host_visible(call: &str) -> bool {
    call.ends_with("Managed") || PINNED_ALLOCS.contains(&call)
}

/// The runtime calls host code is read for (allocations, copies, launches).
pub(super) const READ_CALLS: &[&str] = &[
    "cudaMalloc",
    "hipMalloc",
    "cudaMallocManaged",
    "hipMallocManaged",
    "cudaMallocHost",
    "cudaHostAlloc",
    "hipHostMalloc",
    "hipHostAlloc",
    "hipMallocHost",
    "mcMallocHost",
    "cudaMallocAsync",
    "hipMallocAsync",
    "aclrtMalloc",
    "cudaMemcpy",
    "hipMemcpy",
    "aclrtMemcpy",
    "cudaMemcpyAsync",
    "hipMemcpyAsync",
    "cudaMemcpyToSymbol",
    "hipMemcpyToSymbol",
    "cudaMemcpyFromSymbol",
    "hipMemcpyFromSymbol",
    "hipLaunchKernelGGL",
    "cudaLaunchKernel",
    "hipLaunchKernel",
    "cudaLaunchCooperativeKernel",
    "hipLaunchCooperativeKernel",
    "cudaLaunchKernelEx",
    "hipLaunchKernelEx",
    "cudaMemset",
    "hipMemset",
    "aclrtMemset",
    "aclrtMemsetAsync",
    "cudaMemsetAsync",
    "hipMemsetAsync",
    "cudaMallocPitch",
    "hipMallocPitch",
    "cudaMemcpy2D",
    "hipMemcpy2D",
    "cudaGetDeviceProperties",
    "hipGetDeviceProperties",
    "cudaDeviceGetAttribute",
    "hipDeviceGetAttribute",
    "cudaOccupancyMaxPotentialBlockSize",
    "hipOccupancyMaxPotentialBlockSize",
    "cudaOccupancyMaxActiveBlocksPerMultiprocessor",
    "hipOccupancyMaxActiveBlocksPerMultiprocessor",
    // MetaX MACA's runtime (`mc_runtime.h`): the CUDA runtime's calls under an `mc` prefix, with
    // the same parameters (`mcMalloc(&p, bytes)`, `mcMemcpy(dst, src, bytes,
    // mcMemcpyHostToDevice)`, `mcMemset(p, v, bytes)`). The MACA documents held here do not
    // cover the runtime; the source is code: MetaX's own libraries (mcSPARSE, mcBLAS samples)
    // call them so.
    "mcMalloc",
    "mcMallocManaged",
    "mcMemcpy",
    "mcMemcpyAsync",
    "mcMemcpyToSymbol",
    "mcMemcpyFromSymbol",
    "mcMemset",
    "mcMemsetAsync",
];
