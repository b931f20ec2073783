// RMSNorm of one row of 4 * warpSize floats read through float4 (one aligned 16-byte load per
// lane), the sum of squares reduced with XOR butterflies, written back through a float4 store.
// The kernel first writes its input row x[k] = ((k * 37 + 11) % 29 - 14) / 8. Launch: 1 warp.
__global__ void rmsnorm_float4(float* x, float* out) {
  int lane = threadIdx.x;
  for (int i = 0; i < 4; ++i) {
    int k = 4 * lane + i;
    x[k] = (float)((k * 37 + 11) % 29 - 14) * 0.125f;
  }
  __syncwarp();
  float4 v = reinterpret_cast<const float4*>(x)[lane];
  float ss = v.x * v.x + v.y * v.y + v.z * v.z + v.w * v.w;
  for (int o = warpSize / 2; o > 0; o >>= 1) ss += __shfl_xor_sync(0xffffffff, ss, o);
  float r = rsqrtf(ss / (float)(4 * warpSize) + 1e-6f);
  reinterpret_cast<float4*>(out)[lane] = make_float4(v.x * r, v.y * r, v.z * r, v.w * r);
}
