using v1u32 = __NATIVE_VECTOR__(1, unsigned int);
__device__ v1u32 test_builtin_mxc_ldg_b32_predicator(int *ptr, int a) {
  v1u32 val = __builtin_mxc_ldg_b32_predicator(ptr, 0, false, false, false, false, threadIdx.x, a, MACA_ICMP_ULT);
  return val;
}
