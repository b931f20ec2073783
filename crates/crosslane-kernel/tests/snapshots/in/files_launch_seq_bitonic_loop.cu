// A bitonic sort of 32 ints in one block, one launch per stage, from two nested host loops as
// sorting samples write them: for k = 2, 4, …, 32 and j = k / 2, …, 1, bitonic_step(d, j, k).
// The loops are read once per iteration: 1 + 2 + 3 + 4 + 5 = 15 launches, the first (j = 1,
// k = 2) traced and the 14 after it run when it finishes, in order. Each thread i pairs with
// p = i ^ j and orders (d[i], d[p]) ascending where i & k == 0, descending elsewhere (Batcher's
// bitonic network), so after the last stage d is sorted ascending. h[i] = (13 i + 5) % 32 is a
// permutation of 0..31 (13 is odd), so the final d is 0, 1, …, 31.
#include <cuda_runtime.h>

#define N 32

__global__ void bitonic_step(int *d, int j, int k) {
    unsigned i = threadIdx.x;
    unsigned p = i ^ j;
    if (p > i) {
        bool up = (i & k) == 0;
        int a = d[i], b = d[p];
        if ((a > b) == up) {
            d[i] = b;
            d[p] = a;
        }
    }
}

int main() {
    int h[N];
    for (int i = 0; i < N; i++) h[i] = (13 * i + 5) % 32;
    int *d;
    cudaMalloc(&d, N * sizeof(int));
    cudaMemcpy(d, h, N * sizeof(int), cudaMemcpyHostToDevice);
    for (int k = 2; k <= N; k <<= 1) {
        for (int j = k >> 1; j > 0; j >>= 1) {
            bitonic_step<<<1, N>>>(d, j, k);
        }
    }
    cudaMemcpy(h, d, N * sizeof(int), cudaMemcpyDeviceToHost);
    return 0;
}
