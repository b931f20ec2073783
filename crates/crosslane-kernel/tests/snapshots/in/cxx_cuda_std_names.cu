// snapshot: threads=4
// libcu++ (CCCL) names under `cuda::std::`, read as their `std::` counterparts.
// By hand (t = threadIdx.x, 0..3 with threads=4; IEEE 754 binary32 limits):
//   a[t] = pick(lowest, t) = max(-3.40282347e38, t) = t: 0, 1, 2, 3 (is_same_v<float, float>).
//   b[t] = 1: numeric_limits<float>::max() = 3.40282347e38 < infinity().
//   c[t] = pick(3, t) = min(3, t) = t, plus max - max = 0: 0, 1, 2, 3 (is_same_v<int, float>
//          is false: the `else` branch).
//   d[t] = (uint32_t)(t + 7): 7, 8, 9, 10 (`cuda::std::uint32_t`, `::cuda::std::min(7u, 9u)`).
#include <cuda/std/limits>
#include <cuda/std/type_traits>
template <typename T> __device__ T pick(T a, T b) {
    if constexpr (cuda::std::is_same_v<T, float>) return cuda::std::max(a, b);
    else return cuda::std::min(a, b);
}
__global__ void k(float* a, float* b, int* c, unsigned* d) {
    int t = threadIdx.x;
    float lo = cuda::std::numeric_limits<float>::lowest();
    float mx = cuda::std::numeric_limits<float>::max();
    a[t] = pick(lo, (float)t);
    b[t] = mx < cuda::std::numeric_limits<float>::infinity() ? 1.0f : 0.0f;
    c[t] = pick(3, t) + (cuda::std::numeric_limits<int>::max() - INT_MAX);
    cuda::std::uint32_t u = t + ::cuda::std::min(7u, 9u);
    d[t] = u;
}
