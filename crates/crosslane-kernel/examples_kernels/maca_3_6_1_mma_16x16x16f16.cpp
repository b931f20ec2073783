using v4f16 = __NATIVE_VECTOR__(4, _Float16);
using v4f32 = __NATIVE_VECTOR__(4, float);
__device__ v4f32 test_builtin_mxc_mma_16x16x16f16(v4f16 a, v4f16 b, v4f32 c) {
    v4f32 d = __builtin_mxc_mma_16x16x16f16(a, b, c);
    return d;
}
