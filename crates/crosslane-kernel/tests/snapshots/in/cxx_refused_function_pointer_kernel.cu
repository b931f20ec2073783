// Refused before the run, at line 6: the address of a `__global__` function taken in device
// code cannot be called there (CUDA C++ Programming Guide, "Function Pointers"); the message
// says to point at a `__device__` function instead.
__global__ void other(float *out) {}
__global__ void k(float *out) {
    void (*f)(float *) = other;
    f(out);
}
