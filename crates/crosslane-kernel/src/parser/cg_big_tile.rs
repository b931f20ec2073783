//! Tiles larger than the warp: `cg::tiled_partition<64 | 128 | 256 | 512 | 1024>(block)` and
//! `thread_block_tile<N>` for N above 32 (CUDA C++ Programming Guide, Cooperative Groups,
//! "Thread Block Tile": tiles larger than 32 threads, CUDA 11+; on compute capability below 8.0
//! they need a `block_tile_memory<BlockSize>` scratch in shared memory, passed to
//! `this_thread_block(scratch)`, which this run reads and needs no storage for).
//!
//! What a large tile has: `sync()`, `thread_rank()`, `num_threads()` / `size()`,
//! `meta_group_rank()`, `meta_group_size()` (and `cg::sync(tile)`). The warp-level members
//! (`shfl*`, `any`, `all`, `ballot`, `match_*`) exist only for tiles of at most 32 threads (the
//! Guide: "only available for tiles of size 32 or lower"), and the collectives
//! (`cg::reduce`, `cg::inclusive_scan`, …) over a large tile are not modelled here: each is
//! refused by name, with what to write instead.
//!
//! `sync()` of a large tile is lowered to the block's barrier (`__syncthreads()`): every tile
//! of the block must synchronize in step (as the samples do); tiles that synchronize a
//! different number of times are reported as warps waiting at different barriers.

use super::{PResult, Parser};
use crate::ast::*;
use crate::types::BinOp;
use crate::KernelError;

/// The largest tile: the block's thread limit (CUDA C++ Programming Guide, Cooperative Groups,
/// Thread Block Tile: the size is a power of two, at most 1024).
pub(super) const MAX_BIG_TILE: i128 = 1024;

impl Parser<'_> {
    /// Member `f` of a tile of `n` threads, `n` larger than the warp.
    pub(super) fn big_tile_op(&mut self, n: u32, f: &str, at: Span) -> PResult<Expr> {
        let nn = i64::from(n);
        Ok(match f {
            "thread_rank" => {
                let lin = self.e_linear(at);
                let k = self.e_int(at, nn);
                self.e_bin(at, BinOp::Rem, lin, k)
            }
            "size" | "num_threads" => self.e_int(at, nn),
            "meta_group_rank" => {
                let lin = self.e_linear(at);
                let k = self.e_int(at, nn);
                self.e_bin(at, BinOp::Div, lin, k)
            }
            "meta_group_size" => {
                let size = self.e_block_size(at);
                let k = self.e_int(at, nn);
                self.e_bin(at, BinOp::Div, size, k)
            }
            "sync" => self.e_call(at, "__syncthreads", Vec::new()),
            other => return Err(big_tile_refusal(n, other, at)),
        })
    }

    /// A collective (`cg::reduce`, a scan) over a tile of `n` threads, `n` larger than the
    /// warp: refused by name.
    pub(super) fn big_tile_collective(&self, n: u32, name: &str, at: Span) -> PResult<()> {
        if n > self.wave {
            return Err(big_tile_refusal(n, name, at));
        }
        Ok(())
    }

    /// A `block_tile_memory` scratch declaration (`__shared__ cg::block_tile_memory<256> s;`,
    /// the CUDA 11 `cg::experimental::block_tile_memory<4, 256>`) at the position: skipped
    /// whole (the scratch holds the large tiles' state on the device; this run needs none).
    pub(super) fn block_tile_memory_decl(&mut self) -> PResult<bool> {
        let save = self.pos;
        while self.is_word("__shared__") || self.is_word("static") {
            self.bump();
        }
        self.skip_cg_namespace();
        if !self.is_word("block_tile_memory") {
            self.pos = save;
            return Ok(false);
        }
        // Up to the `;` (a bounded scan: the statement's tokens).
        while !matches!(
            self.peek(0),
            crate::lexer::Tok::Punct(";") | crate::lexer::Tok::Eof
        ) {
            self.bump();
        }
        self.expect_punct(";")?;
        Ok(true)
    }
}

/// Why member or collective `f` of a tile of `n` threads (more than a warp) cannot run.
fn big_tile_refusal(n: u32, f: &str, at: Span) -> KernelError {
    KernelError::new(
        at.line,
        at.col,
        format!(
            "`{f}` of a thread_block_tile<{n}>: a tile larger than 32 threads has sync(), \
             thread_rank(), num_threads()/size(), meta_group_rank() and meta_group_size() \
             (CUDA C++ Programming Guide, Cooperative Groups, Thread Block Tile: the warp \
             functions shfl*/any/all/ballot/match_* only for tiles of 32 or fewer threads), and \
             crosslane does not model `{f}` on one; partition it into tiles of 32 \
             (`cg::tiled_partition<32>(tile)`) and combine their results through shared memory"
        ),
    )
}
