__device__ int test_write_lane(int old_data) {
  int ret_val = __builtin_mxc_writelane(10, 0, old_data);
  return ret_val;
}
