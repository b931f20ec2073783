// snapshot: threads=64
// One shared allocation for three collectives, as the CUB API reference's examples write it:
// a `__shared__ union` of `BlockLoad`, `BlockReduce` and `BlockScan` TempStorages, each used
// through its member, with a barrier between uses (the members share their bytes).
// 64 threads, 2 items each, of a row of 64 valid items `in[i] = i` (the fill `index`; items
// past 64 take the default 0), loaded blocked: thread t < 32 holds 2t and 2t+1, its sum
// s_t = 4t + 1; threads 32..63 hold 0 and 0.
//   total = sum over t < 32 of (4t + 1) = 4·496 + 32 = 2016 (thread 0 only);
//   exclusive prefix of s: e_t = sum_{u<t} (4u + 1) = 2t(t-1) + t = 2t² - t for t <= 32,
//   so e_0 = 0, e_1 = 1, e_2 = 6, e_31 = 1891, e_32 = 2016, and e_t = 2016 for t > 32.
#include <cub/cub.cuh>

__global__ void row_sums(const int* in, int* prefix, int* total) {
  using Load = cub::BlockLoad<int, 64, 2, cub::BLOCK_LOAD_DIRECT>;
  using Reduce = cub::BlockReduce<int, 64>;
  using Scan = cub::BlockScan<int, 64>;
  __shared__ union {
    typename Load::TempStorage load;
    typename Reduce::TempStorage reduce;
    typename Scan::TempStorage scan;
  } temp_storage;
  int items[2];
  Load(temp_storage.load).Load(in, items, 64, 0);
  __syncthreads();
  int s = items[0] + items[1];
  int sum = Reduce(temp_storage.reduce).Sum(s);
  __syncthreads();
  int before;
  Scan(temp_storage.scan).ExclusiveSum(s, before);
  prefix[threadIdx.x] = before;
  if (threadIdx.x == 0) total[0] = sum;
}
