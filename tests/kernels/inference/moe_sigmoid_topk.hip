// HIP form of moe_sigmoid_topk.cu (the same kernel with HIP's shuffles without a mask; warpSize is 64 on wave64 and 32 on wave32).
// Mixture-of-experts routing with sigmoid scores and a selection bias (the shape of biased
// top-k routers): lane e scores expert e with 1 / (1 + expf(-logit)), picks the top 2 by
// score + bias[e] with two rounds of butterfly argmax (ties: lower id), and weights the chosen
// experts by their unbiased scores normalized to sum 1, times 2.5. Launch: 2 warps (2 tokens).
__global__ void moe_sigmoid_topk(int* expert, float* weight) {
  int e = threadIdx.x % warpSize;
  int tok = threadIdx.x / warpSize;
  int g = tok * warpSize + e;
  float logit = (float)((g * 37 + 11) % 29 - 14) * 0.25f;
  float score = 1.0f / (1.0f + expf(-logit));
  float bias = (float)(e % 4) * 0.0625f;
  float choice = score + bias;
  float picked[2];
  int ids[2];
  for (int r = 0; r < 2; ++r) {
    float best = choice;
    int bi = e;
    for (int o = warpSize / 2; o > 0; o >>= 1) {
      float ov = __shfl_xor(best, o);
      int oi = __shfl_xor(bi, o);
      if (ov > best || (ov == best && oi < bi)) { best = ov; bi = oi; }
    }
    ids[r] = bi;
    picked[r] = __shfl(score, bi);
    if (bi == e) choice = -FLT_MAX;
  }
  if (e == 0) {
    float norm = picked[0] + picked[1];
    for (int r = 0; r < 2; ++r) {
      expert[tok * 2 + r] = ids[r];
      weight[tok * 2 + r] = picked[r] / norm * 2.5f;
    }
  }
}
