__global__ void test_cvt_f32totf32(float *in, float *out) {
  int tid = threadIdx.x;
  out[tid] = __builtin_mxc_cvt_f32totf32(in[tid]);
}
