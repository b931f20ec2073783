// snapshot: threads=64 lanes=32
// A C++20 template lambda in device code called through a compile-time loop as
// `f.template operator()<I>()` (rocm-examples' reduction shape): each of the two 32-lane warps
// sums its lanes' indices with shuffles at offsets 16 >> I for I = 0..5, `if constexpr`
// dropping the steps whose offset is 0. Lane 0 of warp w holds sum(32w .. 32w + 31):
// out[0] = 496, out[1] = 1520 (Python: sum(range(32)), sum(range(32, 64))).
#include <hip/hip_runtime.h>
#include <cstdint>
namespace tmp {
template <uint32_t I, uint32_t End, typename F>
__device__ constexpr void static_for(F&& f) {
  if constexpr (I < End) {
    f.template operator()<I>();
    static_for<I + 1, End>(f);
  }
}
}
__global__ void k(const int* in, int* out) {
  int v = in[threadIdx.x];
  tmp::static_for<0, 6>([&]<uint32_t I>() {
    constexpr int off = 16 >> I;
    if constexpr (off > 0) {
      v += __shfl_down(v, off, 32);
    }
  });
  if (threadIdx.x % 32 == 0) out[threadIdx.x / 32] = v;
}
