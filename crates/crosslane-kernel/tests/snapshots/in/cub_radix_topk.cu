// snapshot: threads=32
// Top-k sampling's candidate pick: 32 threads × 4 scores sorted with cub::BlockRadixSort
// (descending, the token index as the value), then thread 0's four blocked items are the top 4.
// Score j = ((13·j) mod 128) / 16 (integer division): values 0..7, each sixteen times. A radix
// sort is stable, so equal scores keep their input order (the blocked rank 4t + i = j): the
// top 4 are the four smallest j with score 7, i.e. (13·j) mod 128 in 112..127. 13⁻¹ mod 128 =
// 69 (13·69 = 897 = 7·128 + 1), so j = 69·r mod 128 for r = 112..127, sorted: 9, 19, 29, 39,
// 48, … (check: 13·9 = 117, 13·19 = 247 = 128 + 119). So ids = 9, 19, 29, 39; top = 7, 7, 7, 7.
// Thread 31's last item is the smallest score, 0 at the largest j with (13·j) mod 128 < 16:
// j = 69·r mod 128 for r = 0..15 is 0, 69, 10, 79, 20, 89, 30, 99, 40, 109, 50, 119, 60, 1, 70,
// 11 → the largest is 119: last = 119.
#include <cub/cub.cuh>
__global__ void topk_candidates(float* top, int* ids, int* last) {
  typedef cub::BlockRadixSort<float, 32, 4, int> Sort;
  __shared__ typename Sort::TempStorage temp;
  float score[4];
  int id[4];
  for (int i = 0; i < 4; ++i) {
    int j = threadIdx.x * 4 + i;
    score[i] = (float)(((13 * j) % 128) / 16);
    id[i] = j;
  }
  Sort(temp).SortDescending(score, id);
  if (threadIdx.x == 0) {
    for (int i = 0; i < 4; ++i) { top[i] = score[i]; ids[i] = id[i]; }
  }
  if (threadIdx.x == 31) last[0] = id[3];
}
