// HIP form of moe_topk_routing.cu (the same kernel with HIP's __shfl_xor; warpSize is 64 on wave64 and 32 on wave32).
// Mixture-of-experts routing, one warp per token, one expert per lane: the gate logits go
// through a warp softmax, then two rounds of butterfly argmax pick the top-2 experts (ties:
// lower expert id), whose weights are renormalized to sum to 1. Launch: 2 warps (2 tokens).
__global__ void moe_topk_routing(int* expert, float* weight) {
  int lane = threadIdx.x % warpSize;
  int token = threadIdx.x / warpSize;
  int g = token * warpSize + lane;
  // A small per-expert bias (g % 5) / 100 breaks most ties between equal gate logits.
  float logit = (float)((g * 37 + 11) % 29 - 14) * 0.25f + (float)(g % 5) * 0.01f;
  float m = logit;
  for (int o = warpSize / 2; o > 0; o >>= 1)
    m = fmaxf(m, __shfl_xor(m, o));
  float e = expf(logit - m);
  float s = e;
  for (int o = warpSize / 2; o > 0; o >>= 1)
    s += __shfl_xor(s, o);
  float p = e / s;
  float chosen[2];
  int ids[2];
  for (int r = 0; r < 2; ++r) {
    float best = p;
    int bi = lane;
    for (int o = warpSize / 2; o > 0; o >>= 1) {
      float ov = __shfl_xor(best, o);
      int oi = __shfl_xor(bi, o);
      if (ov > best || (ov == best && oi < bi)) {
        best = ov;
        bi = oi;
      }
    }
    chosen[r] = best;
    ids[r] = bi;
    if (bi == lane) p = -1.0f;
  }
  if (lane == 0) {
    float norm = chosen[0] + chosen[1];
    expert[token * 2] = ids[0];
    expert[token * 2 + 1] = ids[1];
    weight[token * 2] = chosen[0] / norm;
    weight[token * 2 + 1] = chosen[1] / norm;
  }
}
