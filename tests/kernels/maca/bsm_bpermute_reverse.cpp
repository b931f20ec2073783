// MACA (seed 002 section 3.4.3): bsm_bpermute with byte addresses (63 - lane) * 4 reverses the wave.
__global__ void reverseWave(int* out, const int* in) {
    int lane = threadIdx.x % 64;
    out[threadIdx.x] = __builtin_mxc_bsm_bpermute((63 - lane) * 4, in[threadIdx.x]);
}
