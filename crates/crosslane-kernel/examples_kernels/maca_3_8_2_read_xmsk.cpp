__device__ unsigned test_mxc_read_xmsk() {
  return __builtin_mxc_read_xmsk();
}
