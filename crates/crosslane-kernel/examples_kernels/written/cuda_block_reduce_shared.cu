// Block reduction: each warp reduces with __shfl_down_sync, lane 0 of each warp leaves its
// partial sum in shared memory, and after __syncthreads() warp 0 reduces the partials.
// Two blocks of 64 threads: block 0 sums in[0..64), block 1 sums in[64..128).
__global__ void blockReduceSum(const int* in, int* out) {
  __shared__ int partial[32];
  int lane = threadIdx.x % 32;
  int warp = threadIdx.x / 32;
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = (lane < blockDim.x / 32) ? partial[lane] : 0;
    for (int offset = 16; offset > 0; offset /= 2)
      v += __shfl_down_sync(0xffffffff, v, offset);
    if (lane == 0) out[blockIdx.x] = v;
  }
}

int main() {
  int *in, *out;
  cudaMalloc(&in, 128 * sizeof(int));
  // The input: in[i] = i, copied from the host (device memory from cudaMalloc is not cleared).
  int h[128];
  for (int i = 0; i < 128; i++) h[i] = i;
  cudaMemcpy(in, h, sizeof(h), cudaMemcpyHostToDevice);
  cudaMalloc(&out, 2 * sizeof(int));
  blockReduceSum<<<2, 64>>>(in, out);
  return 0;
}
