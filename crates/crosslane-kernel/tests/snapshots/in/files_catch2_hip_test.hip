// snapshot: lanes=64
// A hip-tests style file: Catch2 test cases around a kernel template. Host code (the test
// blocks, a helper returning std::vector, HIP_CHECK-wrapped runtime calls) is skipped with a
// note; the launch in the first TEST_CASE is read: scaled_shift<int> on 1 block of 64 lanes,
// `out` of 64 ints (hipMalloc of 64 * sizeof(int)), `in` filled by the host loop with 3 * i.
// WIDTH{4u} and NUM{WIDTH * WIDTH} = 16 are constants the kernel may use.
// out[t] = in[t] * 2 + __shfl_down(in[t], 1) + NUM; __shfl_down reads lane t + 1, and lane 63
// (t + 1 = 64 is past the wavefront) reads its own value (HIP Programming Guide, warp shuffle):
// t < 63: 6t + 3(t + 1) + 16 = 9t + 19 (0 -> 19, 1 -> 28, 62 -> 577);
// t = 63: 6 * 63 + 3 * 63 + 16 = 583.
#include <hip_test_common.hh>
#include <hip/hip_runtime.h>
#include <vector>

constexpr auto WIDTH{4u};
constexpr auto NUM{WIDTH * WIDTH};

template <typename T> __global__ void scaled_shift(const T* in, T* out) {
    int t = threadIdx.x;
    T v = in[t];
    out[t] = v * 2 + __shfl_down(v, 1) + static_cast<T>(NUM);
}

static std::vector<int> expected(int n) {
    std::vector<int> e(n);
    for (int i = 0; i < n; ++i) e[i] = 9 * i + 19;
    return e;
}

TEST_CASE("Unit_scaled_shift_Basic") {
    constexpr int n = 64;
    int h[n];
    for (int i = 0; i < n; i++) h[i] = 3 * i;
    int *d_in, *d_out;
    HIP_CHECK(hipMalloc(&d_in, n * sizeof(int)));
    HIP_CHECK(hipMalloc(&d_out, n * sizeof(int)));
    HIP_CHECK(hipMemcpy(d_in, h, n * sizeof(int), hipMemcpyHostToDevice));
    hipLaunchKernelGGL(scaled_shift<int>, dim3(1), dim3(n), 0, 0, d_in, d_out);
    HIP_CHECK(hipDeviceSynchronize());
    std::vector<int> got(n);
    HIP_CHECK(hipMemcpy(got.data(), d_out, n * sizeof(int), hipMemcpyDeviceToHost));
    SECTION("values") { REQUIRE(got[0] == expected(n)[0]); }
}

TEMPLATE_TEST_CASE("Unit_scaled_shift_Types", "[shfl]", int, float) {
    TestType* d;
    HIP_CHECK(hipMalloc(&d, 64 * sizeof(TestType)));
    scaled_shift<TestType><<<1, 64>>>(d, d);
}
