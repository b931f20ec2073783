// ds_bpermute: each lane reads the lane after it (addresses are lane * 4 bytes).
__global__ void rotate(const int* in, int* out) {
    int lane = __lane_id();
    int src = (lane + 1) % 64;
    out[threadIdx.x] = __builtin_amdgcn_ds_bpermute(src << 2, in[threadIdx.x]);
}
