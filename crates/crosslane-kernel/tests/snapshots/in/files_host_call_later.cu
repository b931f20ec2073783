// The CUDA samples' shape: a host function template declared above main, defined below it, its
// result assigned in main (`bool ok = runTest<int>(64, 3);`). The call is read once the file is
// parsed, with n = 64, scale = 3 and T = int bound: rotate_scale<int><<<n / 32, 32>>>(d, d_out,
// scale), grid 2, block 32, both buffers cudaMalloc(n * sizeof(T)) = 64 ints, `d` filled by
// the host loop with 100 + i.
// Each lane reads its neighbour one lane up in its warp, wrapping at 32, times scale:
// out[t] = 3 * (100 + w * 32 + (t % 32 + 1) % 32) for warp w = t / 32, so out[0] = 303,
// out[30] = 393, out[31] = 300, out[32] = 399, out[63] = 396.
#include <cuda_runtime.h>

template <typename T> __global__ void rotate_scale(const T *in, T *out, int scale) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    out[t] = __shfl_sync(0xffffffff, in[t], (threadIdx.x + 1) % 32) * scale;
}

template <typename T> bool runTest(int n, int scale);

int main() {
    bool ok = runTest<int>(64, 3);
    return ok ? 0 : 1;
}

template <typename T> bool runTest(int n, int scale) {
    T h[64];
    for (int i = 0; i < n; i++) h[i] = 100 + i;
    T *d, *d_out;
    cudaMalloc(&d, n * sizeof(T));
    cudaMalloc(&d_out, n * sizeof(T));
    cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice);
    rotate_scale<T><<<n / 32, 32>>>(d, d_out, scale);
    cudaFree(d);
    return true;
}
