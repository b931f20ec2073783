using v2f32 = __NATIVE_VECTOR__(2, float);
__global__ void test_mxc_pk_fma_f32(v2f32 *d, v2f32 *a, v2f32 *b, v2f32 *c) {
  d[0] = __builtin_mxc_pk_fma_f32(a[0], b[0], c[0]);
}
