// A __device__ function given to a template's type parameter: `Op` is deduced as the
// function pointer type float (*)(float, float) ([temp.deduct.call]/2.2), and op(…) calls
// through it. x[i] = i (the default fill) on one warp: the butterfly over 32 lanes gives every
// lane the maximum 31, the sum 0 + 1 + … + 31 = 496, and with the lambda the minimum 0.
__device__ float max_of(float a, float b) { return a > b ? a : b; }
__device__ float sum_of(float a, float b) { return a + b; }
template <typename Op>
__device__ float butterfly(float v, const Op& op) {
  for (int d = 16; d > 0; d /= 2) v = op(v, __shfl_xor_sync(0xffffffffu, v, d));
  return v;
}
template <typename Op>
__device__ float butterfly_by_value(float v, Op op) {
  for (int d = 16; d > 0; d /= 2) v = op(v, __shfl_xor_sync(0xffffffffu, v, d));
  return v;
}
__global__ void reduce(float* x, float* mx, float* sum, float* mn) {
  int t = threadIdx.x;
  mx[t] = butterfly(x[t], max_of);
  sum[t] = butterfly_by_value(x[t], &sum_of);
  mn[t] = butterfly(x[t], [](float a, float b) { return a < b ? a : b; });
}
