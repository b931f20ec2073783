__global__ void test(int *out, float a, float b, float c, float d) {
  out[0] = __builtin_mxc_cvt_pk_f32tou8(a, 0, out[0]);
  out[0] = __builtin_mxc_cvt_pk_f32tou8(b, 1, out[0]);
  out[0] = __builtin_mxc_cvt_pk_f32tou8(c, 2, out[0]);
  out[0] = __builtin_mxc_cvt_pk_f32tou8(d, 3, out[0]);
}
