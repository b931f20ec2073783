// <type_traits> with if constexpr: only the branch taken is compiled, so the float branch
// (which names `only_for_floats`, declared nowhere) is never compiled for int or unsigned.
// f<int>(lane) = lane + 7; f<unsigned>(lane) = lane + 1000; f<float>(lane) = 2 * lane + 0.5.
// acc_t = std::conditional_t<sizeof(float) == 4, double, float> is double: 1.5 stays 1.5.
// neg needs a floating-point T (std::enable_if_t in an unnamed template parameter): -x.
// which<int>() is 1, which<float>() is 2 (std::is_same<T, int>::value).
// a[lane] = lane + 7 + 100 * which<int>() + 1000 * which<float>() = lane + 2107;
// b[lane] = lane + 1000; c[lane] = -(2 * lane + 0.5) + 1.5 = 1 - 2 * lane.
#include <type_traits>

__device__ float twice(float x) { return 2.0f * x; }

template <typename T> __device__ T f(T v) {
    if constexpr (std::is_floating_point_v<T>) {
        return twice(v) + 0.5f;
    } else if constexpr (std::is_same<T, unsigned>::value) {
        return v + 1000u;
    } else if constexpr (std::is_integral_v<T>) {
        return v + 7;
    } else {
        return only_for_floats(v);
    }
}

template <typename T, typename = std::enable_if_t<std::is_floating_point_v<T>>>
__device__ T neg(T v) { return -v; }

template <typename T> __device__ int which() { return std::is_same<T, int>::value ? 1 : 2; }

__global__ void k(int *a, unsigned *b, float *c) {
    using acc_t = std::conditional_t<sizeof(float) == 4, double, float>;
    acc_t z = 1.5;
    int lane = threadIdx.x;
    a[lane] = f<int>(lane) + 100 * which<int>() + 1000 * which<float>();
    b[lane] = f<unsigned>((unsigned)lane);
    c[lane] = neg(f((float)lane)) + (float)z;
}
