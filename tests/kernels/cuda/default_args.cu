// Default function arguments and a defaulted template argument, as warp helpers write them
// (the width and mask of a shuffle left to their usual values).
template <typename T>
__device__ T warp_shfl_down(T value, unsigned delta, int width = warpSize,
                            unsigned mask = 0xffffffff) {
    return __shfl_down_sync(mask, value, delta, width);
}

template <typename T, int Width = 32>
__device__ T warp_sum(T v) {
    for (int offset = Width / 2; offset > 0; offset /= 2) {
        v += warp_shfl_down(v, offset);
    }
    return v;
}

__global__ void sums(int* out, int* partial) {
    int v = threadIdx.x;
    out[threadIdx.x] = warp_sum(v);
    // An explicit width: groups of 8 lanes.
    partial[threadIdx.x] = warp_shfl_down(v, 4, 8);
}
