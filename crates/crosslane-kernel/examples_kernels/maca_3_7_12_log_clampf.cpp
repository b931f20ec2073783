__global__ void test_mxc_log_clampf(float& fres, float& f1) {
  fres = __builtin_mxc_log_clampf(f1);
}
