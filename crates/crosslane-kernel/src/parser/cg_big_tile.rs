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
    /// Member `f` of a tile of `n` threads, `n` larger than the warp, on `args`. Ascend C
    /// also has `shfl`, `any` and `all` on such a tile ([`super::asc_big_tile`]).
    pub(super) fn big_tile_op(
        &mut self,
        n: u32,
        f: &str,
        args: &[Expr],
        at: Span,
    ) -> PResult<Expr> {
        let nn = i64::from(n);
        if self.ascend && matches!(f, "shfl" | "any" | "all") {
            let want = if f == "shfl" { 2 } else { 1 };
            if args.len() != want {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    format!(
                        "`{f}` of a thread_block_tile<{n}> takes {want} argument(s) (asc-devkit \
                         SIMT API, thread_block_tile {f}), given {}",
                        args.len()
                    ),
                ));
            }
            let size = self.e_int(at, nn);
            if f == "shfl" {
                let call = vec![args[0].clone(), args[1].clone(), size];
                let name =
                    self.instantiate_call(super::asc_big_tile::SHFL_FN, Vec::new(), &call, at)?;
                return Ok(self.e_call(at, &name, call));
            }
            let call = vec![args[0].clone(), size];
            let name =
                self.instantiate_call(super::asc_big_tile::COUNT_FN, Vec::new(), &call, at)?;
            let count = self.e_call(at, &name, call);
            let (op, k) = if f == "any" {
                (BinOp::Ne, 0)
            } else {
                (BinOp::Eq, nn)
            };
            let k = self.e_int(at, k);
            let test = self.e_bin(at, op, count, k);
            let s = self.syn_span(at);
            return Ok(Expr::new(
                ExprKind::Cast(
                    crate::types::Ty::Val(crate::types::ValTy::scalar(crate::types::Scalar::I32)),
                    Box::new(test),
                ),
                s,
            ));
        }
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
    /// the CUDA 11 `cg::experimental::block_tile_memory<4, 256>`, Ascend C's `__ubuf__
    /// block_tile_memory<1024> scratch;`) at the position: skipped
    /// whole (the scratch holds the large tiles' state on the device; this run needs none).
    pub(super) fn block_tile_memory_decl(&mut self) -> PResult<bool> {
        let save = self.pos;
        // Ascend C places the scratch in the Unified Buffer or Global Memory (`__ubuf__
        // block_tile_memory<1024> scratch;`, asc-devkit SIMT API, 协作组, thread_block
        // constructor: "必须位于Global Memory或Unified Buffer").
        while self.is_word("__shared__")
            || self.is_word("static")
            || self.is_word("__ubuf__")
            || self.is_word("__gm__")
        {
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
