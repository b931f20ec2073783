// HIP form of q8_dot.cu (the same kernel with HIP's shuffles without a mask; warpSize is 64 on wave64 and 32 on wave32).
// Dot product of two q8 blocks of warpSize int8 values each (the shape of a q8_0 x q8_0 vector
// dot): lane l multiplies qa[l] * qb[l] in integers, the warp sums the integer products with
// XOR butterflies, and lane 0 scales the exact integer sum by the two block scales
// da = 0.03125 and db = 0.0078125 * (1 + block). Launch: 1 warp, 2 blocks in sequence.
__global__ void q8_dot(int* isum, float* dot) {
  int lane = threadIdx.x;
  for (int b = 0; b < 2; ++b) {
    int g = b * warpSize + lane;
    signed char qa = (signed char)((g * 37 + 11) % 255 - 127);
    signed char qb = (signed char)((g * 91 + 5) % 201 - 100);
    int p = (int)qa * (int)qb;
    for (int o = warpSize / 2; o > 0; o >>= 1) p += __shfl_xor(p, o);
    float da = 0.03125f;
    float db = 0.0078125f * (float)(1 + b);
    if (lane == 0) {
      isum[b] = p;
      dot[b] = da * db * (float)p;
    }
  }
}
