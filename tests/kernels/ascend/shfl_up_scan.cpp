// Ascend C SIMT: inclusive scan with asc_shfl_up; lanes below the delta keep their value.
__simt_vf__ inline void UpScan(__gm__ int32_t* dst) {
    int32_t laneId = threadIdx.x % 32;
    int32_t value = 1;
    for (int32_t delta = 1; delta < 32; delta <<= 1) {
        int32_t other = asc_shfl_up(value, delta, 32);
        if (laneId >= delta) {
            value += other;
        }
    }
    dst[threadIdx.x] = value;
}
