// LayerNorm, one warp per row of 2 * warpSize elements: each lane runs Welford's update over
// its elements (count, mean, M2), the lanes' triples merge through XOR butterflies with
// Chan et al.'s pairwise rule, and each element becomes (x - mean) * rsqrtf(var + eps).
// Launch: 2 warps, one row each.
__global__ void layernorm_welford(float* out) {
  int lane = threadIdx.x % warpSize;
  int row = threadIdx.x / warpSize;
  int n = 2 * warpSize;
  float count = 0.0f;
  float mean = 0.0f;
  float m2 = 0.0f;
  for (int k = lane; k < n; k += warpSize) {
    int g = row * n + k;
    float x = (float)((g * 37 + 11) % 29 - 14) * 0.125f;
    count += 1.0f;
    float delta = x - mean;
    mean += delta / count;
    m2 += delta * (x - mean);
  }
  for (int o = warpSize / 2; o > 0; o >>= 1) {
    float nb = __shfl_xor_sync(0xffffffff, count, o);
    float mb = __shfl_xor_sync(0xffffffff, mean, o);
    float m2b = __shfl_xor_sync(0xffffffff, m2, o);
    float total = count + nb;
    float delta = mb - mean;
    mean = mean + delta * nb / total;
    m2 = m2 + m2b + delta * delta * count * nb / total;
    count = total;
  }
  float inv = rsqrtf(m2 / count + 1e-5f);
  for (int k = lane; k < n; k += warpSize) {
    int g = row * n + k;
    float x = (float)((g * 37 + 11) % 29 - 14) * 0.125f;
    out[g] = (x - mean) * inv;
  }
}
