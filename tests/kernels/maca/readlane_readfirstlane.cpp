// MACA (seed 002 section 3.8): readlane reads one lane's value; readfirstlane the first active lane's.
__global__ void scalarReads(int* lane5, int* first, const int* in) {
    int tid = threadIdx.x;
    int v = in[tid];
    lane5[tid] = __builtin_mxc_readlane(v, 5);
    if (tid >= 16) {
        first[tid] = __builtin_mxc_readfirstlane(v);
    }
}
