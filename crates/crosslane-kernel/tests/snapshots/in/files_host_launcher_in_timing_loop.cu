// HeCBench's shape: the launch lives in a host helper, and main calls the helper inside a timing
// loop whose trip count comes from argv (unknown here). The call is read once with the helper's
// parameters bound to main's pointers: `in` is d_in, which cudaMemset zeroed, and `out` is
// d_out (cudaMalloc, never written: undefined before the launch).
// Each lane adds its warp's sum of (in[t] + t % 4) by __shfl_xor_sync: with in = 0 that is
// 8 × (0 + 1 + 2 + 3) = 48 in every lane of the one 32-lane warp, so out = 48 everywhere
// (before, `in` was the index fill 0..31 and out = 48 + 496 = 544: numbers host code never wrote).
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void warp_sum(const int *in, int *out) {
    int v = in[threadIdx.x] + threadIdx.x % 4;
    for (int m = 16; m > 0; m >>= 1) v += __shfl_xor_sync(0xffffffff, v, m);
    out[threadIdx.x] = v;
}

void launch(const int *in, int *out) { warp_sum<<<1, 32>>>(in, out); }

int main(int argc, char **argv) {
    int repeat = atoi(argv[1]);
    int *d_in, *d_out;
    cudaMalloc(&d_in, 32 * sizeof(int));
    cudaMalloc(&d_out, 32 * sizeof(int));
    cudaMemset(d_in, 0, 32 * sizeof(int));
    for (int i = 0; i < repeat; i++) launch(d_in, d_out);
    return 0;
}
