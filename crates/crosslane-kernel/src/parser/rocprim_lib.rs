//! rocPRIM's (`<rocprim/rocprim.hpp>`) most used warp- and block-level names, declared here
//! over hipCUB's collectives, which crosslane models ([`super::cub`]; hipCUB on AMD *is*
//! rocPRIM: `hipcub::WarpReduce` calls `rocprim::warp_reduce`).
//!
//! A token pass after preprocessing, as [`super::std_constants`] is: where a source names
//! `rocprim::` and defines no `namespace rocprim` of its own (a pasted rocPRIM header keeps its
//! own definitions), declarations of this crate's own are put before the source:
//! - `rocprim::warp_reduce<T, VirtualWaveSize = wave, UseAllReduce = false>` with
//!   `storage_type` and `reduce(input, output, storage[, op])`, `reduce(input, output,
//!   valid_items, storage[, op])` (rocPRIM API, `rocprim::warp_reduce`). Which lanes hold the
//!   result is what hipCUB's model says (lane 0 of each logical warp; rocPRIM's reference does
//!   not promise the others, which stay undefined); `UseAllReduce` gives every lane of the
//!   logical warp lane 0's result ("whether to broadcast final reduction value to all
//!   threads");
//! - `rocprim::warp_scan<T, VirtualWaveSize>`: `inclusive_scan`, `exclusive_scan` and `scan`,
//!   each with or without the `reduction` output, and `broadcast` (rocPRIM API,
//!   `rocprim::warp_scan`): the reduction is the logical warp's total without `init`;
//! - `rocprim::block_reduce<T, BlockSizeX, Algorithm = using_warp_reduce, BlockSizeY,
//!   BlockSizeZ>`: `reduce(input, output[, valid_items][, storage][, op])` (rocPRIM API,
//!   `rocprim::block_reduce`: "the result is returned to the first thread");
//! - `rocprim::plus`, `maximum`, `minimum`; `lane_id()`, `warp_id()`,
//!   `flat_block_thread_id()`, `flat_block_id()`, `device_warp_size()`, `warp_size()` and
//!   `host_warp_size()` (the run's wave width, host code too; declared as
//!   `__rocprim_warp_size` / `__rocprim_host_warp_size`), `syncthreads()`,
//!   `wave_barrier()`, `detail::logical_warp_id<N>()` / `logical_lane_id<N>()` (a thread's
//!   flat id in its block over `N`, its lane modulo `N`); `warp_shuffle`, `warp_shuffle_up`,
//!   `warp_shuffle_down`, `warp_shuffle_xor` (rocPRIM API, "Warp-level intrinsics", HIP's
//!   `__shfl*` with the same `width`), `ballot`, `bit_count`, `masked_bit_count`.
//!
//! - `rocprim::block_scan`, `block_load` / `block_store` (and the direct functions),
//!   `block_exchange`, `warp_sort` (keys), the segmented warp reductions and `block_reduce`'s
//!   raking algorithms: [`super::rocprim_prelude`], which cites their sources;
//! - `rocprim::block_discontinuity`, `block_adjacent_difference`, `block_histogram`,
//!   `block_radix_sort` and the functors `minus`, `equal_to`, `less`, …:
//!   [`super::rocprim_blocks`], which cites theirs.
//!
//! The reductions combine in the order hipCUB's model runs (offsets 1, 2, 4, … of a
//! shuffle-down tree): rocPRIM's DPP variant pairs the same lanes at each step (quad_perm,
//! row_ror, row_bcast), so a commutative operator gives the same value, floats included.
//!
//! An error inside these declarations is placed at the source's line that calls into them
//! ([`place_error`]); their namespaces get no "read as file scope" note.

use super::std_constants::word;
use crate::lexer::{Tok, Token};

/// The qualifier a rocPRIM name keeps when these declarations do not define it
/// (`rocprim::block_load`): no namespace of the flattened source, so the name stays qualified
/// and its refusal names it ([`REFUSAL`]).
pub(super) const UNKNOWN_NS: &str = "__crosslane_rocprim";

/// What a refusal of a rocPRIM name not declared here says is read instead.
pub(super) const REFUSAL: &str = "rocPRIM's `warp_reduce` (also segmented), `warp_scan`, \
     `warp_sort` (keys), `warp_load`, `warp_store`, `warp_exchange`, `block_reduce`, \
     `block_scan`, `block_load`, `block_store`, `block_exchange`, `block_shuffle`, \
     `block_load_direct_blocked` / `_striped` and the stores, `block_discontinuity`, \
     `block_adjacent_difference`, `block_histogram`, `block_radix_sort`, `block_sort` (keys), \
     `block_run_length_decode`, \
     `plus` / `minus` / \
     `maximum` / `minimum` and the comparisons (`less`, `equal_to`, …), \
     `warp_shuffle*`, `ballot`, `lane_id`, `warp_id`, `warp_size`, `flat_block_thread_id` and \
     `detail::logical_warp_id` / `logical_lane_id` are read here, as are hipCUB's \
     `hipcub::WarpReduce`, `WarpScan`, `WarpLoad`, `WarpStore`, `WarpExchange`, `BlockReduce`, \
     `BlockScan`, `BlockLoad`, `BlockStore`, `BlockExchange` and `BlockRadixSort`; or paste the \
     rocPRIM definition into the file";

/// The first column of the declarations' tokens ([`crate::ast::ROCPRIM_PRELUDE_COL`]).
pub(super) use crate::ast::ROCPRIM_PRELUDE_COL as PRELUDE_COL;

/// An error whose position is inside the declarations, placed at the source's line that
/// calls into them: the last rocPRIM member or class the message's `in `…`` chain names
/// (`in `warp_reduce<int,16,1>::head_segmented_reduce<…>``) found in `source` as a call
/// (`.head_segmented_reduce(`), else the line of the source's first `rocprim::` at column 1.
/// Other errors are left as they are.
pub(super) fn place_error(source: &str, line: &mut u32, col: &mut u32, message: &str) {
    // A node the front end synthesizes shows its column modulo `SYNTH_COL` (`Span::shown`).
    if *col % crate::ast::SYNTH_COL < PRELUDE_COL {
        return;
    }
    // The names of the chain's frames, outermost first (`a<…>::b<…>` gives `a`, then `b`);
    // looked for innermost first.
    let mut names: Vec<String> = Vec::new();
    for frame in message.split("in `").skip(1) {
        let Some(end) = frame.find('`') else { continue };
        let mut depth = 0usize;
        let mut plain = String::new();
        for c in frame[..end].chars() {
            match c {
                '<' => depth += 1,
                '>' => depth = depth.saturating_sub(1),
                _ if depth == 0 => plain.push(c),
                _ => {}
            }
        }
        for part in plain.split("::") {
            let part = part.split('#').next().unwrap_or(part).trim();
            if !part.is_empty() && part.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                names.push(part.to_string());
            }
        }
    }
    let lines: Vec<&str> = source.lines().collect();
    // The search starts at the outermost frame's definition (the user's kernel), so a call in
    // another kernel of the file is not taken for it.
    let from = names
        .first()
        .and_then(|outer| {
            let call = format!("{outer}(");
            lines.iter().position(|l| l.contains(&call))
        })
        .unwrap_or(0);
    for name in names.iter().rev() {
        for (i, text) in lines.iter().enumerate().skip(from) {
            // The name as a whole word: `sort<` is not `warp_sort<`.
            let whole = |at: usize| {
                !text[..at]
                    .chars()
                    .next_back()
                    .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
            };
            let hit = [
                format!(".{name}("),
                format!("{name}<"),
                format!("::{name}("),
            ]
            .iter()
            .filter_map(|pat| {
                let at = text.find(pat.as_str())? + pat.find(name.as_str()).unwrap_or(0);
                whole(at).then_some(at)
            })
            .min();
            if let Some(at) = hit {
                *line = u32::try_from(i + 1).unwrap_or(*line);
                let chars = text[..at].chars().count();
                *col = u32::try_from(chars + 1).unwrap_or(1);
                return;
            }
        }
    }
    *col = 1;
}

/// The names the declarations define directly in `rocprim`.
const KNOWN: &[&str] = &[
    "block_reduce_algorithm",
    "block_scan_algorithm",
    "block_load_method",
    "block_store_method",
    "plus",
    "maximum",
    "minimum",
    "flat_block_thread_id",
    "flat_block_id",
    "lane_id",
    "warp_id",
    "device_warp_size",
    "syncthreads",
    "wave_barrier",
    "warp_shuffle",
    "warp_shuffle_up",
    "warp_shuffle_down",
    "warp_shuffle_xor",
    "ballot",
    "bit_count",
    "masked_bit_count",
    "warp_reduce",
    "warp_scan",
    "warp_sort",
    "block_reduce",
    "block_scan",
    "block_load",
    "block_store",
    "block_exchange",
    "warp_load",
    "warp_store",
    "warp_exchange",
    "block_shuffle",
    "warp_load_method",
    "warp_store_method",
    "block_load_direct_blocked",
    "block_load_direct_striped",
    "block_store_direct_blocked",
    "block_store_direct_striped",
    "empty_type",
    "minus",
    "multiplies",
    "equal_to",
    "not_equal_to",
    "less",
    "less_equal",
    "greater",
    "greater_equal",
    "block_histogram_algorithm",
    "block_discontinuity",
    "block_adjacent_difference",
    "block_histogram",
    "block_radix_sort",
    "block_sort",
    "block_run_length_decode",
];

/// The names they define in `rocprim::detail`.
const KNOWN_DETAIL: &[&str] = &["logical_warp_id", "logical_lane_id"];

/// `tokens` with rocPRIM's declarations above put before them when the source names
/// `rocprim::` and declares no `namespace rocprim` itself; else `tokens` unchanged.
pub(super) fn rocprim_lib(tokens: Vec<Token>) -> Vec<Token> {
    let names_rocprim = |w: &[Token]| {
        word(w.first()) == Some("rocprim")
            && matches!(w.get(1).map(|t| &t.tok), Some(Tok::Punct("::")))
    };
    let Some(first) = tokens
        .windows(2)
        .find(|w| names_rocprim(w))
        .map(|w| w[0].clone())
    else {
        return tokens;
    };
    let defines_own = tokens
        .windows(2)
        .any(|w| word(w.first()) == Some("namespace") && word(w.get(1)) == Some("rocprim"));
    if defines_own {
        return tokens;
    }
    let text = [
        super::rocprim_prelude::PRELUDE,
        super::rocprim_blocks::BLOCKS,
    ]
    .concat();
    let Ok(lexed) = crate::lexer::lex(&text) else {
        return tokens;
    };
    let tokens = mark_unknown(tokens);
    // Each declaration token at the line of the source's first `rocprim` and a column of its
    // own from [`PRELUDE_COL`] on: spans key declarations (a `__shared__` variable is one per
    // declaration site), so two tokens of the prelude never share one, and no column of the
    // source reaches them (an error there is placed at the source's call: [`place_error`]).
    prelude_at(lexed.tokens, tokens, first, PRELUDE_COL, 1 << 17)
}

/// `prelude` (lexed tokens) placed before `tokens`, each at `first`'s line and a column of its
/// own from `base` on (at most `band` columns, the last shared past that): spans key
/// declarations (a `__shared__` variable is one per declaration site), so two tokens of a
/// prelude never share one, and no column of the source reaches them. The one placement of
/// crosslane's library declarations (rocPRIM here, `cub_traits.rs`, `cccl_warp.rs`).
pub(super) fn prelude_at(
    prelude: Vec<Token>,
    tokens: Vec<Token>,
    first: Token,
    base: u32,
    band: u32,
) -> Vec<Token> {
    let mut out: Vec<Token> = prelude
        .into_iter()
        .filter(|t| !matches!(t.tok, Tok::Eof))
        .enumerate()
        .map(|(i, t)| {
            let i = u32::try_from(i).unwrap_or(u32::MAX).min(band - 1);
            let col = base + i;
            Token {
                tok: t.tok,
                line: first.line,
                col,
                end: (first.line, col.saturating_add(1)),
            }
        })
        .collect();
    out.extend(tokens);
    out
}

/// `tokens` with the `rocprim` of each `rocprim::NAME` (and `rocprim::detail::NAME`) these
/// declarations do not define renamed [`UNKNOWN_NS`].
fn mark_unknown(mut tokens: Vec<Token>) -> Vec<Token> {
    let colons = |t: Option<&Token>| matches!(t.map(|t| &t.tok), Some(Tok::Punct("::")));
    for k in 0..tokens.len() {
        if word(tokens.get(k)) != Some("rocprim") || !colons(tokens.get(k + 1)) {
            continue;
        }
        // `rocprim::warp_size()` / `host_warp_size()`: declared under reserved names, so that
        // the source's own `warp_size` (a constant in `main`, a template argument) stays its own.
        if let Some(n @ ("warp_size" | "host_warp_size")) = word(tokens.get(k + 2)) {
            let renamed = format!("__rocprim_{n}");
            tokens[k + 2].tok = Tok::Ident(renamed);
            continue;
        }
        let known = match word(tokens.get(k + 2)) {
            Some("detail") if colons(tokens.get(k + 3)) => {
                word(tokens.get(k + 4)).is_some_and(|n| KNOWN_DETAIL.contains(&n))
            }
            Some(n) => KNOWN.contains(&n),
            None => true,
        };
        if !known {
            tokens[k].tok = Tok::Ident(UNKNOWN_NS.to_string());
        }
    }
    tokens
}
