// Fused residual add + RMSNorm, one warp per row of 2 * warpSize values: residual += x is
// stored, the sum of squares of the new residual is reduced with __shfl_down_sync into lane 0
// and broadcast with __shfl_sync from lane 0, then out = residual * rsqrtf(mean + eps) * w with
// w = 1 + (k % 4) / 8. Launch: 2 warps.
__global__ void fused_add_rmsnorm(float* residual, float* out) {
  int lane = threadIdx.x % warpSize;
  int row = threadIdx.x / warpSize;
  int n = 2 * warpSize;
  float ss = 0.0f;
  for (int k = lane; k < n; k += warpSize) {
    int g = row * n + k;
    float x = (float)((g * 37 + 11) % 29 - 14) * 0.125f;
    float r = (float)((g * 13 + 5) % 17 - 8) * 0.0625f;
    float h = r + x;
    residual[g] = h;
    ss += h * h;
  }
  for (int o = warpSize / 2; o > 0; o >>= 1) ss += __shfl_down_sync(0xffffffff, ss, o);
  ss = __shfl_sync(0xffffffff, ss, 0);
  float inv = rsqrtf(ss / (float)n + 1e-6f);
  for (int k = lane; k < n; k += warpSize) {
    int g = row * n + k;
    out[g] = residual[g] * inv * (1.0f + (float)(k % 4) * 0.125f);
  }
}
