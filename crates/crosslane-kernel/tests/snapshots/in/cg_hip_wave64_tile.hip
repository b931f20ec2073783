// HIP's cooperative groups on a 64-lane wavefront (HIP Programming Guide, Cooperative groups:
// tiles up to the wavefront size). A tile of 64 is the whole wavefront: cg::reduce of the lane
// index is 0 + 1 + … + 63 = 2016 in every lane; the tile's ballot of (t < 40) has bits 0..39:
// 2^40 - 1 = 1099511627775; thread_rank is t and size 64, so rs = t * 100 + 64.
#include <hip/hip_runtime.h>
#include <hip/hip_cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int *sum, unsigned long long *low40, int *rs) {
    int t = threadIdx.x;
    cg::thread_block_tile<64> wave = cg::tiled_partition<64>(cg::this_thread_block());
    sum[t] = cg::reduce(wave, t, cg::plus<int>());
    low40[t] = wave.ballot(t < 40);
    rs[t] = wave.thread_rank() * 100 + wave.size();
}
