// Warp helpers wrapped in namespaces, the way library code ships them, called with their
// qualified names; the kernel itself sits in a namespace and host code launches it qualified.
#include <cuda_runtime.h>

namespace warp {
namespace detail {
__device__ __forceinline__ int shfl_down(int v, int delta) {
    return __shfl_down_sync(0xffffffffu, v, delta);
}
}  // namespace detail

__device__ int reduce_sum(int v) {
    for (int offset = 16; offset > 0; offset /= 2) {
        v += detail::shfl_down(v, offset);
    }
    return v;
}
}  // namespace warp

namespace kernels {
__global__ void warpSums(const int* in, int* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int s = warp::reduce_sum(in[i]);
    if ((threadIdx.x & 31) == 0) out[i / 32] = s;
}
}  // namespace kernels

int main() {
    int *d_in, *d_out;
    cudaMalloc(&d_in, 64 * sizeof(int));
    // The input: cell i = i, copied from the host (cudaMalloc does not clear memory).
    int h_in[64];
    for (int i = 0; i < 64; i++) h_in[i] = i;
    cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice);
    cudaMalloc(&d_out, 2 * sizeof(int));
    kernels::warpSums<<<1, 64>>>(d_in, d_out);
    return 0;
}
