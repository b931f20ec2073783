__global__ void test_mxc_fma_bf16(_Float16 *d, _Float16 *a, _Float16 *b, _Float16 *c) {
  d[0] = __builtin_mxc_fma_bf16(a[0], b[0], c[0]);
}
