// snapshot: threads=32
// CUB reductions of structs by `Sum`: `WarpReduce<MV, 8>::Sum` with MV's member Welford
// `operator+`, and `BlockReduce<C2, 32>::Reduce(c, cub::Sum())` with a free `operator+`. Lane 0
// of each logical warp of 8 holds the merge of values 8w..8w+7: mean 8w + 3.5 (3.5, 11.5, 19.5,
// 27.5), M2 = 8 (8^2 - 1) / 12 = 42; thread 0 holds a = 0 + 1 + ... + 31 = 496 (the `b` member,
// combined as x.b + 2 y.b, depends on CUB's order and is not stored).
#include <cub/cub.cuh>
struct MV { float mean; float m2; int n;
  __device__ MV operator+(const MV& b) const {
    MV r; r.n = n + b.n; float d = b.mean - mean; float s = (float)b.n / (float)r.n;
    r.mean = mean + d * s; r.m2 = m2 + b.m2 + d * d * (float)n * s; return r; }
};
struct C2 { int a; int b; };
__device__ C2 operator+(C2 x, C2 y) { return C2{x.a + y.a, x.b + 2 * y.b}; }
__global__ void k(float* mean, float* m2, int* a) {
  using WR = cub::WarpReduce<MV, 8>;
  using BR = cub::BlockReduce<C2, 32>;
  __shared__ typename WR::TempStorage ws[4];
  __shared__ typename BR::TempStorage bs;
  int t = threadIdx.x;
  MV v{(float)t, 0.0f, 1};
  MV r = WR(ws[t / 8]).Sum(v);
  if (t % 8 == 0) { mean[t / 8] = r.mean; m2[t / 8] = r.m2; }
  C2 c{t, 1};
  C2 tot = BR(bs).Reduce(c, cub::Sum());
  if (t == 0) a[0] = tot.a;
}
