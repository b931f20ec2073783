//! A function template's tile size deduced from a `thread_block_tile<W>` argument
//! ([temp.deduct.type]/8: a parameter of type `TT<W>` takes `W` from an argument of type
//! `TT<16>`; CUDA C++ Programming Guide, Cooperative Groups, "Thread Block Tile": a tile made by
//! `tiled_partition<16>(block)` is a `thread_block_tile<16>`). The shape is a warp-sum helper
//! `template <unsigned W> f(cg::thread_block_tile<W>& g, float v)` called as `f(tile, v)`,
//! with the class name qualified or not. Expected values come from the definition: each lane
//! of a tile of W ends with the sum of its tile's values, and `W` itself is the tile's size.

use crate::support::{ints, launch_lanes, refused, run_finished};
use crosslane_core::op::Dialect;

/// A HIP kernel (wave64) that sums `v = threadIdx.x + 1` over tiles of `N` through a helper
/// whose tile size is deduced, the helper's parameter spelled `param`.
fn kernel(param: &str, n: u32) -> String {
    format!(
        "#include <hip/hip_runtime.h>
#include <hip/hip_cooperative_groups.h>
namespace cg = cooperative_groups;
template <unsigned W>
__device__ int tile_sum({param} g, int v) {{
  for (int o = W / 2; o > 0; o /= 2) v += g.shfl_xor(v, o);
  return v;
}}
template <unsigned W>
__device__ int tile_width({param} g) {{ return W + 0 * g.thread_rank(); }}
__global__ void k(int* out, int* width) {{
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<{n}> t = cg::tiled_partition<{n}>(block);
  out[threadIdx.x] = tile_sum(t, (int)threadIdx.x + 1);
  width[threadIdx.x] = tile_width(t);
}}"
    )
}

/// Each lane's tile sum of `v = i + 1` for tiles of `n` over `threads` lanes.
fn sums(threads: i128, n: i128) -> Vec<Option<i128>> {
    (0..threads)
        .map(|i| Some((0..n).map(|r| i / n * n + r + 1).sum()))
        .collect()
}

#[test]
fn the_tile_size_is_deduced_from_a_tile_argument() {
    for param in [
        "cg::thread_block_tile<W>&",
        "cooperative_groups::thread_block_tile<W> &",
        "const cg::thread_block_tile<W>&",
        "cooperative_groups::thread_block_tile<W> const&",
    ] {
        for n in [16u32, 32, 64] {
            let src = kernel(param, n);
            let t = run_finished(
                &src,
                launch_lanes(Dialect::Hip, 128, &[("out", 128, "0"), ("width", 128, "0")]),
            );
            // Tiles of 16 over v = 1..=128: lanes 0-15 hold 136 (1 + … + 16), lanes 16-31
            // 392; tiles of 64: 2080 and 6176.
            assert_eq!(ints(&t, "out"), sums(128, i128::from(n)), "{param} n={n}");
            assert_eq!(
                ints(&t, "width"),
                vec![Some(i128::from(n)); 128],
                "{param} n={n}"
            );
        }
    }
    assert_eq!(sums(128, 16)[0], Some(136));
    assert_eq!(sums(128, 64)[64], Some(6176));
}

#[test]
fn a_block_argument_still_deduces_nothing() {
    // `tile_sum(block, v)`: a `thread_block` is no `thread_block_tile<W>`, so `W` has no value
    // and the call is refused with what to write.
    let src = kernel("cg::thread_block_tile<W>&", 16).replace(
        "out[threadIdx.x] = tile_sum(t,",
        "out[threadIdx.x] = tile_sum(block,",
    );
    let e = refused(
        &src,
        launch_lanes(Dialect::Hip, 64, &[("out", 64, "0"), ("width", 64, "0")]),
    );
    assert!(e.contains("cannot be deduced"), "{e}");
}

#[test]
fn a_global_scope_qualifier_is_read_before_a_type_and_a_group_factory() {
    // `const ::size_t n` and `::cooperative_groups::…` name the global scope's declarations
    // (C++17 [namespace.qual]/2), the same as without the `::`. Each lane writes its
    // neighbour's id (`shfl_xor(v, 1)`) plus the tile size deduced through the qualified
    // parameter type: lane 0 reads 1, lane 1 reads 0, … and 32 is added.
    let src = "#include <hip/hip_runtime.h>
#include <hip/hip_cooperative_groups.h>
template <unsigned W>
__device__ int swap_add(const ::cooperative_groups::thread_block_tile<W>& g, const ::size_t v) {
  return g.shfl_xor((int)v, 1) + (int)W;
}
__global__ void k(int* out, ::size_t n) {
  ::cooperative_groups::thread_block_tile<32> t =
      ::cooperative_groups::tiled_partition<32>(::cooperative_groups::this_thread_block());
  if (threadIdx.x < n) out[threadIdx.x] = swap_add(t, threadIdx.x);
}";
    let mut c = launch_lanes(Dialect::Hip, 64, &[("out", 64, "0")]);
    c.args.insert("n".into(), "64".into());
    let t = run_finished(src, c);
    let expected: Vec<Option<i128>> = (0..64i128).map(|i| Some((i ^ 1) + 32)).collect();
    assert_eq!(ints(&t, "out"), expected);
}
