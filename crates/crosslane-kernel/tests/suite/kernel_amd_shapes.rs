//! Shapes of AMD's public HIP code (hip-tests, rocm-examples, rocPRIM, composable_kernel,
//! MIGraphX) that crosslane refused or misread: kernels written here in those shapes, never
//! copied. Expected values come from the HIP Programming Guide ("Cooperative Groups", "Warp
//! cross-lane functions") and the C++17 standard, computed by the Python models quoted beside
//! each test.

use crosslane_core::Dialect;
use crosslane_kernel::{run_kernel, KVal, LaunchConfig, Outcome};

fn run_ints(
    src: &str,
    dialect: Dialect,
    lanes: usize,
    threads: usize,
    len: usize,
) -> Vec<Option<i128>> {
    let config = LaunchConfig {
        dialect: Some(dialect),
        lanes: Some(lanes),
        block_dim: Some([threads, 1, 1]),
        buffer_len: [("out".to_string(), len)].into(),
        ..LaunchConfig::default()
    };
    let t = run_kernel(src, config).expect("runs");
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    t.buffer("out")
        .expect("out")
        .iter()
        .map(|c| c.as_ref().and_then(KVal::as_int))
        .collect()
}

/// `auto x = group.member(…)`: a value deduced from a group's member call, not a new group
/// (hip-tests' `auto cg_ballot_res = cg.ballot(val == 10);`, `auto r = tile.thread_rank();`).
const AUTO_FROM_GROUP: &str = "\
#include <hip/hip_runtime.h>
#include <hip/hip_cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(unsigned long long* out) {
  int v = threadIdx.x;
  int n = blockDim.x;
  auto tile = cg::tiled_partition<16>(cg::this_thread_block());
  auto r = tile.thread_rank();
  auto first = tile.shfl(v, 0);
  auto votes = tile.ballot(v % 3 == 0);
  auto half = tile.size() / 2;
  out[v] = r;
  out[n + v] = first;
  out[2 * n + v] = votes;
  out[3 * n + v] = half;
  if (v % 2 == 0) {
    auto g = cg::coalesced_threads();
    auto b = g.ballot(v % 4 == 0);
    out[4 * n + v] = b;
  }
}";

#[test]
fn auto_takes_the_value_of_a_group_member_call() {
    // Python model: tile t = i // 16, rank k = i % 16; ballot bit kk set when (16t + kk) % 3 == 0
    // (tiles 0, 3: 37449; tile 1: 18724; tile 2: 9362). The even lanes' coalesced group has
    // member ranks k = lane / 2; `lane % 4 == 0` holds at even ranks: 0x5555… over its
    // n / 2 ranks.
    for lanes in [64usize, 32] {
        let out = run_ints(AUTO_FROM_GROUP, Dialect::Hip, lanes, lanes, 5 * lanes);
        let votes = |t: usize| -> i128 {
            (0..16)
                .filter(|kk| (16 * t + kk) % 3 == 0)
                .map(|kk| 1i128 << kk)
                .sum()
        };
        let even_bits: i128 = (0..lanes / 2)
            .filter(|k| k % 2 == 0)
            .map(|k| 1i128 << k)
            .sum();
        for i in 0..lanes {
            assert_eq!(out[i], Some((i % 16) as i128), "rank, lane {i}");
            assert_eq!(
                out[lanes + i],
                Some((16 * (i / 16)) as i128),
                "shfl, lane {i}"
            );
            assert_eq!(out[2 * lanes + i], Some(votes(i / 16)), "ballot, lane {i}");
            assert_eq!(out[3 * lanes + i], Some(8), "size / 2, lane {i}");
            if i % 2 == 0 {
                assert_eq!(
                    out[4 * lanes + i],
                    Some(even_bits),
                    "coalesced ballot, lane {i}"
                );
            }
        }
        assert_eq!(votes(0), 37449);
        assert_eq!(even_bits, if lanes == 64 { 0x5555_5555 } else { 0x5555 });
    }
}
