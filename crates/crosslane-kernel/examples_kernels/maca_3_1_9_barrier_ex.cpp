__global__ void test_swap_warp_data(int *data) {
  __shared__ int sharedData[128];
  int id = threadIdx.x + blockIdx.x + blockDim.x;
  int warpId = id / 64;
  int laneId = threadIdx.x % 64;

  sharedData[id] = data[id];

  // Swap data by shared memory. So barrier_shared is enough.
  __builtin_mxc_barrier_ex(1);

  int targetWarpId = warpId ^ 1;
  int targetId = targetWarpId * 64 + laneId;

  int val = sharedData[targetId];
  data[id] = val;
}
