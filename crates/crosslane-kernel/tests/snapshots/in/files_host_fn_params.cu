// A launch in a host helper whose geometry and sizes come from its parameters, called from
// main with constants: launch(d_in, d_out, 64, 2) binds in = d_in (cudaMalloc of 64 ints, filled
// from `h`, h[i] = 3 * i), out = d_out (64 ints), n = 64, scale = 2. The launch is
// warp_scaled<<<n / 32, 32>>>(in, out, scale): grid 2, block 32, `scale` = 2.
// Each warp of 32 sums its inputs by a butterfly and each lane writes sum * scale + lane:
// warp 0 holds 3 * (0 + … + 31) = 3 * 496 = 1488; warp 1 holds 3 * (32 + … + 63) =
// 3 * 1520 = 4560. out[t] = 2976 + t for t < 32, 9120 + (t - 32) for t >= 32.
// The helper's own reading (n unknown) gives no launch: the call's reading replaces it.
#include <cuda_runtime.h>

__global__ void warp_scaled(const int *in, int *out, int scale) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[t];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
    out[t] = v * scale + threadIdx.x % 32;
}

void launch(const int *in, int *out, int n, int scale) {
    warp_scaled<<<n / 32, 32>>>(in, out, scale);
    cudaDeviceSynchronize();
}

int main() {
    int h[64];
    for (int i = 0; i < 64; i++) h[i] = 3 * i;
    int *d_in, *d_out;
    cudaMalloc(&d_in, 64 * sizeof(int));
    cudaMalloc(&d_out, 64 * sizeof(int));
    cudaMemcpy(d_in, h, 64 * sizeof(int), cudaMemcpyHostToDevice);
    launch(d_in, d_out, 64, 2);
    cudaFree(d_in);
    return 0;
}
