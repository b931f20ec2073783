// snapshot: threads=64
// C++ forms of round four's public kernels (hand-derived values): a struct with defaulted
// special members (`Acc() = default;`, `Acc(const Acc&) = default;`, `operator=` defaulted)
// merged through a braced-list argument `merge(acc, {v, 1})` and reduced with cg::reduce taking
// the function `merge` as its operator. v = (t * 5) % 32 runs over 0..31 in each warp (5 is
// odd), so every lane gets m = 31, c = 32; a default-constructed `Acc` stays undefined.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
struct Acc {
  int m;
  int c;
  __host__ __device__ Acc() = default;
  __host__ __device__ Acc(const Acc&) = default;
  __host__ __device__ Acc& operator=(const Acc&) = default;
  __host__ __device__ Acc(int mm, int cc) : m(mm), c(cc) {}
};
__device__ Acc merge(Acc a, Acc b) {
  Acc r;
  r.m = a.m > b.m ? a.m : b.m;
  r.c = a.c + b.c;
  return r;
}
__global__ void k(int *m, int *c, int *u) {
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  Acc acc(-1, 0);
  acc = merge(acc, {(int)((threadIdx.x * 5) % 32), 1});
  Acc tot = cg::reduce(warp, acc, merge);
  m[threadIdx.x] = tot.m;
  c[threadIdx.x] = tot.c;
  Acc none;
  u[threadIdx.x] = none.m;
}
