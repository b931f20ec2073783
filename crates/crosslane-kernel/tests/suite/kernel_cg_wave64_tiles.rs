//! Cooperative groups' 32-lane tiles on a 64-lane warp: MACA (64-thread warps, MACA programming
//! guide, seed 002 §3.4.1) and HIP wave64 (HIP Programming Guide, "Cooperative groups": tiles up
//! to the wavefront). `tiled_partition<32>(this_thread_block())` splits each warp into two
//! tiles; the second (lanes 32..63) must see its own lanes in the tile's mask, so `cg::reduce`,
//! `shfl_xor` and `shfl_down` are defined in every lane and read only their tile. Expected
//! values from a short Python model, pasted beside each test.

use crate::cells::cell_ints as ints;
use crosslane_core::op::Dialect;
use crosslane_kernel::{run_kernel, KernelTrace, LaunchConfig, Outcome};

fn run(dialect: Dialect, src: &str) -> KernelTrace {
    let config = LaunchConfig {
        dialect: Some(dialect),
        lanes: Some(64),
        block_dim: Some([64, 1, 1]),
        ..LaunchConfig::default()
    };
    let t = run_kernel(src, config).expect("kernel parses and launches");
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    t
}

const TILE32: &str = "#include <cooperative_groups.h>\n\
    namespace cg = cooperative_groups;\n\
    __global__ void k(int *s, int *x, int *d) {\n\
      auto tile = cg::tiled_partition<32>(cg::this_thread_block());\n\
      int t = threadIdx.x;\n\
      s[t] = cg::reduce(tile, t, cg::plus<int>());\n\
      x[t] = tile.shfl_xor(t, 1);\n\
      d[t] = tile.shfl_down(t, 4);\n\
    }\n";

/// Python: `[sum(range(32*(l//32), 32*(l//32)+32)) for l in range(64)]` gives 496 in lanes
/// 0..31 and 1520 in lanes 32..63; `[l ^ 1 for l in range(64)]` for `shfl_xor(t, 1)`;
/// `[l + 4 if l % 32 + 4 < 32 else l for l in range(64)]` for `shfl_down(t, 4)` (a source past
/// the tile's end gives the caller's own value).
fn check(dialect: Dialect) {
    let t = run(dialect, TILE32);
    let sums: Vec<Option<i128>> = (0..64)
        .map(|l| Some(if l < 32 { 496 } else { 1520 }))
        .collect();
    assert_eq!(ints(t.buffer("s").unwrap()), sums, "{dialect:?}");
    let xor: Vec<Option<i128>> = (0..64).map(|l| Some(l ^ 1)).collect();
    assert_eq!(ints(t.buffer("x").unwrap()), xor, "{dialect:?}");
    let down: Vec<Option<i128>> = (0..64)
        .map(|l| Some(if l % 32 + 4 < 32 { l + 4 } else { l }))
        .collect();
    assert_eq!(ints(t.buffer("d").unwrap()), down, "{dialect:?}");
    let undefined = t
        .merged_diagnostics
        .iter()
        .any(|d| d.message.contains("undefined"));
    assert!(!undefined, "{dialect:?}: {:?}", t.merged_diagnostics);
}

#[test]
fn maca_tiles_of_32_cover_both_halves_of_the_warp() {
    check(Dialect::Maca);
}

#[test]
fn hip_wave64_tiles_of_32_cover_both_halves_of_the_wavefront() {
    check(Dialect::Hip);
}

/// MACA's tile votes and `match_all` over the second tile too. Python:
/// `b = [sum(1 << (r) for r in range(32) if (32*(l//32)+r) % 3 == 0) for l in range(64)]`
/// gives 0x49249249 in lanes 0..31 and 0x92492492 in lanes 32..63 (`ballot(t % 3 == 0)`, bit
/// k = rank k); `match_all(t / 32, p)` holds in every tile: the tile's mask 0xffffffff, p = 1.
#[test]
fn maca_tile_ballot_and_match_all_on_the_second_tile() {
    let t = run(
        Dialect::Maca,
        "#include <cooperative_groups.h>\n\
         namespace cg = cooperative_groups;\n\
         __global__ void k(unsigned *b, unsigned *m, int *p) {\n\
           auto tile = cg::tiled_partition<32>(cg::this_thread_block());\n\
           int t = threadIdx.x;\n\
           b[t] = (unsigned)tile.ballot(t % 3 == 0);\n\
           int pred = 0;\n\
           m[t] = (unsigned)tile.match_all(t / 32, pred);\n\
           p[t] = pred;\n\
         }\n",
    );
    let ballot: Vec<Option<i128>> = (0..64)
        .map(|l| Some(if l < 32 { 0x4924_9249 } else { 0x9249_2492 }))
        .collect();
    assert_eq!(ints(t.buffer("b").unwrap()), ballot);
    assert_eq!(ints(t.buffer("m").unwrap()), vec![Some(0xffff_ffff); 64]);
    assert_eq!(ints(t.buffer("p").unwrap()), vec![Some(1); 64]);
}
