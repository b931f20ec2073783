__global__ void test_sqrt(float * fres, float* fin, _Float16 *hres, _Float16 *hin) {
  unsigned int id = threadIdx.x;
  fres[id] = __builtin_mxc_sqrtf(fin[id]);
  hres[id] = __builtin_mxc_sqrth(hin[id]);
}
