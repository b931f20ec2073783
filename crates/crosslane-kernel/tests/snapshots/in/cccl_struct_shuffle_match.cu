// snapshot: threads=32
// libcu++'s struct shuffle and match (`<cuda/warp>`): `warp_shuffle_down<16>(p, 2)` of
// `{double x; int y;}` = (t, t + 1) gives lane t lane t + 2's struct where t % 16 + 2 < 16
// (pred 1), else its own (pred 0): out = 100 x + 10 y + pred, e.g. lane 0: 231, lane 14: 1550.
// `warp_match_any(q)` of `{int a; short b;}` = (t % 2, t % 3) is the mask of the lanes with the
// same t % 6: lane 0 0x41041041 = 1090785345. `P c = warp_shuffle_idx(p, 3)` converts through
// `operator T()`: lane 3's (3, 4) in every lane.
#include <cuda/warp>
struct P { double x; int y; };
struct Q { int a; short b; };
__global__ void k(int* out, unsigned* m, int* c3) {
  P p{(double)threadIdx.x, (int)threadIdx.x + 1};
  auto r = cuda::device::warp_shuffle_down<16>(p, 2);
  out[threadIdx.x] = (int)r.data.x * 100 + r.data.y * 10 + r.pred;
  Q q{(int)(threadIdx.x % 2), (short)(threadIdx.x % 3)};
  m[threadIdx.x] = cuda::device::warp_match_any(q);
  P c = cuda::device::warp_shuffle_idx(p, 3);
  c3[threadIdx.x] = (int)c.x * 100 + c.y;
}
