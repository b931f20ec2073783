__global__ void test_mxc_sicmp(uint64_t& res, uint64_t& lres, int a, int b, long x, long y) {
  res = __builtin_mxc_sicmp(a, b, MACA_ICMP_EQ);
  lres = __builtin_mxc_sicmpl(x, y, MACA_ICMP_NE);
}
