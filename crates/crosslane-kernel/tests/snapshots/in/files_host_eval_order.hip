// snapshot: arch=gfx1100
// Host code read in order before the launch, on gfx1100 (RDNA3: wave32).
// - hipGetDeviceProperties: prop.warpSize is the run's lanes, 32 here, so the `if` takes the
//   `else` branch: scan<32><<<1, 32>>> runs (on gfx90a it would be scan<64><<<1, 64>>>).
// - `int bias = 5; … hipMemcpy(d_bias, &bias, …)`: the one cell holds 5.
// - shift: `while (w >>= 1) ++shift;` from w = 32 shifts 32→16→8→4→2→1→0, five true tests:
//   shift = 5. base: `base *= 3` twice from 2 = 18, then `base += 1` = 19.
// - h[i] = 100 + 2i, copied by `&h[0]`.
// Kernel: o[t] = h[t] + shift * 1000 + base * 10 + bias[0] + W
//   = 100 + 2t + 5000 + 190 + 5 + 32 = 5327 + 2t (t = 0..31): 5327, 5329, …, 5389.
#include <hip/hip_runtime.h>

template <int W>
__global__ void scan(int *o, const int *bias, int shift, int base) {
    int t = threadIdx.x;
    o[t] = o[t] + shift * 1000 + base * 10 + bias[0] + W;
}

int main() {
    hipDeviceProp_t prop;
    hipGetDeviceProperties(&prop, 0);
    int h[64];
    for (int i = 0; i < 64; i++) h[i] = 100 + 2 * i;
    int bias = 5;
    int shift = 0;
    int w = 32;
    while (w >>= 1) ++shift;
    int base = 2;
    for (int r = 0; r < 2; ++r) base *= 3;
    base += 1;
    int *d, *d_bias;
    hipMalloc(&d, 64 * sizeof(int));
    hipMalloc(&d_bias, sizeof(int));
    hipMemcpy(d, &h[0], 64 * sizeof(int), hipMemcpyHostToDevice);
    hipMemcpy(d_bias, &bias, sizeof(int), hipMemcpyHostToDevice);
    if (prop.warpSize == 64)
        scan<64><<<1, 64>>>(d, d_bias, shift, base);
    else
        scan<32><<<1, 32>>>(d, d_bias, shift, base);
    hipMemcpy(&h[0], d, 64 * sizeof(int), hipMemcpyDeviceToHost);
    return 0;
}
