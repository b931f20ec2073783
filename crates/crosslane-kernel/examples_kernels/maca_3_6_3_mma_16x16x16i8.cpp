using v4i32 = __NATIVE_VECTOR__(4, int);
__device__ v4i32 test_builtin_mxc_mma_16x16x16i8(int a, int b, v4i32 c) {
    v4i32 d = __builtin_mxc_mma_16x16x16i8(a, b, c);
    return d;
}
