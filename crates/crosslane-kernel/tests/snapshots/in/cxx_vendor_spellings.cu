// snapshot: threads=32
// Spellings public CUDA kernels use, each as nvcc takes it; every value derived by hand.
// ring: atomicInc(&ring[0], 4) from 0 hands lanes 0, 1, 2, … the olds 0 1 2 3 4 0 1 …
//   (CUDA C++ Programming Guide, Atomic Functions: stores old >= 4 ? 0 : old + 1), and
//   atomicDec(&ring[1], 3) from 5 hands 5 3 2 1 0 3 2 1 0 … (stores old == 0 || old > 3 ? 3 :
//   old - 1). olds[t] = inc * 10 + dec: lane 0 → 5, 1 → 13, 2 → 22, 3 → 31, 4 → 40, 5 → 3.
//   After 32 lanes: ring[0] = 32 mod 5 = 2; ring[1]: lanes 1..31 walk the period-4 cycle
//   3 2 1 0, lane 31 gets (31 - 1) mod 4 = 2 → old 1 and stores 0.
// width[t]: std::size_t i = t; std::ptrdiff_t d = i - 8; (std::uint32_t)d * 2u modulo 2^32:
//   t = 0 → 2^32 - 16 = 4294967280, t = 8 → 0, t = 31 → 46.
// best[t]: warp_reduce with the functor temporary MaxOp<int>{} over (t * 5) % 32, a
//   permutation of 0..31 (5 is odd): 31 in every lane. sum[t]: cg::plus<float>{} over the
//   16-lane tile of t * 0.25: tile 0 Σ 0..15 = 120 → 30, tile 1 Σ 16..31 = 376 → 94.
// The printf format and the static_assert message are literals joined (phase 6); without the
// join neither parses. Lane 7 prints "lane 7: 31/30" (the suite's kernel_vendor_forms checks
// printed text; this snapshot records buffers and notes).
#include <cstdint>
#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

template <typename T> struct MaxOp {
    __device__ T operator()(const T &a, const T &b) const { return a > b ? a : b; }
};

template <typename T, typename Op>
__device__ T warp_reduce(T v, Op op) {
    for (int o = 16; o > 0; o >>= 1) v = op(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}

static_assert(sizeof(std::uint64_t) == 8, "uint64_t " "is " "8 bytes");

__global__ void spell(unsigned *olds, unsigned *ring, std::uint32_t *width, int *best,
                      float *sum) {
    std::size_t i = threadIdx.x;
    if (i == 0) { ring[0] = 0u; ring[1] = 5u; }
    __syncthreads();
    unsigned inc = atomicInc(&ring[0], 4u);
    unsigned dec = atomicDec(&ring[1], 3u);
    olds[i] = inc * 10u + dec;
    std::ptrdiff_t d = static_cast<std::ptrdiff_t>(i) - 8;
    width[i] = (::uint32_t)d * 2u;
    best[i] = warp_reduce<int>((int)((i * 5) % 32), MaxOp<int>{});
    auto tile = cg::tiled_partition<16>(cg::this_thread_block());
    sum[i] = cg::reduce(tile, (float)i * 0.25f, cg::plus<float>{});
    if (i == 7) printf("lane %u" ": " "%d/" "%g\n", (unsigned)i, best[i], sum[i]);
}
