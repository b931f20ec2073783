__device__ int test_mxc_mov_shfl(int val) {
  // Left shift every 16 threads, out of range return 100.
  return __builtin_mxc_update_shfl(100, val, 0x108, 0xf, 0xf, true);
}
