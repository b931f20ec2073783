// A sample-style file whose launch lives in a host function template, called from main through
// a switch on a type flag: runTest<float>(1024) is the first case read. Bound at the call:
// n = 1024, T = float, so the launch is block_sum<float><<<1024 / 256, 256, 256 * sizeof(float)>>>
// = grid 4, block 256, 1024 bytes of dynamic shared memory (256 floats); `in` holds
// cudaMalloc(n * sizeof(T)) / 4 = 1024 cells filled by the host loop with i % 7, `out`
// (n / 256) * sizeof(T) / 4 = 4 cells.
// Each block sums its 256 inputs: block b covers i = 256b .. 256b + 255. Counting by hand:
// 256 = 36 * 7 + 4, so a run of 256 consecutive i holds 36 full cycles (36 * 21 = 756) plus
// the residues of its first 4 values. Block 0 starts at residue 0: 756 + 0+1+2+3 = 762.
// Block 1 starts at 256 % 7 = 4: 756 + 4+5+6+0 = 771. Block 2 at 512 % 7 = 1: 756 + 1+2+3+4
// = 766. Block 3 at 768 % 7 = 5: 756 + 5+6+0+1 = 768.
#include <cstdio>
#include <cuda_runtime.h>

template <class T> __global__ void block_sum(const T *in, T *out) {
    extern __shared__ float smem[];
    T v = in[blockIdx.x * blockDim.x + threadIdx.x];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
    if (threadIdx.x % 32 == 0) smem[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
        T s = 0;
        for (int w = 0; w < blockDim.x / 32; w++) s += smem[w];
        out[blockIdx.x] = s;
    }
}

template <class T> void runTest(int n) {
    T *h = (T *)malloc(n * sizeof(T));
    for (int i = 0; i < n; i++) h[i] = i % 7;
    T *d_in, *d_out;
    cudaMalloc(&d_in, n * sizeof(T));
    cudaMalloc(&d_out, (n / 256) * sizeof(T));
    cudaMemcpy(d_in, h, n * sizeof(T), cudaMemcpyHostToDevice);
    block_sum<T><<<n / 256, 256, 256 * sizeof(T)>>>(d_in, d_out);
    cudaDeviceSynchronize();
    free(h);
}

int main(int argc, char **argv) {
    int type = argc > 1 ? atoi(argv[1]) : 0;
    switch (type) {
    case 0:
        runTest<float>(1024);
        break;
    default:
        runTest<int>(1024);
        break;
    }
    return 0;
}
