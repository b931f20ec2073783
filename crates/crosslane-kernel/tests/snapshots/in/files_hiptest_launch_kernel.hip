// snapshot: lanes=64
// A hip-tests style test: Catch2 TEST_CASE with SECTIONs, hip-tests' HipTest::launchKernel (it
// takes hipLaunchKernelGGL's arguments: kernel, grid, block, shared bytes, stream, kernel
// arguments) with integer grid and block, HIP_CHECK around the runtime, REQUIRE checks.
// The launch: 1 block of 64 lanes (one wave64), `out` of 64 ints (hipMalloc of 64 * 4 bytes).
// __ballot(t % 3 == 0) sets the bits of lanes 0, 3, …, 63: 63 / 3 + 1 = 22 lanes, so every
// lane's __popcll is 22; lanes with t % 3 == 0 add 100: out[t] = 122 when 3 divides t, else 22.
#include <hip_test_common.hh>

__global__ void ballot_count(int* out) {
    const int t = threadIdx.x;
    const unsigned long long b = __ballot(t % 3 == 0);
    out[t] = __popcll(b) + (t % 3 == 0 ? 100 : 0);
}

TEST_CASE("Unit_ballot_count_Positive") {
    int* d_out = nullptr;
    const int num_threads = 64;
    HIP_CHECK(hipMalloc(&d_out, num_threads * sizeof(int)));
    SECTION("one wave") {
        HipTest::launchKernel(ballot_count, 1, num_threads, 0, nullptr, d_out);
        HIP_CHECK(hipDeviceSynchronize());
    }
    int h[num_threads];
    HIP_CHECK(hipMemcpy(h, d_out, sizeof(h), hipMemcpyDeviceToHost));
    for (int t = 0; t < num_threads; ++t) REQUIRE(h[t] == (t % 3 == 0 ? 122 : 22));
    HIP_CHECK(hipFree(d_out));
}
