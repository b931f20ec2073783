//! rocPRIM's warp shuffle functions, which AMD kernels call by name without the header
//! (`<rocprim/rocprim.hpp>`, not read here): aiter's `hip_reduce.h` builds its wave reductions
//! from `rocprim::detail::warp_move_dpp<T, 0xb1>(x)` and broadcasts with
//! `rocprim::warp_shuffle(x, src, width)`.
//!
//! A token pass right after preprocessing, where the source does not declare a `rocprim`
//! namespace of its own (one that does keeps its definitions):
//!
//! - `rocprim::detail::warp_move_dpp<T, CTRL[, ROW_MASK[, BANK_MASK[, BOUND_CTRL]]]>(x)` is
//!   `__builtin_amdgcn_update_dpp((T)0, (T)(x), CTRL, ROW_MASK, BANK_MASK, BOUND_CTRL)`, the
//!   defaults `0xf`, `0xf`, `false`: rocPRIM (`rocprim/intrinsics/warp_shuffle.hpp`) applies
//!   `::__builtin_amdgcn_update_dpp(0, v, dpp_ctrl, row_mask, bank_mask, bound_ctrl)` to each
//!   32-bit word of the value, so a lane with no valid source (or a row or bank masked off)
//!   gets the zero `old` operand in every word — the value whose words are all zero;
//! - `rocprim::detail::warp_swizzle<T, PATTERN>(x)` is `__builtin_amdgcn_ds_swizzle(x,
//!   PATTERN)` (rocPRIM applies it to each 32-bit word);
//!
//! HIP's own template forms of the same builtins (ROCm `amd_warp_functions.h`) are rewritten by
//! [`hip_template_lane_ops`], whatever the source names: `__hip_ds_swizzle_N<PATTERN>(x)` is
//! `__hip_ds_swizzle(x, PATTERN)`, `__hip_ds_swizzlef_N<PATTERN>(x)` is
//! `__hip_ds_swizzlef(x, PATTERN)` and `__hip_move_dpp_N<CTRL, ROW_MASK, BANK_MASK,
//! BOUND_CTRL>(x)` is `__hip_move_dpp(x, CTRL, ROW_MASK, BANK_MASK, BOUND_CTRL)` (each
//! template passes its arguments to the builtin unchanged; MIOpen's attention softmax reduces
//! with `__hip_ds_swizzlef_N<swizzle_op>(v)`).
//!
//! `rocprim::warp_shuffle*` and the rest of rocPRIM's warp API are declared by
//! [`super::rocprim_lib`], which this pass runs before (so it sees `rocprim::detail::` names
//! it does not declare already rewritten).
//!
//! Linear in the tokens; a call nested in another's operands is rewritten by a later round
//! (at most [`MAX_ROUNDS`]), never by recursion.

use super::scopes::{punct, word};
use crate::lexer::{Tok, Token};

/// Most rounds of the pass: each rewrites the calls not nested in another rewritten call.
const MAX_ROUNDS: usize = 16;

/// A token like `at` spelled `tok`.
fn tok(at: &Token, tok: Tok) -> Token {
    Token { tok, ..at.clone() }
}

/// The index of the token closing the bracket opened at `open` (`(` or `<`, counting both
/// kinds), within the statement; `None` when it does not close there.
fn close_of(tokens: &[Token], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (j, t) in tokens.iter().enumerate().skip(open) {
        match &t.tok {
            Tok::Punct("(" | "<" | "[") => depth += 1,
            Tok::Punct(")" | ">" | "]") => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(j);
                }
            }
            Tok::Punct(">>") => {
                depth = depth.checked_sub(2)?;
                if depth == 0 {
                    return Some(j);
                }
            }
            Tok::Punct(";" | "{" | "}") | Tok::Eof => return None,
            _ => {}
        }
    }
    None
}

/// The top-level comma-separated parts of `tokens[from..to]`.
fn parts(tokens: &[Token], from: usize, to: usize) -> Vec<&[Token]> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut start = from;
    for j in from..to {
        match &tokens[j].tok {
            Tok::Punct("(" | "<" | "[") => depth += 1,
            Tok::Punct(")" | ">" | "]") => depth = depth.saturating_sub(1),
            Tok::Punct(",") if depth == 0 => {
                out.push(&tokens[start..j]);
                start = j + 1;
            }
            _ => {}
        }
    }
    out.push(&tokens[start..to]);
    out
}

/// At `k` (just past `rocprim ::`): the rewritten call and the index after it, or `None`.
fn rewrite_at(tokens: &[Token], k: usize) -> Option<(Vec<Token>, usize)> {
    let at = &tokens[k];
    let mut out = Vec::new();
    let comma = |out: &mut Vec<Token>| out.push(tok(at, Tok::Punct(",")));
    if word(tokens.get(k)) == Some("detail") && punct(tokens.get(k + 1), "::") {
        let name = word(tokens.get(k + 2))?;
        if !matches!(name, "warp_move_dpp" | "warp_swizzle") || !punct(tokens.get(k + 3), "<") {
            return None;
        }
        let targs_close = close_of(tokens, k + 3)?;
        let targs = parts(tokens, k + 4, targs_close);
        if !punct(tokens.get(targs_close + 1), "(") {
            return None;
        }
        let call_close = close_of(tokens, targs_close + 1)?;
        let arg = &tokens[targs_close + 2..call_close];
        let ty = targs.first().filter(|t| !t.is_empty())?;
        if name == "warp_swizzle" {
            let pattern = targs.get(1)?;
            out.push(tok(at, Tok::Ident("__builtin_amdgcn_ds_swizzle".into())));
            out.push(tok(at, Tok::Punct("(")));
            out.extend_from_slice(arg);
            comma(&mut out);
            out.extend_from_slice(pattern);
            out.push(tok(at, Tok::Punct(")")));
            return Some((out, call_close + 1));
        }
        if targs.len() < 2 || targs.len() > 5 {
            return None;
        }
        let int = |v: u64| {
            tok(
                at,
                Tok::Int {
                    value: v,
                    unsigned: false,
                    long: false,
                },
            )
        };
        let defaults = [
            vec![int(0xf)],
            vec![int(0xf)],
            vec![tok(at, Tok::Ident("false".into()))],
        ];
        out.push(tok(at, Tok::Ident("__builtin_amdgcn_update_dpp".into())));
        out.push(tok(at, Tok::Punct("(")));
        // `(T)0`: the `old` operand, zero in every word.
        out.push(tok(at, Tok::Punct("(")));
        out.extend_from_slice(ty);
        out.push(tok(at, Tok::Punct(")")));
        out.push(int(0));
        comma(&mut out);
        out.push(tok(at, Tok::Punct("(")));
        out.extend_from_slice(ty);
        out.push(tok(at, Tok::Punct(")")));
        out.push(tok(at, Tok::Punct("(")));
        out.extend_from_slice(arg);
        out.push(tok(at, Tok::Punct(")")));
        comma(&mut out);
        out.extend_from_slice(targs[1]);
        for (i, d) in defaults.iter().enumerate() {
            comma(&mut out);
            match targs.get(2 + i) {
                Some(given) => out.extend_from_slice(given),
                None => out.extend_from_slice(d),
            }
        }
        out.push(tok(at, Tok::Punct(")")));
        return Some((out, call_close + 1));
    }
    None
}

/// One round: each `rocprim::detail::` shuffle not nested in another rewritten here. Whether any was.
fn round(tokens: Vec<Token>) -> (Vec<Token>, bool) {
    let mut out: Vec<Token> = Vec::with_capacity(tokens.len());
    let mut changed = false;
    let mut k = 0;
    while k < tokens.len() {
        if word(tokens.get(k)) == Some("rocprim") && punct(tokens.get(k + 1), "::") {
            if let Some((new, next)) = rewrite_at(&tokens, k + 2) {
                // A global `::` before `rocprim` goes with it.
                if punct(out.last(), "::") {
                    out.pop();
                }
                out.extend(new);
                k = next;
                changed = true;
                continue;
            }
        }
        out.push(tokens[k].clone());
        k += 1;
    }
    (out, changed)
}

/// At `k`, a `__hip_ds_swizzle_N<P>(x)`, `__hip_ds_swizzlef_N<P>(x)` or
/// `__hip_move_dpp_N<C, R, B, BC>(x)`: the builtin call it is and the index after it.
fn hip_template_at(tokens: &[Token], k: usize) -> Option<(Vec<Token>, usize)> {
    let (builtin, count) = match word(tokens.get(k))? {
        "__hip_ds_swizzle_N" => ("__hip_ds_swizzle", 1),
        "__hip_ds_swizzlef_N" => ("__hip_ds_swizzlef", 1),
        "__hip_move_dpp_N" => ("__hip_move_dpp", 4),
        _ => return None,
    };
    if !punct(tokens.get(k + 1), "<") {
        return None;
    }
    let targs_close = close_of(tokens, k + 1)?;
    let targs = parts(tokens, k + 2, targs_close);
    if targs.len() != count || targs.iter().any(|t| t.is_empty()) {
        return None;
    }
    if !punct(tokens.get(targs_close + 1), "(") {
        return None;
    }
    let call_close = close_of(tokens, targs_close + 1)?;
    let at = &tokens[k];
    let mut out = vec![
        tok(at, Tok::Ident(builtin.into())),
        tok(at, Tok::Punct("(")),
        tok(at, Tok::Punct("(")),
    ];
    out.extend_from_slice(&tokens[targs_close + 2..call_close]);
    out.push(tok(at, Tok::Punct(")")));
    for t in targs {
        out.push(tok(at, Tok::Punct(",")));
        out.push(tok(at, Tok::Punct("(")));
        out.extend_from_slice(t);
        out.push(tok(at, Tok::Punct(")")));
    }
    out.push(tok(at, Tok::Punct(")")));
    Some((out, call_close + 1))
}

/// `tokens` with HIP's `_N` template lane builtins written as the builtins they call (see the
/// module documentation); a call nested in another's operands by a later round.
pub(super) fn hip_template_lane_ops(mut tokens: Vec<Token>) -> Vec<Token> {
    for _ in 0..MAX_ROUNDS {
        if !tokens.iter().any(|t| {
            matches!(&t.tok, Tok::Ident(w)
                if matches!(w.as_str(), "__hip_ds_swizzle_N" | "__hip_ds_swizzlef_N" | "__hip_move_dpp_N"))
        }) {
            break;
        }
        let mut out: Vec<Token> = Vec::with_capacity(tokens.len());
        let mut changed = false;
        let mut k = 0;
        while k < tokens.len() {
            if let Some((new, next)) = hip_template_at(&tokens, k) {
                out.extend(new);
                k = next;
                changed = true;
                continue;
            }
            out.push(tokens[k].clone());
            k += 1;
        }
        tokens = out;
        if !changed {
            break;
        }
    }
    tokens
}

/// `tokens` with rocPRIM's warp shuffles rewritten as the HIP builtins they are.
pub(super) fn rocprim_shuffles(mut tokens: Vec<Token>) -> Vec<Token> {
    let defines_own = tokens
        .windows(2)
        .any(|w| word(w.first()) == Some("namespace") && word(w.get(1)) == Some("rocprim"));
    if defines_own {
        return tokens;
    }
    for _ in 0..MAX_ROUNDS {
        if !tokens
            .iter()
            .any(|t| matches!(&t.tok, Tok::Ident(w) if w == "rocprim"))
        {
            break;
        }
        let (next, changed) = round(tokens);
        tokens = next;
        if !changed {
            break;
        }
    }
    tokens
}
