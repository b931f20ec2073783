__global__ void test_byte_to_float(int* in, float* out){
    out[0] = __builtin_mxc_b0_cast_to_f32(in[0]);
    out[1] = __builtin_mxc_b1_cast_to_f32(in[0]);
    out[2] = __builtin_mxc_b2_cast_to_f32(in[0]);
    out[3] = __builtin_mxc_b3_cast_to_f32(in[0]);
}
