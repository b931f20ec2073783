// snapshot: threads=4
// Unions with constructors and member functions ([class.union]/2: a union may have them; a
// constructor's initializer names the member it makes active). Reading the other member
// reads the bytes (GCC's type-punning rule, which nvcc and clang follow; see reinterpret.rs).
// By hand (t = threadIdx.x, 0..3; IEEE 754 binary32):
//   a[t] = F2U(t + 0.5f).bits(): 0.5 = 0x3f000000 = 1056964608, 1.5 = 0x3fc00000 =
//          1069547520, 2.5 = 0x40200000 = 1075838976, 3.5 = 0x40600000 = 1080033280.
//   b[t] = Bits(0x4000, t).f: the word 0x40000000 + t read as a float, 2 + t * 2^-22:
//          2.0, 2.000000238418579, 2.000000476837158, 2.0000007152557373.
//   c[t] = F2U copy-initialized from 1.0f, then its `u` member read: 0x3f800000 = 1065353216.
union F2U {
    float f;
    uint32_t u;
    __device__ F2U(float x) : f(x) {}
    __device__ uint32_t bits() const { return u; }
};
union Bits {
    uint32_t u;
    float f;
    __device__ Bits(uint32_t hi, uint32_t lo) : u((hi << 16) | lo) {}
};
__global__ void k(unsigned* a, float* b, unsigned* c) {
    unsigned t = threadIdx.x;
    a[t] = F2U(t + 0.5f).bits();
    Bits w(0x4000u, t);
    b[t] = w.f;
    F2U one = F2U(1.0f);
    c[t] = one.u;
}
