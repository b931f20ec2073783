// Mixture-of-experts top-2 router, one warp per token and one expert per lane: the gate
// logits go through a warp softmax, then two rounds of (value, expert) butterflies with
// __shfl_xor_sync pick the top 2 (a tie keeps the lower expert id), and lane 0 writes the two
// experts with their weights renormalized to sum to 1. Launch: 2 tokens, one block each.
__global__ void moeTopkRouter(const float* logits, int* experts, float* weights) {
  int token = blockIdx.x;
  int lane = threadIdx.x;
  float x = logits[token * 32 + lane];
  float m = x;
  for (int offset = 16; offset > 0; offset >>= 1)
    m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, offset));
  float e = expf(x - m);
  float sum = e;
  for (int offset = 16; offset > 0; offset >>= 1)
    sum += __shfl_xor_sync(0xffffffff, sum, offset);
  float p = e / sum;
  float topP[2];
  int topId[2];
  for (int k = 0; k < 2; ++k) {
    float best = p;
    int id = lane;
    for (int offset = 16; offset > 0; offset >>= 1) {
      float ov = __shfl_xor_sync(0xffffffff, best, offset);
      int oi = __shfl_xor_sync(0xffffffff, id, offset);
      if (ov > best || (ov == best && oi < id)) {
        best = ov;
        id = oi;
      }
    }
    topP[k] = best;
    topId[k] = id;
    if (id == lane) p = -1.0f;  // the chosen expert leaves the next round
  }
  if (lane == 0) {
    float norm = topP[0] + topP[1];
    experts[token * 2] = topId[0];
    experts[token * 2 + 1] = topId[1];
    weights[token * 2] = topP[0] / norm;
    weights[token * 2 + 1] = topP[1] / norm;
  }
}

int main() {
  float h[64];
  for (int g = 0; g < 64; g++)
    h[g] = (float)((g * 37 + 11) % 29 - 14) * 0.25f + (float)(g % 5) * 0.01f;
  float *logits, *weights;
  int *experts;
  cudaMalloc(&logits, sizeof(h));
  cudaMemcpy(logits, h, sizeof(h), cudaMemcpyHostToDevice);
  cudaMalloc(&experts, 4 * sizeof(int));
  cudaMalloc(&weights, 4 * sizeof(float));
  moeTopkRouter<<<2, 32>>>(logits, experts, weights);
  return 0;
}
