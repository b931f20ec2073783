// llama.cpp-shaped q8_0 round trip: a `typedef struct { half d; int8_t qs[QK8_0]; }` block per
// 32 values. Each group of 32 lanes quantizes its values into one block of the output buffer
// (a warp max of fabsf over the 32 lanes, d = amax / 127 stored as half, qs = roundf(x / d)),
// then dequantizes the block again through a device function that takes the blocks as
// `const block_q8_0 * x` and reads `x[ib].d`, `x[ib].qs[iqs]` (y = d * q, d read back as half).
// Launch: 2 warps.
#include <cuda_fp16.h>
#define QK8_0 32
typedef struct {
  half d;
  int8_t qs[QK8_0];
} block_q8_0;
static_assert(sizeof(block_q8_0) == sizeof(half) + QK8_0, "wrong q8_0 block size/padding");

__device__ float group_max(float v) {
  for (int o = QK8_0 / 2; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, o, QK8_0));
  return v;
}

__device__ float dequantize_q8_0(const block_q8_0 * x, const int ib, const int iqs) {
  const float d = __half2float(x[ib].d);
  return d * x[ib].qs[iqs];
}

__global__ void q8_0_roundtrip(block_q8_0 * y, float * out) {
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  const int ib = g / QK8_0;
  const int iqs = g % QK8_0;
  const float xi = (float)((g * 37 + 11) % 29 - 14) * 0.125f;
  const float amax = group_max(fabsf(xi));
  const float d = amax / 127.0f;
  const int8_t q = amax == 0.0f ? 0 : (int8_t)roundf(xi / d);
  y[ib].qs[iqs] = q;
  if (iqs == 0) {
    y[ib].d = __float2half(d);
  }
  __syncthreads();
  out[g] = dequantize_q8_0(y, ib, iqs);
}
