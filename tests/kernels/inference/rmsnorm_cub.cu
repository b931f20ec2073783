// RMSNorm in the shape of vLLM's rms_norm_kernel: one block per token, each thread sums the
// squares of its strided elements, cub::BlockReduce<float, 1024> reduces them over the
// launched threads (num_valid = blockDim.x), thread 0 alone holds the sum and writes the
// scale to shared memory, and every thread scales its elements by it and the weight
// 1 + (k % 3) / 4. Launch: 1 block of 4 warps; hidden size 2 * blockDim.x.
#include <cub/cub.cuh>

__global__ void rms_norm_kernel(float* __restrict__ out) {
  __shared__ float s_variance;
  const float epsilon = 1e-6f;
  const int hidden_size = 2 * blockDim.x;
  float variance = 0.0f;
  for (int idx = threadIdx.x; idx < hidden_size; idx += blockDim.x) {
    const float x = (float)((idx * 37 + 11) % 29 - 14) * 0.125f;
    variance += x * x;
  }
  using BlockReduce = cub::BlockReduce<float, 1024>;
  __shared__ typename BlockReduce::TempStorage reduceStore;
  variance = BlockReduce(reduceStore).Reduce(variance, cub::Sum{}, blockDim.x);
  if (threadIdx.x == 0) {
    s_variance = rsqrtf(variance / hidden_size + epsilon);
  }
  __syncthreads();
  for (int idx = threadIdx.x; idx < hidden_size; idx += blockDim.x) {
    const float x = (float)((idx * 37 + 11) % 29 - 14) * 0.125f;
    out[idx] = (x * s_variance) * (1.0f + (float)(idx % 3) * 0.25f);
  }
}
