// snapshot: threads=64
// Forms public CUDA kernels use that nvcc takes.
// - __syncthreads_count / _and / _or (CUDA C++ Programming Guide, Synchronization Functions):
//   a barrier that also returns, in every thread, how many of the block's non-exited threads
//   passed a non-zero predicate (_count), whether all did (_and), whether any did (_or).
//   64 threads, 2 warps: t % 4 == 1 holds for 1, 5, …, 61 = 16 threads; t < 64 in all (and: 1);
//   t == 40 in one (or: 1). cnt[t] = 16, flags[t] = 1 * 10 + 1 = 11.
// - a tile's shfl_xor of a uint2 (Cooperative Groups: shfl of any trivially copyable T): each
//   component from lane t ^ 2: v[t] = (t ^ 2, 1000 + (t ^ 2)).
// - return {} from a device function returning int2: value-initialized, (0, 0), in odd lanes;
//   even lanes get (t, -t).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ int2 half_of(int t) {
    if (t % 2 == 0) return make_int2(t, -t);
    return {};
}

__global__ void votes(int *cnt, int *flags, uint2 *v, int2 *h) {
    int t = threadIdx.x;
    cnt[t] = __syncthreads_count(t % 4 == 1);
    int all = __syncthreads_and(t < 64);
    int any = 0;
    if (__syncthreads_or(t == 40)) any = 1;
    flags[t] = all * 10 + any;
    auto tile = cg::tiled_partition<32>(cg::this_thread_block());
    uint2 u = make_uint2(t, 1000 + t);
    v[t] = tile.shfl_xor(u, 2);
    h[t] = half_of(t);
}
