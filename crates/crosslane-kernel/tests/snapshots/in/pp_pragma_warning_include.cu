// #warning is a diagnostic and the run goes on; #pragma unroll is noted; an #include of a
// system header is noted; __has_include is false (headers are not read).
// Expected: out[lane] = 3 * 1 = 3 (the loop adds 1 three times; HAVE_FP16 is 0).
#include <cuda_runtime.h>
#if __has_include(<cuda_fp16.h>)
#define HAVE_FP16 1
#else
#define HAVE_FP16 0
#endif
#warning this kernel is a test
__global__ void k(int *out) {
    int s = HAVE_FP16 * 100;
#pragma unroll
    for (int i = 0; i < 3; i++) s += 1;
    out[threadIdx.x] = s;
}
