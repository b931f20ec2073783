// snapshot: threads=8
// A variable named `half` hides the type name `half` in its scope ([basic.scope.hiding]/2,
// [basic.lookup]/1): hip_fp16.h's `half` is a typedef, an ordinary name, so `int half = n / 2;`
// declares an int. Outside that scope `half` is the 16-bit float type again.
// Lane l (8 lanes): n = 2 * l + 3.
//   mid[l] = split(n / 2, n): its int parameter `half` = (2l+3)/2 = l + 1, plus n % 2 = 1:
//   l + 2 -> 2 3 4 5 6 7 8 9.
//   hv[l]: in the inner block `half` is an int set to l, then `half = half * 3;` (a statement
//   starting with the name) makes it 3l; outside, `half h = 0.5f;` is the float type again:
//   hv[l] = 3l + 0.5 -> 0.5 3.5 6.5 9.5 12.5 15.5 18.5 21.5.
#include <hip/hip_fp16.h>
__device__ int split(int half, int n) { return half + n % 2; }
__global__ void k(int* mid, float* hv) {
  int l = threadIdx.x;
  int n = 2 * l + 3;
  mid[l] = split(n / 2, n);
  float acc = 0.f;
  {
    int half = l;
    half = half * 3;
    acc = (float)half;
  }
  half h = 0.5f;
  hv[l] = acc + __half2float(h);
}
