// snapshot: threads=4
// C++17 [alg.min.max]: `std::min<int>(a, b)` converts both arguments to the explicit `int`, so
// std::min<int>(t, 2.5f) = min(t, 2) = 0, 1, 2, 2 and cuda::std::max<float>(t, 1) = 1, 1, 2, 3.
// C++17 [utility.swap]: `std::swap(a, b)` exchanges the values: a = t + 10 and b = t * 2 become
// a = t * 2 and b = t + 10, so lo = 0, 2, 4, 6 and hi = 10, 11, 12, 13.
#include <algorithm>
#include <cuda/std/utility>
__global__ void k(int* mn, float* mx, int* lo, int* hi) {
  int t = threadIdx.x;
  mn[t] = std::min<int>(t, 2.5f);
  mx[t] = cuda::std::max<float>(t, 1);
  int a = t + 10, b = t * 2;
  if (t >= 0) std::swap(a, b);
  cuda::std::swap(lo[t], hi[t]);
  lo[t] = a;
  hi[t] = b;
}
