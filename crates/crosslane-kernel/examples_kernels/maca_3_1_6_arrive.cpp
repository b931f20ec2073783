__global__ void test_builtin_mxc_arrive_global(int *ptr, int *data) {
  int val = ptr[0];
  __builtin_mxc_arrive(64); // (1 << 6)
  data[0] = val;
}
__global__ void test_builtin_mxc_arrive_shared(int *data) {
  extern __shared__ int shared_ptr[];
  int shared_val = shared_ptr[threadIdx.x];
  __builtin_mxc_arrive(4096); // (1 << 12);
  data[0] = shared_val;
}
