// float -> half -> float rounds to the nearest half (11 significant bits).
#include <cuda_fp16.h>
__global__ void roundHalf(const float* in, float* out) {
    __half h = __float2half(in[threadIdx.x]);
    out[threadIdx.x] = __half2float(h);
}
