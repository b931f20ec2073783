// Two namespaces each define a kernel `k` (ISO C++ [basic.namespace]: `a::k` and `b::k` are two
// functions); host code launches `b::k`, so b's runs, in one block of 4 threads: thread t
// writes step(t) - 5 = 10t - 5 through b's helper `step`: out = -5, 5, 15, 25. a's kernel
// (t + 100 = 100, 101, 102, 103) does not run.
#include <cstdio>

namespace a {
__global__ void k(int* out) {
  int t = threadIdx.x;
  out[t] = t + 100;
}
}  // namespace a

namespace b {
__device__ int step(int t) { return 10 * t; }
__global__ void k(int* out) {
  int t = threadIdx.x;
  out[t] = step(t) - 5;
}
}  // namespace b

int main() {
  int* out;
  cudaMalloc(&out, 4 * sizeof(int));
  b::k<<<1, 4>>>(out);
  cudaDeviceSynchronize();
  return 0;
}
