// HIP form of online_softmax.cu (the same kernel with HIP's __shfl_xor; warpSize is 64 on wave64 and 32 on wave32).
// Online softmax over a row of 4 elements per lane: each lane keeps a running maximum m and a
// running sum d of expf(x - m), rescaling d by expf(m_old - m_new) when the maximum grows;
// the lanes' (m, d) pairs then merge through XOR butterflies the same way. Launch: 1 warp.
__global__ void online_softmax(float* out) {
  int lane = threadIdx.x;
  float m = -INFINITY;
  float d = 0.0f;
  for (int k = 0; k < 4; ++k) {
    int g = lane * 4 + k;
    float x = (float)((g * 37 + 11) % 29 - 14) * 0.125f;
    float mn = fmaxf(m, x);
    d = d * expf(m - mn) + expf(x - mn);
    m = mn;
  }
  for (int o = warpSize / 2; o > 0; o >>= 1) {
    float mo = __shfl_xor(m, o);
    float dother = __shfl_xor(d, o);
    float mn = fmaxf(m, mo);
    d = d * expf(m - mn) + dother * expf(mo - mn);
    m = mn;
  }
  for (int k = 0; k < 4; ++k) {
    int g = lane * 4 + k;
    float x = (float)((g * 37 + 11) % 29 - 14) * 0.125f;
    out[g] = expf(x - m) / d;
  }
}
