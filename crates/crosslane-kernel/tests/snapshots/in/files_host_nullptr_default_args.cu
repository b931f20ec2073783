// An attention-sink softmax row's shape: the host passes `nullptr` for the optional `sinks`
// array and leaves out the trailing `scale_ptr` and `stride`, which take their defaults
// (`= nullptr`, `= 1`). `sinks` and `scale_ptr` are then null pointers: no buffer, false
// in a condition, equal to 0. The host fills x with h[i] = 2 * i - 3: -3 -1 1 3.
// m = -INFINITY (no sink), so out[i] = fmaxf(-inf, x[i]) * scale with scale = 1 (no
// scale_ptr): -3 -1 1 3; flags[i] = (sinks == 0) + 2 * !scale_ptr + 4 * stride = 1 + 2 + 4 = 7.
#include <cuda_runtime.h>
#include <math.h>

__global__ void sink_row(const float *x, const float *sinks, float *out, int *flags,
                         const float *scale_ptr = nullptr, int stride = 1) {
    const int i = threadIdx.x;
    const float m = sinks ? sinks[0] : -INFINITY;
    const float scale = scale_ptr != NULL ? scale_ptr[i * stride] : 1.0f;
    out[i] = fmaxf(m, x[i]) * scale;
    flags[i] = (sinks == 0) + 2 * !scale_ptr + 4 * stride;
}

int main() {
    float h[4];
    for (int i = 0; i < 4; i++) h[i] = 2 * i - 3;
    float *x, *out;
    int *flags;
    cudaMalloc(&x, 4 * sizeof(float));
    cudaMalloc(&out, 4 * sizeof(float));
    cudaMalloc(&flags, 4 * sizeof(int));
    cudaMemcpy(x, h, 4 * sizeof(float), cudaMemcpyHostToDevice);
    sink_row<<<1, 4>>>(x, nullptr, out, flags);
    return 0;
}
