__device__ int test_mxc_byte_reverse(unsigned int data) {
  return __builtin_mxc_byte_perm(data, data, 0x04050607);
}
