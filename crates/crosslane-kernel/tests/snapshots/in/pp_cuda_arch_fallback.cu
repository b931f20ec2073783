// snapshot: arch=sm_60
// For sm_60 __CUDA_ARCH__ is 600 < 700: the pre-Volta fallback runs. Expected: out = 7 in all
// 32 cells, and the record says the #if skipped line 7.
__global__ void k(unsigned *out) {
    int lane = threadIdx.x;
#if __CUDA_ARCH__ >= 700
    out[lane] = __match_any_sync(0xffffffff, lane / 8);
#else
    out[lane] = 7;
#endif
}
