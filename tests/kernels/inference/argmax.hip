// HIP form of argmax.cu (the same kernel with HIP's __shfl_xor; warpSize is 64 on wave64 and 32 on wave32).
// Argmax over 2 * warpSize elements (2 per lane), starting from -FLT_MAX: each lane scans its
// elements, then (value, index) pairs meet in XOR butterflies; equal values keep the smaller
// index, so every lane agrees. Launch: 1 warp.
__global__ void argmax(int* out_idx, float* out_val) {
  int lane = threadIdx.x;
  int n = 2 * warpSize;
  float best = -FLT_MAX;
  int bi = -1;
  for (int k = lane; k < n; k += warpSize) {
    float x = (float)((k * 37 + 11) % 29 - 14) * 0.125f;
    if (x > best) {
      best = x;
      bi = k;
    }
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
    out_idx[0] = bi;
    out_val[0] = best;
  }
}
