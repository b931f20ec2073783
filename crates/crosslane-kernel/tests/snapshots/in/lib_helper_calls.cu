// snapshot: threads=8
// libcu++ and <algorithm>/<bit> helpers. v = t - 2 (-2 .. 5).
// cdiv = cuda::ceil_div(v, 3): preconditions value >= 0 and divisor > 0, so t = 0, 1 are
//   undefined; then ceil(0/3) = 0, 1, 1, 1, ceil(4/3) = 2, ceil(5/3) = 2.
// cdivu = cuda::ceil_div(10u, t + 1u): 10, 5, ceil(10/3) = 4, ceil(10/4) = 3, 2, 2, 2, 2.
// cl = std::clamp(v, 0, 3): 0 0 0 1 2 3 3 3. fcl = std::clamp(0.75f * t, 1.0f, 4.0f):
//   1 1 1.5 2.25 3 3.75 4 4. bad = std::clamp(t, 5, 2): hi < lo breaks [alg.clamp]/2's
//   requirement: undefined in every thread.
// pc = popcount((unsigned)v): -2 = 0xFFFFFFFE -> 31, -1 -> 32, 0, 1, 1, 2, 1, 2.
// pc64 = popcount((unsigned long long)(long long)v): -2 -> 63, -1 -> 64, 0, 1, 1, 2, 1, 2.
#include <cuda/cmath>
#include <cuda/std/algorithm>
#include <cuda/std/bit>
__global__ void helpers(int* cdiv, unsigned* cdivu, int* cl, float* fcl, int* bad, int* pc,
                        int* pc64) {
  int t = threadIdx.x;
  int v = t - 2;
  cdiv[t] = cuda::ceil_div(v, 3);
  cdivu[t] = cuda::ceil_div(10u, t + 1u);
  cl[t] = cuda::std::clamp(v, 0, 3);
  fcl[t] = std::clamp(0.75f * t, 1.0f, 4.0f);
  bad[t] = std::clamp(t, 5, 2);
  pc[t] = cuda::std::popcount((unsigned)v);
  pc64[t] = std::popcount((unsigned long long)(long long)v);
}
