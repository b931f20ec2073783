// An init kernel then a compute kernel on the memory it wrote: init fills x[i] = i and
// y[i] = 2 on fresh cudaMalloc memory (undefined before it), saxpy computes y = a * x + y with
// a = 2. The first launch (init) is traced and saxpy runs after it, so the final buffers are the
// device's after both: x[i] = i, y[i] = 2 * i + 2 (2, 4, 6, …, 128 for i = 0..63).
#include <cuda_runtime.h>

__global__ void init(float *x, float *y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    x[i] = (float)i;
    y[i] = 2.0f;
}

__global__ void saxpy(float a, const float *x, float *y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = a * x[i] + y[i];
}

int main() {
    const int n = 64;
    float *x, *y;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));
    init<<<2, 32>>>(x, y);
    saxpy<<<2, 32>>>(2.0f, x, y);
    cudaDeviceSynchronize();
    return 0;
}
