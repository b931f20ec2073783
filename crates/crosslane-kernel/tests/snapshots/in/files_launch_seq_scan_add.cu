// A three-kernel scan over 128 ints in 4 blocks of one warp: block_scan writes each block's
// inclusive prefix sums and its total into sums[block]; scan_sums scans the 4 totals in place;
// add_offsets adds to every block but the first the scanned total of the blocks before it. The
// first launch (block_scan) is traced; scan_sums and add_offsets run after it, so the final d and
// sums are the device's after all three.
// h[i] = i % 4, so (Python) d = list(itertools.accumulate(i % 4 for i in range(128))):
// d[0..8] = 0, 1, 3, 6, 6, 7, 9, 12; d[31] = 48; d[32..36] = 48, 49, 51, 54; d[127] = 192.
// Each block's total is 8 * (0 + 1 + 2 + 3) = 48, so sums = 48, 96, 144, 192.
#include <cuda_runtime.h>

__global__ void block_scan(int *d, int *sums) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = d[i];
    for (int o = 1; o < 32; o <<= 1) {
        int u = __shfl_up_sync(0xffffffff, v, o);
        if (threadIdx.x >= o) v += u;
    }
    d[i] = v;
    if (threadIdx.x == 31) sums[blockIdx.x] = v;
}

__global__ void scan_sums(int *sums, int n) {
    int v = threadIdx.x < n ? sums[threadIdx.x] : 0;
    for (int o = 1; o < 32; o <<= 1) {
        int u = __shfl_up_sync(0xffffffff, v, o);
        if (threadIdx.x >= o) v += u;
    }
    if (threadIdx.x < n) sums[threadIdx.x] = v;
}

__global__ void add_offsets(int *d, const int *sums) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (blockIdx.x > 0) d[i] += sums[blockIdx.x - 1];
}

int main() {
    const int n = 128, blocks = 4;
    int h[n];
    for (int i = 0; i < n; i++) h[i] = i % 4;
    int *d, *sums;
    cudaMalloc(&d, n * sizeof(int));
    cudaMalloc(&sums, blocks * sizeof(int));
    cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice);
    block_scan<<<blocks, 32>>>(d, sums);
    scan_sums<<<1, 32>>>(sums, blocks);
    add_offsets<<<blocks, 32>>>(d, sums);
    cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
    return 0;
}
