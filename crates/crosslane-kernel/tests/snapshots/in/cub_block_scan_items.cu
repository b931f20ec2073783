// snapshot: threads=64
// BlockScan over 4 items per thread in the blocked arrangement (thread t holds items 4t..4t+3),
// scanned in place as CUB's items-per-thread overloads allow. incl: items[i] = 4t + i, so the
// inclusive sums over the block are the triangular numbers j(j + 1)/2 of the item index
// j = 4t + i (thread 1: 10 15 21 28). excl: d = 1 + (t + i) mod 3 (thread 0: 1 2 3 1, thread 1:
// 2 3 1 2), exclusive sums: thread 0 0 1 3 6, thread 1 7 9 12 13. The block aggregate is every
// thread's sum: 7 for t ≡ 0 (mod 3) (22 threads), 8 for t ≡ 1 and 9 for t ≡ 2 (21 each):
// 154 + 168 + 189 = 511, in every thread.
#include <cub/cub.cuh>
__global__ void k(int* incl, int* excl, int* agg) {
  typedef cub::BlockScan<int, 64> BlockScan;
  __shared__ typename BlockScan::TempStorage temp_storage;
  int t = threadIdx.x;
  int items[4];
  int thread_data[4];
  for (int i = 0; i < 4; ++i) { items[i] = 4 * t + i; thread_data[i] = 1 + (t + i) % 3; }
  BlockScan(temp_storage).InclusiveSum(items, items);
  __syncthreads();
  int block_aggregate;
  BlockScan(temp_storage).ExclusiveSum(thread_data, thread_data, block_aggregate);
  if (t < 2) {
    for (int i = 0; i < 4; ++i) { incl[4 * t + i] = items[i]; excl[4 * t + i] = thread_data[i]; }
  }
  agg[t] = block_aggregate;
}
