// snapshot: threads=64
// `HIP_DYNAMIC_SHARED(type, var)` is hip_runtime.h's old spelling of `extern __shared__ type
// var[];` (`hip/amd_detail/amd_hip_runtime.h`, `;` included) and `HIP_DYNAMIC_SHARED_ATTRIBUTE`
// is defined empty beside it. 64 threads (one wave64), one int of dynamic shared memory each.
// o[t] = buf[63 - t] = 3 * (63 - t): 189 186 … 3 0. f[t] = fbuf[t ^ 1] = (t ^ 1) * 0.5.
#include <hip/hip_runtime.h>

HIP_DYNAMIC_SHARED(float, fbuf)

__global__ void rev(int* o, float* f) {
  HIP_DYNAMIC_SHARED(int, buf)
  int t = threadIdx.x;
  buf[t] = t * 3;
  fbuf[t] = t * 0.5f;
  __syncthreads();
  o[t] = buf[blockDim.x - 1 - t];
  f[t] = fbuf[t ^ 1];
}
