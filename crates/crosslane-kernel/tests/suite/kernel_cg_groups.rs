//! Cooperative groups beyond tiles: a `thread_group` parameter of a device function (the
//! rocm-examples cooperative-groups sample's `reduce_sum` shape), HIP's `labeled_partition` and
//! `match_any`, and scans over coalesced groups. Expected values are computed here from the
//! definitions in the CUDA C++ Programming Guide and the HIP Programming Guide ("Cooperative
//! Groups"), never read from a run.

use crate::support::out_ints as ints;
use crosslane_core::Dialect;
use crosslane_kernel::{run_kernel, LaunchConfig};

/// The rocm-examples shape: a tree sum through shared memory over any group, with `g.sync()`,
/// `g.thread_rank()` and `g.size()`, called with the block and with tiles of 16.
const REDUCE_SUM: &str = "\
__device__ int reduce_sum(cg::thread_group g, int* x, int val) {
  const unsigned int rank = g.thread_rank();
  for (unsigned int i = g.size() / 2; i > 0; i /= 2) {
    x[rank] = val;
    g.sync();
    if (rank < i) val += x[rank + i];
    g.sync();
  }
  return val;
}
__global__ void k(int* out) {
  __shared__ int workspace[64];
  cg::thread_block block = cg::this_thread_block();
  int v = reduce_sum(block, workspace, (int)threadIdx.x);
  if (threadIdx.x == 0) out[0] = v;
  block.sync();
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
  int* ws = workspace + (threadIdx.x / 16) * 16;
  int tv = reduce_sum(tile, ws, (int)threadIdx.x);
  if (tile.thread_rank() == 0) out[1 + threadIdx.x / 16] = tv;
}";

#[test]
fn a_thread_group_parameter_takes_the_block_and_tiles() {
    // Block of 64: 0 + … + 63 = 2016; tile k of 16 sums 16k … 16k + 15 = 256k + 120.
    let want: Vec<Option<i128>> = [2016, 120, 376, 632, 888].map(Some).to_vec();
    let cuda = format!(
        "#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n{REDUCE_SUM}"
    );
    // CUDA: two warps, so the block's sync is a block barrier.
    assert_eq!(ints(&cuda, Dialect::Cuda, 32, 64, 5), want);
    let hip = format!(
        "#include <hip/hip_runtime.h>\n#include <hip/hip_cooperative_groups.h>\nnamespace cg = \
         cooperative_groups;\n{REDUCE_SUM}"
    );
    assert_eq!(ints(&hip, Dialect::Hip, 64, 64, 5), want);
    assert_eq!(ints(&hip, Dialect::Hip, 32, 64, 5), want);
}

#[test]
fn a_thread_group_member_it_lacks_is_refused_by_name() {
    let src = "#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n\
__device__ int f(cg::thread_group g, int v) { return g.shfl(v, 0); }
__global__ void k(int* out) { out[threadIdx.x] = f(cg::this_thread_block(), 1); }";
    let e = run_kernel(src, LaunchConfig::default()).expect_err("refused");
    assert!(
        e.message
            .contains("`shfl` is not a member of cooperative_groups::thread_group"),
        "{}",
        e.message
    );
}

#[test]
fn hip_labeled_partition_and_match_any() {
    let src = "\
#include <hip/hip_runtime.h>
#include <hip/hip_cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int* out) {
  int lane = threadIdx.x;
  if (lane % 4 != 3) {
    cg::coalesced_group active = cg::coalesced_threads();
    cg::coalesced_group part = cg::labeled_partition(active, lane % 3);
    out[lane] = part.size() * 100 + part.thread_rank();
    out[64 + lane] = (int)(active.match_any(lane / 8) & 0xffff);
  }
  cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(cg::this_thread_block());
  out[128 + lane] = (int)t16.match_any(lane % 5);
}";
    let active: Vec<usize> = (0..64).filter(|l| l % 4 != 3).collect();
    // Cells the kernel leaves alone keep the default fill, their index.
    let mut want: Vec<Option<i128>> = (0..192).map(Some).collect();
    for &l in &active {
        // labeled_partition: the active lanes with the same label, ranked in lane order.
        let same: Vec<usize> = active.iter().copied().filter(|m| m % 3 == l % 3).collect();
        let rank = same.iter().position(|&m| m == l).expect("a member");
        want[l] = Some((same.len() * 100 + rank) as i128);
        // match_any on the coalesced group: bit k = the member of rank k with the same value.
        let bits: u64 = active
            .iter()
            .enumerate()
            .filter(|(_, &m)| m / 8 == l / 8)
            .map(|(k, _)| 1u64 << k)
            .sum();
        want[64 + l] = Some(i128::from(bits & 0xffff));
    }
    for l in 0..64 {
        // A tile's match_any: bit k = the tile's rank k with the same value.
        let first = l / 16 * 16;
        let bits: u64 = (0..16)
            .filter(|k| (first + k) % 5 == l % 5)
            .map(|k| 1u64 << k)
            .sum();
        want[128 + l] = Some(i128::from(bits));
    }
    assert_eq!(ints(src, Dialect::Hip, 64, 64, 192), want);
}

#[test]
fn scans_over_a_coalesced_group() {
    let src = "\
#include <cooperative_groups.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;
__global__ void k(int* out) {
  int lane = threadIdx.x % warpSize;
  if (lane % 3 != 0) {
    cg::coalesced_group g = cg::coalesced_threads();
    int v = lane;
    out[lane] = cg::inclusive_scan(g, v);
    out[64 + lane] = cg::exclusive_scan(g, v);
    out[128 + lane] = cg::inclusive_scan(g, v, cg::greater<int>());
  }
}";
    for (dialect, lanes) in [(Dialect::Cuda, 32), (Dialect::Hip, 64)] {
        let src = if dialect == Dialect::Hip {
            src.replace(
                "#include <cooperative_groups.h>\n#include <cooperative_groups/scan.h>",
                "#include <hip/hip_cooperative_groups.h>",
            )
        } else {
            src.to_string()
        };
        let members: Vec<i128> = (0..lanes as i128).filter(|l| l % 3 != 0).collect();
        // Cells the kernel leaves alone keep the default fill, their index.
        let mut want: Vec<Option<i128>> = (0..192).map(Some).collect();
        let mut sum = 0;
        for &m in &members {
            let l = m as usize;
            want[64 + l] = Some(sum);
            sum += m;
            want[l] = Some(sum);
            // The largest of the members up to this one: its own lane.
            want[128 + l] = Some(m);
        }
        assert_eq!(ints(&src, dialect, lanes, lanes, 192), want, "{dialect:?}");
    }
}

#[test]
fn a_function_template_takes_a_thread_group_too() {
    let src = "\
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
template <typename T>
__device__ T rank_plus(cg::thread_group g, T v) {
  g.sync();
  return v + (T)g.thread_rank() * 100 + (T)g.size();
}
__global__ void k(int* out) {
  cg::thread_block_tile<8> t = cg::tiled_partition<8>(cg::this_thread_block());
  out[threadIdx.x] = rank_plus(t, 1);
}";
    // Tiles of 8: 1 + 100 · (rank in the tile) + 8.
    let want: Vec<Option<i128>> = (0..32).map(|l| Some(1 + 100 * (l % 8) + 8)).collect();
    assert_eq!(ints(src, Dialect::Cuda, 32, 32, 32), want);
}
