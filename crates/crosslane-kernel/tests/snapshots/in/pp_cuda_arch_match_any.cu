// The default CUDA target is sm_90: __CUDA_ARCH__ = 900 >= 700, so __match_any_sync runs, not
// the fallback. Lanes 8k..8k+7 share the value k, so each lane's mask is 0xff << 8k:
// lanes 0-7 255, 8-15 65280, 16-23 16711680, 24-31 4278190080 (as unsigned).
__global__ void k(unsigned *out) {
    int lane = threadIdx.x;
#if __CUDA_ARCH__ >= 700
    out[lane] = __match_any_sync(0xffffffff, lane / 8);
#else
    out[lane] = 7;
#endif
}
