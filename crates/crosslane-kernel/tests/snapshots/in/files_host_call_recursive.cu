// A host function that calls itself: host calls are read again at most 4 deep (f(5), f(4), f(3),
// f(2): four launches found; f(1) is not read) and at most 64 in all, so the reading ends. The
// first launch read, add_n(d, 5), is traced; the three after it run when it finishes. On d (main's
// d_buf: 32 zeros by std::fill_n) each launch adds n + (t ^ 1), so after n = 5, 4, 3, 2:
// d[t] = 14 + 4 * (t ^ 1): 18, 14, 26, 22, …, 138, 134 (the device also runs f(1) and f(0)).
#include <algorithm>
#include <cuda_runtime.h>

__global__ void add_n(int *d, int n) {
    int t = threadIdx.x;
    d[t] = d[t] + n + __shfl_xor_sync(0xffffffff, t, 1);
}

void f(int *d, int n) {
    add_n<<<1, 32>>>(d, n);
    if (n > 0) f(d, n - 1);
}

int main() {
    int h[32];
    std::fill_n(h, 32, 0);
    int *d_buf;
    cudaMalloc(&d_buf, 32 * sizeof(int));
    cudaMemcpy(d_buf, h, 32 * sizeof(int), cudaMemcpyHostToDevice);
    f(d_buf, 5);
    return 0;
}
