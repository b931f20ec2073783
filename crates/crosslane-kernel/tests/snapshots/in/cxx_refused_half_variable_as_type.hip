// Inside the scope of `int half = 2;` the name `half` is that variable ([basic.scope.hiding]/2),
// so `half h = …;` is not a declaration of a `half` (hipcc and nvcc reject it). Refused at 7:3,
// saying the variable hides the type and to write `__half`.
#include <hip/hip_fp16.h>
__global__ void k(float* out) {
  int half = 2;
  half h = __float2half(1.0f);
  out[threadIdx.x] = half + __half2float(h);
}
