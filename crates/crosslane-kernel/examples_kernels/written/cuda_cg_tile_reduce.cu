// Cooperative groups: the block is split into tiles of 16 threads (tiled_partition<16>), and
// each tile reduces on its own with tile.shfl_down; rank 0 of each tile writes its sum.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void tileReduceSum(const int* in, int* out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
  int v = in[threadIdx.x];
  for (int offset = tile.size() / 2; offset > 0; offset /= 2)
    v += tile.shfl_down(v, offset);
  if (tile.thread_rank() == 0) out[threadIdx.x / 16] = v;
}

int main() {
  int *in, *out;
  cudaMalloc(&in, 32 * sizeof(int));
  // The input: in[i] = i, copied from the host (device memory from cudaMalloc is not cleared).
  int h[32];
  for (int i = 0; i < 32; i++) h[i] = i;
  cudaMemcpy(in, h, sizeof(h), cudaMemcpyHostToDevice);
  cudaMalloc(&out, 2 * sizeof(int));
  tileReduceSum<<<1, 32>>>(in, out);
  return 0;
}
