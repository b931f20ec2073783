// snapshot: arch=gfx942 lanes=64
// rocPRIM's warp collectives in the shape its tests write, launched from host code: the
// block size from ROCPRIM_WAVEFRONT_SIZE (the wave, 64), the element type through a
// block-scope alias of main, a helper overloaded by a trailing `enable_if_t` return type.
// W = 16 lanes, N = 2 items, 64 threads: warp_load striped gives lane l of warp w the
// items in[32w + l + 16i] (i = 0, 1), written to mid[2t + i]; warp_exchange striped-to-blocked
// then warp_store direct writes the warp's tile back in order, so out == in = 0..127.
#include <hip/hip_runtime.h>
#include <rocprim/rocprim.hpp>
#include <type_traits>
template <unsigned int W>
constexpr bool fits_v = ROCPRIM_WAVEFRONT_SIZE >= W;
template <unsigned int N, unsigned int W, class T>
__device__ auto run(const T* in, T* mid, T* out) -> std::enable_if_t<fits_v<W>>
{
    using load_t = ::rocprim::warp_load<T, N, W, ::rocprim::warp_load_method::warp_load_striped>;
    using xchg_t = ::rocprim::warp_exchange<T, N, W>;
    using store_t = ::rocprim::warp_store<T, N, W>;
    ROCPRIM_SHARED_MEMORY typename xchg_t::storage_type xs[ROCPRIM_WAVEFRONT_SIZE / W];
    const unsigned int w = threadIdx.x / W;
    T v[N];
    load_t().load(in + w * W * N, v);
    for (unsigned int i = 0; i < N; i++) mid[threadIdx.x * N + i] = v[i];
    xchg_t().striped_to_blocked(v, v, xs[w]);
    store_t().store(out + w * W * N, v);
}
template <unsigned int N, unsigned int W, class T>
__device__ auto run(const T*, T*, T*) -> std::enable_if_t<!fits_v<W>> {}
template <unsigned int N, unsigned int W, class T>
__global__ void io(const T* in, T* mid, T* out) { run<N, W>(in, mid, out); }
int main()
{
    using T = int;
    constexpr unsigned int n = ROCPRIM_WAVEFRONT_SIZE * 2;
    T h[n];
    for (unsigned int i = 0; i < n; i++) h[i] = (T)i;
    T *in, *mid, *out;
    hipMalloc(&in, n * sizeof(T));
    hipMalloc(&mid, n * sizeof(T));
    hipMalloc(&out, n * sizeof(T));
    hipMemcpy(in, h, n * sizeof(T), hipMemcpyHostToDevice);
    io<2, 16, T><<<1, ROCPRIM_WAVEFRONT_SIZE>>>(in, mid, out);
    hipMemcpy(h, out, n * sizeof(T), hipMemcpyDeviceToHost);
    return 0;
}
