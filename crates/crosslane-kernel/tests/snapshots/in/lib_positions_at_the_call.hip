// snapshot: threads=64
// A warning raised inside crosslane's rocPRIM declarations is shown at the user's call: lanes
// 60-63 never set `v`, so rocPRIM's warp_reduce<int, 64> reads undefined values in its
// shuffles; every such warning is at 15:3 (the `reduce` call), naming the library function
// `warp_reduce<int,64,0>::reduce<plus<int>>`, never at a column of the declarations' own.
// Lane 0's sum folds lanes 60-63 in: undefined (rocPRIM's warp_reduce defines its result in
// lane 0 only; the run shows every lane undefined).
#include <rocprim/rocprim.hpp>
__global__ void k(int* out) {
  using wr = rocprim::warp_reduce<int, 64>;
  __shared__ typename wr::storage_type st;
  int v;
  if (threadIdx.x < 60) v = threadIdx.x;
  int r;
  wr().reduce(v, r, st);
  out[threadIdx.x] = r;
}
