using v2f16 = __NATIVE_VECTOR__(2, _Float16);
__global__ void test_mxc_pk_fma_f16(v2f16 *d, v2f16 *a, v2f16 *b, f2f16 *c) {
  d[0] = __builtin_mxc_pk_fma_f16(a[0], b[0], c[0]);
}
