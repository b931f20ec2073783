// #warning is a diagnostic and the run goes on; #pragma unroll is noted; an #include of a
// system header is noted; __has_include of a header the CUDA Toolkit ships is true, as under
// nvcc (measured on an H200 with nvcc 13.0: out = 103), of a project header false.
// Expected: out[lane] = 1 * 100 + 3 = 103 (HAVE_FP16 is 1; the loop adds 1 three times);
// HAVE_LOCAL is 0, so nothing more is added.
#include <cuda_runtime.h>
#if __has_include(<cuda_fp16.h>)
#define HAVE_FP16 1
#else
#define HAVE_FP16 0
#endif
#if __has_include("my_project_helpers.h")
#define HAVE_LOCAL 1
#else
#define HAVE_LOCAL 0
#endif
#warning this kernel is a test
__global__ void k(int *out) {
    int s = HAVE_FP16 * 100 + HAVE_LOCAL * 1000;
#pragma unroll
    for (int i = 0; i < 3; i++) s += 1;
    out[threadIdx.x] = s;
}
