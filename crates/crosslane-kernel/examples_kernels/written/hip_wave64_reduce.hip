// HIP wave64 reduction: on a 64-lane wavefront (CDNA) warpSize is 64, so the loop starts at 32
// and takes six __shfl_down steps; lane 0 ends with the sum of 64 values.
#include <hip/hip_runtime.h>

__global__ void waveReduceSum(const float* in, float* out) {
  float v = in[threadIdx.x];
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    v += __shfl_down(v, offset);
  if (threadIdx.x == 0) out[0] = v;
}

int main() {
  float *in, *out;
  hipMalloc(&in, 64 * sizeof(float));
  // The input: in[i] = i, copied from the host (device memory from hipMalloc is not cleared).
  float h[64];
  for (int i = 0; i < 64; i++) h[i] = i;
  hipMemcpy(in, h, sizeof(h), hipMemcpyHostToDevice);
  hipMalloc(&out, sizeof(float));
  hipLaunchKernelGGL(waveReduceSum, dim3(1), dim3(64), 0, 0, in, out);
  return 0;
}
