// snapshot: threads=64
// HIP's legacy index macros, which hip_runtime.h defines as the built-in variables
// (hipThreadIdx_x is threadIdx.x, hipBlockDim_x is blockDim.x, …), on one 64-thread block.
// out[t] = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x = t, plus 1000 × hipGridDim_x = 1000,
// plus 100 × hipBlockDim_y = 100, plus hipThreadIdx_y + hipBlockIdx_z = 0: 1100 + t
// (t = 0 → 1100, t = 63 → 1163).
#include <hip/hip_runtime.h>

__global__ void legacy(int *out) {
    int t = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x;
    out[t] = t + 1000 * hipGridDim_x + 100 * hipBlockDim_y + hipThreadIdx_y + hipBlockIdx_z;
}
