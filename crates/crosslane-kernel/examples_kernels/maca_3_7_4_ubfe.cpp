__global__ static void test_ubfe(unsigned int *res, unsigned int *src, unsigned int *offset, unsigned int *field) {
  unsigned int id = threadIdx.x;
  res[id] = __builtin_mxc_ubfe(src[id], offset[id], field[id]);
}
