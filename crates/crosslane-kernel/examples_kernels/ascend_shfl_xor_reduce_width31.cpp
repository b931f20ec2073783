// asc_shfl_xor implements reducesum.
__simt_vf__ __launch_bounds__(1024) inline void KernelShflXorReduceSum(__gm__ int32_t* dst)
{
    int idx = threadIdx.x + blockIdx.x * blockDim.x;
    int32_t laneId = idx % 32;
    int32_t value = laneId;

    value += asc_shfl_xor(value, 1, 31);  // 1
    value += asc_shfl_xor(value, 2, 31);  // 2
    value += asc_shfl_xor(value, 4, 31);  // 4
    value += asc_shfl_xor(value, 8, 31);  // 8
    value += asc_shfl_xor(value, 16, 31); // 16

    dst[idx] = value;
}