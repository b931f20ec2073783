// snapshot: threads=8 entry=rms_scale<float,2>
// vLLM's layernorm shape (written here): two kernels of one name told apart by an
// `enable_if` return type whose condition is parenthesized and reads a class template's
// constant; a vector struct viewed over the float buffers with `operator*=` for a float and
// for itself. `rms_scale<float, 2>` takes the first (2 > 0, Conv<float>::exists): each buffer
// is 8 cells filled 0..7 (one per thread, the default fill); lanes 0-3 each hold a pair
// in[2L], in[2L+1], scale it by 0.5 and multiply by w's pair: out[i] = 0.5 * i * i =
// 0, 0.5, 2, 4.5, 8, 12.5, 18, 24.5.
#include <type_traits>
template <typename T> struct Conv { static constexpr bool exists = false; };
template <> struct Conv<float> { static constexpr bool exists = true; };
template <typename T, int W>
struct alignas(16) Vec {
  T data[W];
  __device__ Vec& operator*=(const Vec<T, W>& o) {
    for (int i = 0; i < W; ++i) data[i] *= o.data[i];
    return *this;
  }
  __device__ Vec& operator*=(const float s) {
    for (int i = 0; i < W; ++i) data[i] = data[i] * s;
    return *this;
  }
};
template <typename T, int W>
__global__ std::enable_if_t<(W > 0) && Conv<T>::exists>
rms_scale(T* out, const T* in, const T* w) {
  static_assert(std::is_pod_v<Vec<T, W>>);
  const auto* in_v = reinterpret_cast<const Vec<T, W>*>(in);
  const auto* w_v = reinterpret_cast<const Vec<T, W>*>(w);
  auto* out_v = reinterpret_cast<Vec<T, W>*>(out);
  if (threadIdx.x >= 4) return;
  Vec<T, W> v = in_v[threadIdx.x];
  v *= 0.5f;
  v *= w_v[threadIdx.x];
  out_v[threadIdx.x] = v;
}
template <typename T, int W>
__global__ std::enable_if_t<(W == 0) || !Conv<T>::exists>
rms_scale(T* out, const T* in, const T* w) {
  out[threadIdx.x] = in[threadIdx.x] * w[threadIdx.x];
}
