__simt_vf__ __launch_bounds__(1024) inline void KernelShflDownReduceSum(__gm__ int32_t* dst) {
    int idx = threadIdx.x + blockIdx.x * blockDim.x;
    int32_t laneId = idx % 32;
    int32_t value = laneId;
    value += asc_shfl_down(value, 16, 32);
    value += asc_shfl_down(value, 8, 32);
    value += asc_shfl_down(value, 4, 32);
    value += asc_shfl_down(value, 2, 32);
    value += asc_shfl_down(value, 1, 32);
    dst[idx] = value;
    // 归约求和结果位于每个Warp内laneId为0的线程
}
