// snapshot: lanes=32 threads=32 arch=gfx1100
// clang's RDNA lane permutes, by the AMD RDNA3 ISA (16.12 VOP3, V_PERMLANE16_B32 and
// V_PERMLANEX16_B32: lanesel = {S2, S1}; lane i of row r in EXEC gets tmp[16r + nibble i], X16
// from the other row; OPSEL[0] = DPP FI, OPSEL[1] = DPP BOUND_CTRL). t = 0..31, src = 10 * t.
// - r: the ISA's rotation example (s0 = 0x87654321, s1 = 0x0fedcba9): lane i reads
//   16 * (i / 16) + (i + 1) % 16, so r = 10, 20, …, 150, 0 in row 0 and 170, …, 310, 160 in row 1.
// - x: permlanex16 with the identity selects 0x76543210 / 0xfedcba98 reads lane i ^ 16:
//   x = 160 … 310, 0 … 150.
// - The reduction a warp-sum writes with them (xor 16 by permlanex16, then xor 8, 4, 2, 1 by
//   permlane16 with the selects of lane i ^ k): every lane ends with 10 * (0 + … + 31) = 4960.
// - h: lanes 0..15 only (t < 16): permlanex16 of the same selects reads lanes 16..31, which
//   are inactive; fi = 0, bound_ctrl = 0 keeps old = 7 (row 0 gets 7); lanes 16..31 store
//   nothing (h keeps its fill, the index: 16 … 31).
__global__ void k(unsigned *r, unsigned *x, unsigned *s, unsigned *h) {
    unsigned t = threadIdx.x;
    unsigned v = 10u * t;
    r[t] = __builtin_amdgcn_permlane16(0u, v, 0x87654321u, 0x0fedcba9u, false, false);
    x[t] = __builtin_amdgcn_permlanex16(0u, v, 0x76543210u, 0xfedcba98u, false, false);
    unsigned sum = v;
    sum += __builtin_amdgcn_permlanex16(sum, sum, 0x76543210u, 0xfedcba98u, false, false);
    sum += __builtin_amdgcn_permlane16(sum, sum, 0xfedcba98u, 0x76543210u, false, false);
    sum += __builtin_amdgcn_permlane16(sum, sum, 0x32107654u, 0xba98fedcu, false, false);
    sum += __builtin_amdgcn_permlane16(sum, sum, 0x54761032u, 0xdcfe98bau, false, false);
    sum += __builtin_amdgcn_permlane16(sum, sum, 0x67452301u, 0xefcdab89u, false, false);
    s[t] = sum;
    if (t < 16)
        h[t] = __builtin_amdgcn_permlanex16(7u, v, 0x76543210u, 0xfedcba98u, false, false);
}
