// snapshot: threads=32
// A Welford mean/variance struct merged by a member `operator+` (Chan et al.'s pairwise
// update: n = na + nb, delta = mean_b - mean_a, mean = mean_a + delta * nb / n,
// M2 = M2_a + M2_b + delta^2 * na * nb / n) over a warp butterfly of its members'
// `__shfl_xor_sync`. Lane t starts with (mean t, M2 0, count 1). After offsets 16..1 every lane
// holds the 32 values 0..31: count 32, mean 15.5, M2 = sum (t - 15.5)^2 = 32 (32^2 - 1) / 12 =
// 2728. Every intermediate is a multiple of 1/2 below 2^24, so float is exact at each step.
// The segment outputs use offsets 4..1: lanes 8s..8s+7, mean 8s + 3.5, M2 = 8 (8^2 - 1) / 12 = 42.
struct Welford {
  float mean;
  float m2;
  int count;
  __device__ Welford operator+(const Welford& b) const {
    Welford r;
    r.count = count + b.count;
    float delta = b.mean - mean;
    float share = (float)b.count / (float)r.count;
    r.mean = mean + delta * share;
    r.m2 = m2 + b.m2 + delta * delta * (float)count * share;
    return r;
  }
};
__global__ void k(float* mean, float* m2, int* count, float* seg_mean, float* seg_m2) {
  int t = threadIdx.x;
  Welford w{(float)t, 0.0f, 1};
  Welford seg = w;
  for (int off = 4; off > 0; off >>= 1) {
    Welford o;
    o.mean = __shfl_xor_sync(0xffffffffu, seg.mean, off);
    o.m2 = __shfl_xor_sync(0xffffffffu, seg.m2, off);
    o.count = __shfl_xor_sync(0xffffffffu, seg.count, off);
    seg = seg + o;
  }
  seg_mean[t] = seg.mean;
  seg_m2[t] = seg.m2;
  for (int off = 16; off > 0; off >>= 1) {
    Welford o;
    o.mean = __shfl_xor_sync(0xffffffffu, w.mean, off);
    o.m2 = __shfl_xor_sync(0xffffffffu, w.m2, off);
    o.count = __shfl_xor_sync(0xffffffffu, w.count, off);
    w = w + o;
  }
  mean[t] = w.mean;
  m2[t] = w.m2;
  count[t] = w.count;
}
