// Unions read through a member other than the one last written ("type punning"). ISO C++17
// [class.union]/1 leaves the read undefined; GCC documents it as reading the stored bytes
// (GCC manual, -fstrict-aliasing, "type-punning ... is permitted, provided the memory is
// accessed through the union type"), Clang follows GCC, and nvcc's device compiler does it.
// The bytes are little-endian; floats are IEEE 754 (binary32; binary16 for half).
// Lane L (0..31):
//   bits[L]  = the binary32 bits of L + 0.5 through `union { float f; uint32_t u; }`
//              L = 0: 0.5 = 2^-1 → 0x3f000000 = 1056964608; L = 1: 1.5 = 1.1b·2^0 →
//              0x3fc00000 = 1069547520; L = 2: 2.5 = 1.01b·2^1 → 0x40200000 = 1075838976;
//              L = 3: 3.5 = 1.11b·2^1 → 0x40600000 = 1080033280.
//   pair[L]  = h0_h0(L): vLLM's shape, `union { uint32_t u32; uint16_t u16[2]; }` with both
//              halves set to L: L·65536 + L = 65537·L (0, 65537, 131074, 196611, …).
//   halves[L] = `union H2U { half2 h; uint32_t u; }` with u = 0x4000_3c00 + L: the low half
//              is h.x (bits 0x3c00 + L), the high h.y = 0x4000 = 2.0. h.x for L = 0 is 1.0,
//              L = 1: 0x3c01 = 1 + 2^-10 = 1.0009765625. half[L] = h.x + h.y:
//              3.0, 3.0009765625 (exact in float), …
//   mixed[L] = a union member inside a struct, `struct Tagged { int tag; union { float f;
//              int32_t i; } val; }`: val.f = -1.0f (0xbf800000), then val.i += L << 23 adds L
//              to the exponent field: -(2^L). L = 0: -1, 1: -2, 2: -4, 3: -8.
//   undef[L] = `union { uint32_t u; uint8_t b[4]; }` with only b[0] written: reading u needs
//              b[1..3], never written, so it stays undefined (null) in every lane.
#include <cstdint>
#include <cuda_fp16.h>

union H2U {
    half2 h;
    uint32_t u;
};

struct Tagged {
    int tag;
    union {
        float f;
        int32_t i;
    } val;
};

__device__ uint32_t h0_h0(uint16_t a) {
    union {
        uint32_t u32;
        uint16_t u16[2];
    } tmp;
    tmp.u16[0] = a;
    tmp.u16[1] = a;
    return tmp.u32;
}

__global__ void k(unsigned* bits, unsigned* pair, float* halves, float* mixed, unsigned* undef) {
    int L = threadIdx.x;
    union {
        float f;
        uint32_t u;
    } v;
    v.f = L + 0.5f;
    bits[L] = v.u;
    pair[L] = h0_h0(L);
    H2U x;
    x.u = 0x40003c00u + L;
    halves[L] = __half2float(x.h.x) + __half2float(x.h.y);
    Tagged t;
    t.tag = 1;
    t.val.f = -1.0f;
    t.val.i += L << 23;
    mixed[L] = t.val.f;
    union {
        uint32_t u;
        uint8_t b[4];
    } w;
    w.b[0] = 7;
    undef[L] = w.u;
}
