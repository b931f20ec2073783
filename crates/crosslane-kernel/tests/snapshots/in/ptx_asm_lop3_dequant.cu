// snapshot: threads=4
// The int4 → half dequantization shape of weight-only quantized GEMM kernels: `lop3.b32`
// with the truth table 0xEA = (a & b) | c puts a nibble into the mantissa of the half 1024
// (0x6400), `sub.f16x2` removes the 1024, `fma.rn.f16x2` applies scale 0.5 and offset -4;
// `shf.r.wrap.b32` rotates the next nibbles down, `prmt.b32` swaps the 16-bit halves and
// `bfe.u32` reads one nibble. Thread i packs q = 3i | (i+8) << 4 | i << 16 | (15-i) << 20.
// Hand-derived (python3):
//   q = 0x00f00080, 0x00e10093, 0x00d200a6, 0x00c300b9
//   lo0/hi0 (nibbles at bits 0, 16): 3i·0.5 - 4 = -4, -2.5, -1, 0.5 and i·0.5 - 4 = -4,
//     -3.5, -3, -2.5
//   lo1/hi1 (bits 4, 20): (i+8)·0.5 - 4 = 0, 0.5, 1, 1.5 and (15-i)·0.5 - 4 = 3.5, 3, 2.5, 2
//   sw = prmt(q, 0, 0x1032) = halves swapped: 0x008000f0, 0x009300e1, 0x00a600d2, 0x00b900c3
//      = 8388848, 9634017, 10879186, 12124355
//   nib = bfe.u32(q, 20, 4) = 15 - i = 15, 14, 13, 12
#include <cuda_fp16.h>
__device__ float2 dequant(unsigned q) {
    unsigned h, d;
    unsigned short l, u;
    asm("lop3.b32 %0, %1, %2, %3, 0xEA;" : "=r"(h) : "r"(q), "n"(0x000f000f), "r"(0x64006400u));
    asm("sub.f16x2 %0, %1, %2;" : "=r"(h) : "r"(h), "r"(0x64006400u));
    asm("fma.rn.f16x2 %0, %1, %2, %3;" : "=r"(d) : "r"(h), "r"(0x38003800u), "r"(0xc400c400u));
    asm("mov.b32 {%0, %1}, %2;" : "=h"(l), "=h"(u) : "r"(d));
    return make_float2(__half2float(__ushort_as_half(l)), __half2float(__ushort_as_half(u)));
}
__global__ void k(float* lo0, float* hi0, float* lo1, float* hi1, unsigned* sw, unsigned* nib) {
    unsigned i = threadIdx.x;
    unsigned q = (3 * i) | ((i + 8) << 4) | (i << 16) | ((15 - i) << 20), r, s, n;
    float2 a = dequant(q);
    asm("shf.r.wrap.b32 %0, %1, %1, 4;" : "=r"(r) : "r"(q));
    float2 b = dequant(r);
    asm("prmt.b32 %0, %1, %2, 0x1032;" : "=r"(s) : "r"(q), "r"(0));
    asm("bfe.u32 %0, %1, 20, 4;" : "=r"(n) : "r"(q));
    lo0[i] = a.x;
    hi0[i] = a.y;
    lo1[i] = b.x;
    hi1[i] = b.y;
    sw[i] = s;
    nib[i] = n;
}
