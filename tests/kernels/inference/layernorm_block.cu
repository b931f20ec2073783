// LayerNorm, one block per row of 4 * warpSize elements (one per thread), two passes: the mean,
// then the variance of (x - mean), each reduced by warp shuffles and then across warps through
// shared-memory partials; y = (x - mean) * rsqrtf(var + eps) * gamma + beta with
// gamma = 1 + (t % 4) / 8 and beta = (t % 3) / 4. Launch: 4 warps.
__global__ void layernorm_block(float* out) {
  __shared__ float partial[32];
  __shared__ float s_mean, s_rstd;
  int t = threadIdx.x;
  int lane = t % warpSize, warp = t / warpSize, warps = blockDim.x / warpSize;
  int n = blockDim.x;
  float x = (float)((t * 37 + 11) % 29 - 14) * 0.125f;
  float v = x;
  for (int o = warpSize / 2; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  if (t == 0) {
    float s = 0.0f;
    for (int w = 0; w < warps; ++w) s += partial[w];
    s_mean = s / (float)n;
  }
  __syncthreads();
  float d = x - s_mean;
  v = d * d;
  for (int o = warpSize / 2; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
  __syncthreads();
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  if (t == 0) {
    float s = 0.0f;
    for (int w = 0; w < warps; ++w) s += partial[w];
    s_rstd = rsqrtf(s / (float)n + 1e-5f);
  }
  __syncthreads();
  float gamma = 1.0f + (float)(t % 4) * 0.125f;
  float beta = (float)(t % 3) * 0.25f;
  out[t] = d * s_rstd * gamma + beta;
}
