// snapshot: lanes=32 threads=4 arch=gfx1100
// A q8 dot product in the shape of llama.cpp's HIP dp4a path on RDNA3: each thread packs four
// int8 weights and four int8 activations into ints and accumulates with
// __builtin_amdgcn_sudot4(true, a, true, b, c, false) (V_DOT4_I32_IU8, both signed), then
// scales with __builtin_amdgcn_rcpf. Thread t: weights w_k = k − 2 + t (k = 0..3), activations
// x_k = 3 − 2k: t = 0: w = −2, −1, 0, 1; x = 3, 1, −1, −3: −6 − 1 + 0 − 3 = −10. In general
// Σ (k − 2 + t)(3 − 2k) = Σ (k − 2)(3 − 2k) + t·Σ (3 − 2k) = −10 + 0·t = −10 for every t
// (Σ (3 − 2k) = 3 + 1 − 1 − 3 = 0). acc starts at 100·t: 100t − 10 → −10, 90, 190, 290.
// out = acc · rcpf(4) = acc / 4 (1/4 is exact; the 1-ulp note is carried through the product): −2.5, 22.5,
// 47.5, 72.5. exp2 via OCML: __ocml_exp2_f32(t) = 1, 2, 4, 8.
#include <hip/hip_runtime.h>
__device__ int pack4(int a, int b, int c, int d) {
  return (a & 0xff) | ((b & 0xff) << 8) | ((c & 0xff) << 16) | ((d & 0xff) << 24);
}
__global__ void dp4a(int* acc, float* out, float* e) {
  int t = threadIdx.x;
  int w = pack4(t - 2, t - 1, t, t + 1);
  int x = pack4(3, 1, -1, -3);
  int c = __builtin_amdgcn_sudot4(true, w, true, x, 100 * t, false);
  acc[t] = c;
  out[t] = (float)c * __builtin_amdgcn_rcpf(4.0f);
  e[t] = __ocml_exp2_f32((float)t);
}
