// snapshot: threads=4
// C++17 [dcl.type.auto.deduct]: `auto a = V::load(p);` deduces `V`, a struct whose only member
// is an array. x = 0, 1, 2, 3 and lane t loads x[t & 2], x[(t & 2) + 1] = (0, 1), (0, 1), (2, 3),
// (2, 3); c = a + a doubles both, so o = c.v[0] + 10 * c.v[1] = 20, 20, 64, 64.
struct V {
  float v[2];
  __device__ static V load(const float* p) { V r; r.v[0] = p[0]; r.v[1] = p[1]; return r; }
  __device__ V operator+(const V& o) const { V r; r.v[0] = v[0] + o.v[0]; r.v[1] = v[1] + o.v[1]; return r; }
};
__global__ void k(const float* x, float* o) {
  auto a = V::load(x + (threadIdx.x & 2));
  V c = a + a;
  o[threadIdx.x] = c.v[0] + 10.0f * c.v[1];
}
