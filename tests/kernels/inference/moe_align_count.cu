// Mixture-of-experts alignment: each thread holds one (token, slot) expert id
// (t * 5 + t / 8) % 8; the block counts tokens per expert with shared atomicAdd, then warp 0
// turns the 8 counts into exclusive segment offsets with __shfl_up_sync (a position inside a
// segment taken by a second atomicAdd would depend on the hardware's unspecified atomic order,
// so this kernel stops at the offsets). Launch: 4 warps.
__global__ void moe_align_count(int* counts, int* offsets) {
  __shared__ int cnt[8];
  int t = threadIdx.x;
  if (t < 8) cnt[t] = 0;
  __syncthreads();
  int e = (t * 5 + t / 8) % 8;
  atomicAdd(&cnt[e], 1);
  __syncthreads();
  if (t < warpSize) {
    int c = t < 8 ? cnt[t] : 0;
    int s = c;
    for (int o = 1; o < warpSize; o <<= 1) {
      int up = __shfl_up_sync(0xffffffff, s, o);
      if (t >= o) s += up;
    }
    if (t < 8) {
      counts[t] = c;
      offsets[t] = s - c;
    }
  }
}
