// snapshot: threads=16
// Cooperative-groups collectives over structs, combined by their operators (the struct is
// shuffled member by member):
//   cg::reduce with cg::plus<MV> (a free Welford `operator+`) over tiles of 8 of values t:
//   tile 0 holds 0..7 (mean 3.5), tile 1 8..15 (mean 11.5); M2 = 8 (8^2 - 1) / 12 = 42 for both.
//   cg::reduce with cg::greater<KV> (a member `operator>`, a tie by the smaller index) over the
//   tile of 16, key 5t mod 8: 0 5 2 7 4 1 6 3 repeated, the largest 7 at t = 3 and 11: best 3.
//   cg::inclusive_scan with cg::plus<Cnt> (a member `operator+`) over tiles of 4 of (1, t):
//   items 1 2 3 4 per tile; weight the running sum of t in the tile: 0 1 3 6, 4 9 15 22,
//   8 17 27 38, 12 25 39 54.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;
struct MV {
  float mean;
  float m2;
  int n;
};
__device__ MV operator+(const MV& a, const MV& b) {
  MV r;
  r.n = a.n + b.n;
  float d = b.mean - a.mean;
  float s = (float)b.n / (float)r.n;
  r.mean = a.mean + d * s;
  r.m2 = a.m2 + b.m2 + d * d * (float)a.n * s;
  return r;
}
struct KV {
  int key;
  int idx;
  __device__ bool operator>(const KV& o) const { return key > o.key || (key == o.key && idx < o.idx); }
};
struct Cnt {
  int items;
  int weight;
  __device__ Cnt operator+(const Cnt& o) const { return Cnt{items + o.items, weight + o.weight}; }
};
__global__ void k(float* mean, float* m2, int* best, int* items, int* weight) {
  int t = threadIdx.x;
  cg::thread_block_tile<8> t8 = cg::tiled_partition<8>(cg::this_thread_block());
  cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(cg::this_thread_block());
  cg::thread_block_tile<4> t4 = cg::tiled_partition<4>(cg::this_thread_block());
  MV v{(float)t, 0.0f, 1};
  MV r = cg::reduce(t8, v, cg::plus<MV>());
  mean[t] = r.mean;
  m2[t] = r.m2;
  KV kv{(t * 5) % 8, t};
  KV top = cg::reduce(t16, kv, cg::greater<KV>());
  best[t] = top.idx;
  Cnt c{1, t};
  Cnt run = cg::inclusive_scan(t4, c, cg::plus<Cnt>());
  items[t] = run.items;
  weight[t] = run.weight;
}
