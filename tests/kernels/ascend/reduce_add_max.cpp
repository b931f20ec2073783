// Ascend C SIMT warp reductions over the active lanes (asc_reduce_add / max / min), and a ballot.
__simt_vf__ __launch_bounds__(1024) inline void KernelWarpReduce(__gm__ int32_t* sums, __gm__ int32_t* maxima,
                                                                 __gm__ int32_t* minima, __gm__ uint32_t* odd) {
    int idx = threadIdx.x + blockIdx.x * blockDim.x;
    int32_t laneId = idx % 32;
    sums[idx] = asc_reduce_add(laneId);
    maxima[idx] = asc_reduce_max(laneId * 3 % 32);
    if (laneId >= 8) {
        minima[idx] = asc_reduce_min(laneId);
    }
    odd[idx] = asc_ballot(laneId % 2 == 1);
}
