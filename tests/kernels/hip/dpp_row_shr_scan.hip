// DPP row shifts as HIP reduction helpers write them: numeric dpp_ctrl codes
// (0x111 = row_shr:1, 0x112 = row_shr:2, 0x114 = row_shr:4, 0x118 = row_shr:8), bound_ctrl off,
// so lanes with no source inside their 16-lane row keep `old` (0 here).
__global__ void rowScan(const int* in, int* out) {
    int v = in[threadIdx.x];
    v += __builtin_amdgcn_update_dpp(0, v, 0x111, 0xf, 0xf, false);
    v += __builtin_amdgcn_update_dpp(0, v, 0x112, 0xf, 0xf, false);
    v += __builtin_amdgcn_update_dpp(0, v, 0x114, 0xf, 0xf, false);
    v += __builtin_amdgcn_update_dpp(0, v, 0x118, 0xf, 0xf, false);
    out[threadIdx.x] = v;
}
