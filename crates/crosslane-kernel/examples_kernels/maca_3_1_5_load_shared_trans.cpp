__device__ int64_t test_load_shared_trans(__shared__ int64_t *shared_ptr) {
  int64_t val = __builtin_mxc_load_shared_trans_4x16(shared_ptr);
  return val;
}
