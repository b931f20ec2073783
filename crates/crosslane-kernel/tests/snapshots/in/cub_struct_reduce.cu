// snapshot: threads=64
// CUB reductions over a user struct (FasterTransformer's top-k stage: `cub::BlockReduce<TopK_2,
// 64>` with a device function as the operator; a WarpReduce with a functor). Thread t (0..63):
// x = 37t mod 64, a permutation of 0..63 (37 is odd); its maximum 63 is at t = 63 · 37⁻¹ mod 64
// = 63 · 45 mod 64 = 19 (37 · 45 = 1665 = 26 · 64 + 1).
//   a[0] = block argmax of x = 19;  a[1] = block argmax of a constant: every comparison ties and
//   `a.u > b.u ? a : b` keeps the later operand; CUB's tree combines op(own, lane + offset) and
//   thread 0 folds op(warp 0, warp 1), so the last thread wins: 63.
//   b[w] = argmax over logical warp w of 16 lanes (WarpReduce<Pair, 16> with a functor; lane 0
//   of each holds it): lanes 16w + j hold (37j + 16w·37) mod 64, i.e. 37j mod 64 shifted by
//   0, 16·37 ≡ 16, 32, 48 (mod 64). 37j mod 64 for j = 0..15 is 0 37 10 47 20 57 30 3 40 13 50
//   23 60 33 6 43; shifted: w=0 max 60 at j=12; w=1 max 63 at j=3; w=2 (+32) max 62 at j=6;
//   w=3 (+48) max 61 at j=9. So b = 12, 19, 38, 57.
#include <cub/cub.cuh>
struct TopK_2 { int p = -1; float u = -FLT_MAX; };
__device__ __forceinline__ TopK_2 reduce_topk_op_2(const TopK_2& a, const TopK_2& b) {
  return a.u > b.u ? a : b;
}
struct Pair { float v; int i; };
struct ArgMax {
  __device__ Pair operator()(const Pair& a, const Pair& b) const { return b.v > a.v ? b : a; }
};
__global__ void k(int *a, int *b) {
  typedef cub::BlockReduce<TopK_2, 64> BlockReduce;
  using WR = cub::WarpReduce<Pair, 16>;
  __shared__ typename BlockReduce::TempStorage temp_storage;
  __shared__ typename WR::TempStorage ws[4];
  int t = threadIdx.x;
  TopK_2 partial;
  partial.u = (37 * t) % 64;
  partial.p = t;
  TopK_2 total = BlockReduce(temp_storage).Reduce(partial, reduce_topk_op_2);
  if (t == 0) a[0] = total.p;
  __syncthreads();
  TopK_2 same;
  same.u = 1.0f;
  same.p = t;
  TopK_2 tie = BlockReduce(temp_storage).Reduce(same, reduce_topk_op_2);
  if (t == 0) a[1] = tie.p;
  Pair q;
  q.v = (37 * t) % 64;
  q.i = t;
  Pair m = WR(ws[t / 16]).Reduce(q, ArgMax());
  if (t % 16 == 0) b[t / 16] = m.i;
}
