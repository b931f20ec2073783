__global__ void test_mxc_uicmp(uint64_t& res, uint64_t& lres, unsigned int a, unsigned int b, uint64_t x, uint64_t y) {

  res = __builtin_mxc_uicmp(a, b, MACA_ICMP_EQ);

  lres = __builtin_mxc_uicmpl(x, y, MACA_ICMP_NE);
}
