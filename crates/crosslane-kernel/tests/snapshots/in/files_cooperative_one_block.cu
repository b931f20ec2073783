// A cooperative-launch program in the samples' shape (written for crosslane's snapshots): a
// host vector from calloc, an occupancy query for the grid, a one-block cooperative launch
// whose kernel sums through shared memory declared type-first (`extern float __shared__`)
// and normalizes after grid.sync(). 64 cells of 1 + 1 (calloc's 0 plus the fill's 1 added
// in the kernel) sum to 128; each cell becomes 2 / 128 = 0.015625.
#include <cstdlib>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void normalize(float *v, float *total, int n) {
  cg::grid_group grid = cg::this_grid();
  extern float __shared__ part[];
  float s = 0;
  for (int i = grid.thread_rank(); i < n; i += grid.size()) {
    v[i] += 1.0f;
    s += v[i] + 1.0f;
    v[i] += 1.0f;
  }
  part[threadIdx.x] = s;
  __syncthreads();
  if (threadIdx.x == 0) {
    float t = 0;
    for (int i = 0; i < blockDim.x; i++) t += part[i];
    total[blockIdx.x] = t;
  }
  grid.sync();
  for (int i = grid.thread_rank(); i < n; i += grid.size()) v[i] = v[i] / total[0];
}

int main() {
  const int n = 64, threads = 32;
  float *h = (float *)calloc(n, sizeof(float));
  float *d, *d_total;
  cudaMalloc(&d, n * sizeof(float));
  cudaMalloc(&d_total, sizeof(float));
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  int perSm = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, normalize, threads, threads * sizeof(float));
  int blocks = perSm > 1 ? 1 : perSm;
  void *args[] = {(void *)&d, (void *)&d_total, (void *)&n};
  cudaLaunchCooperativeKernel((void *)normalize, blocks, threads, args, threads * sizeof(float), 0);
  free(h);
  return 0;
}
