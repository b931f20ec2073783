// snapshot: lanes=64
// gtest typed tests: TYPED_TEST runs its body once per type of the suite's list, with TypeParam
// naming it; the launch is read for the first, float (`using Types = ::testing::Types<float,
// int>`, `TYPED_TEST_SUITE(ShiftTest, Types)`). `in` holds i + 0.5 from the host loop (fill in
// float: 0.5, 1.5, …); each lane adds its next lane's value (`__shfl_down` by 1; lane 63 reads
// its own): out[t] = (t + 0.5) + (t + 1.5) = 2t + 2 for t < 63, out[63] = 2 * 63.5 = 127.
// (With int the fill would truncate to i: out[t] = 2t + 1.)
#include <gtest/gtest.h>
#include <hip/hip_runtime.h>

template <typename T> __global__ void pair_sum(const T *in, T *out) {
    int t = threadIdx.x;
    out[t] = in[t] + __shfl_down(in[t], 1);
}

template <class T> class ShiftTest : public ::testing::Test {};

using Types = ::testing::Types<float, int>;
TYPED_TEST_SUITE(ShiftTest, Types);

TYPED_TEST(ShiftTest, PairSum) {
    TypeParam h[64];
    for (int i = 0; i < 64; i++) h[i] = i + 0.5;
    TypeParam *d_in, *d_out;
    HIP_CHECK(hipMalloc(&d_in, 64 * sizeof(TypeParam)));
    HIP_CHECK(hipMalloc(&d_out, 64 * sizeof(TypeParam)));
    HIP_CHECK(hipMemcpy(d_in, h, 64 * sizeof(TypeParam), hipMemcpyHostToDevice));
    hipLaunchKernelGGL(pair_sum<TypeParam>, dim3(1), dim3(64), 0, 0, d_in, d_out);
}
