using v4f32 = __NATIVE_VECTOR__(4, float);
using v2f32 = __NATIVE_VECTOR__(2, float);
__device__ v4f32 test_builtin_mxc_mma_16x16x8tf32(v2f32 A, v2f32 B, v4f32 C) {
    v4f32 D = __builtin_mxc_mma_16x16x8tf32(A, B, C);
    return D;
}
