// Ascend C SIMT: asc_shfl with width 8 reads lane srcLane of each 8-lane segment.
__simt_vf__ inline void SegmentBroadcast(__gm__ int32_t* dst) {
    int32_t laneId = threadIdx.x % 32;
    int32_t value = laneId * 10;
    dst[threadIdx.x] = asc_shfl(value, 2, 8);
}
