// An assignment through `reinterpret_cast<T&>(x)` of a local variable: the front end reads
// such a view (the variable's bytes as T) but does not write it, so the assignment is refused
// at its line:column, 8:5, naming what to write instead (through a pointer to an array
// element, or a union). Writing through the view of a buffer element runs
// (cxx_reinterpret_reference.cu).
__global__ void k(float* x) {
    float f = x[threadIdx.x];
    reinterpret_cast<unsigned&>(f) ^= 0x80000000u;
    x[threadIdx.x] = f;
}
