// An Ascend C SIMD-SIMT mixed program in the asc-devkit shape: host code launches the
// `__global__ __vector__` kernel with `<<<blockDim, l2ctrl, stream>>>`, and that kernel starts the
// SIMT function with `asc_vf_call<…>(dim3(…), args…)`. Each warp scales its inputs and sums them
// with a butterfly of asc_shfl_xor; lane 0 of each warp writes the warp's sum.
#include "kernel_operator.h"

constexpr uint32_t THREADS = 64;

__simt_vf__ __launch_bounds__(THREADS) inline void WarpScaledSum(__gm__ int32_t* out, __gm__ const int32_t* in,
                                                                 int32_t scale) {
    uint32_t idx = blockIdx.x * blockDim.x + threadIdx.x;
    int32_t v = in[idx] * scale;
    for (int32_t mask = 16; mask > 0; mask >>= 1) {
        v += asc_shfl_xor(v, mask);
    }
    if (threadIdx.x % 32 == 0) {
        out[idx / 32] = v;
    }
}

__global__ __vector__ void scaled_sum(__gm__ uint8_t* out, __gm__ uint8_t* in, int32_t scale) {
    asc_vf_call<WarpScaledSum>(dim3(THREADS), (__gm__ int32_t*)out, (__gm__ const int32_t*)in, scale);
}

int main() {
    constexpr uint32_t blockDim = 2;
    constexpr int32_t n = 128;
    int32_t host_in[n];
    for (int32_t i = 0; i < n; i++) host_in[i] = i % 10;
    aclrtStream stream = nullptr;
    uint8_t *d_in, *d_out;
    aclrtMalloc((void**)&d_in, n * sizeof(int32_t), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&d_out, 4 * sizeof(int32_t), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(d_in, n * sizeof(int32_t), host_in, n * sizeof(int32_t), ACL_MEMCPY_HOST_TO_DEVICE);
    scaled_sum<<<blockDim, nullptr, stream>>>(d_out, d_in, 3);
    aclrtSynchronizeStream(stream);
    return 0;
}
