typedef __NATIVE_VECTOR__(2, float) v2f32;
__global__ void pkFmulKernel(v2f32* input, v2f32* output) {
  int idx = threadIdx.x;
  output[idx] = __builtin_mxc_pk_add_f32(input[idx], output[idx]);
}
