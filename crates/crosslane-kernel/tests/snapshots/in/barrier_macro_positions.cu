// snapshot: threads=64
// Two warps; `t < 40` holds in all of warp 0 and in lanes 0-7 of warp 1 (threads 32-39), so
// the two barriers inside the `if` are in divergent code (CUDA C++ Programming Guide,
// Synchronization Functions): undefined, and an NVIDIA H200 hung on this kernel, so the run
// ends at the first, 19:30, with outcome error naming lanes 8-31 of warp 1 (the positions of
// the others are checked with --keep-going in kernel_vendor_forms.rs); each is reported at the
// user's position. The macro's `b.sync()`
// is a block barrier whose first token is the argument `block`, at 19:30; `SYNC()` expands at
// 20:19. The BlockScan's barriers are synthesized at its call, 22:5. No column past the
// source's lines appears anywhere.
// out[t] is the exclusive prefix sum of x = t: t(t - 1)/2 (t = 0 → 0, t = 3 → 3, t = 63 → 1953).
#include <cooperative_groups.h>
#include <cub/cub.cuh>
namespace cg = cooperative_groups;
#define SYNC_BLOCK(b) b.sync()
#define SYNC() __syncthreads()
__global__ void positions(int *out) {
    auto block = cg::this_thread_block();
    using BS = cub::BlockScan<int, 64>;
    __shared__ typename BS::TempStorage tmp;
    int t = threadIdx.x, v = 0;
    if (t < 40) { SYNC_BLOCK(block);
                  SYNC(); v = 1; }
    int x = t;
    BS(tmp).ExclusiveSum(x, v);
    out[t] = v;
}
