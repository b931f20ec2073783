// snapshot: lanes=64
// A rocm-examples style main: std::vector host buffers sized by constexpr constants, filled by
// std::iota over begin()/end(), copied by HIP_CHECK(hipMemcpy(d, h.data(), …)), a dim3 launch
// with a stream argument, a host reference function returning std::vector, and a platform
// #if choosing the AMD shuffle.
// h = 5, 6, …, 20 (iota from 5, [numeric.iota]); segments of width 8: __shfl(v, (t + 1) % 8, 8)
// reads lane (t + 1) % 8 of the lane's own segment (HIP Programming Guide, warp shuffle:
// srcLane is taken modulo width within the segment), so out[t] = 5 + 8 * (t / 8) + (t + 1) % 8:
// t = 0..7: 6, 7, 8, 9, 10, 11, 12, 5; t = 8..15: 14, 15, 16, 17, 18, 19, 20, 13.
#include <hip/hip_runtime.h>
#include <numeric>
#include <vector>
#include <iostream>

__global__ void rotate_segments(int *out, const int *in, const unsigned int seg) {
    const unsigned int t = threadIdx.x;
    const int v = in[t];
#if defined(__HIP_PLATFORM_AMD__)
    out[t] = __shfl(v, (t + 1) % seg, seg);
#else
    out[t] = __shfl_sync(0xffffffffu, v, (t + 1) % seg, seg);
#endif
}

std::vector<int> rotate_on_host(const std::vector<int> &in, unsigned int seg) {
    std::vector<int> r(in.size());
    for (size_t t = 0; t < in.size(); ++t) r[t] = in[(t / seg) * seg + (t + 1) % seg];
    return r;
}

int main() {
    constexpr unsigned int seg = 8;
    constexpr unsigned int count = 2 * seg;
    constexpr size_t bytes = count * sizeof(int);
    std::vector<int> host(count);
    std::iota(host.begin(), host.end(), 5);
    int *d_in{};
    int *d_out{};
    HIP_CHECK(hipMalloc(&d_in, bytes));
    HIP_CHECK(hipMalloc(&d_out, bytes));
    HIP_CHECK(hipMemcpy(d_in, host.data(), bytes, hipMemcpyHostToDevice));
    const dim3 block(count);
    rotate_segments<<<dim3(1), block, 0, hipStreamDefault>>>(d_out, d_in, seg);
    std::vector<int> got(count);
    HIP_CHECK(hipMemcpy(got.data(), d_out, bytes, hipMemcpyDeviceToHost));
    std::cout << (got == rotate_on_host(host, seg) ? "ok" : "mismatch") << std::endl;
}
