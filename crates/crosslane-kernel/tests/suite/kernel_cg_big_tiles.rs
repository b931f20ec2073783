//! Tiles larger than the warp (CUDA C++ Programming Guide, Cooperative Groups, "Thread Block
//! Tile": `block_tile_memory<BlockSize>` scratch, `this_thread_block(scratch)`,
//! `tiled_partition<64 | 128 | 256 | 512>(block)`), kernels written here in the samples'
//! shape: each tile reduces its part of shared memory with `tile.sync()` between steps and
//! its rank 0 stores the tile's sum at its `meta_group_rank()`. Expected sums by the Python
//! model in each comment; the members a large tile lacks are refused by name.

use crate::cells::cell_ints;
use crate::support::{launch, refused, run_finished};
use crosslane_core::op::Dialect;

fn kernel(decls: &str, tile: u32, body: &str) -> String {
    format!(
        "#include <cooperative_groups.h>
namespace cg = cooperative_groups;
template <int BlockSize>
__global__ void tiles(const int *in, int *out) {{
  {decls}
  __shared__ int s[BlockSize];
  auto tile = cg::tiled_partition<{tile}>(block);
  unsigned r = tile.thread_rank();
  {body}
}}
template __global__ void tiles<256>(const int *, int *);
"
    )
}

const REDUCE: &str = "s[block.thread_rank()] = in[block.thread_rank()];
  tile.sync();
  for (unsigned stride = tile.num_threads() / 2; stride > 0; stride /= 2) {
    if (r < stride) s[block.thread_rank()] += s[block.thread_rank() + stride];
    tile.sync();
  }
  if (r == 0) out[tile.meta_group_rank()] = s[block.thread_rank()] * 1000 + tile.meta_group_size() * 10 + (tile.size() == tile.num_threads());";

fn run(src: &str, outs: usize) -> Vec<Option<i128>> {
    let mut c = launch(
        Dialect::Cuda,
        256,
        &[("in", 256, "index"), ("out", outs, "zero")],
    );
    c.entry = Some("tiles<256>".into());
    let t = run_finished(src, c);
    cell_ints(t.buffer("out").unwrap())
}

#[test]
fn large_tiles_reduce_with_their_own_sync_and_meta_rank() {
    let cuda12 = "__shared__ cg::block_tile_memory<BlockSize> scratch;
  cg::thread_block block = cg::this_thread_block(scratch);";
    let cuda11 = "__shared__ cg::experimental::block_tile_memory<4, BlockSize> scratch;
  cg::thread_block block = cg::experimental::this_thread_block(scratch);";
    // sm_80+ needs no scratch.
    let plain = "cg::thread_block block = cg::this_thread_block();";
    // Python: [sum(range(128 * t, 128 * t + 128)) for t in range(2)] = [8128, 24512]; each
    // cell sum · 1000 + meta_group_size (2) · 10 + 1.
    for decls in [cuda12, cuda11, plain] {
        let src = kernel(decls, 128, REDUCE);
        assert_eq!(run(&src, 2), [Some(8_128_021), Some(24_512_021)], "{decls}");
    }
    // Tiles of 64: [sum(range(64 * t, 64 * t + 64)) for t in range(4)] = [2016, 6112, 10208,
    // 14304], meta_group_size 4.
    let src = kernel(cuda12, 64, REDUCE);
    assert_eq!(
        run(&src, 4),
        [
            Some(2_016_041),
            Some(6_112_041),
            Some(10_208_041),
            Some(14_304_041)
        ]
    );
    // One tile of the whole block: sum(range(256)) = 32640, meta_group_size 1.
    let src = kernel(cuda12, 256, REDUCE);
    assert_eq!(run(&src, 1), [Some(32_640_011)]);
}

#[test]
fn a_warp_tile_of_a_large_tile_keeps_its_rank_among_its_siblings() {
    // tiled_partition<32>(tile of 128): thread t's rank in its 128-tile is t % 128, its
    // 32-tile is (t % 128) / 32 of 4; shfl_down(r, 1) is the next rank's r, the last lane of
    // each 32-tile keeps its own.
    let src = kernel(
        "cg::thread_block block = cg::this_thread_block();",
        128,
        "auto w = cg::tiled_partition<32>(tile);
  unsigned v = w.shfl_down(r, 1);
  out[block.thread_rank()] = v * 100 + w.meta_group_rank() * 10 + w.meta_group_size();",
    );
    let want: Vec<Option<i128>> = (0..256i128)
        .map(|t| {
            let r = t % 128;
            let v = if t % 32 == 31 { r } else { r + 1 };
            Some(v * 100 + (r / 32) * 10 + 4)
        })
        .collect();
    assert_eq!(run(&src, 256), want);
}

#[test]
fn what_a_large_tile_lacks_is_refused_by_name() {
    for (body, name) in [
        ("out[0] = tile.shfl_down(r, 1);", "`shfl_down`"),
        ("out[0] = tile.ballot(r > 3);", "`ballot`"),
        (
            "out[0] = cg::reduce(tile, r, cg::plus<unsigned>());",
            "`reduce`",
        ),
    ] {
        let src = kernel(
            "cg::thread_block block = cg::this_thread_block();",
            128,
            body,
        );
        let mut c = launch(
            Dialect::Cuda,
            256,
            &[("in", 256, "index"), ("out", 1, "zero")],
        );
        c.entry = Some("tiles<256>".into());
        let m = refused(&src, c);
        assert!(m.contains(name), "{m}");
        assert!(m.contains("thread_block_tile<128>"), "{m}");
        assert!(m.contains("tiled_partition<32>"), "{m}");
    }
}
