__global__ void test_builtin_mxc_stg_b32_predicator(void *ptr, unsigned val, int a) {
  __builtin_mxc_stg_b32_predicator(ptr, 0, val, false, false, false, threadIdx.x, a, MACA_ICMP_ULT);
}
