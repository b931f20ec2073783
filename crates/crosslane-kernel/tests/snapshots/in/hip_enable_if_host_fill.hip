// Host fills through overload sets of function templates chosen by `std::enable_if` (ROCm
// hip-tests' warp sync tests' shape, written here): `scaled<T>(v)` is the integral template for
// `int` (the value itself) and the floating one for `float` (v * 0.5); `halve(a, n)` only
// discards its parameters for `int` and halves the cells for `float`. The launch's `in`:
// Python [v * 0.5 * 0.5 for v in (4, -8, 12, 16)] = [1.0, -2.0, 3.0, 4.0]; each lane's `out`
// the sum of its four-lane segment by `__shfl_xor`, 6.0.
#include <hip/hip_runtime.h>
#include <type_traits>
template <typename T, std::enable_if_t<std::is_integral<T>::value, bool> = true>
inline T scaled(int v) { return v; }
template <typename T, std::enable_if_t<std::is_floating_point<T>::value, bool> = true>
inline T scaled(int v) { return v * 0.5; }
template <typename T, std::enable_if_t<std::is_integral<T>::value, bool> = true>
inline void halve(T* a, int n) {
  (void)a;
  (void)n;
}
template <typename T, std::enable_if_t<std::is_floating_point<T>::value, bool> = true>
inline void halve(T* a, int n) {
  for (int i = 0; i != n; ++i) {
    a[i] *= 0.5;
  }
}
template <typename T>
inline void initialize(T* a, int n) {
  int vals[] = {4, -8, 12, 16};
  for (int i = 0; i != n; ++i) {
    a[i] = scaled<T>(vals[i]);
  }
}
__global__ void sum_floats(float* in, float* out) {
  float v = in[threadIdx.x];
  for (int d = 1; d < 4; d *= 2) v += __shfl_xor(v, d, 4);
  out[threadIdx.x] = v;
}
int main() {
  float h[4];
  initialize(h, 4);
  halve(h, 4);
  float *d, *o;
  hipMalloc(&d, sizeof(h));
  hipMalloc(&o, sizeof(h));
  hipMemcpy(d, h, sizeof(h), hipMemcpyHostToDevice);
  hipLaunchKernelGGL(sum_floats, 1, 4, 0, 0, d, o);
  return 0;
}
