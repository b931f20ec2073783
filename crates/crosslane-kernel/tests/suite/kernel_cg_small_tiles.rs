//! `thread_block_tile<N>` collectives in blocks of fewer than 32 threads (CUDA C++ Programming
//! Guide, Cooperative Groups, "Thread Block Tile" and "tiled_partition"). A tile's shuffles and
//! votes name the tile's own lanes, so a tile of 4 in a 12-thread block is three whole tiles
//! and every collective is exact; lanes past the block's end belong to no tile. A block whose
//! thread count is not a multiple of the tile breaks `tiled_partition`'s precondition ("the
//! parent group size must be evenly divisible by the Size"), so its collectives are
//! undefined, with that reason. Expected values are computed here from the members'
//! definitions (`shfl(v, r)` reads rank r of the caller's tile, `shfl_xor(v, m)` rank
//! `rank ^ m`, `ballot` sets bit k for rank k, `cg::reduce` combines the tile's values), never
//! read from a run.

use crate::support::{has, launch, run_finished};
use crosslane_core::op::Dialect;
use crosslane_core::result::Level;
use crosslane_kernel::KVal;

/// A kernel whose tiles of `n` come from `make` (a declaration of `t` from `block`), each
/// thread writing six results: `v + shfl_xor(v, 1)`, `shfl(v, 3)`, `ballot(v even)`,
/// `any(v > 10)`, `all(v > 0)`, `cg::reduce(t, v, plus)`, then rank 0 of each tile the tile's
/// `shfl_down` tree sum, with `v = threadIdx.x + 1`.
fn kernel(make: &str) -> String {
    format!(
        "#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int* out, int* sums) {{
  cg::thread_block block = cg::this_thread_block();
  {make}
  int v = threadIdx.x + 1;
  int a = v + t.shfl_xor(v, 1);
  int b = t.shfl(v, 3);
  unsigned bal = t.ballot(v % 2 == 0);
  bool an = t.any(v > 10);
  bool al = t.all(v > 0);
  t.sync();
  int r = cg::reduce(t, v, cg::plus<int>());
  int s = v;
  for (int o = t.size() / 2; o > 0; o /= 2) s += t.shfl_down(s, o);
  out[threadIdx.x * 6 + 0] = a;
  out[threadIdx.x * 6 + 1] = b;
  out[threadIdx.x * 6 + 2] = bal;
  out[threadIdx.x * 6 + 3] = an;
  out[threadIdx.x * 6 + 4] = al;
  out[threadIdx.x * 6 + 5] = r;
  if (t.thread_rank() == 0) sums[threadIdx.x / t.size()] = s;
}}"
    )
}

/// The six results of each thread and the tile sums, from the definitions, for `threads`
/// threads in tiles of `n` (`threads` a multiple of `n`).
fn expected(threads: i128, n: i128) -> (Vec<Option<i128>>, Vec<Option<i128>>) {
    let v = |t: i128| t + 1;
    let mut out = Vec::new();
    for t in 0..threads {
        let base = t / n * n;
        let ballot: i128 = (0..n)
            .filter(|r| v(base + r) % 2 == 0)
            .map(|r| 1 << r)
            .sum();
        let any = (0..n).any(|r| v(base + r) > 10);
        let sum: i128 = (0..n).map(|r| v(base + r)).sum();
        out.extend([
            v(t) + v(t ^ 1),
            v(base + 3),
            ballot,
            i128::from(any),
            1,
            sum,
        ]);
    }
    let sums = (0..threads / n)
        .map(|k| Some((0..n).map(|r| v(k * n + r)).sum()))
        .collect();
    (out.into_iter().map(Some).collect(), sums)
}

fn run(make: &str, threads: usize, n: usize) -> crosslane_kernel::KernelTrace {
    let tiles = threads.div_ceil(n);
    run_finished(
        &kernel(make),
        launch(
            Dialect::Cuda,
            threads,
            &[("out", threads * 6, "0"), ("sums", tiles, "0")],
        ),
    )
}

fn cells(t: &crosslane_kernel::KernelTrace, name: &str) -> Vec<Option<i128>> {
    t.buffer(name)
        .expect("buffer")
        .iter()
        .map(|c| c.as_ref().and_then(KVal::as_int))
        .collect()
}

#[test]
fn tiles_of_a_small_block_are_exact_in_every_factory_form() {
    // 12 threads: three tiles of 4 (tile sums 10, 26, 42); 8 threads: one tile of 8 (36).
    for (make, threads, n) in [
        (
            "cg::thread_block_tile<4> t = cg::tiled_partition<4>(block);",
            12,
            4,
        ),
        ("auto t = cg::tiled_partition<4>(block);", 12, 4),
        ("cg::thread_group t = cg::tiled_partition(block, 4);", 12, 4),
        (
            "cg::thread_block_tile<8> t = cg::tiled_partition<8>(block);",
            8,
            8,
        ),
        (
            "cg::thread_block_tile<8> t = cg::tiled_partition<8>(block);",
            16,
            8,
        ),
        (
            "cg::thread_block_tile<16> t = cg::tiled_partition<16>(block);",
            16,
            16,
        ),
    ] {
        let t = run(make, threads, n);
        let (out, sums) = expected(threads as i128, n as i128);
        assert_eq!(cells(&t, "out"), out, "{make} in {threads} threads");
        assert_eq!(cells(&t, "sums"), sums, "{make} in {threads} threads");
        // The tile's collectives name the tile's lanes only: no lane past the block's end.
        assert!(
            !has(&t, Level::Info, "hold no thread"),
            "{make} in {threads}: {:?}",
            t.merged_diagnostics
        );
        assert!(!has(&t, Level::Warning, "undefined"), "{make}");
    }
    // The hand values of the 12-thread tiles of 4, spelled out for thread 5 (rank 1 of tile
    // 1, v = 6): 6 + v(4) = 11, shfl(v, 3) = v(7) = 8, ballot of v = 5..8 even = ranks 1, 3 =
    // 0b1010, any(v > 10) false, all true, reduce 5 + 6 + 7 + 8 = 26.
    let (out, _) = expected(12, 4);
    assert_eq!(out[30..36], [11, 8, 10, 0, 1, 26].map(Some));
}

#[test]
fn a_partial_last_tile_makes_the_collectives_undefined_with_the_rule() {
    // 10 threads in tiles of 4: the last tile holds threads 8 and 9 only; 8 threads in a tile
    // of 16: half a tile. tiled_partition needs the block to split evenly (CUDA C++
    // Programming Guide, Cooperative Groups, tiled_partition), so every collective result is
    // undefined, and the run finishes without a crash.
    for (make, threads, n) in [
        (
            "cg::thread_block_tile<4> t = cg::tiled_partition<4>(block);",
            10,
            4,
        ),
        (
            "cg::thread_block_tile<16> t = cg::tiled_partition<16>(block);",
            8,
            16,
        ),
    ] {
        let t = run(make, threads, n);
        let out = cells(&t, "out");
        // The fills were 0: an undefined store leaves no value.
        assert!(out.iter().all(Option::is_none), "{make}: {out:?}");
        assert!(
            has(&t, Level::Warning, "evenly divisible by the tile size"),
            "{make}: {:?}",
            t.merged_diagnostics
        );
    }
}
