// A grid synchronization in a kernel launched with <<<…>>> (written for crosslane's
// snapshots): only a cooperative launch may synchronize its grid (CUDA C++ Programming Guide,
// Cooperative Groups, Grid Group: "to be able to synchronize across the grid, you need to use
// the cooperative launch API"), so grid.is_valid() is false (flag cells 0 in block 0) and the
// run ends with an error at grid.sync() naming the launch at line 25; block 1 never runs.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void k(int *out, int *flag) {
  cg::grid_group grid = cg::this_grid();
  if (threadIdx.x == 0) out[blockIdx.x] = blockIdx.x + 1;
  flag[blockIdx.x * blockDim.x + threadIdx.x] = grid.is_valid();
  grid.sync();
  if (blockIdx.x == 0 && threadIdx.x == 0) out[2] = out[0] + out[1];
}

int main() {
  int *out, *flag;
  cudaMalloc(&out, 3 * sizeof(int));
  cudaMalloc(&flag, 64 * sizeof(int));
  cudaMemset(out, 0, 3 * sizeof(int));
  cudaMemset(flag, 0, 64 * sizeof(int));
  // The launch: two blocks of 32 threads, not cooperative.

  k<<<2, 32>>>(out, flag);
  return 0;
}
