// HIP form of silu_mul_half2.cu (the same kernel with HIP's shuffles without a mask; warpSize is 64 on wave64 and 32 on wave32).
// SwiGLU activation on half2 pairs: each lane loads gate and up as half2 (built with
// __floats2half2_rn), converts to float2 with __half22float2, computes silu(g) * u =
// g / (1 + expf(-g)) * u in float, and stores the pair back as half2 rounded to nearest even;
// the output is written as floats with __low2float / __high2float. Launch: 1 warp.
__global__ void silu_mul_half2(float* out) {
  int lane = threadIdx.x;
  int k = 2 * lane;
  __half2 gate = __floats2half2_rn((float)((k * 37 + 11) % 29 - 14) * 0.25f,
                                   (float)(((k + 1) * 37 + 11) % 29 - 14) * 0.25f);
  __half2 up = __floats2half2_rn((float)(k % 7) * 0.5f - 1.0f, (float)((k + 1) % 7) * 0.5f - 1.0f);
  float2 g = __half22float2(gate);
  float2 u = __half22float2(up);
  float a = g.x / (1.0f + expf(-g.x)) * u.x;
  float b = g.y / (1.0f + expf(-g.y)) * u.y;
  __half2 r = __floats2half2_rn(a, b);
  out[k] = __low2float(r);
  out[k + 1] = __high2float(r);
}
