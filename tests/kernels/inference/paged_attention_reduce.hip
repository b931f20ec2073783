// HIP form of paged_attention_reduce.cu (the same kernel with HIP's shuffles without a mask; warpSize is 64 on wave64 and 32 on wave32).
// The reduce step of split-K (paged) attention: lane p owns partition p's max logit, exp sum
// and a 4-wide partial output; the warp finds the global max, rescales each partition's sum by
// expf(max_p - max), sums them, and combines the partial outputs with those weights
// (out[c] = sum_p w_p * o_p[c] / sum_p w_p), every sum by XOR butterflies. Launch: 1 warp.
__global__ void paged_attention_reduce(float* out, float* total) {
  int p = threadIdx.x;
  float mx = (float)((p * 37 + 11) % 29 - 14) * 0.5f;
  float es = 1.0f + (float)(p % 7) * 0.5f;
  float gmax = mx;
  for (int o = warpSize / 2; o > 0; o >>= 1)
    gmax = fmaxf(gmax, __shfl_xor(gmax, o));
  float w = es * expf(mx - gmax);
  float sum = w;
  for (int o = warpSize / 2; o > 0; o >>= 1) sum += __shfl_xor(sum, o);
  for (int c = 0; c < 4; ++c) {
    float part = (float)((p * 3 + c * 5) % 9 - 4) * 0.25f;
    float acc = w * part;
    for (int o = warpSize / 2; o > 0; o >>= 1) acc += __shfl_xor(acc, o);
    if (p == 0) out[c] = acc / sum;
  }
  if (p == 0) total[0] = sum;
}
