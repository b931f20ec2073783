// HIP on AMD predefines __HIP_PLATFORM_AMD__ (and here 64-lane waves), so only the wave64 branch
// runs. Every lane of the one 64-lane wave votes 1: __ballot(1) has all 64 bits set, and
// __popcll of it is 64 in every lane. Were both branches run (the old behaviour), out would be
// 64 + 32 = 96 per lane. Expected: out = 64 in each of the 64 cells.
#include <hip/hip_runtime.h>
__global__ void wave_count(int *out) {
    int lane = threadIdx.x;
    int n = 0;
#ifdef __HIP_PLATFORM_AMD__
    unsigned long long b = __ballot(1);
    n += __popcll(b);
#else
    unsigned b = __ballot(1);
    n += __popc(b);
#endif
    out[lane] = n;
}
