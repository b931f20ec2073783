// A launch in a host loop of constant trip count whose launches depend on each other through
// the buffer: scale_rotate<<<1, 32>>>(d, 2) ten times, each pass reading what the last wrote.
// The loop is read once per iteration (ten launches); the first is traced and the nine after it
// run when it finishes, as the device runs them. One pass: d[t] = 2 * d[(t + 1) % 32]; after p
// passes over d[i] = i, d[t] = 2^p * ((t + p) % 32), so after ten d[t] = 1024 * ((t + 10) % 32):
// 10240, 11264, …, 31744 for t = 0..21, then 0, 1024, …, 9216 for t = 22..31.
#include <cuda_runtime.h>

__global__ void scale_rotate(int *d, int k) {
    int v = __shfl_sync(0xffffffff, d[threadIdx.x], (threadIdx.x + 1) % 32);
    d[threadIdx.x] = v * k;
}

int main() {
    int h[32];
    for (int i = 0; i < 32; i++) h[i] = i;
    int *d;
    cudaMalloc(&d, 32 * sizeof(int));
    cudaMemcpy(d, h, 32 * sizeof(int), cudaMemcpyHostToDevice);
    for (int pass = 0; pass < 10; pass++) scale_rotate<<<1, 32>>>(d, 2);
    cudaDeviceSynchronize();
    return 0;
}
