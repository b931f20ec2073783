// RMSNorm, one warp per row of 64: each lane squares its two elements, a __shfl_xor_sync
// butterfly sums the squares across the warp, and every lane scales its elements by
// rsqrtf(mean square + eps) and the weight. Launch: 2 rows, one block each.
__global__ void rmsNorm(const float* x, const float* w, float* y) {
  int row = blockIdx.x;
  int lane = threadIdx.x;
  const int n = 64;
  float ss = 0.0f;
  for (int k = lane; k < n; k += 32) {
    float v = x[row * n + k];
    ss += v * v;
  }
  for (int offset = 16; offset > 0; offset >>= 1)
    ss += __shfl_xor_sync(0xffffffff, ss, offset);
  float scale = rsqrtf(ss / (float)n + 1e-6f);
  for (int k = lane; k < n; k += 32)
    y[row * n + k] = x[row * n + k] * scale * w[k];
}

int main() {
  float hx[128];
  float hw[64];
  for (int i = 0; i < 128; i++) hx[i] = (float)((i * 37 + 11) % 29 - 14) * 0.125f;
  for (int i = 0; i < 64; i++) hw[i] = 1.0f + (float)(i % 3) * 0.25f;
  float *x, *w, *y;
  cudaMalloc(&x, sizeof(hx));
  cudaMemcpy(x, hx, sizeof(hx), cudaMemcpyHostToDevice);
  cudaMalloc(&w, sizeof(hw));
  cudaMemcpy(w, hw, sizeof(hw), cudaMemcpyHostToDevice);
  cudaMalloc(&y, 128 * sizeof(float));
  rmsNorm<<<2, 32>>>(x, w, y);
  return 0;
}
