//! `cg::this_thread()`: CUDA C++ Programming Guide, Cooperative Groups, "this_thread": the
//! calling thread as a `thread_block_tile<1>`. In a group of one thread, `thread_rank()` is 0,
//! `size()` and `num_threads()` are 1, the group is its own parent (`meta_group_rank()` 0 of
//! `meta_group_size()` 1), a shuffle can only read the thread itself (an out-of-tile source
//! keeps the caller's value, as `shfl_down` in any tile), and a vote sees one member.

use crate::support::{ints, launch, no_errors, run_finished};
use crosslane_core::op::Dialect;

const THIS_THREAD: &str = "\
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int* o, int* p, int* q) {
  cg::thread_block_tile<1> t = cg::this_thread();
  auto u = cg::this_thread();
  int v = threadIdx.x * 7;
  t.sync();
  o[threadIdx.x] = t.thread_rank() + 10 * t.num_threads() + 100 * u.size()
      + 1000 * t.meta_group_rank() + 10000 * t.meta_group_size();
  p[threadIdx.x] = t.shfl(v, 0) + u.shfl_xor(v, 0) + t.shfl_down(v, 1);
  q[threadIdx.x] = cg::this_thread().thread_rank() + 2 * u.any(1) + 4 * t.all(1) + 8 * t.ballot(1);
}";

#[test]
fn this_thread_is_a_tile_of_one() {
    let config = launch(
        Dialect::Cuda,
        64,
        &[("o", 64, "zero"), ("p", 64, "zero"), ("q", 64, "zero")],
    );
    let t = run_finished(THIS_THREAD, config);
    no_errors(&t);
    // o = 0 + 10·1 + 100·1 + 1000·0 + 10000·1; p = 3·(7x); q = 0 + 2 + 4 + 8·1 (ballot bit 0).
    let o = ints(&t, "o");
    let p = ints(&t, "p");
    let q = ints(&t, "q");
    for x in 0..64usize {
        assert_eq!(o[x], Some(10110), "o[{x}]");
        assert_eq!(p[x], Some(21 * x as i128), "p[{x}]");
        assert_eq!(q[x], Some(14), "q[{x}]");
    }
}
