// `extern __shared__ float smem[];` at file scope, used by the kernel and two device
// functions: one dynamic buffer per block, its size the launch's third argument (CUDA C++
// Programming Guide, `__shared__`: all `extern __shared__` variables start at the same address,
// the array's size fixed at launch). Launch: 1 block of 64 threads (two warps), 64 floats.
// Each thread stores 2t, the block synchronizes, and thread t reads its right neighbour
// (t + 1) mod 64 through `rotated` and its own cell directly:
// out[t] = 2 * ((t + 1) % 64) + 2 * t. out[0] = 2, out[1] = 6, out[31] = 64 + 62 = 126,
// out[62] = 126 + 124 = 250, out[63] = 0 + 126 = 126.
#include <cuda_runtime.h>

extern __shared__ float smem[];

__device__ void put(int i, float v) { smem[i] = v; }

__device__ float rotated(int i) { return smem[(i + 1) % blockDim.x]; }

__global__ void rotate(float *out) {
    int t = threadIdx.x;
    put(t, t * 2.0f);
    __syncthreads();
    out[t] = rotated(t) + smem[t];
}

int main() {
    float *d_out;
    cudaMalloc(&d_out, 64 * sizeof(float));
    rotate<<<1, 64, 64 * sizeof(float)>>>(d_out);
    cudaDeviceSynchronize();
    return 0;
}
