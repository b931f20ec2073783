// snapshot: threads=64
// One row of a softmax-style kernel: BlockLoad a row of n = 64 floats into a tile of 64
// threads × 4 items (CUB's blocked arrangement: thread t holds row[4t .. 4t+3], so threads
// 16..63 hold only out-of-range items), reduce it with BlockReduce, and store the shifted row
// back. The buffer `row` starts as its index (row[j] = j), so by hand:
//   max = 63 (the oob default -INFINITY never wins); sum = 0 + 1 + … + 63 = 63·64/2 = 2016
//   (the default 0 adds nothing; integers below 2^24 are exact in float in any order);
//   row[j] = j - 63 after the store (valid_items = 64: nothing past the row is written);
//   out[0] = 63, out[1] = 2016, out[2..63] keep their index values.
#include <cub/cub.cuh>
__global__ void row_stats(float* row, float* out) {
  using Load = cub::BlockLoad<float, 64, 4, cub::BLOCK_LOAD_VECTORIZE>;
  using LoadD = cub::BlockLoad<float, 64, 4>;
  using Store = cub::BlockStore<float, 64, 4, cub::BLOCK_STORE_VECTORIZE>;
  using Reduce = cub::BlockReduce<float, 64>;
  __shared__ typename Reduce::TempStorage red;
  __shared__ float s_max;
  const int n = 64;
  float v[4], w[4];
  Load().Load(row, v, n, -INFINITY);
  float m = v[0];
  for (int i = 1; i < 4; ++i) m = fmaxf(m, v[i]);
  float mx = Reduce(red).Reduce(m, cub::Max());
  if (threadIdx.x == 0) s_max = mx;
  __syncthreads();
  LoadD().Load(row, w, n, 0.0f);
  float s = 0.0f;
  for (int i = 0; i < 4; ++i) s += w[i];
  float sum = Reduce(red).Sum(s);
  for (int i = 0; i < 4; ++i) v[i] = v[i] - s_max;
  __syncthreads();
  Store().Store(row, v, n);
  if (threadIdx.x == 0) { out[0] = mx; out[1] = sum; }
}
