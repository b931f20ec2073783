// Constant expressions as template arguments and array bounds:
// - a local `constexpr int NUM_WARPS = 256 / 32` (= 8) as red<NUM_WARPS>: an xor butterfly
//   over 4, 2, 1 sums lane ids in groups of 8: group g gives 64g + 28 (28, 92, 156, 220);
// - a constexpr function call log2i(32) = 5 (32 → 16 → 8 → 4 → 2 → 1: five halvings) as
//   shifted<log2i(32)>(1) = 1 << 5 = 32;
// - sizeof(int) * 2 = 8 as red<…>(1): eight lanes of 1 sum to 8;
// - an array bound sizeof(double) + 2 = 10 cells; arr[9] = 9 is written and read back.
// out[lane] = group_sum * 10000 + 32 * 100 + 8 + 9 = group_sum * 10000 + 3217:
// 283217 (lanes 0-7), 923217, 1563217, 2203217 (lanes 24-31).
__host__ __device__ constexpr int log2i(int n) { return n <= 1 ? 0 : 1 + log2i(n / 2); }

template <int W> __device__ int red(int v) {
    for (int o = W / 2; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
    return v;
}

template <int S> __device__ int shifted(int v) { return v << S; }

__global__ void k(int *out) {
    constexpr int NUM_WARPS = 256 / 32;
    static_assert(NUM_WARPS == 8, "eight warps");
    int v = red<NUM_WARPS>((int)threadIdx.x);
    int w = shifted<log2i(32)>(1);
    int x = red<sizeof(int) * 2>(1);
    int arr[sizeof(double) + 2];
    arr[9] = 9;
    out[threadIdx.x] = v * 10000 + w * 100 + x + arr[9];
}
