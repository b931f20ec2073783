__simt_vf__ __launch_bounds__(1024) inline void KernelShflDown(__gm__ int32_t* dst) {
    // asc_vf_call参数：dim3{1024, 1, 1}
    int idx = threadIdx.x + blockIdx.x * blockDim.x;
    int32_t laneId = idx % 32;
    // 0-15线程返回值分别为{2,3,4,5,6,7,8,9,10,11,12,13,14,15,14,15}
    // 16-31线程返回值为{18,19,20,21,22,23,24,25,26,27,28,29,30,31,30,31}
    int32_t result = asc_shfl_down(laneId, 2, 16);
    dst[idx] = result;
}
