// Greedy sampling: argmax over one block of 4 * warpSize logits (one per thread), each warp
// reducing (value, index) with XOR butterflies (ties: smaller index), lane 0 of each warp
// leaving its pair in shared memory, and warp 0 reducing the pairs. Launch: 4 warps.
__global__ void argmax_block(int* out_idx, float* out_val) {
  __shared__ float sv[32];
  __shared__ int si[32];
  int t = threadIdx.x;
  int lane = t % warpSize, warp = t / warpSize, warps = blockDim.x / warpSize;
  float v = (float)((t * 41 + 3) % 31 - 15) * 0.5f;
  int i = t;
  for (int o = warpSize / 2; o > 0; o >>= 1) {
    float ov = __shfl_xor_sync(0xffffffff, v, o);
    int oi = __shfl_xor_sync(0xffffffff, i, o);
    if (ov > v || (ov == v && oi < i)) { v = ov; i = oi; }
  }
  if (lane == 0) { sv[warp] = v; si[warp] = i; }
  __syncthreads();
  if (warp == 0) {
    v = lane < warps ? sv[lane] : -FLT_MAX;
    i = lane < warps ? si[lane] : INT_MAX;
    for (int o = warpSize / 2; o > 0; o >>= 1) {
      float ov = __shfl_xor_sync(0xffffffff, v, o);
      int oi = __shfl_xor_sync(0xffffffff, i, o);
      if (ov > v || (ov == v && oi < i)) { v = ov; i = oi; }
    }
    if (lane == 0) { out_idx[0] = i; out_val[0] = v; }
  }
}
