// Row softmax, one block per row: each warp reduces its part with shuffles, lane 0 of each
// warp leaves its partial in shared memory, warp 0 reduces the partials and broadcasts the
// result through shared memory; once for the maximum, once for the sum. Launch: 4 warps.
__global__ void block_softmax(float* out) {
  __shared__ float partial[32];
  __shared__ float total;
  int t = threadIdx.x;
  int lane = t % warpSize;
  int warp = t / warpSize;
  int warps = blockDim.x / warpSize;
  float x = (float)((t * 37 + 11) % 29 - 14) * 0.125f;
  float m = x;
  for (int o = warpSize / 2; o > 0; o >>= 1)
    m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, o));
  if (lane == 0) partial[warp] = m;
  __syncthreads();
  if (warp == 0) {
    float v = lane < warps ? partial[lane] : -FLT_MAX;
    for (int o = warpSize / 2; o > 0; o >>= 1)
      v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, o));
    if (lane == 0) total = v;
  }
  __syncthreads();
  float e = expf(x - total);
  float s = e;
  for (int o = warpSize / 2; o > 0; o >>= 1)
    s += __shfl_xor_sync(0xffffffff, s, o);
  __syncthreads();
  if (lane == 0) partial[warp] = s;
  __syncthreads();
  if (warp == 0) {
    float v = lane < warps ? partial[lane] : 0.0f;
    for (int o = warpSize / 2; o > 0; o >>= 1)
      v += __shfl_xor_sync(0xffffffff, v, o);
    if (lane == 0) total = v;
  }
  __syncthreads();
  out[t] = e / total;
}
