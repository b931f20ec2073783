// Row softmax, one warp per row (the shape inference libraries use for rows no longer than a
// warp): each lane holds one element; the row maximum and then the sum of expf(x - max) travel
// through XOR butterflies, so every lane ends with both. Launch: 2 warps, one row each.
// Input: element g of the rows is ((g * 37 + 11) % 29 - 14) / 8.
__global__ void warp_softmax(float* out) {
  int lane = threadIdx.x % warpSize;
  int row = threadIdx.x / warpSize;
  int g = row * warpSize + lane;
  float x = (float)((g * 37 + 11) % 29 - 14) * 0.125f;
  float m = x;
  for (int o = warpSize / 2; o > 0; o >>= 1)
    m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, o));
  float e = expf(x - m);
  float s = e;
  for (int o = warpSize / 2; o > 0; o >>= 1)
    s += __shfl_xor_sync(0xffffffff, s, o);
  out[g] = e / s;
}
