// A Hillis–Steele inclusive scan with one launch per pass from a host `while` loop doubling the
// stride: add_stride(d, s) for s = 1, 2, 4, 8, 16 (5 launches), each thread adding d[i - s] when
// i >= s, reads before the barrier and writes after it. The loop is read once per iteration;
// the first launch (s = 1) is traced and the four after it run when it finishes. h[i] = i, so
// the final d[i] = i (i + 1) / 2: 0, 1, 3, 6, 10, 15, …, 496.
#include <cuda_runtime.h>

__global__ void add_stride(int *d, int s) {
    int i = threadIdx.x;
    int v = i >= s ? d[i - s] : 0;
    __syncthreads();
    d[i] += v;
}

int main() {
    const int n = 32;
    int h[n];
    for (int i = 0; i < n; i++) h[i] = i;
    int *d;
    cudaMalloc(&d, n * sizeof(int));
    cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice);
    int s = 1;
    while (s < n) {
        add_stride<<<1, n>>>(d, s);
        s *= 2;
    }
    cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
    return 0;
}
