__global__ void test_builtin_mxc_readfirstlane(int *output, int *input) {
  int tid = blockDim.x * blockIdx.x + threadIdx.x;
  int tmp;
  // thread 32 ~ 63 is active.
  if (tid > 31 && tid < 64) {
    // return input[32].
    tmp = __builtin_mxc_readfirstlane(input[tid]);
  }
  output[0] = tmp;
}
