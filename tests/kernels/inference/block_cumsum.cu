// Inclusive prefix sum over a block of 4 warps: a Hillis-Steele scan inside each warp with
// __shfl_up_sync, the warp totals scanned by warp 0 through shared memory, and each warp's
// offset added back. Integers (x = (t * 7) % 11 - 3), so the result is exact. Launch: 4 warps.
__global__ void block_cumsum(int* out) {
  __shared__ int totals[32];
  int t = threadIdx.x;
  int lane = t % warpSize, warp = t / warpSize, warps = blockDim.x / warpSize;
  int v = (t * 7) % 11 - 3;
  for (int o = 1; o < warpSize; o <<= 1) {
    int up = __shfl_up_sync(0xffffffff, v, o);
    if (lane >= o) v += up;
  }
  if (lane == warpSize - 1) totals[warp] = v;
  __syncthreads();
  if (warp == 0) {
    int s = lane < warps ? totals[lane] : 0;
    for (int o = 1; o < warpSize; o <<= 1) {
      int up = __shfl_up_sync(0xffffffff, s, o);
      if (lane >= o) s += up;
    }
    if (lane < warps) totals[lane] = s;
  }
  __syncthreads();
  if (warp > 0) v += totals[warp - 1];
  out[t] = v;
}
