// snapshot: threads=64
// A block top-k (k = 3) on HIP (wave64): scores loaded with hipcub::BlockLoad in CUB's
// striped arrangement (thread t holds items t, t + 64, t + 128, t + 192; only item 0 is in
// the n = 64 scores, the rest get the default -INFINITY), then k rounds of a
// hipcub::BlockReduce ArgMax over each thread's best (key, score), the winner masked out.
// Scores: s_i = ((23·i) mod 64) / 8 (integer division), written over the buffer (which starts
// as its index). s_i = 7 where (23·i) mod 64 is 56..63; 23⁻¹ mod 64 = 39 (23·39 = 897 =
// 14·64 + 1), so i = 39·r mod 64 for r = 56..63: 8, 47, 22, 61, 36, 11, 50, 25. Eight ties
// at 7: ArgMax keeps the smaller key, so the top 3 are 8, 11, 22, each 7.
#include <hip/hip_runtime.h>
#include <hipcub/hipcub.hpp>
__global__ void topk(float* scores, int* idx, float* val) {
  using Load = hipcub::BlockLoad<float, 64, 4, hipcub::BLOCK_LOAD_STRIPED>;
  using KV = hipcub::KeyValuePair<int, float>;
  using BR = hipcub::BlockReduce<KV, 64>;
  __shared__ typename BR::TempStorage temp;
  __shared__ int s_win;
  int t = threadIdx.x;
  const int n = 64;
  scores[t] = (float)(((23 * t) % 64) / 8);
  __syncthreads();
  float items[4];
  Load().Load(scores, items, n, -INFINITY);
  for (int r = 0; r < 3; ++r) {
    KV mine(t, items[0]);
    for (int k = 1; k < 4; ++k) {
      if (items[k] > mine.value) { mine.key = t + 64 * k; mine.value = items[k]; }
    }
    KV win = BR(temp).Reduce(mine, hipcub::ArgMax());
    if (t == 0) { idx[r] = win.key; val[r] = win.value; s_win = win.key; }
    __syncthreads();
    for (int k = 0; k < 4; ++k) {
      if (t + 64 * k == s_win) items[k] = -INFINITY;
    }
    __syncthreads();
  }
}
