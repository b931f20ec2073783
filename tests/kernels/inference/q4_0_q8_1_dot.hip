// HIP form of q4_0_q8_1_dot.cu (HIP's __shfl_xor with a width; HIP's math API documentation lists
// no __dp4a, so the four byte products are written out in dot4_i8, as a portable kernel does).
// llama.cpp-shaped q4_0 x q8_1 block dot product with __dp4a. Blocks of 32 values: q4_0 holds a
// half scale and 16 bytes of nibbles (byte j: value j in its low nibble, value j + 16 in its
// high one, each stored plus 8); q8_1 holds `half2 ds` (scale, scale times the sum of its
// quants) and 32 int8 quants. Each 32-lane group quantizes its values into a q8_1 block in
// shared memory (a warp max of fabsf and a warp sum with __shfl_xor_sync butterflies) and
// fills the matching q4_0 block; then 4 lanes per block pair each take one int of packed
// nibbles and two ints of quants (__dp4a twice), reduce over the 4 lanes, and lane 0 of the
// pair scales: d4 * (d8 * sumi - 8 * s8). A struct local copies the q4_0 block from shared
// memory. Launch: 2 warps, one thread block.
#include <hip/hip_fp16.h>
#define QK4_0 32
#define QK8_1 32
#define QI4_0 (QK4_0 / 8)
struct block_q4_0 {
  half d;
  uint8_t qs[QK4_0 / 2];
};
typedef struct {
  half2 ds;
  int8_t qs[QK8_1];
} block_q8_1;
static_assert(sizeof(block_q4_0) == sizeof(half) + QK4_0 / 2, "wrong q4_0 block size/padding");
static_assert(sizeof(block_q8_1) == 2 * sizeof(half) + QK8_1, "wrong q8_1 block size/padding");

__device__ float group_max(float v) {
  for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor(v, o, 32));
  return v;
}

__device__ int group_isum(int v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor(v, o, 32);
  return v;
}

__device__ int get_int(const uint8_t * x, const int i32) {
  return *((const int *) x + i32);
}

__device__ int get_int(const int8_t * x, const int i32) {
  return *((const int *) x + i32);
}

__device__ int dot4_i8(const int a, const int b, int c) {
  for (int k = 0; k < 4; ++k) c += (int)(int8_t)(a >> (8 * k)) * (int)(int8_t)(b >> (8 * k));
  return c;
}

__device__ float vec_dot_q4_0_q8_1(const block_q4_0 & bq4, const block_q8_1 * bq8, const int iqs) {
  const int v = get_int(bq4.qs, iqs);
  const int u0 = get_int(bq8->qs, iqs);
  const int u1 = get_int(bq8->qs, iqs + QI4_0);
  int sumi = dot4_i8(v & 0x0F0F0F0F, u0, 0);
  sumi = dot4_i8((v >> 4) & 0x0F0F0F0F, u1, sumi);
  return (float) sumi;
}

__global__ void q4_0_q8_1_dot(block_q8_1 * yq, int * isum, float * dot) {
  __shared__ block_q4_0 x4[8];
  __shared__ block_q8_1 x8[8];
  const int t = threadIdx.x;
  const int ib = t / 32;
  const int l = t % 32;
  const int nb = blockDim.x / 32;
  // Activations: quantize 32 floats per block to q8_1.
  const float xi = (float)((t * 37 + 11) % 29 - 14) * 0.125f;
  const float amax = group_max(fabsf(xi));
  const float d8 = amax / 127.0f;
  const int q = amax == 0.0f ? 0 : (int) roundf(xi / d8);
  const int qsum = group_isum(q);
  x8[ib].qs[l] = (int8_t) q;
  if (l == 0) {
    x8[ib].ds = __halves2half2(__float2half(d8), __float2half(d8 * (float) qsum));
  }
  // Weights: 16 bytes of nibbles and a half scale per q4_0 block.
  if (l < QK4_0 / 2) {
    x4[ib].qs[l] = (uint8_t)((t * 73 + 5) & 0xFF);
  }
  if (l == 0) {
    x4[ib].d = __float2half(0.0625f * (float)(ib + 1));
  }
  __syncthreads();
  yq[ib].qs[l] = x8[ib].qs[l];
  if (l == 0) {
    yq[ib].ds = x8[ib].ds;
  }
  // Dot: QI4_0 lanes per block pair.
  const int pair = (t / QI4_0) % nb;
  const int iqs = t % QI4_0;
  const block_q4_0 w = x4[pair];
  float s = vec_dot_q4_0_q8_1(w, &x8[pair], iqs);
  int si = (int) s;
  for (int o = QI4_0 / 2; o > 0; o >>= 1) si += __shfl_xor(si, o, QI4_0);
  if (iqs == 0 && t < QI4_0 * nb) {
    const float d4 = __half2float(w.d);
    const float2 ds8 = __half22float2(x8[pair].ds);
    isum[pair] = si;
    dot[pair] = d4 * (ds8.x * (float) si - 8.0f * ds8.y);
  }
}
