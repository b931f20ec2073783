// snapshot: threads=4 entry=b::k
// Two namespaces each define a kernel `k`: ISO C++ [basic.namespace] makes `a::k` and `b::k`
// two functions, and `--entry b::k` runs b's. Thread t writes 2t + 1:
// out = 1, 3, 5, 7 (a's kernel would write t + 100 = 100, 101, 102, 103).
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
