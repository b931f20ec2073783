// snapshot: lanes=64
// Catch2's TEMPLATE_TEST_CASE runs its body once per listed type with TestType naming it; the
// launch is read for the first listed type, float. `in` is filled by the host loop with i, and
// each lane writes its xor-1 neighbour's value halved: out[t] = (t ^ 1) / 2 in float, so
// 0.5, 0, 1.5, 1, 2.5, 2, … (int, the second type, would truncate: 0, 0, 1, 1, …).
#include <hip_test_common.hh>
#include <hip/hip_runtime.h>

template <typename T> __global__ void half_swap(const T *in, T *out) {
    int t = threadIdx.x;
    out[t] = __shfl_xor(in[t], 1) / 2;
}

TEMPLATE_TEST_CASE("Unit_half_swap", "[shfl]", float, int) {
    constexpr int n = 64;
    TestType h[n];
    for (int i = 0; i < n; i++) h[i] = i;
    TestType *d_in, *d_out;
    HIP_CHECK(hipMalloc(&d_in, n * sizeof(TestType)));
    HIP_CHECK(hipMalloc(&d_out, n * sizeof(TestType)));
    HIP_CHECK(hipMemcpy(d_in, h, n * sizeof(TestType), hipMemcpyHostToDevice));
    hipLaunchKernelGGL(half_swap<TestType>, dim3(1), dim3(n), 0, 0, d_in, d_out);
    HIP_CHECK(hipDeviceSynchronize());
}
