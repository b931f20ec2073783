// Symmetric 8-bit block quantization, one warp per block of warpSize values: the block's
// absolute maximum comes from a warp max of fabsf, the scale is amax / 127, and each value
// becomes roundf(x / scale) (as x times the reciprocal). Launch: 2 warps (2 blocks).
__global__ void q8_quantize(int* qs, float* scales) {
  int lane = threadIdx.x % warpSize;
  int block = threadIdx.x / warpSize;
  int g = block * warpSize + lane;
  float x = (float)((g * 37 + 11) % 29 - 14) * 0.375f;
  float amax = fabsf(x);
  for (int o = warpSize / 2; o > 0; o >>= 1)
    amax = fmaxf(amax, __shfl_xor_sync(0xffffffff, amax, o));
  float d = amax / 127.0f;
  float id = d != 0.0f ? 1.0f / d : 0.0f;
  qs[g] = (int)roundf(x * id);
  if (lane == 0) scales[block] = d;
}
