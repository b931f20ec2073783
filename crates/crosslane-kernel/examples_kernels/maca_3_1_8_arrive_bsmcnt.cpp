__global__ void test_builtin_mxc_arrive_bsmcnt(int *data) {
  __shared__ int ptr[];
  int val = ptr[0];
  __builtin_mxc_arrive_bsmcnt(0);
  data[0] = val;
}
