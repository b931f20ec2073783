// snapshot: threads=4
// A `float` buffer read through `uint4*` and `half2*`, a local `uint4` read through `half2*`
// and written through `half*`, and an `int*` view of the floats: each access covers its own
// bytes of the cells, little-endian (CUDA C++ Programming Guide, Device Memory Accesses).
//
// x has the index fill: x[i] = i, bits (Python struct.pack('<f', i)): 0 = 0x00000000,
// 1 = 0x3F800000, 2 = 0x40000000, 3 = 0x40400000.
// u = ((uint4*)x)[0] holds those four words. As half2 pairs (low half first): pair 1 is
// (0x0000, 0x3F80) = (0, 1.875) (half 0x3F80: exponent 15, fraction 0x380/1024 = 0.875).
// h[t] = __high2float(((half2*)x)[t]): the high half of x[t]: 0, 0x3F80 = 1.875,
// 0x4000 = 2, 0x4040 = 2.125.
// Lane t stores half 1.0 (0x3C00) as element 1 of its copy of u: u.x = 0x3C000000 =
// 1006632960 for every lane, u.y..u.w unchanged.
// w[t] = ((int*)x)[t]: 0, 1065353216, 1073741824, 1077936128 (the words as int).
// Then lane t stores half -2 (0xC000) as element 2t+1 of x (the high half of x[t]):
// x[t] = 0xC0000000 | low half: x[0] = 0xC0000000 = -2, x[1] = 0xC0000000 = -2 (low half 0),
// x[2] = -2, x[3] = 0xC0000000 = -2 (each low half was 0). z[0] (0 from the index fill) gets
// half 1.0 (0x3C00) in its low two bytes only: the word 0x00003C00, the subnormal
// 15360 * 2^-149 = 2.152394441202919e-41 (Python struct.unpack('<f', struct.pack('<I',
// 0x3C00))); z[1..3] keep 1..3. (A cell never written keeps its value undefined under such a
// store: cxx_vec_t_uint4_half.cu, lane 3.)
#include <cuda_fp16.h>
__global__ void k(float* x, float* h, unsigned* ux, int* w, float* z) {
    int t = threadIdx.x;
    uint4 u = reinterpret_cast<const uint4*>(x)[0];
    h[t] = __high2float(reinterpret_cast<const half2*>(x)[t]);
    half2 pair = reinterpret_cast<half2*>(&u)[1];
    if (t == 0) {
        h[0] = __low2float(pair) + __high2float(pair);
    }
    reinterpret_cast<half*>(&u)[1] = __float2half(1.0f);
    ux[t] = u.x;
    w[t] = reinterpret_cast<const int*>(x)[t];
    __syncthreads();
    reinterpret_cast<half*>(x)[2 * t + 1] = __float2half(-2.0f);
    if (t == 0) reinterpret_cast<half*>(z)[0] = __float2half(1.0f);
}
