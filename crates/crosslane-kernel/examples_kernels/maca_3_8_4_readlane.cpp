__device__ int test_mxc_readlane(int data, int thread) {
  return __builtin_mxc_readlane(data, thread);
}
