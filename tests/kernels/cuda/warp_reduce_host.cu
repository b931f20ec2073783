// Warp-level sum reduction, launched from host code: each warp writes its sum.
#include <cstdio>
#include <cuda_runtime.h>

#define N 128
#define THREADS 64
#define FULL_MASK 0xffffffff

__inline__ __device__ int warpReduceSum(int val) {
    for (int offset = warpSize / 2; offset > 0; offset /= 2)
        val += __shfl_down_sync(FULL_MASK, val, offset);
    return val;
}

__global__ void reduceWarps(const int* __restrict__ in, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = (i < n) ? in[i] : 0;
    v = warpReduceSum(v);
    if ((threadIdx.x & (warpSize - 1)) == 0)
        out[i / warpSize] = v;
}

int main() {
    int h_in[N];
    for (int i = 0; i < N; i++) h_in[i] = i % 7;
    int *d_in, *d_out;
    cudaMalloc(&d_in, N * sizeof(int));
    cudaMalloc(&d_out, (N / 32) * sizeof(int));
    cudaMemcpy(d_in, h_in, N * sizeof(int), cudaMemcpyHostToDevice);
    reduceWarps<<<N / THREADS, THREADS>>>(d_in, d_out, N);
    int h_out[N / 32];
    cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost);
    for (int w = 0; w < N / 32; ++w) printf("warp %d: %d\n", w, h_out[w]);
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
