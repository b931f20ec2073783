// Cooperative groups: a tile of 16 reduces with shfl_down, cg::reduce and scans per tile.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

__device__ int tileSum(cg::thread_block_tile<16> g, int v) {
    for (int offset = g.size() / 2; offset > 0; offset /= 2)
        v += g.shfl_down(v, offset);
    return v;
}

__global__ void tiles(const int* in, int* sums, int* reduced, int* maxima, int* scans, int* exscans,
                      unsigned* ballots, int* ranks) {
    cg::thread_block block = cg::this_thread_block();
    auto tile = cg::tiled_partition<16>(block);
    int x = in[block.thread_rank()];
    int t = tileSum(tile, x);
    sums[block.thread_rank()] = t;
    reduced[block.thread_rank()] = cg::reduce(tile, x, cg::plus<int>());
    maxima[block.thread_rank()] = cg::reduce(tile, x, cg::greater<int>());
    scans[block.thread_rank()] = cg::inclusive_scan(tile, x);
    exscans[block.thread_rank()] = cg::exclusive_scan(tile, x, cg::plus<int>());
    ballots[block.thread_rank()] = tile.ballot(x % 2 == 1);
    ranks[block.thread_rank()] = tile.thread_rank() * 100 + tile.meta_group_rank();
    block.sync();
}
