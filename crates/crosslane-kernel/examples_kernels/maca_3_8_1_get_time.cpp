__device__ int64_t test_mxc_get_time() {
  return __builtin_mxc_get_time();
}
