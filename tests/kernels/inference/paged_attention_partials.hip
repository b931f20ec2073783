// HIP form of paged_attention_partials.cu (the same kernel with HIP's __shfl_xor; warpSize is 64 on wave64 and 32 on wave32).
// Paged-attention partition reduction: each warp owns one partition of warpSize scores and
// computes its maximum and its sum of expf(score - max); lane 0 of each warp stores the pair,
// and thread 0 merges the partitions: M = max of the maxima, S = sum of sum_w * expf(m_w - M).
// Launch: 4 warps (4 partitions).
__global__ void paged_attention_partials(float* part_max, float* part_sum, float* result) {
  __shared__ float smax[32];
  __shared__ float ssum[32];
  int lane = threadIdx.x % warpSize;
  int warp = threadIdx.x / warpSize;
  int warps = blockDim.x / warpSize;
  int g = threadIdx.x;
  float score = (float)((g * 37 + 11) % 29 - 14) * 0.5f;
  float m = score;
  for (int o = warpSize / 2; o > 0; o >>= 1)
    m = fmaxf(m, __shfl_xor(m, o));
  float e = expf(score - m);
  for (int o = warpSize / 2; o > 0; o >>= 1)
    e += __shfl_xor(e, o);
  if (lane == 0) {
    smax[warp] = m;
    ssum[warp] = e;
    part_max[warp] = m;
    part_sum[warp] = e;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    float big = -FLT_MAX;
    for (int w = 0; w < warps; ++w) big = fmaxf(big, smax[w]);
    float total = 0.0f;
    for (int w = 0; w < warps; ++w) total += ssum[w] * expf(smax[w] - big);
    result[0] = big;
    result[1] = total;
  }
}
