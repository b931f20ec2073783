// snapshot: dialect=maca threads=64
// MACA's masked shuffles on its 64-lane warp (hand-derived values): a 32-bit full mask does
// not stop lanes 32..63 (MetaX's C500 guide gives this pattern as working), so the xor tree
// 16..1 sums each half, 496 in lanes 0..31 and 1520 in lanes 32..63; the 16-lane form
// `__shfl_down_sync_16` = `__shfl_down_sync(mask, v, d, 16)` leaves each group's sum in its
// first lane (120, 376, 632, 888); a vote with a 32-bit mask stays undefined in lanes 32..63
// (HIP's rule, no MetaX statement), 0xffffffff in lanes 0..31.
__global__ void k(int *half_sum, int *group_sum, unsigned long long *vote) {
    int t = threadIdx.x;
    int v = t;
    for (int m = 16; m > 0; m >>= 1) v += __shfl_xor_sync(0xffffffff, v, m);
    half_sum[t] = v;
    int g = t;
    for (int d = 8; d > 0; d >>= 1) g += __shfl_down_sync_16(0xffffffffffffffffULL, g, d);
    group_sum[t] = g;
    vote[t] = __ballot_sync(0xffffffff, 1);
}
