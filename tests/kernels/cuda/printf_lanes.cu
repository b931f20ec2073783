// Device printf: every thread prints its own line, with the C conversions.
#include <cstdio>
__global__ void hello(const float* x) {
    int lane = threadIdx.x % 32;
    float v = x[threadIdx.x] * 0.5f;
    int sum = __reduce_add_sync(0xffffffff, lane);
    if (lane < 3)
        printf("block %d thread %2d: v=%.2f sum=%d hex=%#x\n", blockIdx.x, threadIdx.x, v, sum, lane + 10);
}
int main() {
    float* d;
    cudaMalloc(&d, 64 * sizeof(float));
    hello<<<2, 32>>>(d);
    cudaDeviceSynchronize();
}
