// `extern __shared__ char buf[];` at file scope, reinterpreted by each kernel as the cells it
// needs (`float *s = (float *)buf;`, `int *s = (int *)buf;`): the launch gives 32 floats of
// dynamic shared memory (CUDA C++ Programming Guide, `__shared__`: the size of an `extern`
// array is fixed at launch; [expr.static.cast]/13 for the cast). `as_floats` runs: thread t
// stores t + 0.25, the block synchronizes, and thread t reads cell 31 - t and doubles it:
// out[t] = 2 * (31 - t + 0.25) = 62.5 - 2t. out[0] = 62.5, out[1] = 60.5, out[31] = 0.5.
#include <cuda_runtime.h>

extern __shared__ char buf[];

__global__ void as_ints(int *out) {
    int *s = (int *)buf;
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = s[0];
}

__global__ void as_floats(float *out) {
    float *s = (float *)buf;
    int t = threadIdx.x;
    s[t] = t + 0.25f;
    __syncthreads();
    out[t] = s[blockDim.x - 1 - t] * 2.0f;
}

int main() {
    float *d_out;
    cudaMalloc(&d_out, 32 * sizeof(float));
    as_floats<<<1, 32, 32 * sizeof(float)>>>(d_out);
    cudaDeviceSynchronize();
    return 0;
}
