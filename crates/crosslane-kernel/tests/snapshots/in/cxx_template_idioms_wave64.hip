// Template idioms of composable_kernel, CUTLASS and CUB-style code, on each lane l:
// Op<float> takes the enable_if partial specialization, f() = 2; Op<int> the primary, 1;
// static_for<0, 4, 1> over Number<i> objects adds twice<i.value>() * l for i = 0..3:
// (0 + 2 + 4 + 6) l = 12 l; the CRTP base's run() calls Der::impl() = l + 5, plus 1;
// Vec<int> (an alias template of MyVec<int, 4>) holds 4 cells: sizeof / sizeof(int) = 4.
// out[l] = 1000 * 2 + 100 * 1 + 12 l + (l + 6) + 4 = 2110 + 13 l (0: 2110, 63: 2929), on
// HIP's 64-lane wavefront.
#include <type_traits>
template <typename T, typename Enable = void> struct Op { static __device__ int f() { return 1; } };
template <typename T> struct Op<T, std::enable_if_t<std::is_floating_point_v<T>>> {
    static __device__ int f() { return 2; }
};
template <typename T, T V> struct integral_constant {
    static constexpr T value = V;
    __host__ __device__ constexpr operator T() const { return value; }
};
template <int N> using Number = integral_constant<int, N>;
template <int B, int E, int S> struct static_for {
    template <typename F> __device__ void operator()(F f) const {
        if constexpr (B < E) { f(Number<B>{}); static_for<B + S, E, S>{}(f); }
    }
};
template <int N> __device__ int twice() { return 2 * N; }
template <typename T, int N> struct MyVec { T d[N]; };
template <typename T> using Vec = MyVec<T, 4>;
template <typename D> struct Base {
    __device__ int run() { return static_cast<D*>(this)->impl() + 1; }
};
struct Der : Base<Der> { int k; __device__ int impl() const { return k + 5; } };
__global__ void idioms(int* out) {
    int l = threadIdx.x;
    int acc = 0;
    static_for<0, 4, 1>{}([&](auto i) { acc += twice<i.value>() * l; });
    Der d;
    d.k = l;
    out[l] = 1000 * Op<float>::f() + 100 * Op<int>::f() + acc + d.run() + (int)(sizeof(Vec<int>) / sizeof(int));
}
