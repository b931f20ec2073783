__global__ void test_builtin_mxc_arrive_gvmcnt(int *ptr, int *data) {
  int val = ptr[0];
  __builtin_mxc_arrive_gvmcnt(0);
  data[0] = val;
}
