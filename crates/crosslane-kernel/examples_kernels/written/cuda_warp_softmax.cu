// Warp softmax, one warp per row (the shape inference libraries use for rows of up to 32):
// the row maximum, then the sum of expf(x - max), travel through __shfl_xor_sync butterflies so
// every lane holds both; each lane writes expf(x - max) / sum. Launch: 2 rows, one block each.
__global__ void warpSoftmax(const float* x, float* y) {
  int row = blockIdx.x;
  int lane = threadIdx.x;
  float v = x[row * 32 + lane];
  float m = v;
  for (int offset = 16; offset > 0; offset >>= 1)
    m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, offset));
  float e = expf(v - m);
  float sum = e;
  for (int offset = 16; offset > 0; offset >>= 1)
    sum += __shfl_xor_sync(0xffffffff, sum, offset);
  y[row * 32 + lane] = e / sum;
}

int main() {
  float h[64];
  for (int i = 0; i < 64; i++) h[i] = (float)((i * 37 + 11) % 29 - 14) * 0.125f;
  float *x, *y;
  cudaMalloc(&x, sizeof(h));
  cudaMemcpy(x, h, sizeof(h), cudaMemcpyHostToDevice);
  cudaMalloc(&y, 64 * sizeof(float));
  warpSoftmax<<<2, 32>>>(x, y);
  return 0;
}
