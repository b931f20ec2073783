__device__ float test_mxc_rsq(float a) {
  return __builtin_mxc_rsqf(a);
}
