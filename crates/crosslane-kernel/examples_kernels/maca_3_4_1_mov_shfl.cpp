__device__ int test_mxc_mov_shfl(int val) {
  // Reverse every 16 threads.
  return __builtin_mxc_mov_shfl(val, 0x140, 0xf, 0xf, false);
}
