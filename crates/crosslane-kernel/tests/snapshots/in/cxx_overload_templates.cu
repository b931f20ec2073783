// Overload resolution among function templates and non-templates (C++17 [over.match.best],
// [over.ics.rank], [temp.func.order]), lane L of 32:
// red: sum_all(x), x = 0.5·L a float: the float template overload is an exact match, the
//   int one a conversion; the float one sums 0.5·(0 + 1 + … + 31) = 0.5·496 = 248.
// pair: sum_all(v), v = float2(L, 1): only the float2 overload is viable (no conversion
//   between vector types): x sums to 496, y to 32; 496 + 32 = 528.
// kind: pick(data) with a float*: pick(T*) is more specialized than pick(T) → 2 (·1000);
//   pick(1.5f): only pick(T) takes a value → 1 (·100); cvt(n) with an int: the template
//   cvt(T) [T = int] is exact, the non-template cvt(float) a conversion → 10; cvt(1.0f):
//   both exact, the non-template wins ([over.match.best]/2.4) → 20.
//   2000 + 100 + 10 + 20 = 2130.
template <int width = 32>
__device__ int sum_all(int x) {
    for (int o = width / 2; o > 0; o >>= 1) x += __shfl_xor_sync(0xffffffff, x, o, width);
    return x;
}
template <int width = 32>
__device__ float sum_all(float x) {
    for (int o = width / 2; o > 0; o >>= 1) x += __shfl_xor_sync(0xffffffff, x, o, width);
    return x;
}
template <int width = 32>
__device__ float2 sum_all(float2 a) {
    for (int o = width / 2; o > 0; o >>= 1) {
        a.x += __shfl_xor_sync(0xffffffff, a.x, o, width);
        a.y += __shfl_xor_sync(0xffffffff, a.y, o, width);
    }
    return a;
}
template <typename T> __device__ int pick(T) { return 1; }
template <typename T> __device__ int pick(T*) { return 2; }
template <typename T> __device__ int cvt(T) { return 10; }
__device__ int cvt(float) { return 20; }

__global__ void k(float* red, float* pair, int* kind, float* data) {
    int n = threadIdx.x;
    red[n] = sum_all(0.5f * n);
    float2 v = make_float2(n, 1.0f);
    v = sum_all(v);
    pair[n] = v.x + v.y;
    kind[n] = pick(data) * 1000 + pick(1.5f) * 100 + cvt(n) + cvt(1.0f);
}
