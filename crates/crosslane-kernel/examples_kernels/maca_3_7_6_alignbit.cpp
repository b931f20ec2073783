__global__ void test_alignbit_if_else(unsigned int *res) {
  if (__lane_id() & 0x1) {
    res[__lane_id()] = __builtin_mxc_alignbit(2, 1, 8);
  } else {
    res[__lane_id()] = __builtin_mxc_alignbit(2, 1, 4);
  }
}
