// HIP form of l2norm.cu (the same kernel with HIP's shuffles without a mask; warpSize is 64 on wave64 and 32 on wave32).
// L2 normalization, one warp per row of 2 * warpSize values: y = x / max(||x||, eps) with the
// sum of squares reduced by XOR butterflies, sqrtf and fmaxf (eps = 1e-12). Launch: 2 warps.
__global__ void l2norm(float* out) {
  int lane = threadIdx.x % warpSize;
  int row = threadIdx.x / warpSize;
  int n = 2 * warpSize;
  float ss = 0.0f;
  for (int k = lane; k < n; k += warpSize) {
    float x = (float)(((row * n + k) * 37 + 11) % 29 - 14) * 0.125f;
    ss += x * x;
  }
  for (int o = warpSize / 2; o > 0; o >>= 1) ss += __shfl_xor(ss, o);
  float inv = 1.0f / fmaxf(sqrtf(ss), 1e-12f);
  for (int k = lane; k < n; k += warpSize) {
    float x = (float)(((row * n + k) * 37 + 11) % 29 - 14) * 0.125f;
    out[row * n + k] = x * inv;
  }
}
