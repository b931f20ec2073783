// Butterfly sum; run with --lanes 32 for a wave32 GPU (RDNA), 64 by default.
__global__ void xorSum(int* out) {
    int v = __lane_id();
    for (int m = warpSize / 2; m > 0; m >>= 1)
        v += __shfl_xor(v, m);
    out[threadIdx.x] = v;
}
