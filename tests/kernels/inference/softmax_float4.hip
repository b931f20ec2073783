// HIP form of softmax_float4.cu (the same kernel with HIP's shuffles without a mask; warpSize is 64 on wave64 and 32 on wave32).
// Warp softmax over a row of 4 * warpSize floats read and written through float4 (each lane
// one aligned 16-byte load and store): the kernel first writes the row x, then the lane's four
// values give a local max and sum that meet in XOR butterflies. Launch: 1 warp.
__global__ void softmax_float4(float* x, float* out) {
  int lane = threadIdx.x;
  for (int i = 0; i < 4; ++i) {
    int k = lane * 4 + i;
    x[k] = (float)((k * 37 + 11) % 29 - 14) * 0.25f;
  }
  __syncthreads();
  float4 v = reinterpret_cast<const float4*>(x)[lane];
  float m = fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w));
  for (int o = warpSize / 2; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor(m, o));
  float4 e = make_float4(expf(v.x - m), expf(v.y - m), expf(v.z - m), expf(v.w - m));
  float s = e.x + e.y + e.z + e.w;
  for (int o = warpSize / 2; o > 0; o >>= 1) s += __shfl_xor(s, o);
  float inv = 1.0f / s;
  reinterpret_cast<float4*>(out)[lane] = make_float4(e.x * inv, e.y * inv, e.z * inv, e.w * inv);
}
