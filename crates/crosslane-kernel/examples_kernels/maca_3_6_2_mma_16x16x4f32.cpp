using v4f32 = __NATIVE_VECTOR__(4, float);
__device__ v4f32 test_builtin_mxc_mma_16x16x4f32(float a, float b, v4f32 c) {
    v4f32 d = __builtin_mxc_mma_16x16x4f32(a, b, c);
    return d;
}
