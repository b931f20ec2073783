// Pointer <-> integer casts keep the pointer: (unsigned long long)in + 4 * lane cast back to
// float* is &in[lane]; reinterpret_cast<uintptr_t>(in + lane) cast back is &in[lane] too.
// in[lane] = lane (the default fill), so *back + *back2 = 2 * lane.
// Alignment: a buffer starts 256-byte aligned (cudaMalloc's guarantee, CUDA C++ Programming
// Guide, Device Memory Accesses), so ((uintptr_t)in & 15) == 0 is 1, and element lane
// (4 bytes each) is 16-byte aligned exactly when lane % 4 == 0.
// out[lane] = 200 * lane + 10 + (lane % 4 == 0): 11, 210, 410, 610, 811, ...
#include <cstdint>
__global__ void k(float *in, int *out) {
    int i = threadIdx.x;
    unsigned long long addr = (unsigned long long)in;
    uintptr_t p2 = reinterpret_cast<uintptr_t>(in + i);
    float *back = reinterpret_cast<float *>(addr + 4 * i);
    float *back2 = (float *)p2;
    int aligned = ((uintptr_t)in & 15) == 0;
    int aligned2 = ((uintptr_t)(in + i) & 15) == 0;
    out[i] = (int)(*back + *back2) * 100 + aligned * 10 + aligned2;
}
