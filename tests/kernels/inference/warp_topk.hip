// HIP form of warp_topk.cu (the same kernel with HIP's __shfl_xor; warpSize is 64 on wave64 and 32 on wave32).
// Top-4 of 2 * warpSize elements (2 per lane) by repeated warp argmax: each round the warp
// finds the largest remaining (value, index) with XOR butterflies (ties: smaller index), lane 0
// records it, and the owning lane retires it by setting it to -FLT_MAX. Launch: 1 warp.
__global__ void warp_topk(int* idx, float* val) {
  int lane = threadIdx.x;
  float v0 = (float)((lane * 37 + 11) % 29 - 14) * 0.125f;
  int k1 = lane + warpSize;
  float v1 = (float)((k1 * 37 + 11) % 29 - 14) * 0.125f;
  for (int r = 0; r < 4; ++r) {
    float best = v0;
    int bi = lane;
    if (v1 > best) {
      best = v1;
      bi = k1;
    }
    for (int o = warpSize / 2; o > 0; o >>= 1) {
      float ov = __shfl_xor(best, o);
      int oi = __shfl_xor(bi, o);
      if (ov > best || (ov == best && oi < bi)) {
        best = ov;
        bi = oi;
      }
    }
    if (lane == 0) {
      idx[r] = bi;
      val[r] = best;
    }
    if (bi == lane) v0 = -FLT_MAX;
    if (bi == k1) v1 = -FLT_MAX;
  }
}
