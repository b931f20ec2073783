// A template value parameter used as a template argument: tile_sz names the tile of
// cg::tiled_partition<tile_sz> and cg::thread_block_tile<tile_sz> inside the instance.
// tile_sum<8>: an xor butterfly over offsets 4, 2, 1 gives every lane of a tile of 8 the sum
// of the tile's lane ids: tile g (lanes 8g..8g+7) sums to 64g + 28, so s = 28, 92, 156, 220.
// out[lane] = s + 1000 * t.size() = s + 8000: 8028 (lanes 0-7), 8092, 8156, 8220 (lanes 24-31).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

template <int tile_sz>
__device__ int tile_sum(cg::thread_block_tile<tile_sz> t, int v) {
    for (int o = tile_sz / 2; o > 0; o >>= 1) v += t.shfl_xor(v, o);
    return v;
}

template <int tile_sz>
__device__ int tiled(int v) {
    auto t = cg::tiled_partition<tile_sz>(cg::this_thread_block());
    cg::thread_block_tile<tile_sz> t2 = cg::tiled_partition<tile_sz>(cg::this_thread_block());
    return tile_sum<tile_sz>(t2, v) + 1000 * t.size();
}

__global__ void k(int *out) {
    out[threadIdx.x] = tiled<8>((int)threadIdx.x);
}
