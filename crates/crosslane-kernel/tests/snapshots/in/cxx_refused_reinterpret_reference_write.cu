// An assignment through `reinterpret_cast<T&>(x)` of a local variable of another size than T
// (2 of the float's 4 bytes): the front end reads such a view but writes only one of exactly
// sizeof(T) bytes, so the assignment is refused at its line:column, 9:5, naming what to write
// instead (through a pointer to an array element, or a union). Writing through the view of a
// buffer element runs (cxx_reinterpret_reference.cu), and so does a same-size view of a
// variable (suite kernel_port_gaps).
__global__ void k(float* x) {
    float f = x[threadIdx.x];
    reinterpret_cast<unsigned short&>(f) = 1;
    x[threadIdx.x] = f;
}
