// Runs: device function pointers chosen at run time (CUDA C++ Programming Guide, "Function
// Pointers": a `__device__` function's address is taken and called in device code).
// `apply(mymax, x, 7)` gives max(x, 7): 7 in lanes 0-7, x from lane 7 on. `pick` is `mymin` in
// odd lanes and `mymax` in even ones (the warp diverges by target), so `pick(x, 7)` adds
// min(x, 7) in odd lanes and max(x, 7) in even ones: lane 0: 7 + 7 = 14; lane 1: 7 + 1 = 8;
// lane 2: 7 + 7 = 14; lane 9: 9 + 7 = 16; lane 10: 10 + 10 = 20; lane 31: 31 + 7 = 38.
__device__ float mymax(float a, float b) { return a > b ? a : b; }
__device__ float mymin(float a, float b) { return a < b ? a : b; }
__device__ float apply(float (*f)(float, float), float a, float b) { return f(a, b); }
__global__ void k(float *out) {
    float x = (float)threadIdx.x;
    float (*pick)(float, float) = (threadIdx.x & 1) ? mymin : mymax;
    out[threadIdx.x] = apply(mymax, x, 7.0f) + pick(x, 7.0f);
}
