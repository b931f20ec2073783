// Ascend C SIMT: butterfly all-reduce with asc_shfl_xor; every lane ends with the warp sum.
__simt_vf__ __launch_bounds__(1024) inline void XorAllReduce(__gm__ int32_t* dst, __gm__ int32_t* src) {
    int idx = threadIdx.x + blockIdx.x * blockDim.x;
    int32_t value = src[idx];
    for (int32_t mask = 16; mask > 0; mask >>= 1) {
        value += asc_shfl_xor(value, mask, 32);
    }
    dst[idx] = value;
}
