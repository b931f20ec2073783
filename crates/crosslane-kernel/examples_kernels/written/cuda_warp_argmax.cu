// Warp argmax (top-1, as in greedy sampling): each lane scans its two logits, then (value,
// index) pairs meet in __shfl_xor_sync butterflies; a tie keeps the smaller index, so every
// lane agrees on the first maximum. Launch: one warp over 64 logits.
__global__ void warpArgmax(const float* logits, int* outIdx, float* outVal) {
  int lane = threadIdx.x;
  float best = -FLT_MAX;
  int bi = -1;
  for (int k = lane; k < 64; k += 32) {
    float v = logits[k];
    if (v > best) {
      best = v;
      bi = k;
    }
  }
  for (int offset = 16; offset > 0; offset >>= 1) {
    float ov = __shfl_xor_sync(0xffffffff, best, offset);
    int oi = __shfl_xor_sync(0xffffffff, bi, offset);
    if (ov > best || (ov == best && oi < bi)) {
      best = ov;
      bi = oi;
    }
  }
  if (lane == 0) {
    outIdx[0] = bi;
    outVal[0] = best;
  }
}

int main() {
  float h[64];
  for (int i = 0; i < 64; i++) h[i] = (float)((i * 37 + 11) % 29 - 14) * 0.125f;
  float *logits, *val;
  int *idx;
  cudaMalloc(&logits, sizeof(h));
  cudaMemcpy(logits, h, sizeof(h), cudaMemcpyHostToDevice);
  cudaMalloc(&idx, sizeof(int));
  cudaMalloc(&val, sizeof(float));
  warpArgmax<<<1, 32>>>(logits, idx, val);
  return 0;
}
