// snapshot: define=NDEBUG
// With NDEBUG defined, <cassert> makes assert(e) ((void)0) (C17 7.2/1, C++17 [cassert.syn]):
// the condition is not evaluated and every thread writes o[i] = 2·i, i = 0..63.
// Without it, as device_assert.cu:
// Device-side assert (CUDA C++ Programming Guide, "Assertion": assert "stops the kernel
// execution if expression is equal to zero"). a = 0..63, so the condition a[i] < 40 is false
// in threads 40..63 (lanes 8-31 of warp 1): the run ends with an error naming the condition,
// block 0, thread 40 and those lanes. Warp 0 passed the assert and wrote o[i] = 2·i for
// i = 0..31; warp 1 stopped at the assert, so o[32..63] stay unwritten (undefined: cudaMalloc
// does not clear memory).
#include <cassert>
__global__ void k(const int *a, int *o) {
    int i = threadIdx.x;
    assert(a[i] < 40);
    o[i] = a[i] * 2;
}
int main() {
    int h[64];
    for (int i = 0; i < 64; i++) h[i] = i;
    int *a, *o;
    cudaMalloc(&a, 256);
    cudaMalloc(&o, 256);
    cudaMemcpy(a, h, 256, cudaMemcpyHostToDevice);
    k<<<1, 64>>>(a, o);
}
