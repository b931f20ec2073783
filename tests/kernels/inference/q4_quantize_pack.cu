// 4-bit block quantization, one block of warpSize values per warp: the warp maximum of fabsf
// gives d = amax / 7, each lane rounds x / d to -7..7 and stores it with offset 8 as a nibble;
// even lanes pack their nibble with the odd neighbour's (__shfl_down_sync by 1) into one byte
// (low nibble first). Launch: 2 warps (2 blocks).
__global__ void q4_quantize_pack(int* packed, float* scales) {
  int lane = threadIdx.x % warpSize;
  int blk = threadIdx.x / warpSize;
  int g = blk * warpSize + lane;
  float x = (float)((g * 37 + 11) % 29 - 14) * 0.375f;
  float amax = fabsf(x);
  for (int o = warpSize / 2; o > 0; o >>= 1)
    amax = fmaxf(amax, __shfl_xor_sync(0xffffffff, amax, o));
  float d = amax / 7.0f;
  float id = d != 0.0f ? 1.0f / d : 0.0f;
  int q = (int)roundf(x * id);
  q = min(7, max(-7, q)) + 8;
  int hi = __shfl_down_sync(0xffffffff, q, 1);
  if ((lane & 1) == 0) packed[g / 2] = q | (hi << 4);
  if (lane == 0) scales[blk] = d;
}
