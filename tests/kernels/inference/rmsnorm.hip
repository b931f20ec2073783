// HIP form of rmsnorm.cu (the same kernel with HIP's __shfl_xor; warpSize is 64 on wave64 and 32 on wave32).
// RMSNorm, one warp per row of 2 * warpSize elements: the sum of squares is reduced with XOR
// butterflies, the scale is rsqrtf(mean square + eps), and each element is scaled and
// multiplied by its weight 1 + (k % 3) / 4. Launch: 2 warps, one row each.
__global__ void rmsnorm(float* out) {
  int lane = threadIdx.x % warpSize;
  int row = threadIdx.x / warpSize;
  int n = 2 * warpSize;
  float ss = 0.0f;
  for (int k = lane; k < n; k += warpSize) {
    int g = row * n + k;
    float x = (float)((g * 37 + 11) % 29 - 14) * 0.125f;
    ss += x * x;
  }
  for (int o = warpSize / 2; o > 0; o >>= 1)
    ss += __shfl_xor(ss, o);
  float scale = rsqrtf(ss / (float)n + 1e-6f);
  for (int k = lane; k < n; k += warpSize) {
    int g = row * n + k;
    float x = (float)((g * 37 + 11) % 29 - 14) * 0.125f;
    out[g] = x * scale * (1.0f + (float)(k % 3) * 0.25f);
  }
}
