// A launch in a host loop of constant trip count whose launches depend on each other through
// the buffer: scale_rotate<<<1, 32>>>(d, 2) ten times, each pass reading what the last wrote.
// crosslane runs one launch, and the note says the loop runs 10 times and that later passes
// are not run. One pass over d[i] = i (the host fill): d[t] = 2 * d[(t + 1) % 32], so
// d[t] = 2t + 2 for t < 31 and d[31] = 0. (Ten passes on the device would give
// d[t] = 1024 * ((t + 10) % 32).)
#include <cuda_runtime.h>

__global__ void scale_rotate(int *d, int k) {
    int v = __shfl_sync(0xffffffff, d[threadIdx.x], (threadIdx.x + 1) % 32);
    d[threadIdx.x] = v * k;
}

int main() {
    int h[32];
    for (int i = 0; i < 32; i++) h[i] = i;
    int *d;
    cudaMalloc(&d, 32 * sizeof(int));
    cudaMemcpy(d, h, 32 * sizeof(int), cudaMemcpyHostToDevice);
    for (int pass = 0; pass < 10; pass++) scale_rotate<<<1, 32>>>(d, 2);
    cudaDeviceSynchronize();
    return 0;
}
