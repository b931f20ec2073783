//! A tile partitioned from a tile keeps its place among its siblings wherever it is passed:
//! CUDA C++ Programming Guide, Cooperative Groups, "Thread Block Tile": `meta_group_rank()` is
//! the "linear rank of the group within the set of tiles partitioned from a parent group
//! (bounded by meta_group_size)", `meta_group_size()` the "number of groups created when the
//! parent group was partitioned"; `thread_rank()` the thread's rank in the tile, `size()` /
//! `num_threads()` its thread count. For `t8 = tiled_partition<8>(tiled_partition<32>(block))`
//! thread `x` of the block has rank `x % 8` in `t8`, and `t8` is tile `(x % 32) / 8` of the 4
//! its parent was split into — not tile `x / 8` of the block's 16 (the value crosslane gave
//! inside a callee before). Expected values are these formulas, computed per thread here.

use crate::support::out_ints;
use crosslane_core::op::Dialect;

/// Thread `x`'s expected cells: one value per entry of `f`.
fn expect(threads: usize, f: &[&dyn Fn(i128) -> i128]) -> Vec<Option<i128>> {
    (0..threads as i128)
        .flat_map(|x| f.iter().map(move |g| Some(g(x))))
        .collect()
}

/// Every way a tile reaches a function: by value as `thread_block_tile<8>`, by `const&`, by
/// `&`, as a deduced template `Group`, as `G&&`, as a `thread_group` (rank and size only),
/// through two levels of calls, to a member function, to a lambda and a generic lambda.
#[test]
fn a_tile_of_a_tile_keeps_its_meta_pair_in_callees() {
    let src = "#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ int by_value(cg::thread_block_tile<8> t) {
  return t.meta_group_rank() * 10 + t.meta_group_size();
}
__device__ int by_cref(const cg::thread_block_tile<8>& t) {
  return t.meta_group_rank() * 10 + t.meta_group_size();
}
__device__ int by_ref(cg::thread_block_tile<8>& t) { return by_cref(t) + 1000; }
template <typename Group> __device__ int by_template(Group g) {
  return g.meta_group_rank() * 10 + g.meta_group_size();
}
template <typename G> __device__ int by_forward(G&& g) { return by_value(g) + 2000; }
__device__ int as_group(cg::thread_group g) { return g.thread_rank() * 10 + g.size(); }
__device__ int ranks(cg::thread_block_tile<8> t) {
  return t.thread_rank() * 100 + t.size() * 10 + (t.num_threads() == 8);
}
struct S {
  int k;
  __device__ int f(cg::thread_block_tile<8> t) const { return t.meta_group_rank() * k + t.meta_group_size(); }
};
__global__ void k(int* out) {
  auto block = cg::this_thread_block();
  auto warp32 = cg::tiled_partition<32>(block);
  auto t8 = cg::tiled_partition<8>(warp32);
  S s{10};
  auto lam = [&](cg::thread_block_tile<8> g) { return g.meta_group_rank() * 10 + g.meta_group_size(); };
  auto glam = [](auto g) { return g.meta_group_rank() * 10 + g.meta_group_size(); };
  int* o = out + threadIdx.x * 10;
  o[0] = by_value(t8);
  o[1] = by_cref(t8);
  o[2] = by_ref(t8);
  o[3] = by_template(t8);
  o[4] = by_forward(t8);
  o[5] = as_group(t8);
  o[6] = ranks(t8);
  o[7] = s.f(t8);
  o[8] = lam(t8);
  o[9] = glam(t8);
}";
    let meta = |x: i128| ((x % 32) / 8) * 10 + 4;
    let want = expect(
        128,
        &[
            &meta,
            &meta,
            &|x| meta(x) + 1000,
            &meta,
            &|x| meta(x) + 2000,
            &|x| (x % 8) * 10 + 8,
            &|x| (x % 8) * 100 + 81,
            &meta,
            &meta,
            &meta,
        ],
    );
    assert_eq!(out_ints(src, Dialect::Cuda, 32, 128, 1280), want);
}

/// A tile of a tile of a tile (`t4` of `t8` of the warp), made with the template and the
/// runtime spelling (`tiled_partition(t8, 4)`), made inside a callee from a tile parameter,
/// and made in place as an argument; and a tile of the block passed beside one (its pair is
/// still over the block: `x / 8` of 16).
#[test]
fn tiles_of_tiles_of_tiles_and_tiles_of_the_block_in_callees() {
    let src = "#include <cooperative_groups.h>
namespace cg = cooperative_groups;
template <typename G> __device__ int meta(const G& g) {
  return g.meta_group_rank() * 100 + g.meta_group_size() * 10 + g.thread_rank();
}
__device__ int inside(cg::thread_block_tile<8> t) {
  auto t2 = cg::tiled_partition<2>(t);
  return meta(t2) * 1000 + meta(t);
}
__device__ int two(cg::thread_block_tile<8> b8, cg::thread_block_tile<4> t4) {
  return (b8.meta_group_rank() * 100 + b8.meta_group_size()) * 1000 + meta(t4);
}
__global__ void k(int* out) {
  auto block = cg::this_thread_block();
  auto warp32 = cg::tiled_partition<32>(block);
  auto t8 = cg::tiled_partition<8>(warp32);
  auto t4 = cg::tiled_partition<4>(t8);
  auto r4 = cg::tiled_partition(t8, 4);
  auto b8 = cg::tiled_partition<8>(block);
  int* o = out + threadIdx.x * 5;
  o[0] = meta(t4);
  o[1] = meta(r4);
  o[2] = inside(t8);
  o[3] = meta(cg::tiled_partition<4>(t8));
  o[4] = two(b8, t4);
}";
    // A tile of n taken from a parent of p: rank (x % p) / n of p / n, thread rank x % n.
    let m = |x: i128, p: i128, n: i128| ((x % p) / n) * 100 + (p / n) * 10 + x % n;
    let want = expect(
        128,
        &[
            &|x| m(x, 8, 4),
            &|x| m(x, 8, 4),
            &|x| m(x, 8, 2) * 1000 + m(x, 32, 8),
            &|x| m(x, 8, 4),
            &|x| ((x / 8) * 100 + 16) * 1000 + m(x, 8, 4),
        ],
    );
    assert_eq!(out_ints(src, Dialect::Cuda, 32, 128, 640), want);
}

/// A call that leaves out a default argument, a struct argument before the tile, and HIP's
/// 64-lane wavefront (`tiled_partition<16>(tiled_partition<64>(block))`: tile `(x % 64) / 16`
/// of 4; HIP Programming Guide, Cooperative groups, the same members).
#[test]
fn defaults_struct_arguments_and_wave64() {
    let src = "#include <cooperative_groups.h>
namespace cg = cooperative_groups;
struct P { int a; int b; };
__device__ int with_default(cg::thread_block_tile<8> t, int k = 1000) {
  return t.meta_group_rank() * k + t.meta_group_size();
}
__device__ int with_struct(P p, const cg::thread_block_tile<8>& t) {
  return p.a * t.meta_group_rank() + p.b * t.meta_group_size();
}
__global__ void k(int* out) {
  auto block = cg::this_thread_block();
  auto t8 = cg::tiled_partition<8>(cg::tiled_partition<32>(block));
  P p = {1, 100};
  out[threadIdx.x * 3 + 0] = with_default(t8);
  out[threadIdx.x * 3 + 1] = with_default(t8, 10);
  out[threadIdx.x * 3 + 2] = with_struct(p, t8);
}";
    let r = |x: i128| (x % 32) / 8;
    let want = expect(
        64,
        &[&|x| r(x) * 1000 + 4, &|x| r(x) * 10 + 4, &|x| r(x) + 400],
    );
    assert_eq!(out_ints(src, Dialect::Cuda, 32, 64, 192), want);

    let hip = "#include <hip/hip_cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ int info(cg::thread_block_tile<16> t) {
  return t.meta_group_rank() * 100 + t.meta_group_size() * 10 + t.thread_rank() % 10;
}
__global__ void k(int* out) {
  auto block = cg::this_thread_block();
  auto wave = cg::tiled_partition<64>(block);
  auto t16 = cg::tiled_partition<16>(wave);
  out[threadIdx.x] = info(t16);
}";
    let want = expect(128, &[&|x| ((x % 64) / 16) * 100 + 40 + (x % 16) % 10]);
    assert_eq!(out_ints(hip, Dialect::Hip, 64, 128, 128), want);
}
