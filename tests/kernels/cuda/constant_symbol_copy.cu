// Constant-memory coefficients the CUDA way: declared without an initializer and filled by host
// code with cudaMemcpyToSymbol, then read by lane and exchanged with an xor shuffle. A second
// table nothing copies into starts zeroed (static storage).
#include <cuda_runtime.h>
#define TAPS 8

__constant__ float c_scale[TAPS];
__constant__ int c_bias[4];

__global__ void scaleByLane(const float* in, float* out) {
    int lane = threadIdx.x % 32;
    float v = in[threadIdx.x] * c_scale[lane % TAPS];
    out[threadIdx.x] = __shfl_xor_sync(0xffffffff, v, 1) + c_bias[lane % 4];
}

int main() {
    float h_scale[TAPS];
    for (int i = 0; i < TAPS; ++i) h_scale[i] = 0.5f * i;
    cudaMemcpyToSymbol(c_scale, h_scale, sizeof(h_scale));
    float *d_in, *d_out;
    cudaMalloc(&d_in, 32 * sizeof(float));
    // The input: cell i = i, copied from the host (cudaMalloc does not clear memory).
    float h_in[32];
    for (int i = 0; i < 32; i++) h_in[i] = i;
    cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice);
    cudaMalloc(&d_out, 32 * sizeof(float));
    scaleByLane<<<1, 32>>>(d_in, d_out);
    return 0;
}
