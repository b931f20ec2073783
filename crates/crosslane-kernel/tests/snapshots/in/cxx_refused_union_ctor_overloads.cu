// Two constructors of one parameter count that differ in type would be ranked by
// [over.match.ctor]; constructors are chosen by count here, so the second is refused at its
// declaration, 8:5, rather than one being picked silently.
union U {
    float f;
    uint32_t u;
    __device__ U(float x) : f(x) {}
    __device__ U(uint32_t x) : u(x) {}
};
__global__ void k(float* o) {
    U b(0x40000000u);
    o[threadIdx.x] = b.f;
}
