// snapshot: lanes=64 threads=64
// Round five's forms (hand-derived values): a tile type spelled with its parent group,
// `cg::thread_block_tile<16, cg::thread_block>`, whose size the helper deduces; a HIP vector
// expression `v * v` choosing the `float2` overload; `__builtin_inff()` as the identity of a
// minimum. x[t] = t: each tile of 16 starting at 16g sums 256g + 120; v = (t, 1) gives
// csum(v * v) = t^2 + 1; the minimum over lanes below 8 of t (others +inf) is 0.
#include <hip/hip_cooperative_groups.h>
namespace cg = cooperative_groups;
template <int W>
__device__ float tile_sum(cg::thread_block_tile<W, cg::thread_block> &t, float v) {
  for (int off = W / 2; off > 0; off /= 2) v += t.shfl_xor(v, off);
  return v;
}
template <typename To> __device__ To csum(float v) { return static_cast<To>(v); }
template <typename To> __device__ To csum(float2 v) { return static_cast<To>(v.x + v.y); }
__global__ void k(float *o, float *q, float *m) {
  auto t16 = cg::tiled_partition<16>(cg::this_thread_block());
  float x = (float)threadIdx.x;
  o[threadIdx.x] = tile_sum(t16, x);
  float2 v = make_float2(x, 1.0f);
  q[threadIdx.x] = csum<float>(v * v);
  float c = threadIdx.x < 8 ? x : __builtin_inff();
  for (int off = 32; off > 0; off >>= 1) c = fminf(c, __shfl_xor(c, off));
  m[threadIdx.x] = c;
}
