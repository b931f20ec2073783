// Scalar arguments from the launch; override them with --arg.
#include <cuda_runtime.h>
constexpr int SCALE = 3;

__global__ void scaleShift(const int* in, int* out, int k, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int v = in[i] * SCALE + k;
        out[i] = __shfl_down_sync(0xffffffff, v, 1);
    }
}

int main() {
    const int n = 64;
    int h[64];
    for (int i = 0; i < n; ++i) h[i] = 2 * i + 1;
    int *d_in, *d_out;
    cudaMalloc((void**)&d_in, n * sizeof(int));
    cudaMalloc((void**)&d_out, n * sizeof(int));
    cudaMemcpy(d_in, h, n * sizeof(int), cudaMemcpyHostToDevice);
    dim3 block(32);
    dim3 grid(n / 32);
    scaleShift<<<grid, block>>>(d_in, d_out, 5, n);
    return 0;
}
