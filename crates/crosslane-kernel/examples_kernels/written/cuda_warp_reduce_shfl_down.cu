// Warp reduction with __shfl_down_sync: each step halves the distance, and after five steps
// lane 0 holds the sum of the warp's 32 values (0 + 1 + … + 31 = 496 for the index fill).
__global__ void warpReduceSum(const int* in, int* out) {
  int v = in[threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
  if (threadIdx.x == 0) out[0] = v;
}

int main() {
  int *in, *out;
  cudaMalloc(&in, 32 * sizeof(int));
  // The input: in[i] = i, copied from the host (device memory from cudaMalloc is not cleared).
  int h[32];
  for (int i = 0; i < 32; i++) h[i] = i;
  cudaMemcpy(in, h, sizeof(h), cudaMemcpyHostToDevice);
  cudaMalloc(&out, 1 * sizeof(int));
  warpReduceSum<<<1, 32>>>(in, out);
  return 0;
}
