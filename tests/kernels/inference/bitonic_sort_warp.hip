// HIP form of bitonic_sort_warp.cu (the same kernel with HIP's shuffles without a mask; warpSize is 64 on wave64 and 32 on wave32).
// Bitonic sort of one value per lane across the warp, descending, with (value, index) pairs
// so equal values keep index order: stage k, step j, each lane exchanges with lane ^ j through
// __shfl_xor_sync and keeps the larger or smaller pair by its position. Launch: 1 warp.
__global__ void bitonic_sort_warp(float* val, int* idx) {
  int lane = threadIdx.x;
  float v = (float)((lane * 37 + 11) % 29 - 14) * 0.125f;
  int i = lane;
  for (int k = 2; k <= warpSize; k <<= 1) {
    for (int j = k >> 1; j > 0; j >>= 1) {
      float ov = __shfl_xor(v, j);
      int oi = __shfl_xor(i, j);
      // "before" = the other pair sorts before ours in descending order.
      bool before = ov > v || (ov == v && oi < i);
      bool lower = (lane & j) == 0;
      bool descending = (lane & k) == 0;
      bool take = (lower == descending) ? before : !before;
      if (take) { v = ov; i = oi; }
    }
  }
  val[lane] = v;
  idx[lane] = i;
}
