// File-scope `__device__` variables are global memory every thread of the launch shares (CUDA
// C++ Programming Guide, Variable Memory Space Specifiers, `__device__`: "resides in global
// memory space", "accessible from all the threads within the grid"), in the shape of the
// threadFenceReduction sample: each block sums its 32 inputs, thread 0 stores the block's sum
// and takes a ticket from `atomicInc(&retirementCount, gridDim.x)`; the block that draws the last
// ticket adds the partial sums and resets the counter. Uninitialized ones start as zero (static
// storage duration, C++17 [basic.start.static]/2); initializers apply.
// Launch (host code): 4 blocks of 32, `in` filled by the host loop with 0..127.
// partial[b] = sum of 32b .. 32b+31 = 1024b + 496: 496 1520 2544 3568.
// Tickets 0, 1, 2, 3 (atomicInc stores old + 1 while old < 4), so one block sees 3 = gridDim.x - 1
// and writes out[0] = 127 * 128 / 2 = 8128, then retirementCount = 0.
// arrivals: 100 + 4 = 104. counter: never written, 0. table[8] = {0.5f}: cell 0 is 0.5, the rest
// 0 (an aggregate's cells past the initializers are zero); each block's thread t < 8 adds t to
// table[t] with atomicAdd: table[t] = 4t (+ 0.5 at t = 0): 0.5 4 8 12 16 20 24 28.
__device__ unsigned int retirementCount = 0;
__device__ unsigned int arrivals = 100;
__device__ int counter;
__device__ float table[8] = {0.5f};

__global__ void reduce(const int* in, int* partial, int* out) {
  __shared__ bool amLast;
  __shared__ int s[32];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (int k = 16; k > 0; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t < 8) atomicAdd(&table[t], (float)t);
  if (t == 0) {
    partial[blockIdx.x] = s[0];
    __threadfence();
    atomicAdd(&arrivals, 1u);
    unsigned int ticket = atomicInc(&retirementCount, gridDim.x);
    amLast = (ticket == gridDim.x - 1);
  }
  __syncthreads();
  if (amLast && t == 0) {
    int sum = 0;
    for (int b = 0; b < gridDim.x; b++) sum += partial[b];
    out[0] = sum;
    retirementCount = 0;
  }
}

int main() {
  int h_in[128];
  for (int i = 0; i < 128; i++) h_in[i] = i;
  int *in, *partial, *out;
  cudaMalloc(&in, 128 * sizeof(int));
  cudaMalloc(&partial, 4 * sizeof(int));
  cudaMalloc(&out, sizeof(int));
  cudaMemcpy(in, h_in, 128 * sizeof(int), cudaMemcpyHostToDevice);
  reduce<<<4, 32>>>(in, partial, out);
  unsigned int h = 0;
  cudaMemcpyFromSymbol(&h, retirementCount, sizeof(h));
  return 0;
}
