__device__ v1u32 test_builtin_mxc_ldg_b32_predicator_ret(int *ptr, v1u32 ret_val, int a) {
  v1u32 val = __builtin_mxc_ldg_b32_predicator_ret(ptr, 0, ret_val, false, false, false, threadIdx.x, a, MACA_ICMP_ULT);
  return val;
}
