// snapshot: threads=128
// Greedy sampling: the argmax over a vocabulary of 128 logits with cub::KeyValuePair and
// cub::ArgMax, each thread first scanning its strided share. Logit i is (37·i) mod 64 (the
// buffer starts as its index): 37 is odd, so each value appears twice, at i and i + 64. The
// maximum 63 is at i = 19 (37·19 = 703 = 10·64 + 63) and i = 83; CUB's ArgMax keeps the
// smaller key on equal values ("preferring the item having the smaller offset in case of
// ties"), so token[0] = 19, best[0] = 63. ArgMin: the minimum 0 is at i = 0 and 64: token[1]
// = 0, best[1] = 0. Thread 1's reduction result is undefined (thread 0 holds it): token[2].
#include <cub/cub.cuh>
__global__ void greedy(float* logits, int* token, float* best) {
  typedef cub::KeyValuePair<int, float> KV;
  typedef cub::BlockReduce<KV, 128> BlockReduce;
  __shared__ typename BlockReduce::TempStorage temp;
  int t = threadIdx.x;
  const int vocab = 128;
  KV mx(-1, -INFINITY);
  KV mn(-1, INFINITY);
  for (int i = t; i < vocab; i += blockDim.x) {
    float l = (float)((37 * i) % 64);
    if (l > mx.value) { mx.key = i; mx.value = l; }
    if (l < mn.value) { mn.key = i; mn.value = l; }
  }
  KV top = BlockReduce(temp).Reduce(mx, cub::ArgMax());
  __syncthreads();
  KV low = BlockReduce(temp).Reduce(mn, cub::ArgMin());
  if (t == 0) { token[0] = top.key; best[0] = top.value; token[1] = low.key; best[1] = low.value; }
  if (t == 1) token[2] = top.key;
}
