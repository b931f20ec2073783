// snapshot: threads=16
// cub::WarpLoad / WarpStore over logical warps of 8 lanes and a named WarpScan object.
// in[i] = i (16 cells). Thread t, lane l = t % 8, logical warp w = t / 8:
// WarpLoad<int, 2, WARP_LOAD_STRIPED, 8> of the tile at `in` (both warps read the same tile):
// lane l holds in[l] and in[l + 8] (striped). The named WarpScan<int, 8> object `scan` sums
// items[0] + items[1] = 2l + 8 inclusively over the logical warp. WarpStore<int, 1,
// WARP_STORE_DIRECT, 8> writes lane l's sum to out[8w + l].
// Python: [sum(2 * k + 8 for k in range(t % 8 + 1)) for t in range(16)]
//   = 8 18 30 44 60 78 98 120, twice.
#include <cub/cub.cuh>
__global__ void k(const int *in, int *out) {
  using Load = cub::WarpLoad<int, 2, cub::WARP_LOAD_STRIPED, 8>;
  using Store = cub::WarpStore<int, 1, cub::WARP_STORE_DIRECT, 8>;
  using Scan = cub::WarpScan<int, 8>;
  __shared__ typename Load::TempStorage lt[2];
  __shared__ typename Store::TempStorage st[2];
  __shared__ typename Scan::TempStorage sc[2];
  int w = threadIdx.x / 8;
  int items[2];
  Load(lt[w]).Load(in, items);
  Scan scan(sc[w]);
  int s[1];
  scan.InclusiveSum(items[0] + items[1], s[0]);
  Store(st[w]).Store(out + 8 * w, s);
}
