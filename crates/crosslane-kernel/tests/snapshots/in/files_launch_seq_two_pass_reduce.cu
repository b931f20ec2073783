// A two-pass reduction in the CUDA samples' shape: one kernel launched twice, first over 256
// inputs in 4 blocks of 64 (each block's sum into part[block]), then over the 4 partials in one
// block, in place (part[0] = their sum). The first launch is traced; the second runs after it,
// on the partials the first left, so the final `out` (the traced launch's part) holds the total.
// in[i] = i % 10 (Python): partials = [sum(i % 10 for i in range(64 * b, 64 * b + 64)) for b in
// range(4)] = [276, 292, 288, 284]; total = 1140 = part[0]; part[1..3] keep 292, 288, 284.
#include <cuda_runtime.h>

__global__ void reduce(const int *in, int *out, int n) {
    __shared__ int s[64];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (int k = 32; k > 0; k >>= 1) {
        if (t < k) s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}

int main() {
    const int n = 256, threads = 64, blocks = n / threads;
    int h[n];
    for (int i = 0; i < n; i++) h[i] = i % 10;
    int *d_in, *d_part;
    cudaMalloc(&d_in, n * sizeof(int));
    cudaMalloc(&d_part, blocks * sizeof(int));
    cudaMemcpy(d_in, h, n * sizeof(int), cudaMemcpyHostToDevice);
    reduce<<<blocks, threads>>>(d_in, d_part, n);
    reduce<<<1, threads>>>(d_part, d_part, blocks);
    int total;
    cudaMemcpy(&total, d_part, sizeof(int), cudaMemcpyDeviceToHost);
    return 0;
}
