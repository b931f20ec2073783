//! Ascend C's cross-warp `thread_block_tile` (Size > 32, made by `tiled_partition<Size>` of a
//! `thread_block` built with a `block_tile_memory` scratch): `shfl`, `any` and `all`, which
//! Ascend C supports on such a tile where CUDA does not (asc-devkit SIMT API, 协作组,
//! thread_block_tile简介: "`shfl()` / `any()` / `all()`: Size > 32 支持"; `ballot` and
//! `shfl_up` / `shfl_down` / `shfl_xor` are not, and stay refused).
//!
//! The rules (thread_block_tile/shfl.md, 约束说明, for Size > 32): every thread of the tile must
//! give the same `src_rank` and every thread must be active, "否则是未定义行为"; a `src_rank` at
//! or above the tile's size reads rank `src_rank % Size` (参数说明). The tile spans warps, so
//! the exchange goes through block-shared cells between block barriers, written once as device
//! function templates placed before an Ascend C source that names `tiled_partition` (and
//! declares neither name itself):
//!
//! - `__crosslane_big_tile_shfl(v, src, n)`: every thread stores its value and its `src`, a
//!   barrier, each reads rank `src % n` of its own tile, undefined with the rule where some
//!   thread of the tile gave another `src`; a last barrier ends the reads before the next call
//!   stores.
//! - `__crosslane_big_tile_count(p, n)`: the number of threads of the tile whose `p` is
//!   non-zero; `any` is `count != 0`, `all` is `count == n` (any.md / all.md: non-zero when
//!   any / every thread's predicate is).
//!
//! A thread that does not reach the call leaves its warp waiting at a different barrier, which
//! the run reports (the "all threads active" rule).

use crate::ast::SYNTH_COL;
use crate::lexer::{Tok, Token};

/// The shuffle's device function.
pub(super) const SHFL_FN: &str = "__crosslane_big_tile_shfl";
/// The count's device function.
pub(super) const COUNT_FN: &str = "__crosslane_big_tile_count";

/// Why a cross-warp tile's shuffle is undefined.
const RULE: &str = "Ascend C thread_block_tile<Size> with Size > 32 (asc-devkit SIMT API, \
                    thread_block_tile shfl, 约束说明): every thread of the tile must give the same \
                    src_rank, otherwise the behaviour is undefined";

/// The device functions (the largest Ascend C block is 2048 threads, asc_vf_call).
fn prelude() -> String {
    format!(
        "template <typename T>
__device__ T {SHFL_FN}(T v, int src, int n) {{
  __shared__ T cells[2048];
  __shared__ int srcs[2048];
  __syncthreads();
  int me = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  cells[me] = v;
  srcs[me] = src;
  __syncthreads();
  int base = me / n * n;
  int same = 1;
  for (int i = 0; i < n; ++i) same = same && srcs[base + i] == src;
  T r = cells[base + src % n];
  __syncthreads();
  return __crosslane_valid_only(r, same, \"{RULE}\");
}}
template <typename P>
__device__ int {COUNT_FN}(P p, int n) {{
  __shared__ int preds[2048];
  __syncthreads();
  int me = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  preds[me] = p != 0;
  __syncthreads();
  int base = me / n * n;
  int c = 0;
  for (int i = 0; i < n; ++i) c += preds[base + i];
  __syncthreads();
  return c;
}}
"
    )
}

/// `tokens` with the device functions placed before them when the source (Ascend C) names
/// `tiled_partition` and neither function; else unchanged.
pub(super) fn big_tile_prelude(tokens: Vec<Token>) -> Vec<Token> {
    let Some(first) = tokens
        .iter()
        .find(|t| matches!(&t.tok, Tok::Ident(w) if w == "tiled_partition"))
        .cloned()
    else {
        return tokens;
    };
    if tokens
        .iter()
        .any(|t| matches!(&t.tok, Tok::Ident(w) if w == SHFL_FN || w == COUNT_FN))
    {
        return tokens;
    }
    prepend_at(&prelude(), tokens, &first)
}

/// `tokens` after the tokens of the C++ text `prelude`, every one at `first`'s place, as a
/// message shows it, each with its own synthesized column (`ast::SYNTH_COL`, counted down from
/// the top so the parser's own synthesized nodes, counted up, do not meet them): the compiler
/// keys a `__shared__` array by its declaration's position, and two functions' arrays are
/// distinct buffers. `tokens` unchanged when `prelude` does not lex. Used for this module's
/// device functions and `super::aligned_storage`'s storage struct.
pub(super) fn prepend_at(prelude: &str, tokens: Vec<Token>, first: &Token) -> Vec<Token> {
    let Ok(lexed) = crate::lexer::lex(prelude) else {
        return tokens;
    };
    let base = first.col % SYNTH_COL;
    let top = u32::MAX / SYNTH_COL;
    let mut out: Vec<Token> = lexed
        .tokens
        .into_iter()
        .filter(|t| !matches!(t.tok, Tok::Eof))
        .enumerate()
        .map(|(k, t)| {
            let n = top
                .saturating_sub(u32::try_from(k).unwrap_or(u32::MAX))
                .max(1);
            Token {
                tok: t.tok,
                col: base + SYNTH_COL * n,
                ..first.clone()
            }
        })
        .collect();
    out.extend(tokens);
    out
}
