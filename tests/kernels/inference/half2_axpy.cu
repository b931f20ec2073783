// half2 arithmetic: y = a * x + y on pairs with __hfma2 (one rounding to half), then
// z = __hmul2(y, y) and w = __hadd2(z, x); each lane writes its pair of y and w as floats.
// x = (k % 9 - 4) / 8, y0 = (k % 5) / 4 - 0.5, a = 1.5 (exact in half). Launch: 1 warp.
__global__ void half2_axpy(float* y_out, float* w_out) {
  int lane = threadIdx.x;
  int k = 2 * lane;
  __half2 x = __floats2half2_rn((float)(k % 9 - 4) * 0.125f, (float)((k + 1) % 9 - 4) * 0.125f);
  __half2 y = __floats2half2_rn((float)(k % 5) * 0.25f - 0.5f, (float)((k + 1) % 5) * 0.25f - 0.5f);
  __half2 a = __float2half2_rn(1.5f);
  y = __hfma2(a, x, y);
  __half2 z = __hmul2(y, y);
  __half2 w = __hadd2(z, x);
  float2 yf = __half22float2(y);
  float2 wf = __half22float2(w);
  y_out[k] = yf.x;
  y_out[k + 1] = yf.y;
  w_out[k] = wf.x;
  w_out[k + 1] = wf.y;
}
