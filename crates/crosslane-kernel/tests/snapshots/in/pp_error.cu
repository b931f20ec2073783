// #error in a kept group stops the run with its text at its line ([cpp.error]); the one in
// the skipped group does not. Expected: error at 8:1 "#error needs a Volta or newer GPU".
#if __CUDA_ARCH__ < 700
#error this one is skipped
#endif
__global__ void k(int *out) { out[threadIdx.x] = 1; }
#ifdef __CUDACC__
#error needs a Volta or newer GPU
#endif
