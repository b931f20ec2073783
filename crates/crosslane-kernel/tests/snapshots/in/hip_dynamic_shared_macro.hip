// snapshot: threads=64
// `HIP_DYNAMIC_SHARED(type, var)` is hip_runtime.h's old spelling of `extern __shared__ type
// var[];` (`hip/amd_detail/amd_hip_runtime.h`, `;` included) and `HIP_DYNAMIC_SHARED_ATTRIBUTE`
// is defined empty beside it. 64 threads (one wave64), one int of dynamic shared memory each.
// `buf` and `fbuf` are the same memory: every `extern __shared__` array starts at the same
// address (CUDA C++ Programming Guide, __shared__; HIP the same), so `fbuf[t] = t * 0.5f`
// overwrites `buf[t] = t * 3`. o[t] = buf[63 - t] = the bits of the float (63 - t) * 0.5:
// o[0] = bits(31.5f) = 0x41FC0000 = 1107034112, o[1] = bits(31.0f) = 1106771968, …,
// o[62] = bits(0.5f) = 1056964608, o[63] = 0. f[t] = fbuf[t ^ 1] = (t ^ 1) * 0.5.
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
