// snapshot: threads=64
// A barrier under a condition every thread of the block evaluates the same way is not divergent
// (CUDA C++ Programming Guide, Synchronization Functions: allowed "if the conditional evaluates
// identically across the entire thread block"): blockDim.x > 32 holds in all 64 threads, and
// `if constexpr` is decided at compile time. No warning; the barrier orders the exchange through
// shared memory, so out[t] = 63 - t.
__global__ void mirror(int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = t;
    if (blockDim.x > 32) {
        __syncthreads();
        out[t] = s[63 - t];
    }
    if constexpr (sizeof(int) == 4) {
        __syncthreads();
    }
}
