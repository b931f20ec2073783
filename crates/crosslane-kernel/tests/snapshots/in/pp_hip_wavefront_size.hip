// snapshot: lanes=32 arch=gfx1100
// On wave32 (gfx1100) __AMDGCN_WAVEFRONT_SIZE is 32 and __gfx1100__ / __GFX11__ are defined.
// Expected: out[lane] = 32 + 1100 + 11 = 1143 in each of the 32 cells.
__global__ void k(int *out) {
    int lane = threadIdx.x;
    int v = __AMDGCN_WAVEFRONT_SIZE;
#if defined(__gfx1100__) && defined(__GFX11__) && !defined(__GFX9__)
    v += 1100 + 11;
#endif
    out[lane] = v;
}
