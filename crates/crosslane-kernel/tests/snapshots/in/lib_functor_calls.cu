// snapshot: threads=8
// Library function objects called as functions, outside any CUB collective. Thread t has
// x = t, y = 7 - t, except thread 0 (x = +0, y = -0) and thread 1 (x = NaN, y = 1).
// CUB 2.x: Max is CUB_MAX(a, b) = (b > a) ? b : a, Min is CUB_MIN(a, b) = (b < a) ? b : a;
// libcu++: cuda::minimum is (a < b) ? a : b.
//   t=0: every comparison of +0 with -0 is false: cub max = a = 0, cub min = a = 0,
//        cuda::minimum = b = -0.
//   t=1: every comparison with NaN is false: cub max = cub min = a = NaN, cuda::minimum = 1.
//   t=2..7: max 5 4 4 5 6 7, min 2 3 3 2 1 0 (both libraries).
// less[t] = std::less<int>()(t, 7 - t): 1 for t = 0..3, else 0. plus[t] = t + 100.
// mixed[t] = cuda::maximum<>{}(t, 2.5f): common_type<int, float> = float: 2.5 2.5 2.5 3 4 5 6 7.
// named[t] = sum(t, 10) * 100 + mx(t, 3): 1003 1103 1203 1303 1404 1505 1606 1707.
// alias[t] = MinOp()(t, 4) through `using MinOp = cuda::minimum<>`: 0 1 2 3 4 4 4 4.
// ArgMax over p = (t, t % 3), q = (7 - t, (7 - t) % 3): the larger value, the smaller key
// on a tie: t=0 (0,0)/(7,1) -> 7; t=1 (1,1)/(6,0) -> 1; t=2 (2,2)/(5,2) tie -> 2;
// t=3 (3,0)/(4,1) -> 4; t=4 (4,1)/(3,0) -> 4; t=5 (5,2)/(2,2) tie -> 2; t=6 -> 1; t=7 -> 7.
// ArgMin: t=0 -> 0; t=1 -> 6; t=2 tie -> 2; t=3 -> 3; t=4 -> 3; t=5 tie -> 2; t=6 -> 6; t=7 -> 0.
#include <cub/cub.cuh>
#include <cuda/functional>
#include <cuda/std/functional>
using MinOp = cuda::minimum<>;
__global__ void functors(float* cmax, float* cmin, float* cuda_min, int* less, int* plus,
                         float* mixed, int* named, int* alias, int* argmax, int* argmin) {
  int t = threadIdx.x;
  float x = (float)t, y = (float)(7 - t);
  if (t == 0) { x = 0.0f; y = -0.0f; }
  if (t == 1) { x = __int_as_float(0x7fc00000); y = 1.0f; }
  cmax[t] = cub::Max()(x, y);
  cmin[t] = cub::Min()(x, y);
  cuda_min[t] = cuda::minimum<>{}(x, y);
  less[t] = std::less<int>()(t, 7 - t);
  plus[t] = cuda::std::plus<>()(t, 100);
  mixed[t] = cuda::maximum<>{}(t, 2.5f);
  cub::Sum sum;
  cuda::maximum<int> mx{};
  named[t] = sum(t, 10) * 100 + mx(t, 3);
  alias[t] = MinOp()(t, 4);
  cub::KeyValuePair<int, float> p(t, (float)(t % 3)), q(7 - t, (float)((7 - t) % 3));
  cub::KeyValuePair<int, float> hi = cub::ArgMax()(p, q);
  cub::KeyValuePair<int, float> lo = cub::ArgMin()(p, q);
  argmax[t] = hi.key;
  argmin[t] = lo.key;
}
