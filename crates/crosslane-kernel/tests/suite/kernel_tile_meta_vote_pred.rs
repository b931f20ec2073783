//! A tile partitioned from a tile finds its place among that parent's tiles (CUDA C++
//! Programming Guide, Cooperative Groups, thread_block_tile: "meta_group_rank: linear rank of
//! the group within the set of tiles partitioned from a parent group"), and a vote's `int`
//! predicate given a float converts to `int` first (C++17 [conv.fpint]/1: truncation toward
//! zero; out of range undefined). Expected values derived by hand in the comments.

use crate::support::{has, ints, launch, run_finished};
use crosslane_core::op::Dialect;
use crosslane_core::Level;

#[test]
fn a_tile_of_a_warp_tile_ranks_among_the_warp_tiles_tiles() {
    let src = "\
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int *rank, int *size, int *brank, int *bsize) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  auto tile8 = cg::tiled_partition<8>(warp);
  rank[threadIdx.x] = tile8.meta_group_rank();
  size[threadIdx.x] = tile8.meta_group_size();
  auto of_block = cg::tiled_partition<8>(block);
  brank[threadIdx.x] = of_block.meta_group_rank();
  bsize[threadIdx.x] = cg::tiled_partition<8>(warp).meta_group_size();
}
";
    let t = run_finished(
        src,
        launch(
            Dialect::Cuda,
            64,
            &[
                ("rank", 64, "zero"),
                ("size", 64, "zero"),
                ("brank", 64, "zero"),
                ("bsize", 64, "zero"),
            ],
        ),
    );
    // Thread i is thread i % 32 of its warp tile, in 8-lane tile (i % 32) / 8 of 32 / 8 = 4.
    let rank: Vec<Option<i128>> = (0..64).map(|i| Some((i % 32) / 8)).collect();
    assert_eq!(ints(&t, "rank"), rank);
    assert_eq!(ints(&t, "size"), vec![Some(4); 64]);
    assert_eq!(ints(&t, "bsize"), vec![Some(4); 64]);
    // Partitioned from the block: tile i / 8 of 64 / 8 = 8.
    let brank: Vec<Option<i128>> = (0..64).map(|i| Some(i / 8)).collect();
    assert_eq!(ints(&t, "brank"), brank);
}

#[test]
fn a_float_ballot_predicate_is_truncated_to_int() {
    let src = "\
__global__ void k(const float *f, unsigned *o) {
  o[threadIdx.x] = __ballot_sync(0xffffffffu, f[threadIdx.x]);
}
";
    // f[i] = i * 0.5 - 3: -3, -2.5, -2, -1.5, -1, -0.5, 0, 0.5, 1, … 12.5. Truncated toward
    // zero only lanes 5, 6, 7 (-0.5, 0, 0.5) give 0: every bit but 5..7,
    // 0xffffffff & !0xe0 = 0xffffff1f = 4294967071.
    let t = run_finished(
        src,
        launch(
            Dialect::Cuda,
            32,
            &[("f", 32, "i*0.5-3"), ("o", 32, "zero")],
        ),
    );
    assert_eq!(ints(&t, "o"), vec![Some(4_294_967_071); 32]);
    // A float past int's range is undefined ([conv.fpint]/1), said.
    let t = run_finished(
        src,
        launch(Dialect::Cuda, 32, &[("f", 32, "3e9"), ("o", 32, "zero")]),
    );
    assert_eq!(ints(&t, "o"), vec![None; 32]);
    assert!(has(&t, Level::Warning, "predicate is an int"));
}
