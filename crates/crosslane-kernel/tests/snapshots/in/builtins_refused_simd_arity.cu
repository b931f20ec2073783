// The SIMD intrinsics take a fixed number of arguments (CUDA Math API, "SIMD Intrinsics":
// `unsigned int __vadd4(unsigned int a, unsigned int b)`): a call with one is refused before the
// run, at the call, with the form to write (not run with every lane undefined).
__global__ void k(unsigned *o) { o[threadIdx.x] = __vadd4(threadIdx.x); }
