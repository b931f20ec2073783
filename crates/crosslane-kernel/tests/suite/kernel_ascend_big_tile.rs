//! Ascend C's cross-warp `thread_block_tile<Size>` (Size > 32): a `block_tile_memory` scratch
//! in the Unified Buffer, `this_thread_block(scratch)`, `tiled_partition<64>`, and the members
//! Ascend C has on such a tile where CUDA does not: `shfl` (every thread the same `src_rank`,
//! read modulo the size, otherwise undefined), `any`, `all` (asc-devkit SIMT API, 协作组,
//! thread_block_tile简介 and shfl.md). `ballot` and `shfl_xor` stay refused (the table's "不支持").
//! Expected values from a short Python model beside each test.

use crate::support::{ints, launch, refused, run_finished};
use crosslane_core::Dialect;

/// 128 threads, two tiles of 64. `shfl(t * 3, 70)` reads rank 70 % 64 = 6 of the caller's tile:
/// 18 in tile 0, (64 + 6) · 3 = 210 in tile 1 (Python: `[(t//64*64+6)*3 for t in range(128)]`).
/// `any(t == 70)` is 0 in tile 0 and 1 in tile 1; `all(t < 100)` is 1 in tile 0, 0 in tile 1.
/// `thread_rank()` and `meta_group_rank()` as for any large tile: t % 64 and t / 64.
#[test]
fn a_64_thread_tile_shuffles_and_votes_across_its_two_warps() {
    let src = "\
using namespace cooperative_groups;
__global__ void k(uint32_t* s, int* any_, int* all_, uint32_t* rank)
{
    __ubuf__ block_tile_memory<1024> scratch;
    thread_block b = this_thread_block(scratch);
    auto tile = tiled_partition<64>(b);
    uint32_t t = threadIdx.x;
    s[t] = tile.shfl(t * 3, 70);
    any_[t] = tile.any(t == 70);
    all_[t] = tile.all(t < 100);
    rank[t] = tile.thread_rank() + 1000 * tile.meta_group_rank();
}";
    let t = run_finished(
        src,
        launch(
            Dialect::Ascend,
            128,
            &[
                ("s", 128, "0"),
                ("any_", 128, "0"),
                ("all_", 128, "0"),
                ("rank", 128, "0"),
            ],
        ),
    );
    let want: Vec<Option<i128>> = (0..128).map(|t| Some((t / 64 * 64 + 6) * 3)).collect();
    assert_eq!(ints(&t, "s"), want);
    let by_tile = |a: i128, b: i128| -> Vec<Option<i128>> {
        (0..128).map(|t| Some(if t < 64 { a } else { b })).collect()
    };
    assert_eq!(ints(&t, "any_"), by_tile(0, 1));
    assert_eq!(ints(&t, "all_"), by_tile(1, 0));
    let ranks: Vec<Option<i128>> = (0..128).map(|t| Some(t % 64 + 1000 * (t / 64))).collect();
    assert_eq!(ints(&t, "rank"), ranks);
}

/// A `src_rank` that differs within a tile makes that tile's results undefined (the rule named);
/// the other tile, whose threads agree on 130 (rank 130 % 128 = 2), reads 2 · 2 = 4.
#[test]
fn a_src_rank_that_differs_within_the_tile_is_undefined() {
    let src = "\
using namespace cooperative_groups;
__global__ void k(uint32_t* s)
{
    __ubuf__ block_tile_memory<1024> scratch;
    thread_block b = this_thread_block(scratch);
    auto tile = tiled_partition<128>(b);
    s[threadIdx.x] = tile.shfl(threadIdx.x * 2, threadIdx.x < 200 ? 130 : 5);
}";
    let t = run_finished(src, launch(Dialect::Ascend, 256, &[("s", 256, "0")]));
    let s = ints(&t, "s");
    assert_eq!(s[..128], vec![Some(4); 128][..]);
    assert!(s[128..].iter().all(Option::is_none), "{s:?}");
    assert!(
        t.merged_diagnostics
            .iter()
            .any(|d| d.message.contains("same src_rank")),
        "{:?}",
        t.merged_diagnostics
    );
}

/// `ballot` of a cross-warp tile is not supported in Ascend C (thread_block_tile简介: "不支持"):
/// refused at its line, as in CUDA.
#[test]
fn ballot_of_a_cross_warp_tile_is_refused() {
    let src = "\
using namespace cooperative_groups;
__global__ void k(uint32_t* s)
{
    thread_block b = this_thread_block();
    auto tile = tiled_partition<64>(b);
    s[threadIdx.x] = tile.ballot(1);
}";
    let m = refused(src, launch(Dialect::Ascend, 64, &[("s", 64, "0")]));
    assert!(m.contains("ballot"), "{m}");
}
