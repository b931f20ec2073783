// Two templates of one name whose enable_if conditions both hold for int: both take the int
// as an exact match (T = int) and neither is more specialized (the same parameter list `T`),
// so C++ finds the call ambiguous ([over.match.best]); it is refused before the run naming
// both functions' lines (7 and 9).
#include <type_traits>

template <typename T, std::enable_if_t<std::is_integral_v<T>, int> = 0>
__device__ int which(T) { return 1; }
template <typename T, std::enable_if_t<std::is_signed_v<T>, int> = 0>
__device__ int which(T) { return 2; }

__global__ void k(int *out) { out[threadIdx.x] = which((int)threadIdx.x); }
