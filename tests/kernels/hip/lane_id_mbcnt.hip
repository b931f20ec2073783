// The lane id three ways: __lane_id(), mbcnt_lo/hi over a full mask, threadIdx.x % warpSize.
__global__ void laneIds(int* a, int* b, int* c) {
    a[threadIdx.x] = __lane_id();
    b[threadIdx.x] = __builtin_amdgcn_mbcnt_hi(0xffffffffu, __builtin_amdgcn_mbcnt_lo(0xffffffffu, 0u));
    c[threadIdx.x] = threadIdx.x % warpSize;
}
