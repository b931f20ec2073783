__global__ void test_mxc_fcmp(uint64_t& dres, uint64_t& fres,  uint64_t& hres,
                              double da, double db, float fa, float fb, _Float16 ha, _Float16 hb) {
    dres= __builtin_mxc_fcmp(da, db, 1);
    fres = __builtin_mxc_fcmpf(fa, fb, 2);
    hres = __builtin_mxc_fcmph(ha, hb, 3);
}
