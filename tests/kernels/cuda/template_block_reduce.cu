// Template helpers as CUDA libraries write them: a type parameter deduced from the argument,
// an int parameter with a default, and a template kernel launched with explicit arguments.
#include <cuda_runtime.h>

template <typename T>
__device__ __forceinline__ T warpSum(T val) {
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1)
        val += __shfl_xor_sync(0xffffffff, val, offset);
    return val;
}

template <typename T, int BLOCK_THREADS>
__global__ void blockReduce(const T* __restrict__ in, T* __restrict__ out) {
    static_assert(BLOCK_THREADS % 32 == 0, "whole warps");
    __shared__ T warpTotals[BLOCK_THREADS / 32];
    const int lane = threadIdx.x % 32;
    const int warp = threadIdx.x / 32;
    T v = warpSum(in[blockIdx.x * BLOCK_THREADS + threadIdx.x]);
    if (lane == 0) warpTotals[warp] = v;
    __syncthreads();
    if (warp == 0) {
        T t = (lane < BLOCK_THREADS / 32) ? warpTotals[lane] : (T)0;
        t = warpSum(t);
        if (lane == 0) out[blockIdx.x] = t;
    }
}

int main() {
    constexpr int kThreads = 128;
    float h[256];
    for (int i = 0; i < 256; ++i) h[i] = 0.5f * i;
    float *d_in, *d_out;
    cudaMalloc(&d_in, 256 * sizeof(float));
    cudaMalloc(&d_out, 2 * sizeof(float));
    cudaMemcpy(d_in, h, sizeof(h), cudaMemcpyHostToDevice);
    blockReduce<float, kThreads><<<2, kThreads>>>(d_in, d_out);
    return 0;
}
