// snapshot: threads=4
// A `half` atomicAdd built on a 32-bit atomicCAS of the word holding it (the shape of the
// half atomics frameworks wrote before sm_70 had `atomicAdd(__half*, __half)`): the word's
// address is the half's with bit 1 cleared, the half is its high 16 bits when that bit was
// set, and the CAS replaces the word only if no other lane changed it. The CAS reads the two
// `half` cells of the word as one `unsigned int` (little-endian: the lower-addressed half
// is the low 16 bits) and stores the word back as both halves.
//
// h has the index fill: 0, 1, 2, 3 (half 0x0000, 0x3C00, 0x4000, 0x4200).
// Lanes 0 and 2 add 0.5 to h[0], lanes 1 and 3 to h[1]; every lane adds 1 to h[3]:
// h[0] = 0 + 0.5 + 0.5 = 1, h[1] = 1 + 1 = 2, h[3] = 3 + 4 = 7, all exact in half, so every
// order of the lanes gives them. h[2] shares h[3]'s word and keeps 2: each CAS writes back
// the low half it read.
#include <cuda_fp16.h>
__device__ void atomic_add_half(__half* address, __half val) {
    unsigned int* base = (unsigned int*)((char*)address - ((size_t)address & 2));
    unsigned int old = *base;
    unsigned int assumed;
    do {
        assumed = old;
        unsigned short hsum = ((size_t)address & 2) ? (old >> 16) : (old & 0xffff);
        __half sum = __hadd(__ushort_as_half(hsum), val);
        hsum = __half_as_ushort(sum);
        old = ((size_t)address & 2) ? (old & 0xffff) | ((unsigned int)hsum << 16)
                                    : (old & 0xffff0000) | hsum;
        old = atomicCAS(base, assumed, old);
    } while (assumed != old);
}
__global__ void k(__half* h) {
    atomic_add_half(&h[threadIdx.x % 2], __float2half(0.5f));
    atomic_add_half(&h[3], __float2half(1.0f));
}
