// std::enable_if_t whose condition is false names no type: choosing another overload by
// substitution failure is not modelled, so the call is refused before the run with the
// advice to select with if constexpr.
#include <type_traits>
template <typename T, typename = std::enable_if_t<std::is_floating_point_v<T>>>
__device__ T neg(T v) { return -v; }
__global__ void k(int *out) {
    out[threadIdx.x] = neg((int)threadIdx.x);
}
