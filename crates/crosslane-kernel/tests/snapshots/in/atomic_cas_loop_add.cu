// snapshot: threads=4
// Addition built on atomicCAS over the cell's bits, as the CUDA C++ Programming Guide,
// Atomic Functions, writes `atomicAdd` for `double` (`unsigned long long int*`,
// `__double_as_longlong`, `__longlong_as_double`), and the same for `float` over
// `unsigned int*`. Each CAS compares and stores the cell's bytes as the pointer's type.
//
// s and d have the index fill: s[0] = d[0] = 0, s[1..3] = d[1..3] = 1..3 kept.
// Lane t adds 0.5 + 0.25*t (0.5, 0.75, 1, 1.25) to s[0]: 3.5 exactly, in any order.
// Lane t adds 1 + (t + 1)*2^-40 to d[0]: 4 + 10*2^-40 = 4.000000000009095 (Python
// (4+10*2**-40).hex() is 0x1.0000000002800p+2: 43 significant bits, exact in binary64, so
// every order of the four additions gives it). 9.094947017729282e-13 is 2^-40 exactly
// (Python: float("9.094947017729282e-13") == 2**-40).
// Every lane reads the old value first, then loops: a CAS that finds another lane's sum
// fails, returns that sum, and the lane tries again with it.
__device__ double add_f64(double* address, double val) {
    unsigned long long int* address_as_ull = (unsigned long long int*)address;
    unsigned long long int old = *address_as_ull, assumed;
    do {
        assumed = old;
        old = atomicCAS(address_as_ull, assumed,
                        __double_as_longlong(val + __longlong_as_double(assumed)));
    } while (assumed != old);
    return __longlong_as_double(old);
}
__device__ float add_f32(float* address, float val) {
    unsigned int* bits = reinterpret_cast<unsigned int*>(address);
    unsigned int seen = *bits;
    unsigned int expect;
    do {
        expect = seen;
        seen = atomicCAS(bits, expect, __float_as_uint(__uint_as_float(expect) + val));
    } while (seen != expect);
    return __uint_as_float(seen);
}
__global__ void k(float* s, double* d) {
    add_f32(&s[0], 0.5f + 0.25f * threadIdx.x);
    add_f64(&d[0], 1.0 + (threadIdx.x + 1) * 9.094947017729282e-13);
}
