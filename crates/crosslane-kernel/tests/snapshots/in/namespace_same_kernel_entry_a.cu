// snapshot: threads=4 entry=a::k
// Two namespaces each define a kernel `k`: ISO C++ [basic.namespace] makes `a::k` and `b::k`
// two functions, and `--entry a::k` runs a's. Thread t writes t + bias() = t + 100:
// out = 100, 101, 102, 103 (b's kernel would write 2t + 1 = 1, 3, 5, 7).
namespace a {
__device__ int bias() { return 100; }
__global__ void k(int* out) {
  int t = threadIdx.x;
  out[t] = t + bias();
}
}  // namespace a

namespace b {
__global__ void k(int* out) {
  int t = threadIdx.x;
  out[t] = 2 * t + 1;
}
}  // namespace b
