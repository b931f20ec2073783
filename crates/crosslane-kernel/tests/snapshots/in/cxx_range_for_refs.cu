// snapshot: threads=4
// Range-based `for` (C++17 [stmt.ranged]/1: once per element, in order, the declaration bound
// to each) over a per-thread register tile, a member array and a `__shared__` array, `auto&`
// writing through to the elements, and a local reference to a buffer cell ([dcl.init.ref]/5.1).
// `in` holds the index fill, in[i] = i. Lane t:
//   tile = {t, t+1, t+2, t+3}; mx = max = t + 3; after `v = v - mx`: tile = {-3, -2, -1, 0}.
//   r.w = {1, 2, 3, 4} (`++k` through `auto&`); dot = -3·1 - 2·2 - 1·3 + 0·4 = -10.
//   part[t] = t + 3 for t = 0..3; total = 3 + 4 + 5 + 6 = 18.
//   out[t] (through `float& slot`) = dot + total = 8 in every lane; peak[t] = t + 3: 3 4 5 6.
#define VPT 4
struct Row {
    float w[VPT];
};
__global__ void scale_rows(const float* in, float* out, float* peak) {
    float tile[VPT];
    const int t = threadIdx.x;
    for (int j = 0; j < VPT; ++j) tile[j] = in[t] + j;
    float mx = -1e30f;
    for (float v : tile) mx = fmaxf(mx, v);
    for (auto& v : tile) v = v - mx;
    Row r;
    int k = 0;
    for (auto& w : r.w) w = (float)(++k);
    float dot = 0.f;
    for (int j = 0; j < VPT; ++j) dot += tile[j] * r.w[j];
    __shared__ float part[4];
    part[t] = mx;
    __syncthreads();
    float total = 0.f;
    for (const float& p : part) total += p;
    float& slot = out[t];
    slot = dot + total;
    peak[t] = mx;
}
