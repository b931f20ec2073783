using v4f64 = __NATIVE_VECTOR__(4, double);
__device__ v4f64 test_builtin_mxc_mma_16x16x4f64(double A, double B, v4f64 C) {
    v4f64 D = __builtin_mxc_mma_16x16x4f64(A, B, C);
    return D;
}
