__device__ int test_mxc_bsm_bpermute(int index, int data) {
  // index[0:63] = {256, 254, ... 4,0}
  // It will reverse the data of threads 0 to 63.
  return __builtin_mxc_bsm_bpermute(index, data);
}
