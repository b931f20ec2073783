__global__ static void test_sbfe(int *res, unsigned int *src, unsigned int *offset, unsigned int *field) {
  unsigned int id = threadIdx.x;
  res[id] = __builtin_mxc_sbfe(src[id], offset[id], field[id]);
}
