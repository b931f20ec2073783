// A block's split barrier (barrier_arrive / barrier_wait) launched from a range-for over a
// braced std::vector of sizes, the shape of hip-tests' cooperative-groups tests: the first
// launch (8 threads) is traced; each thread adds its neighbour's value written before the wait:
// Python [t + 10 * ((t + 1) % 8) for t in range(8)] = [10, 21, 32, 43, 54, 65, 76, 7].
#include <hip/hip_runtime.h>
#include <hip/hip_cooperative_groups.h>
#include <vector>
#include <utility>
namespace cg = cooperative_groups;
__global__ void neighbours(int* out, int n) {
  __shared__ int v[64];
  cg::thread_block b = cg::this_thread_block();
  unsigned t = b.thread_rank();
  v[t] = (int)t * n;
  auto token = b.barrier_arrive();
  int mine = (int)t;
  b.barrier_wait(std::move(token));
  out[t] = mine + v[(t + 1) % b.size()];
}
int main() {
  std::vector<unsigned int> sizes = {8, 16};
  for (auto s : sizes) {
    int* d;
    hipMalloc(&d, s * sizeof(int));
    hipLaunchKernelGGL(neighbours, 1, s, 0, 0, d, 10);
  }
  return 0;
}
