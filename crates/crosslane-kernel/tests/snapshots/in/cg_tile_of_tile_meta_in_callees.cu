// snapshot: threads=64
// A tile of a tile passed to functions (written for crosslane's snapshots): t8 =
// tiled_partition<8>(tiled_partition<32>(block)) is tile (t % 32) / 8 of the 4 its parent was
// split into (CUDA C++ Programming Guide, Cooperative Groups, Thread Block Tile:
// meta_group_rank / meta_group_size), in the declaring kernel and in every callee. Cell t of
// `out` is a * 10000 + b * 100 + c: a = rank * 10 + size from a by-reference callee, b the same
// from a template callee that passes the tile on, c from a tile of t8 made in the callee, tile
// (t % 8) / 2 of 4 → rank * 10 + 4; e.g. thread 13: a = b = 14, c = 24 → 141424.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ int pair(const cg::thread_block_tile<8>& t) {
  return t.meta_group_rank() * 10 + t.meta_group_size();
}
template <typename Group>
__device__ int forward(Group g) { return pair(g); }
__device__ int inner(cg::thread_block_tile<8> t) {
  auto t2 = cg::tiled_partition<2>(t);
  return t2.meta_group_rank() * 10 + t2.meta_group_size();
}

__global__ void k(int *out) {
  auto block = cg::this_thread_block();
  auto t8 = cg::tiled_partition<8>(cg::tiled_partition<32>(block));
  out[threadIdx.x] = pair(t8) * 10000 + forward(t8) * 100 + inner(t8);
}
