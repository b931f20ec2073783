// Overload sets chosen by substitution failure (C++17 [temp.deduct]/8): of each set exactly
// one template's std::enable_if condition holds for the argument's type.
// kind: a constrained template parameter; floating point -> 1, integral -> 2.
// sgn: enable_if in the return type; signed -> -1, unsigned -> +1.
// scale: `typename std::enable_if<…>::type* = nullptr` form; float doubles, int triples.
// Lane t: a[t] = kind(1.5f) * 10 + kind(t) = 10 + 2 = 12;
//         b[t] = sgn(t) * 10 + sgn((unsigned)t) = -10 + 1 = -9;
//         c[t] = scale((float)t) + scale(t) = 2t + 3t = 5t (t = 3: 15).
// Unnamed parameters (`int kind(T)`) are read ([dcl.fct]/8).
#include <type_traits>

template <typename T, std::enable_if_t<std::is_floating_point_v<T>, int> = 0>
__device__ int kind(T) { return 1; }
template <typename T, std::enable_if_t<std::is_integral_v<T>, int> = 0>
__device__ int kind(T) { return 2; }

template <typename T>
__device__ typename std::enable_if<std::is_signed<T>::value, int>::type sgn(T) { return -1; }
template <typename T>
__device__ std::enable_if_t<std::is_unsigned_v<T>, int> sgn(T) { return 1; }

template <typename T, typename std::enable_if<std::is_floating_point<T>::value>::type* = nullptr>
__device__ T scale(T v) { return v * 2; }
template <typename T, typename std::enable_if<std::is_integral<T>::value>::type* = nullptr>
__device__ T scale(T v) { return v * 3; }

__global__ void k(int *a, int *b, float *c) {
    int t = threadIdx.x;
    a[t] = kind(1.5f) * 10 + kind(t);
    b[t] = sgn(t) * 10 + sgn((unsigned)t);
    c[t] = scale((float)t) + scale(t);
}
