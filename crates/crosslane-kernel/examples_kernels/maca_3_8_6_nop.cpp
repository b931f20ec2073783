__device__ void test_mxc_nop() {
  __builtin_mxc_nop(32);  // wait for 128 cycles
  return;
}
