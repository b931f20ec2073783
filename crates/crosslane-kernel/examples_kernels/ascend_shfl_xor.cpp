__simt_vf__ __launch_bounds__(1024) inline void KernelShflXor(__gm__ int32_t* dst)
{
    // asc_vf_call parameter: dim3{1024, 1, 1}
    int idx = threadIdx.x + blockIdx.x * blockDim.x;
    int32_t laneId = idx % 32;
    // The return values of threads 0 to 15 are {1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14}.
    // The return values of threads 16 to 31 are {17,16,19,18,21,20,23,22,25,24,27,26,29,28,31,30}.
     int32_t result = asc_shfl_xor(laneId, 1, 16);
     dst[idx] = result;
}
