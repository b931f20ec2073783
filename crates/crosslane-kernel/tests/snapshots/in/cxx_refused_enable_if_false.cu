// std::enable_if_t whose condition is false names no type, and no other template of the name
// accepts the call: refused before the run, with what to write instead (an overload whose
// condition holds, or if constexpr).
#include <type_traits>
template <typename T, typename = std::enable_if_t<std::is_floating_point_v<T>>>
__device__ T neg(T v) { return -v; }
__global__ void k(int *out) {
    out[threadIdx.x] = neg((int)threadIdx.x);
}
