// A constexpr function whose evaluation needs 2^41 - 1 calls (g(n) calls g(n - 1) twice)
// stops at the folding bound (10000 steps) and the template argument is refused, naming the
// bound, before the run.
constexpr int g(int n) { return n == 0 ? 0 : g(n - 1) + g(n - 1) + 1; }
template <int N> __device__ int h() { return N; }
__global__ void k(int *o) { o[threadIdx.x] = h<g(40)>(); }
