// Wavefront sum on 64 lanes (a .hip file runs as HIP on wave64 by default).
#include <hip/hip_runtime.h>

__device__ int waveSum(int v) {
    for (int offset = warpSize / 2; offset > 0; offset >>= 1)
        v += __shfl_down(v, offset);
    return v;
}

__global__ void reduceWave(const int* in, int* out) {
    int v = waveSum(in[threadIdx.x]);
    if (threadIdx.x == 0) out[0] = v;
}

int main() {
    int h[64];
    for (int i = 0; i < 64; ++i) h[i] = i;
    int *d_in, *d_out;
    hipMalloc(&d_in, 64 * sizeof(int));
    hipMalloc(&d_out, sizeof(int));
    hipMemcpy(d_in, h, 64 * sizeof(int), hipMemcpyHostToDevice);
    hipLaunchKernelGGL(reduceWave, dim3(1), dim3(64), 0, 0, d_in, d_out);
    return 0;
}
