// Refused before the run with what to write instead: a function pointer parameter. The
// message names a template on the callable with a lambda or a functor.
__device__ float mymax(float a, float b) { return a > b ? a : b; }
__device__ float apply(float (*f)(float, float), float a, float b) { return f(a, b); }
__global__ void k(float *out) {
    out[threadIdx.x] = apply(mymax, (float)threadIdx.x, 7.0f);
}
