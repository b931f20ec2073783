__global__ void test_rcp(float * fres, float* fin, _Float16 *hres, _Float16 *hin) {
  unsigned int id = threadIdx.x;
  fres[id] = __builtin_mxc_rcpf(fin[id]);
  hres[id] = __builtin_mxc_rcph(hin[id]);
}
