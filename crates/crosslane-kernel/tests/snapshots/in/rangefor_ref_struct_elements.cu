// snapshot: threads=4
// C++17 [stmt.ranged]/1 with [dcl.init.ref]/5: `auto& p` and `KV& p` over a local struct array
// name each element in turn, so writes through `p` change the array. x = 0, 1, 2, 3; the first
// loop sets pairs[j] = {x[j], j + t}, the second doubles each key, so
// s = sum_j 2 * j * (j + t) = 2 * (14 + 6t) = 28, 40, 52, 64 for t = 0, 1, 2, 3.
struct KV { float key; int val; };
__global__ void k(const float* x, float* out) {
  int t = threadIdx.x;
  KV pairs[4];
  int j = 0;
  for (auto& p : pairs) { p.key = x[j]; p.val = j + t; ++j; }
  for (KV& p : pairs) p.key *= 2.0f;
  float s = 0.f;
  for (const auto& [k, v] : pairs) s += k * v;
  out[t] = s;
}
