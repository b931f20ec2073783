// snapshot: lanes=64
// A rocPRIM/hipCUB style gtest file: a parameter struct, a typed fixture deriving from
// ::testing::Test, `using Types = ::testing::Types<…>`, TYPED_TEST_SUITE, TEST and TYPED_TEST
// blocks. The device code is the struct template (read as a device type, never used here) and the
// kernel; the launch in TEST(WarpReduce, Sum) is read: 1 block of 64, `out` of 64 ints.
// Butterfly sum over the 64-lane wavefront with offsets 32, 16, …, 1: every lane ends with
// 0 + 1 + … + 63 = 63 * 64 / 2 = 2016.
#include <gtest/gtest.h>
#include <hip/hip_runtime.h>

template <class T, unsigned int BlockSize>
struct params {
    using type = T;
    static constexpr unsigned int block_size = BlockSize;
};

template <class Params>
class WarpReduceTests : public ::testing::Test {
public:
    using params_t = Params;
};

using WarpTypes = ::testing::Types<params<int, 64>, params<float, 64>>;
TYPED_TEST_SUITE(WarpReduceTests, WarpTypes);

__global__ void butterfly_sum(int* out) {
    int v = threadIdx.x;
    for (int o = 32; o > 0; o >>= 1) v += __shfl_xor(v, o);
    out[threadIdx.x] = v;
}

TEST(WarpReduce, Sum) {
    int* d;
    ASSERT_EQ(hipMalloc(&d, 64 * sizeof(int)), hipSuccess);
    hipLaunchKernelGGL(butterfly_sum, dim3(1), dim3(64), 0, 0, d);
    std::vector<int> h(64);
    ASSERT_EQ(hipMemcpy(h.data(), d, 64 * sizeof(int), hipMemcpyDeviceToHost), hipSuccess);
    for (int i = 0; i < 64; i++) EXPECT_EQ(h[i], 2016);
}

TYPED_TEST(WarpReduceTests, Typed) {
    using T = typename TestFixture::params_t::type;
    T* d;
    HIP_CHECK(hipMalloc(&d, 64 * sizeof(T)));
}
