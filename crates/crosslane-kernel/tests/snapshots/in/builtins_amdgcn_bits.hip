// snapshot: lanes=32 threads=4 arch=gfx1100
// clang's AMDGPU bit built-ins, by the AMD ISA pseudocode (RDNA3 / CDNA3 ISA: V_BFE_U32,
// V_BFE_I32, V_PERM_B32) and the clock reads (S_MEMTIME, S_MEMREALTIME). t = 0..3.
// - __builtin_amdgcn_ubfe(0xABCD1234, 8 * t, 12): offset 0: 0x234 = 564; 8: 0xD12 = 3346;
//   16: 0xBCD = 3021; 24: 0xAB (only 8 bits left above bit 24, the shift brings zeros) = 171.
//   u = 564 3346 3021 171.
// - __builtin_amdgcn_sbfe of the same fields, sign-extended from bit 11: 0x234 = 564;
//   0xD12 - 0x1000 = -750; 0xBCD - 0x1000 = -1075; at 24 the arithmetic shift gives
//   0xFFFFFFAB, its 12 bits 0xFAB - 0x1000 = -85. s = 564 -750 -1075 -85.
// - __builtin_amdgcn_perm(0x8899AABB, 0x11223344, sel) with input bytes 0-3 = 44 33 22 11
//   (second argument) and 4-7 = BB AA 99 88 (first): sel[t] = 0x0C0C0400 -> 0x0000BB44
//   (47940); 0x0D0B0807 -> bytes 0x88, sign of byte 1 (0x33) 0x00, sign of byte 7 (0x88) 0xFF,
//   0xFF = 0xFFFF0088 (4294901896); 0x0CFF0A09 -> sign of byte 3 (0x11) 0x00, sign of byte 5
//   (0xAA) 0xFF, 0xFF, 0x00 = 0x00FFFF00 (16776960); 0x03020100 -> 0x11223344 (287454020).
// - s_memtime: the run's work counter, the same in every lane of one read, so the difference
//   of two reads in lane 0 and lane 3 agree (d = equal, 1 in every lane); s_memrealtime has
//   no time base here: undefined with that reason (r).
__global__ void k(unsigned *u, int *s, unsigned *p, int *d, unsigned long long *r) {
    unsigned t = threadIdx.x;
    const unsigned sel[4] = {0x0C0C0400u, 0x0D0B0807u, 0x0CFF0A09u, 0x03020100u};
    u[t] = __builtin_amdgcn_ubfe(0xABCD1234u, 8u * t, 12u);
    s[t] = __builtin_amdgcn_sbfe(0xABCD1234, 8u * t, 12u);
    p[t] = __builtin_amdgcn_perm(0x8899AABBu, 0x11223344u, sel[t]);
    unsigned long long c0 = __builtin_amdgcn_s_memtime();
    unsigned long long c1 = __builtin_amdgcn_s_memtime();
    unsigned long long diff = c1 - c0;
    d[t] = __shfl(diff, 0) == __shfl(diff, 3) && c1 > c0;
    r[t] = __builtin_amdgcn_s_memrealtime();
}
